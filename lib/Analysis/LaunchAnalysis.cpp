//===- LaunchAnalysis.cpp - kernel launch sites and their configurations --===//
//
// For each launch we record how grid, block, dynamic shared memory and stream
// are computed, following local variables back to their origin (a literal, a
// macro, a const variable, a template parameter, or a run-time value), and
// whether the grid is derived from the block size -- (n + B - 1) / B and its
// spellings -- which is what lets the block-size transform recompute the grid
// so that the same index domain stays covered.
//
//===----------------------------------------------------------------------===//
#include "cro/Analysis/LaunchAnalysis.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>
#include <map>
#include <set>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

/// Classifies launch-configuration expressions inside one calling function.
class ConfigClassifier {
public:
  ConfigClassifier(const SourceText &Text, const FunctionDecl *Caller)
      : Text(Text), Body(Caller ? Caller->getBody() : nullptr),
        Sites(modificationSites(Caller ? Caller->getBody() : nullptr)),
        SM(Caller ? &Caller->getASTContext().getSourceManager() : nullptr) {
    if (Caller && Caller->getBody())
      findRoundUps(Caller->getBody());
  }

  /// A scalar value; Resolved receives the expression it comes from after
  /// following unmodified local variables.
  ValueOrigin scalar(const Expr *E, const Expr **Resolved = nullptr);
  /// A grid or block argument (dim3 or something convertible to it);
  /// ResolvedDims receives one resolved expression per dimension.
  LaunchDim3 dim3(const Expr *E, std::vector<const Expr *> *ResolvedDims);
  /// dim3's work; HelperCall receives the shape helper it followed into.
  LaunchDim3 dim3Through(const Expr *E, std::vector<const Expr *> *ResolvedDims,
                         const CallExpr *&HelperCall);
  /// Matches the derived-grid spellings in G against the block.
  /// Matches the derived-grid spellings in G (grid dimension Dim) against
  /// the block.
  /// Through: the shape helper G was returned from, whose parameters G
  /// reads (dimensionHelpers()'s answer for G).
  std::optional<ValueOrigin::Derivation>
  derivation(const Expr *G, unsigned Dim, const LaunchDim3 &Block,
             ArrayRef<const Expr *> BlockExprs, const CallExpr *Through);
  /// Per dimension of the last dim3(): the helper call it came through.
  const std::vector<const CallExpr *> &dimensionHelpers() const {
    return DimHelpers;
  }
  /// What a kernel argument is: a plain variable passed as is, or else.
  LaunchSite::Argument argument(const Expr *E) const {
    LaunchSite::Argument A;
    A.Text = Text.text(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(stripCasts(E)))
      if (isa<VarDecl>(DRE->getDecl()))
        A.BaseVariable = DRE->getDecl()->getNameAsString();
    const Expr *I = E->IgnoreParens();
    while (const auto *CE = dyn_cast<CastExpr>(I)) {
      if (!CE->getType()->isIntegerType() ||
          !CE->getSubExpr()->getType()->isIntegerType())
        break;
      I = CE->getSubExpr()->IgnoreParens();
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(I))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
          V && V->getType()->isIntegerType())
        A.IntegerVariable = V->getNameAsString();
    // The variable the pointer points into: through `p + k`, `&p[k]`, casts
    // and unmodified local pointers initialized so.
    const Expr *X = E;
    for (unsigned Step = 0; X && Step < 8; ++Step) {
      X = stripCasts(X->IgnoreParenImpCasts());
      if (const auto *BO = dyn_cast<BinaryOperator>(X);
          BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
        X = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                      : BO->getRHS();
        continue;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(X);
          UO && UO->getOpcode() == UO_AddrOf)
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(
                UO->getSubExpr()->IgnoreParenImpCasts())) {
          X = AS->getBase();
          continue;
        }
      const auto *DRE = dyn_cast<DeclRefExpr>(X);
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD)
        break;
      if (VD->getType()->isPointerType() && followable(VD)) {
        X = VD->getInit();
        continue;
      }
      A.Root = VD->getNameAsString();
      if (const auto *P = dyn_cast<ParmVarDecl>(VD))
        A.CallerParam = P->getFunctionScopeIndex();
      break;
    }
    return A;
  }

private:
  ValueOrigin classify(const Expr *E, const Expr **Resolved);
  bool isRemainderIndicator(const Expr *X, const Expr *N, const Expr *B) const;
  /// True when E is N % B (compared by spelling, through bound parameters).
  bool isRemainderOf(const Expr *E, const Expr *N, const Expr *B) const {
    const auto *R = dyn_cast<BinaryOperator>(stripCasts(E));
    return R && R->getOpcode() == BO_Rem && spell(R->getLHS()) == spell(N) &&
           spell(R->getRHS()) == spell(B);
  }
  void blockMultiple(const Expr *Divisor, unsigned Dim, const LaunchDim3 &Block,
                     ValueOrigin::Derivation &D);
  void blockFraction(unsigned Dim, ArrayRef<const Expr *> BlockExprs,
                     ValueOrigin::Derivation &D);
  /// A local whose value is its initializer wherever it is read: never
  /// modified, or modified only by the statement that rounds its floor
  /// division up (then the grid derivation sees the ceil).
  bool followable(const VarDecl *VD) const {
    return VD->hasLocalStorage() && VD->getInit() &&
           (!Sites.count(VD) || RoundUps.count(VD)) && !isa<ParmVarDecl>(VD);
  }
  void findRoundUps(const Stmt *S);
  /// Where the launching function reads VD other than in a launch's
  /// configuration or in the initializer of one of Chain (the locals a
  /// launch value was followed through before VD); "" when nowhere.
  std::string readElsewhere(const VarDecl *VD,
                            const std::vector<const VarDecl *> &Chain) const;
  /// E with casts stripped and, inside a launch-shape helper, a parameter
  /// replaced by the argument the call passes for it.
  const Expr *bound(const Expr *E) const {
    E = stripCasts(E);
    for (unsigned Step = 0; Step < 8; ++Step) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      auto It = P ? Bindings.find(P) : Bindings.end();
      if (It == Bindings.end())
        return E;
      E = stripCasts(It->second);
    }
    return E;
  }
  /// How E reads at the launch (through bound parameters), normalized.
  std::string spell(const Expr *E) const {
    return normalizeSpelling(Text.text(bound(E)));
  }
  const Expr *inlineShapeHelper(const CallExpr *Call);
  void bindArguments(const CallExpr *Call);
  bool readsOnlyParameters(const Stmt *E, const FunctionDecl *Def) const;
  bool isRoundUp(const IfStmt *If, const VarDecl *VD) const;
  std::string matchBlockDim(const std::string &Term,
                            std::optional<int64_t> TermValue, unsigned Dim,
                            const LaunchDim3 &Block,
                            const std::string &TermSymbol);

  /// True when VD may change after an expression that starts at Loc was
  /// evaluated: it is modified somewhere not before Loc in the function.
  /// A modification before Loc runs before that evaluation, or (in a loop)
  /// before the evaluation of the same iteration -- a launch is reached
  /// only through its arguments' declarations.
  bool modifiedAfter(const VarDecl *VD, SourceLocation Loc) const {
    auto It = Sites.find(VD);
    if (It == Sites.end())
      return false;
    if (!SM)
      return true;
    for (SourceLocation S : It->second)
      if (S.isInvalid() ||
          !SM->isBeforeInTranslationUnit(SM->getExpansionLoc(S),
                                         SM->getExpansionLoc(Loc)))
        return true;
    return false;
  }

  const SourceText &Text;
  const Stmt *Body; ///< the launching function's body
  /// Where the calling function modifies each of its variables (a variable
  /// without an entry is never modified after its declaration).
  DenseMap<const VarDecl *, SmallVector<SourceLocation, 2>> Sites;
  /// Locals `int g = n / B;` whose only modification is the statement right
  /// after their declaration, `if (n % B != 0) g++;`: g is ceil(n / B).
  DenseMap<const VarDecl *, const IfStmt *> RoundUps;
  /// Parameters of the launch-shape helpers a configuration was followed
  /// into (`dim3 grid_for(int n, int b) { return dim3((n + b - 1) / b); }`),
  /// bound to the arguments of the call.
  DenseMap<const ParmVarDecl *, const Expr *> Bindings;
  /// The helper call classify() last followed into, for scalar().
  const CallExpr *FollowedHelper = nullptr;
  /// The helper call the last scalar() went through (else null).
  const CallExpr *ScalarHelper = nullptr;
  /// Per dimension of the last dim3(): the helper call its value comes
  /// through (else null).
  std::vector<const CallExpr *> DimHelpers;
  const SourceManager *SM;
};

