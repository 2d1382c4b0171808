#include "cro/Analysis/AffineBuilder.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

/// Locals declared without an initializer (`int i;`) and assigned exactly
/// once, by a plain `i = e;` statement directly in the kernel's outermost
/// block: that assignment reaches every later use, since no branch or loop
/// can skip it and nothing else writes the variable.
class SingleAssignmentFinder
    : public RecursiveASTVisitor<SingleAssignmentFinder> {
public:
  llvm::DenseMap<const VarDecl *, unsigned> Writes;
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      if (const auto *DRE = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          ++Writes[V];
    return true;
  }
};

} // namespace

AffineBuilder::AffineBuilder(const SourceText &Text, const FunctionDecl *Kernel)
    : Text(Text), Modified(modifiedVariables(Kernel->getBody())) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  if (!Body)
    return;
  SingleAssignmentFinder F;
  F.TraverseStmt(const_cast<CompoundStmt *>(Body));
  DenseSet<const VarDecl *> Other = modifiedVariablesExceptAssignment(Body);
  for (const Stmt *S : Body->body()) {
    const auto *B = dyn_cast<BinaryOperator>(S);
    if (!B || B->getOpcode() != BO_Assign)
      continue;
    const auto *DRE = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && !V->getInit() &&
        V->getType()->isIntegerType() && F.Writes.lookup(V) == 1 &&
        !Other.count(V))
      SingleAssignments[V] = B;
  }
}

AffineBuilder::Result AffineBuilder::build(const Expr *E) {
  FailReason.clear();
  Result R;
  R.Form = visit(E, 0);
  if (!R.Form)
    R.Reason =
        FailReason.empty() ? "index not affine: " + Text.text(E) : FailReason;
  return R;
}

std::optional<AffineExpr> AffineBuilder::fail(const Expr *E, StringRef Why) {
  if (FailReason.empty()) {
    FailReason = "index not affine: " + Text.text(E);
    if (!Why.empty())
      FailReason += " (" + Why.str() + ")";
  }
  return std::nullopt;
}

