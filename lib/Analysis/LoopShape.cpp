#include "cro/Analysis/LoopShape.h"
#include "cro/Analysis/AffineBuilder.h"
#include "cro/Analysis/StmtQueries.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>
#include <map>
#include <optional>
#include <set>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

/// A break or goto that leaves the loop whose body this is.
class ExitFinder : public NestCountingVisitor<ExitFinder> {
public:
  explicit ExitFinder(const SourceText &Text) : Text(Text) {}
  std::string Found;
  bool VisitBreakStmt(BreakStmt *S) {
    return Nest || fail(S, "the body leaves the loop with break");
  }
  bool VisitGotoStmt(GotoStmt *S) {
    return fail(S, "the body jumps with goto");
  }

protected:
  bool fail(const Stmt *S, const std::string &Why) {
    Found = Why + " at " + Text.location(S->getBeginLoc());
    return false;
  }
  const SourceText &Text;
};

/// Where a loop's body leaves it other than by running to its end: a break
/// or continue that binds to the loop, a return, a goto.
class BodyExitFinder : public NestCountingVisitor<BodyExitFinder> {
  using Base = NestCountingVisitor<BodyExitFinder>;

public:
  explicit BodyExitFinder(const SourceText &Text) : Text(Text) {}
  std::string Found;
  bool TraverseSwitchStmt(SwitchStmt *S) {
    ++Switches;
    bool R = Base::TraverseSwitchStmt(S);
    --Switches;
    return R;
  }
  bool VisitBreakStmt(BreakStmt *S) { return Nest || fail(S, "break"); }
  // A continue inside a switch (but no inner loop) continues this loop.
  bool VisitContinueStmt(ContinueStmt *S) {
    return Nest > Switches || fail(S, "continue");
  }
  bool VisitReturnStmt(ReturnStmt *S) { return fail(S, "return"); }
  bool VisitGotoStmt(GotoStmt *S) { return fail(S, "goto"); }

private:
  bool fail(const Stmt *S, StringRef What) {
    Found = What.str() + " at " + Text.location(S->getBeginLoc());
    return false;
  }
  const SourceText &Text;
  unsigned Switches = 0;
};

/// Whether the iterations of a nest body are independent: no early exits,
/// no barriers, writes only to locals of the body or to array elements.
class IndependenceChecker : public NestCountingVisitor<IndependenceChecker> {
public:
  IndependenceChecker(const SourceText &Text, const Stmt *Body)
      : Text(Text), Body(Body) {}
  std::string Refusal;
  struct Access {
    std::string Base, Index;
    const Expr *IndexExpr;
  };
  std::vector<Access> Writes, Reads;

  bool VisitReturnStmt(ReturnStmt *S) { return fail(S, "the body returns"); }
  bool VisitGotoStmt(GotoStmt *S) { return fail(S, "the body uses goto"); }
  bool VisitBreakStmt(BreakStmt *S) {
    return Nest || fail(S, "the body leaves the loop");
  }
  bool VisitContinueStmt(ContinueStmt *S) {
    return Nest || fail(S, "the body uses continue");
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    std::string Name = FD ? FD->getNameAsString() : "";
    if (StringRef(Name).contains("sync") ||
        StringRef(Name).starts_with("__shfl"))
      return fail(C, "the body synchronizes threads (" + Name + ")");
    if (StringRef(Name).starts_with("atomic"))
      return fail(C, "the body updates memory atomically");
    for (const Expr *A : C->arguments())
      if (A->getType()->isPointerType())
        return fail(C, "the body passes a pointer to '" + Name + "'");
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    return !B->isAssignmentOp() || write(B, B->getLHS());
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    return !U->isIncrementDecrementOp() || write(U, U->getSubExpr());
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    return !C->isAssignmentOp() || C->getNumArgs() == 0 ||
           write(C, C->getArg(0));
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    Reads.push_back({normalizeSpelling(Text.text(E->getBase())),
                     normalizeSpelling(Text.text(E->getIdx())), E->getIdx()});
    return true;
  }

private:
  bool write(const Stmt *S, const Expr *LHS) {
    LHS = LHS->IgnoreParenImpCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS)) {
      Writes.push_back({normalizeSpelling(Text.text(AS->getBase())),
                        normalizeSpelling(Text.text(AS->getIdx())),
                        AS->getIdx()});
      return true;
    }
    const VarDecl *V = referencedVar(LHS);
    const SourceManager &SM = Text.context().getSourceManager();
    if (V && V->hasLocalStorage() &&
        !SM.isBeforeInTranslationUnit(V->getLocation(), Body->getBeginLoc()))
      return true; // declared inside the body: each iteration has its own
    return fail(S, "the body writes '" + Text.text(LHS) +
                       "', declared outside the nest: reordering the "
                       "iterations would change it (or its rounding)");
  }
  bool fail(const Stmt *S, const std::string &Why) {
    Refusal = Why + " at " + Text.location(S->getBeginLoc());
    return false;
  }
  const SourceText &Text;
  const Stmt *Body;
};