namespace {
/// The math functions known by name where launch values are judged: pure,
/// and (ceil) part of the grid spellings a derivation recognizes.
bool isKnownMathFunction(StringRef N) {
  return N == "ceil" || N == "ceilf" || N == "floor" || N == "floorf" ||
         N == "min" || N == "max" || N == "fmin" || N == "fmax";
}

/// True when evaluating E again later gives the same value: it reads no
/// variable ModifiedLater names, no memory, and calls only pure math
/// functions and constexpr functions.
bool stableExpr(const Stmt *S,
                function_ref<bool(const VarDecl *)> ModifiedLater) {
  if (!S)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (ModifiedLater(VD) ||
          (!VD->hasLocalStorage() && !VD->getType().isConstQualified()))
        return false;
  if (isa<ArraySubscriptExpr>(S) || isa<CXXMemberCallExpr>(S))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->getOpcode() == UO_Deref || UO->isIncrementDecrementOp())
      return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp())
      return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S))
    if (ME->isArrow())
      return false;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return false;
    if (!FD->isConstexpr() && !isKnownMathFunction(FD->getName()))
      return false;
  }
  for (const Stmt *Child : S->children())
    if (!stableExpr(Child, ModifiedLater))
      return false;
  return true;
}
} // namespace

ValueOrigin ConfigClassifier::scalar(const Expr *E, const Expr **Resolved) {
  const Expr *R = E;
  FollowedHelper = nullptr;
  ValueOrigin V = classify(E, &R);
  V.StableAtLaunch =
      stableExpr(R, [&](const VarDecl *VD) {
        return R && modifiedAfter(VD, R->getBeginLoc());
      });
  if (E && !isa<CXXDefaultArgExpr>(E)) {
    V.Span = Text.span(E->getSourceRange());
    V.ResolvedSpan = R ? Text.span(R->getSourceRange()) : V.Span;
  }
  if (const CallExpr *Call = FollowedHelper) {
    // Through a helper: evaluated at the call, from its arguments.
    for (const Expr *A : Call->arguments())
      V.StableAtLaunch &= stableExpr(A, [&](const VarDecl *VD) {
        return modifiedAfter(VD, A->getBeginLoc());
      });
    V.ResolvedSpan = Text.span(Call->getSourceRange());
  }
  ScalarHelper = FollowedHelper;
  FollowedHelper = nullptr;
  if (Resolved)
    *Resolved = R;
  return V;
}

namespace {

/// The reads of one variable outside launch configurations and some
/// initializers.
class OtherReadFinder : public RecursiveASTVisitor<OtherReadFinder> {
public:
  OtherReadFinder(const VarDecl *VD, std::vector<SourceRange> Allowed)
      : VD(VD), Allowed(std::move(Allowed)) {}
  SourceLocation Found;

  bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    // The configuration <<<grid, block, ...>>> reads launch values; the
    // kernel's arguments are other uses.
    if (const CallExpr *Config = E->getConfig())
      Allowed.push_back(Config->getSourceRange());
    return RecursiveASTVisitor::TraverseCUDAKernelCallExpr(E);
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee())
      if (FD->getName().starts_with("cudaLaunch") && C->getNumArgs() >= 3) {
        // cudaLaunchKernel(func, grid, block, ...): the grid and block.
        Allowed.push_back(C->getArg(1)->getSourceRange());
        Allowed.push_back(C->getArg(2)->getSourceRange());
      }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() != VD || Found.isValid())
      return true;
    SourceLocation L = E->getBeginLoc();
    for (const SourceRange &R : Allowed)
      if (R.isValid() && !(L < R.getBegin()) && !(R.getEnd() < L))
        return true;
    Found = L;
    return true;
  }

private:
  const VarDecl *VD;
  std::vector<SourceRange> Allowed;
};

} // namespace

std::string
ConfigClassifier::readElsewhere(const VarDecl *VD,
                                const std::vector<const VarDecl *> &Chain) const {
  if (!Body)
    return "";
  std::vector<SourceRange> Allowed;
  for (const VarDecl *C : Chain)
    if (C->getInit())
      Allowed.push_back(C->getInit()->getSourceRange());
  // `if (n % B) g++;` is part of computing the grid, not another use.
  if (auto It = RoundUps.find(VD); It != RoundUps.end())
    Allowed.push_back(It->second->getSourceRange());
  OtherReadFinder F(VD, Allowed);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found.isValid() ? Text.location(F.Found) : "";
}