std::optional<AffineExpr> AffineBuilder::visit(const Expr *E, unsigned Depth) {
  if (!E)
    return std::nullopt;
  if (Depth > 64)
    return fail(E, "too deeply nested");
  const ASTContext &Ctx = Text.context();
  E = stripCasts(E);

  if (std::optional<int64_t> V = evaluateInt(E, Ctx))
    return AffineExpr::constant(SymPoly::constant(*V));

  if (std::optional<std::string> B = cudaBuiltinName(E)) {
    StringRef Name = *B;
    if (Name.starts_with("threadIdx.") || Name.starts_with("blockIdx."))
      return AffineExpr::variable(*B);
    return AffineExpr::constant(SymPoly::symbol(*B)); // blockDim, gridDim
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Shl) {
      std::optional<AffineExpr> L = visit(BO->getLHS(), Depth + 1);
      if (!L)
        return std::nullopt;
      std::optional<AffineExpr> R = visit(BO->getRHS(), Depth + 1);
      if (!R)
        return std::nullopt;
      if (Op == BO_Add)
        return *L + *R;
      if (Op == BO_Sub)
        return *L - *R;
      if (Op == BO_Shl) {
        std::optional<int64_t> Sh = R->hasVariables()
                                        ? std::nullopt
                                        : R->constantPart().constantValue();
        if (!Sh || *Sh < 0 || *Sh > 62)
          return fail(E, "shift by a non-constant amount");
        return L->scaled(SymPoly::constant(int64_t(1) << *Sh));
      }
      // Products stay affine while one side has no variables.
      if (!L->hasVariables())
        return R->scaled(L->constantPart());
      if (!R->hasVariables())
        return L->scaled(R->constantPart());
      return fail(E, "product of two thread- or loop-dependent values");
    }
    if (Op == BO_Comma)
      return visit(BO->getRHS(), Depth + 1);
    return fail(E, ("operator '" + BO->getOpcodeStr() + "'").str());
  }

  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus) {
      std::optional<AffineExpr> S = visit(UO->getSubExpr(), Depth + 1);
      if (!S)
        return std::nullopt;
      return S->scaled(SymPoly::constant(-1));
    }
    if (UO->getOpcode() == UO_Plus)
      return visit(UO->getSubExpr(), Depth + 1);
    return fail(E);
  }

  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<NonTypeTemplateParmDecl>(D))
      return AffineExpr::constant(SymPoly::symbol(D->getNameAsString()));
    if (const auto *PV = dyn_cast<ParmVarDecl>(D))
      for (auto It = Inlined.rbegin(); It != Inlined.rend(); ++It)
        if (auto A = It->find(PV); A != It->end())
          return A->second;
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (LoopVars.count(VD))
        return AffineExpr::variable(VD->getNameAsString());
      if (!VD->getType()->isIntegralOrEnumerationType())
        return fail(E, "not an integer");
      if (isa<ParmVarDecl>(VD)) {
        if (Modified.count(VD))
          return fail(E, "parameter modified in the kernel");
        return AffineExpr::constant(SymPoly::symbol(VD->getNameAsString()));
      }
      // A local narrower than int keeps its initializer's value only when
      // it fits (`unsigned char ld = n * 5` wraps at 256): not affine in
      // what initializes it.
      if (VD->hasLocalStorage() && Ctx.getTypeSize(VD->getType()) < 32)
        return fail(E, "variable '" + VD->getNameAsString() +
                           "' is narrower than int");
      if (VD->hasLocalStorage() && !Modified.count(VD) && VD->getInit())
        return visit(VD->getInit(), Depth + 1);
      if (auto It = SingleAssignments.find(VD); It != SingleAssignments.end()) {
        const SourceManager &SM = Ctx.getSourceManager();
        if (SM.isBeforeInTranslationUnit(It->second->getEndLoc(),
                                         DRE->getBeginLoc()))
          return visit(It->second->getRHS(), Depth + 1);
        return fail(E, "variable '" + VD->getNameAsString() +
                           "' is read before its assignment");
      }
      if (Modified.count(VD))
        return fail(E, "variable '" + VD->getNameAsString() +
                           "' is modified in the kernel");
      return fail(E);
    }
    return fail(E);
  }

  // A field of a by-value struct parameter the kernel never changes
  // (`g.nx`) is fixed for the launch, like a scalar parameter.
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!ME->isArrow() && ME->getType()->isIntegralOrEnumerationType())
      if (const auto *Base =
              dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (const auto *PV = dyn_cast<ParmVarDecl>(Base->getDecl());
            PV && !Modified.count(PV) && Inlined.empty() &&
            PV->getType()->isRecordType())
          return AffineExpr::constant(SymPoly::symbol(
              PV->getNameAsString() + "." +
              ME->getMemberDecl()->getNameAsString()));
    return fail(E, "member of a value that may change");
  }

  if (isa<ArraySubscriptExpr>(E) || isa<UnaryOperator>(E))
    return fail(E, "value loaded from memory");
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (std::optional<AffineExpr> R = inlineHelper(Call, Depth))
      return R;
    return fail(E, "function call");
  }
  return fail(E);
}

std::optional<AffineExpr> AffineBuilder::inlineHelper(const CallExpr *Call,
                                                      unsigned Depth) {
  // A small pure device helper, `int gidx() { return blockIdx.x * ... }`:
  // one return of an expression over its parameters, which are never
  // modified. Its value is that expression with the arguments substituted.
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || isa<CXXMethodDecl>(FD) || Inlined.size() > 4)
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def->getReturnType()->isIntegralOrEnumerationType())
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return std::nullopt;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  if (!Ret || !Ret->getRetValue() || Call->getNumArgs() != Def->getNumParams())
    return std::nullopt;
  DenseSet<const VarDecl *> HelperModified = modifiedVariables(Body);
  std::map<const ParmVarDecl *, AffineExpr> Args;
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    if (HelperModified.count(P) || !P->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    std::optional<AffineExpr> A = visit(Call->getArg(I), Depth + 1);
    if (!A)
      return std::nullopt;
    Args.emplace(P, *A);
  }
  Inlined.push_back(std::move(Args));
  std::optional<AffineExpr> R = visit(Ret->getRetValue(), Depth + 1);
  Inlined.pop_back();
  return R;
}

} // namespace cro