class LoopShapes {
public:
  LoopShapes(const FunctionDecl *Kernel, const SourceText &Text,
             KernelInfo &Info)
      : Kernel(Kernel), Text(Text), Info(Info) {}

  void run(const Stmt *S) {
    if (!S)
      return;
    if (const auto *F = dyn_cast<ForStmt>(S))
      describe(F);
    if (const auto *W = dyn_cast<WhileStmt>(S))
      describe(W);
    for (const Stmt *C : S->children())
      run(C);
  }

private:
  LoopInfo *loopAt(const Stmt *S, StringRef Kind = "for") {
    unsigned Offset = Text.span(S->getSourceRange()).BeginOffset;
    for (LoopInfo &L : Info.Loops)
      if (L.Span.BeginOffset == Offset && L.Kind == Kind)
        return &L;
    return nullptr;
  }

  /// BodyExit and BodyChanges of a loop whose body is Body; Step, when
  /// set, is the body's step statement, whose change is the loop's own.
  /// Returns the variables behind BodyChanges, in the same order.
  std::vector<const VarDecl *> describeBody(const Stmt *Body, const Stmt *Step,
                                            LoopInfo &L) {
    BodyExitFinder X(Text);
    X.TraverseStmt(const_cast<Stmt *>(Body));
    L.BodyExit = X.Found;
    DenseSet<const VarDecl *> Changed;
    auto Collect = [&](const Stmt *S) {
      for (const VarDecl *V : modifiedVariables(S))
        Changed.insert(V);
    };
    if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
      for (const Stmt *S : CS->body())
        if (S != Step)
          Collect(S);
    } else {
      Collect(Body);
    }
    const SourceManager &SM = Text.context().getSourceManager();
    std::vector<const VarDecl *> Outside;
    for (const VarDecl *V : Changed)
      if (SM.isBeforeInTranslationUnit(V->getLocation(), Body->getBeginLoc()))
        Outside.push_back(V);
    std::sort(Outside.begin(), Outside.end(),
              [&](const VarDecl *A, const VarDecl *B) {
                return SM.isBeforeInTranslationUnit(A->getLocation(),
                                                    B->getLocation());
              });
    L.BodyChanges.clear();
    for (const VarDecl *V : Outside)
      L.BodyChanges.push_back("'" + V->getNameAsString() + "' at " +
                              Text.location(V->getLocation()));
    return Outside;
  }

  /// Accumulator and AccumulatorType of a loop whose body is Body, given
  /// the variables declared outside it that the body changes; when it
  /// changes none, the element form (describeAccumulatedElement), where
  /// HeaderChanges are the variables the loop's header changes.
  void describeAccumulator(const Stmt *Body,
                           const std::vector<const VarDecl *> &Changed,
                           LoopInfo &L, const VarDecl *LoopVar,
                           const DenseSet<const VarDecl *> &HeaderChanges) {
    L.Accumulator.clear();
    L.AccumulatorType.clear();
    L.AccumulatorCombine.clear();
    L.AccumulatedElement.clear();
    L.AccumulatedSites.clear();
    if (llvm::is_contained(Changed, LoopVar))
      return; // the body steps its own counter
    if (Changed.empty())
      return describeAccumulatedElement(Body, L, LoopVar, HeaderChanges);
    if (Changed.size() != 1)
      return; // two variables change
    const VarDecl *Acc = Changed.front();
    // In a template kernel, a sum of a dependent type (`T sum`) is what
    // the launches instantiate it with.
    std::string Types = Acc->getType()->isDependentType()
                            ? instantiatedTypes(Acc)
                            : arithmeticType(Acc->getType());
    if (Types.empty())
      return;
    // Every reference to Acc is the left side of an addition into it, or
    // of a maximum or minimum taken into it (`acc = fmaxf(acc, e)`): all
    // of one kind.
    struct Finder : RecursiveASTVisitor<Finder> {
      const VarDecl *Acc;
      const SourceText *Text;
      unsigned Adds = 0, Refs = 0;
      bool Bad = false;
      std::optional<std::string> Combine; ///< "" adds; else the callee
      void kind(const std::string &K) {
        if (Combine && *Combine != K)
          Bad = true;
        Combine = K;
      }
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        Refs += E->getDecl() == Acc;
        return true;
      }
      bool VisitCompoundAssignOperator(CompoundAssignOperator *B) {
        if (referencedVar(B->getLHS()) != Acc)
          return true;
        if (B->getOpcode() != BO_AddAssign && B->getOpcode() != BO_SubAssign)
          Bad = true;
        else if (referencedVars(B->getRHS()).count(Acc))
          Bad = true;
        else
          ++Adds;
        kind("");
        return true;
      }
      /// acc = f(acc, e) or f(e, acc), f a maximum or minimum (fmaxf, fmax,
      /// fminf, fmin, max, min -- CUDA's, the C library's or std::, not a
      /// function of the user's program of that name): the
      /// callee as spelled, so the combining step calls what the loop
      /// calls; "" when the call is not one.
      std::string maxMinCall(const Expr *E) {
        const auto *C = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
        if (!C || C->getNumArgs() != 2)
          return "";
        const Expr *Callee = C->getCallee()->IgnoreParenImpCasts();
        // The library's function, not one of the user's that happens to be
        // called max: only the library's is known to keep the larger value.
        auto Library = [&](const NamedDecl *D) {
          return !Text->inUserFile(D->getLocation());
        };
        std::string Name;
        if (const auto *D = dyn_cast<DeclRefExpr>(Callee)) {
          if (!Library(D->getDecl()))
            return "";
          Name = D->getDecl()->getNameAsString();
        } else if (const auto *U = dyn_cast<UnresolvedLookupExpr>(Callee)) {
          if (U->getNumDecls() == 0 || !llvm::all_of(U->decls(), Library))
            return "";
          Name = U->getName().getAsString();
        }
        static const char *MaxMin[] = {"fmaxf", "fmax", "fminf",
                                       "fmin",  "max",  "min"};
        if (llvm::none_of(MaxMin, [&](const char *M) { return Name == M; }))
          return "";
        bool L = referencedVar(C->getArg(0)) == Acc,
             R = referencedVar(C->getArg(1)) == Acc;
        if (L == R || referencedVars(C->getArg(L ? 1 : 0)).count(Acc))
          return "";
        return Text->text(Callee);
      }
      bool VisitBinaryOperator(BinaryOperator *B) {
        if (B->getOpcode() != BO_Assign || referencedVar(B->getLHS()) != Acc)
          return true;
        if (std::string F = maxMinCall(B->getRHS()); !F.empty()) {
          kind(F);
          Adds += 2; // the assignment's and the argument's references
          return true;
        }
        kind("");
        // acc = acc + e (or e + acc)
        const auto *Sum =
            dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
        if (!Sum || Sum->getOpcode() != BO_Add) {
          Bad = true;
          return true;
        }
        bool L = referencedVar(Sum->getLHS()) == Acc,
             R = referencedVar(Sum->getRHS()) == Acc;
        if (L == R ||
            referencedVars(L ? Sum->getRHS() : Sum->getLHS()).count(Acc))
          Bad = true;
        else
          Adds += 2; // the assignment's and the sum's references
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        if (U->isIncrementDecrementOp() &&
            referencedVar(U->getSubExpr()) == Acc)
          Bad = true;
        return true;
      }
    } Find;
    Find.Acc = Acc;
    Find.Text = &Text;
    Find.TraverseStmt(const_cast<Stmt *>(Body));
    if (Find.Bad || Find.Adds == 0 || Find.Refs != Find.Adds)
      return;
    L.Accumulator = Acc->getNameAsString();
    L.AccumulatorType = Types;
    L.AccumulatorCombine = Find.Combine.value_or("");
  }

  /// T, canonical and unqualified, when it is an arithmetic type that is
  /// not volatile; "" otherwise.
  static std::string arithmeticType(QualType T) {
    if (!T->isArithmeticType() || T.isVolatileQualified())
      return "";
    return T.getCanonicalType().getUnqualifiedType().getAsString();
  }

  /// The types V (declared in a template kernel with a dependent type) has
  /// in the kernel's instantiations, ", "-separated; "" when the kernel has
  /// none or one of them is not arithmetic.
  std::string instantiatedTypes(const VarDecl *V) {
    const FunctionTemplateDecl *FT = Kernel->getDescribedFunctionTemplate();
    if (!FT)
      return "";
    std::set<std::string> Types;
    for (const FunctionDecl *Spec : FT->specializations()) {
      if (!Spec->hasBody())
        continue;
      struct Find : RecursiveASTVisitor<Find> {
        SourceLocation At;
        const VarDecl *Found = nullptr;
        bool VisitVarDecl(VarDecl *D) {
          if (D->getLocation() == At)
            Found = D;
          return true;
        }
      } F;
      F.At = V->getLocation();
      F.TraverseStmt(Spec->getBody());
      std::string T = F.Found ? arithmeticType(F.Found->getType()) : "";
      if (T.empty())
        return "";
      Types.insert(T);
    }
    std::string Joined;
    for (const std::string &T : Types)
      Joined += (Joined.empty() ? "" : ", ") + T;
    return Joined;
  }

  /// AccumulatedElement, AccumulatedSites and AccumulatorType of a loop
  /// whose body changes no variable (see LoopInfo).
  void
  describeAccumulatedElement(const Stmt *Body, LoopInfo &L,
                             const VarDecl *LoopVar,
                             const DenseSet<const VarDecl *> &HeaderChanges) {
    struct Finder : RecursiveASTVisitor<Finder> {
      const SourceText &Text;
      const Stmt *Body;
      Finder(const SourceText &Text, const Stmt *Body)
          : Text(Text), Body(Body) {}
      const VarDecl *Base = nullptr;
      std::string Index;
      std::vector<const ArraySubscriptExpr *> Sites;
      unsigned BaseRefs = 0;
      bool Bad = false;
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        BaseRefs += Base && E->getDecl() == Base;
        return true;
      }
      bool VisitBinaryOperator(BinaryOperator *B) {
        if (!B->isAssignmentOp())
          return true;
        // A local of the body is each iteration's own.
        if (const VarDecl *V = referencedVar(B->getLHS());
            V && V->hasLocalStorage() &&
            !Text.context().getSourceManager().isBeforeInTranslationUnit(
                V->getLocation(), Body->getBeginLoc()))
          return true;
        const auto *AS =
            dyn_cast<ArraySubscriptExpr>(B->getLHS()->IgnoreParenImpCasts());
        const VarDecl *V =
            AS ? referencedVar(AS->getBase()->IgnoreParenImpCasts()) : nullptr;
        if (!V || (B->getOpcode() != BO_AddAssign &&
                   B->getOpcode() != BO_SubAssign)) {
          Bad = true; // a write that is not an addition to an element
          return true;
        }
        std::string I = normalizeSpelling(Text.text(AS->getIdx()));
        if (Base && (V != Base || I != Index))
          Bad = true; // two elements
        Base = V;
        Index = I;
        Sites.push_back(AS);
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        if (U->isIncrementDecrementOp() &&
            !isa<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
          Bad = true; // `p[k]++`; a local's `++` the caller already judged
        return true;
      }
      bool VisitCallExpr(CallExpr *C) {
        Bad = true; // may write memory the model does not see
        return true;
      }
    } Find(Text, Body);
    Find.TraverseStmt(const_cast<Stmt *>(Body));
    if (Find.Bad || !Find.Base || !isa<ParmVarDecl>(Find.Base) ||
        !Find.Base->getType()->isPointerType())
      return;
    // Count the references to the array now that it is known: only the
    // sites may name it.
    Find.BaseRefs = 0;
    Find.Sites.clear();
    Find.TraverseStmt(const_cast<Stmt *>(Body));
    if (Find.BaseRefs != Find.Sites.size())
      return;
    // The index: the same element every iteration, computable before the
    // loop (variables declared before the body, none the loop changes --
    // in its body, which changes none, or in its header: `k++, j++`).
    const SourceManager &SM = Text.context().getSourceManager();
    for (const VarDecl *V : referencedVars(Find.Sites.front()->getIdx()))
      if (V == LoopVar || HeaderChanges.contains(V) ||
          !SM.isBeforeInTranslationUnit(V->getLocation(), Body->getBeginLoc()))
        return;
    if (!isPure(Find.Sites.front()->getIdx()))
      return;
    QualType T = Find.Sites.front()->getType();
    if (!T->isArithmeticType() || T.isVolatileQualified())
      return;
    L.AccumulatedElement = Text.text(Find.Sites.front());
    for (const ArraySubscriptExpr *AS : Find.Sites)
      L.AccumulatedSites.push_back(Text.span(AS->getSourceRange()));
    L.AccumulatorType = T.getCanonicalType().getUnqualifiedType().getAsString();
  }

  void describe(const WhileStmt *W) {
    LoopInfo *L = loopAt(W, "while");
    if (!L)
      return;
    L->Header = Text.span(SourceRange(W->getBeginLoc(), W->getRParenLoc()));
    L->Body = Text.statementSpan(W->getBody());
    const Stmt *Step = nullptr;
    // describeWhile found the induction variable where the body's last
    // statement steps the variable the condition compares.
    if (const auto *CS = dyn_cast<CompoundStmt>(W->getBody());
        CS && !CS->body_empty() && !L->InductionVar.empty() &&
        !L->Step.empty()) {
      Step = CS->body_back();
      L->StepStatement = Text.statementSpan(Step);
    }
    describeBody(W->getBody(), Step, *L);
  }

  void describe(const ForStmt *F) {
    LoopInfo *L = loopAt(F);
    if (!L)
      return;
    L->Header = Text.span(SourceRange(F->getBeginLoc(), F->getRParenLoc()));
    L->Body = Text.statementSpan(F->getBody());
    std::vector<const VarDecl *> Changed =
        describeBody(F->getBody(), nullptr, *L);
    const std::optional<CanonicalFor> C = canonicalFor(F, Text.context());
    L->StripMineRefusal = stripMineRefusal(F, C, *L);
    if (L->StripMineRefusal.empty() && C->Begin && F->getInc()) {
      L->StartValue = Text.span(C->Begin->getSourceRange());
      L->Increment = Text.span(F->getInc()->getSourceRange());
    }
    const VarDecl *LoopVar = C ? C->Var : nullptr;
    DenseSet<const VarDecl *> HeaderChanges;
    for (const Stmt *Part : {static_cast<const Stmt *>(F->getCond()),
                             static_cast<const Stmt *>(F->getInc())})
      if (Part)
        for (const VarDecl *V : modifiedVariables(Part))
          HeaderChanges.insert(V);
    describeAccumulator(F->getBody(), Changed, *L, LoopVar, HeaderChanges);
    L->InnerLoop.clear();
    L->InterchangeRefusal.clear();
    const Stmt *B = F->getBody();
    if (const auto *CS = dyn_cast<CompoundStmt>(B); CS && CS->size() == 1)
      B = CS->body_front();
    const auto *G = dyn_cast<ForStmt>(B);
    const LoopInfo *Inner = G ? loopAt(G) : nullptr;
    if (!Inner)
      return;
    L->InnerLoop = Inner->Id;
    L->InterchangeRefusal = interchangeRefusal(C, G, *L);
  }

  /// Why loop F (whose canonical form is C) cannot be strip-mined, or "".
  std::string stripMineRefusal(const ForStmt *F,
                               const std::optional<CanonicalFor> &C,
                               LoopInfo &L) {
    if (F->getBeginLoc().isMacroID() || F->getBody()->getBeginLoc().isMacroID())
      return "the loop is written with a macro";
    if (!C)
      return "the loop does not count up by one from a start to a bound it "
             "compares with <, <=, > or >=";
    L.VarType = C->Var->getType().getAsString();
    if (C->DeclaredOutside)
      if (const DeclRefExpr *Read =
              readOutsideItsLoops(C->Var, Kernel->getBody(), F))
        return "'" + C->Var->getNameAsString() + "' is read at " +
               Text.location(Read->getBeginLoc()) +
               ", outside the loops that assign it, and the tiled loop "
               "counts with a variable of its own";
    DenseSet<const VarDecl *> Modified = modifiedVariables(F->getBody());
    if (Modified.count(C->Var))
      return "the body changes the loop variable";
    if (!isPure(C->End))
      return "the bound reads memory or calls a function";
    for (const VarDecl *V : referencedVars(C->End))
      if (Modified.count(V))
        return "the body changes '" + V->getNameAsString() +
               "', which the bound is computed from";
    ExitFinder X(Text);
    X.TraverseStmt(const_cast<Stmt *>(F->getBody()));
    return X.Found;
  }

  /// Why the outer loop (canonical form CF, described in L) cannot be
  /// interchanged with its inner loop G, or "".
  std::string interchangeRefusal(const std::optional<CanonicalFor> &CF,
                                 const ForStmt *G, LoopInfo &L) {
    if (!L.StripMineRefusal.empty())
      return L.StripMineRefusal; // CF is known from here on
    std::optional<CanonicalFor> CG = canonicalFor(G, Text.context());
    if (!CG || !isPure(CG->End) || !isPure(CG->Begin))
      return "the inner loop does not count up by one between bounds in "
             "registers";
    std::set<const VarDecl *> GBounds = referencedVars(CG->Begin);
    std::set<const VarDecl *> GEnd = referencedVars(CG->End);
    GBounds.insert(GEnd.begin(), GEnd.end());
    if (GBounds.count(CF->Var))
      return "the inner loop's bounds depend on the outer loop's variable";
    const Stmt *S = G->getBody();
    DenseSet<const VarDecl *> Modified = modifiedVariables(S);
    for (const VarDecl *V : GBounds)
      if (Modified.count(V))
        return "the body changes what the inner loop's bounds are computed "
               "from";
    IndependenceChecker Ind(Text, S);
    Ind.TraverseStmt(const_cast<Stmt *>(S));
    if (!Ind.Refusal.empty())
      return Ind.Refusal;

    // Each written element belongs to one iteration: index = v*E_w + w or
    // w*E_v + v with 0-based loops, and every access to that array uses it.
    AffineBuilder Affine(Text, Kernel);
    Affine.addLoopVariable(CF->Var);
    Affine.addLoopVariable(CG->Var);
    std::set<std::string> Written;
    for (const auto &W : Ind.Writes) {
      Written.insert(W.Base);
      AffineBuilder::Result R = Affine.build(W.IndexExpr);
      if (!R.Form)
        return "the index of '" + W.Base + "' is not affine";
      std::string V = CF->Var->getNameAsString(),
                  Wn = CG->Var->getNameAsString();
      auto Extent = [&](const CanonicalFor &C) -> std::optional<SymPoly> {
        if (C.Inclusive || evaluateInt(C.Begin, Text.context()) != 0)
          return std::nullopt;
        AffineBuilder::Result E = Affine.build(C.End);
        if (!E.Form || E.Form->hasVariables())
          return std::nullopt;
        return E.Form->constantPart();
      };
      std::optional<SymPoly> EF = Extent(*CF), EG = Extent(*CG);
      const AffineExpr &Fm = *R.Form;
      bool RowMajor = EG && Fm.coefficient(Wn).constantValue() == 1 &&
                      Fm.coefficient(V) == *EG;
      bool ColMajor = EF && Fm.coefficient(V).constantValue() == 1 &&
                      Fm.coefficient(Wn) == *EF;
      if (!RowMajor && !ColMajor)
        return "cannot prove that each iteration writes its own element of '" +
               W.Base + "' (index " + W.Index + ")";
      for (const auto &A : Ind.Reads)
        if (A.Base == W.Base && A.Index != W.Index)
          return "'" + W.Base + "' is read at " + A.Index +
                 ", another iteration's element";
      for (const auto &B : Ind.Writes)
        if (B.Base == W.Base && B.Index != W.Index)
          return "'" + W.Base + "' is written at two indices";
    }
    // Another pointer may name the same memory as a written array.
    for (const std::string &Base : Written) {
      const ParamInfo *P = nullptr;
      for (const ParamInfo &PI : Info.Params)
        if (PI.Name == Base)
          P = &PI;
      for (const auto &A : Ind.Reads) {
        if (Written.count(A.Base))
          continue;
        for (const ParamInfo &Q : Info.Params)
          if (Q.Name == A.Base && Q.IsPointer &&
              !(P && P->IsRestrict && Q.IsRestrict))
            L.InterchangeAliasing = "'" + A.Base + "' may point into '" + Base +
                                    "' (neither is __restrict__); pass "
                                    "--assume-no-alias if they never overlap";
      }
    }
    return "";
  }

  const FunctionDecl *Kernel;
  const SourceText &Text;
  KernelInfo &Info;
};

} // namespace

void analyzeLoopShapes(const FunctionDecl *Kernel, const SourceText &Text,
                       KernelInfo &Info) {
  if (!Kernel->getBody())
    return;
  LoopShapes(Kernel, Text, Info).run(Kernel->getBody());
}

} // namespace cro