ValueOrigin ConfigClassifier::classify(const Expr *E, const Expr **Resolved) {
  ValueOrigin V;
  std::vector<const VarDecl *> Chain; // the locals followed so far
  const ASTContext &Ctx = Text.context();
  V.Text = Text.text(E);
  if (Resolved)
    *Resolved = E;
  for (unsigned Step = 0; E && Step < 16; ++Step) {
    if (isa<CXXDefaultArgExpr>(E)) {
      V.Kind = "default";
      V.Value = evaluateInt(E, Ctx);
      return V;
    }
    std::string Macro = Text.wholeMacroName(E);
    if (!Macro.empty()) {
      V.Kind = "macro";
      V.Symbol = V.QualifiedSymbol = Macro;
      V.Value = evaluateInt(E, Ctx);
      // Where the expansion's tokens were written: the definition's file.
      const SourceManager &SM = Ctx.getSourceManager();
      V.DefinedOutsideMainFile =
          !SM.isWrittenInMainFile(SM.getSpellingLoc(E->getBeginLoc()));
      return V;
    }
    const Expr *S = stripCasts(E);
    if (isa<IntegerLiteral>(S)) {
      V.Kind = "literal";
      V.Value = evaluateInt(S, Ctx);
      return V;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
        // An enumerator is a named compile-time constant; its copy cannot
        // go inside the enum, so it becomes a macro.
        V.Kind = "constant";
        V.Symbol = EC->getNameAsString();
        V.QualifiedSymbol = qualifiedName(EC);
        V.Value = evaluateInt(S, Ctx);
        V.DefinedOutsideMainFile = true;
        return V;
      }
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
          P && Bindings.count(P)) {
        E = Bindings.lookup(P);
        continue;
      }
      if (isa<NonTypeTemplateParmDecl>(DRE->getDecl())) {
        V.Kind = "template-param";
        V.Symbol = DRE->getDecl()->getNameAsString();
        return V;
      }
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        // A const local with a run-time initializer (`const int grid =
        // (n + 255) / 256;`) is followed like any unmodified local.
        if (followable(VD) && (!VD->getType().isConstQualified() ||
                               !evaluateInt(VD->getInit(), Ctx))) {
          V.Via.push_back(VD->getNameAsString());
          if (V.ReadElsewhere.empty())
            V.ReadElsewhere = readElsewhere(VD, Chain);
          Chain.push_back(VD);
          E = VD->getInit();
          if (Resolved)
            *Resolved = E;
          continue;
        }
        V.Symbol = VD->getNameAsString();
        V.QualifiedSymbol = qualifiedName(VD);
        std::optional<int64_t> Val = evaluateInt(S, Ctx);
        if (Val && (VD->getType().isConstQualified() || VD->isConstexpr())) {
          V.Kind = "constant";
          V.Value = Val;
          V.DefinitionLine = Text.lineSpan(VD->getEndLoc());
          V.LocalDefinition = VD->hasLocalStorage();
          V.Type = VD->getType().getUnqualifiedType().getAsString(
              Ctx.getPrintingPolicy());
          V.DefinedOutsideMainFile = !Text.inMainFile(VD->getLocation());
        } else {
          V.Kind = "runtime";
        }
        return V;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const Expr *Returned = inlineShapeHelper(Call)) {
        FollowedHelper = Call;
        E = Returned;
        if (Resolved)
          *Resolved = E;
        continue;
      }
    V.Value = evaluateInt(S, Ctx);
    V.Kind = V.Value ? "constant-expr" : "runtime";
    return V;
  }
  V.Kind = "runtime";
  return V;
}

static bool isDim3Type(QualType T) {
  T = T.getNonReferenceType().getUnqualifiedType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD->getName() == "dim3";
  return false;
}

/// A function that computes a launch shape from its arguments and nothing
/// else -- one `return` statement, no parameter modified, not a kernel --
/// is followed into: its parameters are bound to the call's arguments, and
/// what it returns is classified as if written at the call.
const Expr *ConfigClassifier::inlineShapeHelper(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || FD->hasAttr<CUDAGlobalAttr>() || FD->isVariadic() ||
      FD->getNumParams() != Call->getNumArgs())
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  const auto *Body = Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody())
                         : nullptr;
  // The math library's functions (ceil, min) are known by name where a
  // grid is derived; the program's own helpers are followed.
  if (!Body || Body->size() != 1 || !SM ||
      SM->isInSystemHeader(SM->getExpansionLoc(Def->getLocation())) ||
      isKnownMathFunction(FD->getName()))
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  if (!Ret || !Ret->getRetValue() || !modificationSites(Body).empty() ||
      !readsOnlyParameters(Ret->getRetValue(), Def))
    return nullptr;
  for (const ParmVarDecl *P : Def->parameters())
    if (P->getType()->isReferenceType() || P->getType()->isPointerType())
      return nullptr;
  bindArguments(Call);
  return Ret->getRetValue();
}

/// True when E's value comes from Def's parameters and numbers written in
/// Def alone: no macro, constant or variable of its own. A block-size
/// symbol the helper read itself would keep its old value where the
/// launch's copy of it changes, since only what is written at the call is
/// rewritten.
bool ConfigClassifier::readsOnlyParameters(const Stmt *E,
                                           const FunctionDecl *Def) const {
  if (!E)
    return true;
  if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      return P->getDeclContext() == Def;
    return isa<FunctionDecl>(D); // a callee such as ceil
  }
  if (isa<CallExpr>(E) && !isa<CXXConstructExpr>(E)) {
    const FunctionDecl *FD = cast<CallExpr>(E)->getDirectCallee();
    if (!FD)
      return false;
    StringRef N = FD->getName();
    if (N != "ceil" && N != "ceilf" && N != "floor" && N != "floorf" &&
        N != "min" && N != "max")
      return false; // another helper: not followed two levels deep
  }
  for (const Stmt *Child : E->children())
    if (!readsOnlyParameters(Child, Def))
      return false;
  return true;
}

/// Binds the parameters of Call's callee to Call's arguments (the same
/// helper may be called for several dimensions of one launch: each
/// dimension's derivation binds its own call again).
void ConfigClassifier::bindArguments(const CallExpr *Call) {
  const FunctionDecl *Def = Call->getDirectCallee()->getDefinition();
  for (unsigned I = 0; I < Def->getNumParams(); ++I)
    Bindings[Def->getParamDecl(I)] = Call->getArg(I);
}

LaunchDim3 ConfigClassifier::dim3(const Expr *Arg,
                                  std::vector<const Expr *> *ResolvedDims) {
  const CallExpr *HelperCall = nullptr;
  DimHelpers.clear();
  LaunchDim3 D = dim3Through(Arg, ResolvedDims, HelperCall);
  DimHelpers.resize(D.Dims.size(), nullptr);
  for (const CallExpr *&H : DimHelpers)
    if (!H)
      H = HelperCall;
  if (!HelperCall)
    return D;
  // Through a helper: each dimension is evaluated at the call, from the
  // call's arguments; the call is what a rewrite re-evaluates or replaces.
  bool ArgsStable = true;
  for (const Expr *A : HelperCall->arguments())
    ArgsStable &= stableExpr(A, [&](const VarDecl *VD) {
      return modifiedAfter(VD, A->getBeginLoc());
    });
  SourceSpan CallSpan = Text.span(HelperCall->getSourceRange());
  for (ValueOrigin &V : D.Dims) {
    if (V.Kind == "default")
      continue;
    V.StableAtLaunch &= ArgsStable;
    if (!V.Span.Begin.empty())
      V.Span = V.ResolvedSpan = CallSpan;
  }
  return D;
}

LaunchDim3 ConfigClassifier::dim3Through(const Expr *Arg,
                                         std::vector<const Expr *> *ResolvedDims,
                                         const CallExpr *&HelperCall) {
  LaunchDim3 D;
  D.Text = Text.text(Arg);
  if (Arg)
    D.Span = Text.span(Arg->getSourceRange());
  const Expr *E = Arg;
  bool ExplicitCast = false;
  auto Runtime = [&](const std::string &Base) {
    D.Form = "dim3";
    for (const char *C : {"x", "y", "z"}) {
      ValueOrigin V;
      V.Text = Base + "." + C;
      V.Kind = "runtime";
      D.Dims.push_back(V);
      DimHelpers.push_back(nullptr);
      if (ResolvedDims)
        ResolvedDims->push_back(nullptr);
    }
    return D;
  };
  auto Scalar = [&](const Expr *X) {
    D.Form = "scalar";
    const Expr *R = nullptr;
    D.Dims.push_back(scalar(X, &R));
    DimHelpers.push_back(ScalarHelper);
    if (ResolvedDims)
      ResolvedDims->push_back(R);
    return D;
  };
  for (unsigned Step = 0; E && Step < 16; ++Step) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      ExplicitCast = true;
      E = FC->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getConstructor()->isCopyOrMoveConstructor() &&
          CE->getNumArgs() == 1) {
        E = CE->getArg(0);
        continue;
      }
      bool Explicit = ExplicitCast || isa<CXXTemporaryObjectExpr>(CE) ||
                      CE->getParenOrBraceRange().isValid() ||
                      !D.Variable.empty();
      if (!Explicit && CE->getNumArgs() >= 1)
        return Scalar(CE->getArg(0)); // dim3's converting constructor
      D.Form = "dim3";
      for (unsigned I = 0; I < 3; ++I) {
        const Expr *R = nullptr;
        ValueOrigin V;
        ScalarHelper = nullptr;
        if (I < CE->getNumArgs())
          V = scalar(CE->getArg(I), &R);
        DimHelpers.push_back(ScalarHelper);
        if (I >= CE->getNumArgs() || V.Kind == "default") {
          // An omitted dimension: dim3's default argument, 1.
          V = ValueOrigin();
          V.Kind = "default";
          V.Value = 1;
          R = nullptr;
        }
        D.Dims.push_back(std::move(V));
        if (ResolvedDims)
          ResolvedDims->push_back(R);
      }
      return D;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        if (isDim3Type(VD->getType())) {
          if (D.Variable.empty())
            D.Variable = VD->getNameAsString();
          if (followable(VD)) {
            E = VD->getInit();
            continue;
          }
          return Runtime(VD->getNameAsString());
        }
        return Scalar(E); // a scalar variable converted to dim3 implicitly
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const Expr *Returned = inlineShapeHelper(Call)) {
        HelperCall = Call;
        E = Returned;
        continue;
      }
    break;
  }
  if (E && !isDim3Type(E->getType()))
    return Scalar(E);
  return Runtime(D.Variable.empty() ? D.Text : D.Variable);
}

/// Flattens a sum into signed terms: a + b - c -> {+a, +b, -c}.
static void flattenSum(const Expr *E, bool Negative,
                       std::vector<std::pair<bool, const Expr *>> &Terms) {
  const Expr *S = stripCasts(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) {
      flattenSum(BO->getLHS(), Negative, Terms);
      flattenSum(BO->getRHS(), BO->getOpcode() == BO_Sub ? !Negative : Negative,
                 Terms);
      return;
    }
  }
  Terms.emplace_back(Negative, E);
}

std::string ConfigClassifier::matchBlockDim(const std::string &Term,
                                            std::optional<int64_t> TermValue,
                                            unsigned Dim,
                                            const LaunchDim3 &Block,
                                            const std::string &TermSymbol) {
  static const char *Names[] = {"x", "y", "z"};
  // The grid's own dimension first: with dim3(8, 8) both match "8".
  std::vector<size_t> Order;
  if (Dim < Block.Dims.size())
    Order.push_back(Dim);
  for (size_t I = 0; I < Block.Dims.size() && I < 3; ++I)
    if (I != Dim)
      Order.push_back(I);
  for (size_t I : Order) {
    const ValueOrigin &B = Block.Dims[I];
    if (B.Kind == "default")
      continue;
    if (normalizeSpelling(B.Text) == Term ||
        (!B.Symbol.empty() && B.Symbol == Term) ||
        (!TermSymbol.empty() && B.QualifiedSymbol == TermSymbol))
      return Names[I];
    for (const std::string &Via : B.Via)
      if (Via == Term)
        return Names[I];
    if (!Block.Variable.empty() && Term == Block.Variable + "." + Names[I])
      return Names[I];
    // Both hard-coded to the same number: (n + 255) / 256 with block 256.
    if (TermValue && B.Value && *TermValue == *B.Value &&
        (B.Kind == "literal" || B.Kind == "constant-expr"))
      return Names[I];
  }
  return "";
}

/// A divisor that is c blocks: `c * S` or `S * c` with c a constant (a
/// number or another named constant, such as items per thread) and S the
/// same macro or constant as the block (never a number that merely equals
/// it), written at the grid or in the initializer of an unmodified local.
void ConfigClassifier::blockMultiple(const Expr *Divisor, unsigned Dim,
                                     const LaunchDim3 &Block,
                                     ValueOrigin::Derivation &D) {
  const ASTContext &Ctx = Text.context();
  const Expr *E = stripCasts(Divisor);
  SourceSpan Definition;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && followable(VD)) {
      E = stripCasts(VD->getInit());
      Definition = Text.span(VD->getInit()->getSourceRange());
    }
  const auto *Mul = dyn_cast_or_null<BinaryOperator>(E);
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return;
  for (auto [C, S] : {std::pair(Mul->getLHS(), Mul->getRHS()),
                      std::pair(Mul->getRHS(), Mul->getLHS())}) {
    std::optional<int64_t> Factor = evaluateInt(C, Ctx);
    if (!Factor || *Factor < 2)
      continue;
    ValueOrigin Sym = classify(stripCasts(S), nullptr);
    ValueOrigin FactorSym = classify(stripCasts(C), nullptr);
    if ((Sym.Kind != "macro" && Sym.Kind != "constant") ||
        FactorSym.QualifiedSymbol == Sym.QualifiedSymbol)
      continue; // kBlock * kBlock is not a fixed number of blocks
    std::string Term = spell(S);
    std::string Dimension =
        matchBlockDim(Term, std::nullopt, Dim, Block, Sym.QualifiedSymbol);
    if (Dimension.empty())
      continue;
    D.BlockDim = Dimension;
    D.BlockTerm = Term;
    D.BlockSymbol = Sym.QualifiedSymbol;
    D.BlockMultiple = *Factor;
    D.DivisorDefinition = Definition;
    return;
  }
}

/// True when X is 1 exactly when N % B is not 0, and 0 otherwise: `N % B !=
/// 0`, `N % B > 0`, `(N % B) ? 1 : 0`, `N % B == 0 ? 0 : 1`, `N % B != 0 ? 1
/// : 0`. N and B are compared by spelling (the same expressions as the
/// quotient's).
bool ConfigClassifier::isRemainderIndicator(const Expr *X, const Expr *N,
                                            const Expr *B) const {
  const ASTContext &Ctx = Text.context();
  auto IsRem = [&](const Expr *E) { return isRemainderOf(E, N, B); };
  auto IsZero = [&](const Expr *E) { return evaluateInt(E, Ctx) == 0; };
  auto IsOne = [&](const Expr *E) { return evaluateInt(E, Ctx) == 1; };
  // Whether C is "N % B != 0" (true) or "N % B == 0" (false).
  auto Condition = [&](const Expr *C) -> std::optional<bool> {
    if (IsRem(C))
      return true;
    const auto *Cmp = dyn_cast<BinaryOperator>(stripCasts(C));
    if (!Cmp || !IsRem(Cmp->getLHS()) || !IsZero(Cmp->getRHS()))
      return std::nullopt;
    if (Cmp->getOpcode() == BO_NE || Cmp->getOpcode() == BO_GT)
      return true;
    if (Cmp->getOpcode() == BO_EQ)
      return false;
    return std::nullopt;
  };
  const Expr *S = stripCasts(X);
  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    std::optional<bool> C = Condition(CO->getCond());
    if (!C)
      return false;
    return *C ? IsOne(CO->getTrueExpr()) && IsZero(CO->getFalseExpr())
              : IsZero(CO->getTrueExpr()) && IsOne(CO->getFalseExpr());
  }
  std::optional<bool> C = Condition(S);
  return C && *C && !IsRem(S); // a bare N % B is not 0/1
}

/// Finds, in every compound statement under S, a declaration of one local
/// whose initializer is a division, followed by the statement that rounds
/// it up.
void ConfigClassifier::findRoundUps(const Stmt *S) {
  if (!S)
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    const Stmt *Prev = nullptr;
    for (const Stmt *Cur : CS->body()) {
      const auto *DS = dyn_cast_or_null<DeclStmt>(Prev);
      const auto *If = dyn_cast<IfStmt>(Cur);
      if (DS && If && DS->isSingleDecl())
        if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
            VD && isRoundUp(If, VD))
          RoundUps[VD] = If;
      Prev = Cur;
    }
  }
  for (const Stmt *Child : S->children())
    findRoundUps(Child);
}

/// True when If is `if (N % B) VD += 1;` (or `!= 0`, `> 0`, and `VD++`,
/// `++VD`, `VD = VD + 1`, braced or not) for VD initialized to N / B, and
/// VD is modified nowhere else.
bool ConfigClassifier::isRoundUp(const IfStmt *If, const VarDecl *VD) const {
  const auto *Div = dyn_cast_or_null<BinaryOperator>(
      VD->getInit() ? stripCasts(VD->getInit()) : nullptr);
  if (!Div || Div->getOpcode() != BO_Div || If->getElse() || If->getInit() ||
      If->getConditionVariable() || !VD->getType()->isIntegerType())
    return false;
  // `if (n % B)` as well as the 0/1 spellings a grid sum uses.
  const Expr *Cond = If->getCond();
  if (!isRemainderOf(Cond, Div->getLHS(), Div->getRHS()) &&
      !isRemainderIndicator(Cond, Div->getLHS(), Div->getRHS()))
    return false;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then)) {
    if (CS->size() != 1)
      return false;
    Then = CS->body_front();
  }
  const ASTContext &Ctx = Text.context();
  auto IsVD = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  bool AddsOne = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Then))
    AddsOne = UO->isIncrementOp() && IsVD(UO->getSubExpr());
  else if (const auto *BO = dyn_cast<BinaryOperator>(Then)) {
    if (BO->getOpcode() == BO_AddAssign)
      AddsOne = IsVD(BO->getLHS()) && evaluateInt(BO->getRHS(), Ctx) == 1;
    else if (BO->getOpcode() == BO_Assign && IsVD(BO->getLHS()))
      if (const auto *Sum =
              dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
          Sum && Sum->getOpcode() == BO_Add)
        AddsOne = (IsVD(Sum->getLHS()) &&
                   evaluateInt(Sum->getRHS(), Ctx) == 1) ||
                  (IsVD(Sum->getRHS()) && evaluateInt(Sum->getLHS(), Ctx) == 1);
  }
  if (!AddsOne || !SM)
    return false;
  auto It = Sites.find(VD);
  if (It == Sites.end())
    return false;
  SourceLocation B = SM->getExpansionLoc(If->getBeginLoc()),
                 E = SM->getExpansionLoc(If->getEndLoc());
  for (SourceLocation S : It->second) {
    SourceLocation X = S.isValid() ? SM->getExpansionLoc(S) : S;
    if (X.isInvalid() || SM->isBeforeInTranslationUnit(X, B) ||
        SM->isBeforeInTranslationUnit(E, X))
      return false;
  }
  return true;
}

std::optional<ValueOrigin::Derivation> ConfigClassifier::derivation(
    const Expr *G, unsigned Dim, const LaunchDim3 &Block,
    ArrayRef<const Expr *> BlockExprs, const CallExpr *Through) {
  if (!G)
    return std::nullopt;
  const ASTContext &Ctx = Text.context();
  const Expr *S = stripCasts(G);
  if (Through)
    bindArguments(Through);
  ValueOrigin::Derivation D;
  const Expr *Divisor = nullptr;

  // ceil(n / (float)B), ceilf(...), std::ceil(...)
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    std::string Name = FD ? FD->getNameAsString() : "";
    if ((Name == "ceil" || Name == "ceilf") && Call->getNumArgs() == 1) {
      if (const auto *Div =
              dyn_cast<BinaryOperator>(stripCasts(Call->getArg(0)))) {
        if (Div->getOpcode() == BO_Div) {
          D.Form = "ceil-float";
          D.Extent = spell(Div->getLHS());
          D.ExtentValue = evaluateInt(stripCasts(Div->getLHS()), Ctx);
          Divisor = Div->getRHS();
        }
      }
    } else if (Call->getNumArgs() == 2 && FD) {
      // Helpers such as divUp(n, B), ceil_div(n, B), cdiv(n, B).
      std::string Lower = StringRef(Name).lower();
      if (StringRef(Lower).contains("div") &&
          (StringRef(Lower).contains("up") ||
           StringRef(Lower).contains("ceil") ||
           StringRef(Lower).starts_with("cdiv") ||
           StringRef(Lower).contains("round"))) {
        D.Form = "ceil-div";
        D.Extent = spell(Call->getArg(0));
        D.ExtentValue = evaluateInt(Call->getArg(0), Ctx);
        Divisor = Call->getArg(1);
      }
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Div) {
      Divisor = BO->getRHS();
      std::optional<int64_t> DivVal = evaluateInt(Divisor, Ctx);
      std::string DivText = spell(Divisor);
      std::vector<std::pair<bool, const Expr *>> Terms;
      flattenSum(BO->getLHS(), false, Terms);
      // Find "+ B" and "- 1", or a single "+ (B - 1)" constant.
      int BlockTerm = -1, MinusOne = -1, BMinusOne = -1;
      for (size_t I = 0; I < Terms.size(); ++I) {
        const Expr *T = Terms[I].second;
        std::optional<int64_t> V = evaluateInt(T, Ctx);
        if (!Terms[I].first && BlockTerm < 0 &&
            spell(T) == DivText)
          BlockTerm = I;
        else if (Terms[I].first && MinusOne < 0 && V && *V == 1)
          MinusOne = I;
        else if (!Terms[I].first && BMinusOne < 0 && V && DivVal &&
                 *V == *DivVal - 1 && Terms.size() == 2)
          BMinusOne = I;
      }
      std::string Extent;
      auto ExtentExcept = [&](int A, int B) {
        std::string Out;
        std::optional<int64_t> Sum = 0;
        for (size_t I = 0; I < Terms.size(); ++I) {
          if ((int)I == A || (int)I == B)
            continue;
          std::optional<int64_t> V = evaluateInt(Terms[I].second, Ctx);
          Sum = Sum && V ? std::optional<int64_t>(*Sum + (Terms[I].first ? -*V
                                                                         : *V))
                         : std::nullopt;
          std::string T = spell(Terms[I].second);
          Out += Out.empty() ? (Terms[I].first ? "-" + T : T)
                             : (Terms[I].first ? "-" : "+") + T;
        }
        D.ExtentValue = Sum;
        return Out;
      };
      if (BlockTerm >= 0 && MinusOne >= 0 && Terms.size() >= 3) {
        D.Form = "ceil-div";
        D.Extent = ExtentExcept(BlockTerm, MinusOne);
      } else if (BMinusOne >= 0) {
        D.Form = "ceil-div";
        D.Extent = ExtentExcept(BMinusOne, -1);
      } else {
        D.Form = "floor-div";
        D.Extent = spell(BO->getLHS());
        D.ExtentValue = evaluateInt(BO->getLHS(), Ctx);
        // `int g = n / B; if (n % B) g++;`: the two statements are a ceil.
        for (const auto &[VD, If] : RoundUps)
          if (stripCasts(VD->getInit()) == BO) {
            D.Form = "ceil-div";
            D.RoundUp = Text.span(If->getSourceRange());
          }
      }
    } else if (BO->getOpcode() == BO_Add) {
      const auto *Div = dyn_cast<BinaryOperator>(stripCasts(BO->getLHS()));
      // n / B + (n % B != 0), n / B + (n % B == 0 ? 0 : 1), and the other
      // spellings of "one more block when B does not divide n".
      if (Div && Div->getOpcode() == BO_Div &&
          isRemainderIndicator(BO->getRHS(), Div->getLHS(), Div->getRHS())) {
        D.Form = "ceil-div";
        D.Extent = spell(Div->getLHS());
        D.ExtentValue = evaluateInt(Div->getLHS(), Ctx);
        Divisor = Div->getRHS();
      }
      // (n - 1) / B + 1
      std::optional<int64_t> One = evaluateInt(BO->getRHS(), Ctx);
      if (Div && Div->getOpcode() == BO_Div && One && *One == 1) {
        std::vector<std::pair<bool, const Expr *>> Terms;
        flattenSum(Div->getLHS(), false, Terms);
        if (Terms.size() == 2 && Terms[1].first) {
          std::optional<int64_t> V = evaluateInt(Terms[1].second, Ctx);
          if (V && *V == 1) {
            D.Form = "ceil-div";
            D.Extent = spell(Terms[0].second);
            D.ExtentValue = evaluateInt(Terms[0].second, Ctx);
            Divisor = Div->getRHS();
          }
        }
      }
    }
  }
  if (D.Form.empty() || !Divisor)
    return std::nullopt;
  D.BlockTerm = spell(Divisor);
  ValueOrigin DivisorOrigin = classify(bound(Divisor), nullptr);
  if (DivisorOrigin.Kind == "macro" || DivisorOrigin.Kind == "constant")
    D.BlockSymbol = DivisorOrigin.QualifiedSymbol;
  D.BlockDim = matchBlockDim(D.BlockTerm, evaluateInt(bound(Divisor), Ctx), Dim,
                             Block, D.BlockSymbol);
  if (D.BlockDim.empty())
    blockMultiple(Divisor, Dim, Block, D);
  if (D.BlockDim.empty())
    blockFraction(Dim, BlockExprs, D);
  return D;
}

/// A divisor that is the block divided by c: the grid divides by S (a macro
/// or constant: warps per block) and the block along the grid's dimension
/// is `S * c` or `c * S` with c a constant >= 2 (threads per warp), at the
/// launch or in the initializer of an unmodified local. The tie is the
/// symbol S in both, never numbers that merely divide.
void ConfigClassifier::blockFraction(unsigned Dim,
                                     ArrayRef<const Expr *> BlockExprs,
                                     ValueOrigin::Derivation &D) {
  static const char *Names[] = {"x", "y", "z"};
  if (D.BlockSymbol.empty() || Dim >= BlockExprs.size() || !BlockExprs[Dim])
    return;
  const ASTContext &Ctx = Text.context();
  const Expr *E = stripCasts(BlockExprs[Dim]);
  for (unsigned Step = 0; Step < 4; ++Step) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !followable(VD))
      break;
    E = stripCasts(VD->getInit());
  }
  const auto *Mul = dyn_cast<BinaryOperator>(E);
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return;
  // S is the divisor's symbol: as classified, or one token that the
  // divisor's macro expanded to inside the block's own macro (`#define
  // THREADS (WARPS * 32)`, where the outermost macro is THREADS).
  auto IsDivisor = [&](const Expr *S) {
    ValueOrigin Sym = classify(S, nullptr);
    if ((Sym.Kind == "macro" || Sym.Kind == "constant") &&
        Sym.QualifiedSymbol == D.BlockSymbol)
      return true;
    if (!isa<IntegerLiteral>(S))
      return false;
    const SourceManager &SM = Ctx.getSourceManager();
    for (SourceLocation In = S->getBeginLoc(); In.isMacroID();
         In = SM.getImmediateMacroCallerLoc(In))
      if (Lexer::getImmediateMacroName(In, SM, Ctx.getLangOpts()) ==
          D.BlockSymbol)
        return true;
    return false;
  };
  for (auto [S, C] : {std::pair(Mul->getLHS(), Mul->getRHS()),
                      std::pair(Mul->getRHS(), Mul->getLHS())}) {
    if (!IsDivisor(stripCasts(S)))
      continue;
    std::optional<int64_t> Factor = evaluateInt(C, Ctx);
    ValueOrigin FactorSym = classify(stripCasts(C), nullptr);
    if (!Factor || *Factor < 2 || FactorSym.QualifiedSymbol == D.BlockSymbol)
      continue;
    D.BlockDim = Names[Dim];
    D.BlockFraction = *Factor;
    return;
  }
}

/// The kernel named by a callee expression: a function, a template
/// specialization, or (inside templates) an unresolved name.
const FunctionDecl *calleeKernel(const Expr *Callee,
                                 std::vector<std::string> &TemplateArgs,
                                 std::vector<SourceSpan> &TemplateArgSpans,
                                 const SourceText &Text) {
  const Expr *E = stripCasts(Callee);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = stripCasts(UO->getSubExpr());
  auto AddArgs = [&](ArrayRef<TemplateArgumentLoc> Args) {
    TemplateArgs.clear();
    TemplateArgSpans.clear();
    for (const TemplateArgumentLoc &A : Args) {
      TemplateArgs.push_back(Text.text(A.getSourceRange()));
      TemplateArgSpans.push_back(Text.span(A.getSourceRange()));
    }
  };
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    AddArgs(DRE->template_arguments());
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
      if (!FD->hasAttr<CUDAGlobalAttr>())
        return nullptr;
      FD = templatePattern(FD);
      // Launched through a prototype: the kernel is its definition.
      if (const FunctionDecl *Def = FD->getDefinition())
        FD = Def;
      return FD;
    }
  }
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(E)) {
    AddArgs(ULE->template_arguments());
    for (const NamedDecl *ND : ULE->decls()) {
      const FunctionDecl *FD = nullptr;
      if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(ND))
        FD = FTD->getTemplatedDecl();
      else
        FD = dyn_cast<FunctionDecl>(ND);
      if (FD && FD->hasAttr<CUDAGlobalAttr>())
        return FD->getDefinition() ? FD->getDefinition() : FD;
    }
  }
  return nullptr;
}

class LaunchFinder : public RecursiveASTVisitor<LaunchFinder> {
public:
  explicit LaunchFinder(const SourceText &Text) : Text(Text) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && !isa<NamespaceDecl>(D) &&
        !isa<LinkageSpecDecl>(D) && !Text.inUserFile(D->getLocation()))
      return true;
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Callers.push_back({FD, LoopDepth}), LoopDepth = 0;
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      LoopDepth = Callers.back().second, Callers.pop_back();
    return R;
  }
#define CRO_LOOP(T)                                                            \
  bool Traverse##T(T *S, DataRecursionQueue * = nullptr) {                     \
    ++LoopDepth;                                                               \
    bool R = RecursiveASTVisitor::Traverse##T(S);                              \
    --LoopDepth;                                                               \
    return R;                                                                  \
  }
  CRO_LOOP(ForStmt)
  CRO_LOOP(WhileStmt)
  CRO_LOOP(DoStmt)
  CRO_LOOP(CXXForRangeStmt)
#undef CRO_LOOP

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    const CallExpr *Config = E->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return true;
    std::vector<const Expr *> Args(E->arg_begin(), E->arg_end());
    record(E, E->getCallee(), "triple-chevron", Args, Config->getArg(0),
           Config->getArg(1),
           Config->getNumArgs() > 2 ? Config->getArg(2) : nullptr,
           Config->getNumArgs() > 3 ? Config->getArg(3) : nullptr);
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    if (isa<CUDAKernelCallExpr>(E))
      return true;
    std::string Name;
    if (const FunctionDecl *FD = E->getDirectCallee())
      Name = FD->getNameAsString();
    else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(
                 E->getCallee()->IgnoreImplicit()))
      Name = ULE->getName().getAsString();
    if (Name != "cudaLaunchKernel" && Name != "cudaLaunchCooperativeKernel")
      return true;
    if (E->getNumArgs() < 3)
      return true;
    // The arguments are `void *args[] = {&a, &b}`: read through the array.
    std::vector<const Expr *> Args;
    if (E->getNumArgs() > 3)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(stripCasts(E->getArg(3))))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (const auto *Init = dyn_cast_or_null<InitListExpr>(VD->getInit()))
            for (const Expr *Elt : Init->inits()) {
              const Expr *X = stripCasts(Elt);
              if (const auto *UO = dyn_cast<UnaryOperator>(X);
                  UO && UO->getOpcode() == UO_AddrOf)
                X = UO->getSubExpr();
              Args.push_back(X);
            }
    record(E, E->getArg(0), Name, Args, E->getArg(1), E->getArg(2),
           E->getNumArgs() > 4 ? E->getArg(4) : nullptr,
           E->getNumArgs() > 5 ? E->getArg(5) : nullptr);
    return true;
  }

  std::vector<LaunchSite> takeSites() {
    std::vector<LaunchSite> Out;
    for (auto &KV : Sites) {
      LaunchSite &S = KV.second;
      for (LaunchDim3 *D : {&S.Grid, &S.Block})
        for (ValueOrigin &V : D->Dims) {
          std::sort(V.InstantiatedValues.begin(), V.InstantiatedValues.end());
          V.InstantiatedValues.erase(std::unique(V.InstantiatedValues.begin(),
                                                 V.InstantiatedValues.end()),
                                     V.InstantiatedValues.end());
        }
      Out.push_back(std::move(S));
    }
    return Out;
  }

private:
  void record(const Expr *Call, const Expr *Callee, StringRef Syntax,
              const std::vector<const Expr *> &Args, const Expr *Grid,
              const Expr *Block, const Expr *Smem, const Expr *Stream) {
    if (!Text.inUserFile(Call->getBeginLoc()) || Callers.empty())
      return;
    const FunctionDecl *Caller = Callers.back().first;
    SourceSpan Span = Text.span(Call->getSourceRange());
    bool Instance = Caller->isTemplateInstantiation();
    ConfigClassifier C(Text, Caller);
    std::vector<const Expr *> GridExprs, BlockExprs;
    LaunchDim3 G = C.dim3(Grid, &GridExprs);
    std::vector<const CallExpr *> GridHelpers = C.dimensionHelpers();
    LaunchDim3 B = C.dim3(Block, &BlockExprs);

    const SourceManager &SM = Text.context().getSourceManager();
    std::pair<unsigned, unsigned> Key = {
        Text.inMainFile(Call->getBeginLoc())
            ? 0u
            : SM.getFileID(Text.fileRange(Call->getSourceRange()).getBegin())
                  .getHashValue(),
        Span.BeginOffset};
    auto It = Sites.find(Key);
    if (It != Sites.end()) {
      // Another instantiation of a launch already seen: note its values.
      LaunchSite &S = It->second;
      auto AddValues = [](LaunchDim3 &Into, const LaunchDim3 &From) {
        for (size_t I = 0; I < Into.Dims.size() && I < From.Dims.size(); ++I)
          if (From.Dims[I].Value)
            Into.Dims[I].InstantiatedValues.push_back(*From.Dims[I].Value);
      };
      if (Instance) {
        AddValues(S.Grid, G);
        AddValues(S.Block, B);
      }
      if (S.Kernel.empty()) {
        std::vector<std::string> Args;
        std::vector<SourceSpan> Spans;
        if (const FunctionDecl *K = calleeKernel(Callee, Args, Spans, Text)) {
          S.Kernel = qualifiedName(K);
          S.KernelLocation = Text.location(K->getLocation());
        }
      }
      return;
    }

    LaunchSite S;
    S.Location = Text.location(Call->getBeginLoc());
    S.InMainFile = Text.inMainFile(Call->getBeginLoc());
    S.Span = Span;
    S.Syntax = Syntax.str();
    S.Caller = qualifiedName(Caller);
    S.LoopDepth = LoopDepth;
    S.InTemplate = Caller->isTemplated() || Instance;
    if (const FunctionDecl *K = calleeKernel(Callee, S.TemplateArgs,
                                             S.TemplateArgSpans, Text)) {
      S.Kernel = qualifiedName(K);
      S.KernelLocation = Text.location(K->getLocation());
    }
    for (size_t I = 0; I < G.Dims.size() && I < GridExprs.size(); ++I)
      G.Dims[I].Derived =
          C.derivation(GridExprs[I], I, B, BlockExprs,
                       I < GridHelpers.size() ? GridHelpers[I] : nullptr);
    if (Instance) {
      for (LaunchDim3 *D : {&G, &B})
        for (ValueOrigin &V : D->Dims)
          if (V.Value && V.Kind != "default")
            V.InstantiatedValues.push_back(*V.Value);
    }
    S.Grid = std::move(G);
    S.Block = std::move(B);
    if (Smem) {
      S.SharedMem = C.scalar(Smem);
      if (S.SharedMem.Kind == "default")
        S.SharedMem.Text = "";
    } else {
      S.SharedMem.Kind = "default";
      S.SharedMem.Value = 0;
    }
    if (Stream && !isa<CXXDefaultArgExpr>(Stream))
      S.Stream = Text.text(Stream);
    for (const Expr *A : Args)
      S.Args.push_back(C.argument(A));
    Sites.emplace(Key, std::move(S));
  }

  const SourceText &Text;
  std::vector<std::pair<const FunctionDecl *, unsigned>> Callers;
  unsigned LoopDepth = 0;
  /// By file (the main file first, then the others in the order they were
  /// entered) and offset: source order.
  std::map<std::pair<unsigned, unsigned>, LaunchSite> Sites;
};

} // namespace

namespace {

/// References to kernels other than the callee of a launch the model sees.
class KernelReferenceFinder
    : public RecursiveASTVisitor<KernelReferenceFinder> {
public:
  KernelReferenceFinder(const SourceText &Text,
                        const std::vector<LaunchSite> &Launches)
      : Text(Text), Launches(Launches) {}
  std::map<std::string, std::vector<std::string>> Escapes;

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitCallExpr(CallExpr *C) {
    // The runtime's attribute and occupancy queries name the kernel to ask
    // about it (cudaFuncSetAttribute, cudaOccupancyMaxPotentialBlockSize),
    // not to launch it. A call is visited before its arguments.
    if (const FunctionDecl *FD = C->getDirectCallee()) {
      StringRef N = FD->getName();
      if (N.starts_with("cudaFunc") || N.starts_with("cudaOccupancy"))
        for (const Expr *A : C->arguments())
          Queried.insert(A->IgnoreParenImpCasts());
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
    if (!FD || !FD->hasAttr<CUDAGlobalAttr>() || E->getBeginLoc().isInvalid())
      return true;
    for (const Expr *Q : Queried)
      if (stripCasts(Q) == E ||
          (isa<UnaryOperator>(stripCasts(Q)) &&
           stripCasts(cast<UnaryOperator>(stripCasts(Q))->getSubExpr()) == E))
        return true;
    SourceSpan S = Text.span(E->getSourceRange());
    for (const LaunchSite &L : Launches)
      if (S.BeginOffset >= L.Span.BeginOffset &&
          S.EndOffset <= L.Span.EndOffset && !L.Span.Begin.empty())
        return true;
    FD = templatePattern(FD);
    if (const FunctionDecl *Def = FD->getDefinition())
      FD = Def;
    Escapes[Text.location(FD->getLocation())].push_back(
        Text.location(E->getBeginLoc()));
    return true;
  }

private:
  const SourceText &Text;
  const std::vector<LaunchSite> &Launches;
  DenseSet<const Expr *> Queried;
};

} // namespace

std::map<std::string, std::vector<std::string>>
collectKernelEscapes(ASTContext &HostCtx, const SourceText &Text,
                     const std::vector<LaunchSite> &Launches) {
  KernelReferenceFinder F(Text, Launches);
  F.TraverseDecl(HostCtx.getTranslationUnitDecl());
  return std::move(F.Escapes);
}

namespace {

/// Every call in the main file of the functions that launch kernels with
/// their own parameters: what those parameters point to.
class CallerCallFinder : public RecursiveASTVisitor<CallerCallFinder> {
public:
  CallerCallFinder(const SourceText &Text, std::set<std::string> Callers)
      : Text(Text), Callers(std::move(Callers)) {}
  std::map<std::string, std::vector<std::vector<LaunchSite::Argument>>>
      Calls;

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    return R;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !Current || !Text.inUserFile(C->getBeginLoc()))
      return true;
    std::string Name = qualifiedName(FD);
    if (!Callers.count(Name))
      return true;
    ConfigClassifier CC(Text, Current);
    std::vector<LaunchSite::Argument> Args;
    for (const Expr *A : C->arguments())
      Args.push_back(CC.argument(A));
    Calls[Name].push_back(std::move(Args));
    return true;
  }

private:
  const SourceText &Text;
  std::set<std::string> Callers;
  const FunctionDecl *Current = nullptr;
};

} // namespace

std::vector<LaunchSite> collectLaunches(ASTContext &HostCtx,
                                        const SourceText &Text) {
  LaunchFinder F(Text);
  F.TraverseDecl(HostCtx.getTranslationUnitDecl());
  std::vector<LaunchSite> Sites = F.takeSites();
  std::set<std::string> Callers;
  for (const LaunchSite &L : Sites)
    for (const LaunchSite::Argument &A : L.Args)
      if (A.CallerParam >= 0)
        Callers.insert(L.Caller);
  if (!Callers.empty()) {
    CallerCallFinder CF(Text, Callers);
    CF.TraverseDecl(HostCtx.getTranslationUnitDecl());
    for (LaunchSite &L : Sites)
      if (Callers.count(L.Caller))
        L.CallerCalls = CF.Calls[L.Caller];
  }
  return Sites;
}

} // namespace cro
