#include "cro/Analysis/StmtQueries.h"
#include "cro/Analysis/ASTHelpers.h"
#include <functional>
#include <map>

using namespace clang;

namespace cro {

namespace {

class ImpurityFinder : public RecursiveASTVisitor<ImpurityFinder> {
public:
  bool Impure = false;
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *) {
    return !(Impure = true);
  }
  bool VisitCallExpr(CallExpr *) { return !(Impure = true); }
  // `p->x` reads memory; so does a variable that is a reference.
  bool VisitMemberExpr(MemberExpr *M) {
    if (M->isArrow())
      Impure = true;
    return !Impure;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
        V && V->getType()->isReferenceType())
      Impure = true;
    return !Impure;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_Deref || U->isIncrementDecrementOp())
      Impure = true;
    return !Impure;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      Impure = true;
    return !Impure;
  }
};

} // namespace

const VarDecl *referencedVar(const Expr *E) {
  if (const auto *DR = dyn_cast<DeclRefExpr>(stripCasts(E)))
    return dyn_cast<VarDecl>(DR->getDecl());
  return nullptr;
}

std::optional<CanonicalFor> canonicalFor(const ForStmt *F,
                                         const ASTContext &Ctx) {
  CanonicalFor C;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
      DS && DS->isSingleDecl()) {
    C.Var = dyn_cast<VarDecl>(DS->getSingleDecl());
    C.Begin = C.Var ? C.Var->getInit() : nullptr;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(
                 dyn_cast_or_null<Expr>(F->getInit())
                     ? cast<Expr>(F->getInit())->IgnoreParens()
                     : nullptr);
             BO && BO->getOpcode() == BO_Assign) {
    C.Var = referencedVar(BO->getLHS());
    C.Begin = BO->getRHS();
    C.DeclaredOutside = true;
    // A variable of the kernel: one of an enclosing scope could be read by
    // code the analysis does not see.
    if (C.Var && !C.Var->hasLocalStorage())
      return std::nullopt;
  }
  if (!C.Var || !C.Begin || !C.Var->getType()->isIntegerType() ||
      C.Var->getType()->isReferenceType())
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond)
    return std::nullopt;
  BinaryOperatorKind Op = Cond->getOpcode();
  if (referencedVar(Cond->getLHS()) == C.Var && (Op == BO_LT || Op == BO_LE)) {
    C.End = Cond->getRHS();
  } else if (referencedVar(Cond->getRHS()) == C.Var &&
             (Op == BO_GT || Op == BO_GE)) {
    C.End = Cond->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  } else {
    return std::nullopt;
  }
  C.Inclusive = Op == BO_LE;
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  auto IsOne = [&](const Expr *E) { return evaluateInt(E, Ctx) == 1; };
  bool Unit = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    Unit = U->isIncrementOp() && referencedVar(U->getSubExpr()) == C.Var;
  else if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    Unit = B->getOpcode() == BO_AddAssign &&
           referencedVar(B->getLHS()) == C.Var && IsOne(B->getRHS());
  else if (const auto *B = dyn_cast_or_null<BinaryOperator>(Inc);
           B && B->getOpcode() == BO_Assign &&
           referencedVar(B->getLHS()) == C.Var)
    if (const auto *Sum =
            dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
        Sum && Sum->getOpcode() == BO_Add)
      Unit = (referencedVar(Sum->getLHS()) == C.Var && IsOne(Sum->getRHS())) ||
             (referencedVar(Sum->getRHS()) == C.Var && IsOne(Sum->getLHS()));
  if (!Unit)
    return std::nullopt;
  return C;
}

std::string exclusiveEndText(const CanonicalFor &C, llvm::StringRef EndText) {
  if (!C.Inclusive)
    return EndText.str();
  return "(" + EndText.str() + ") + 1";
}

namespace {

class OutsideReads : public RecursiveASTVisitor<OutsideReads> {
public:
  OutsideReads(const VarDecl *V, const ForStmt *Loop) : V(V), Loop(Loop) {}
  const DeclRefExpr *Found = nullptr;
  bool TraverseForStmt(ForStmt *F) {
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(
            dyn_cast_or_null<Expr>(F->getInit())
                ? cast<Expr>(F->getInit())->IgnoreParens()
                : nullptr);
        BO && BO->getOpcode() == BO_Assign &&
        referencedVar(BO->getLHS()) == V && !mentions(BO->getRHS()) &&
        (F == Loop ||
         !F->getSourceRange().fullyContains(Loop->getSourceRange())))
      return true; // assigns V before anything in it reads V
    return RecursiveASTVisitor::TraverseForStmt(F);
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    // `V = e` writes V (e itself is visited on its own).
    if (B->getOpcode() == BO_Assign)
      if (const auto *D = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
          D && D->getDecl() == V)
        Written.insert(D);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (D->getDecl() == V && !Written.count(D) && !Found)
      Found = D;
    return !Found;
  }

private:
  bool mentions(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == V)
      return true;
    for (const Stmt *C : S->children())
      if (mentions(C))
        return true;
    return false;
  }
  const VarDecl *V;
  const ForStmt *Loop;
  llvm::DenseSet<const DeclRefExpr *> Written;
};

} // namespace

const DeclRefExpr *readOutsideItsLoops(const VarDecl *V, const Stmt *Body,
                                       const ForStmt *Loop) {
  OutsideReads R(V, Loop);
  R.TraverseStmt(const_cast<Stmt *>(Body));
  return R.Found;
}

bool writtenAsIs(const Stmt *S) {
  return S->getBeginLoc().isFileID() && S->getEndLoc().isFileID();
}

std::set<const VarDecl *> referencedVars(const Stmt *S) {
  std::set<const VarDecl *> Out;
  if (!S)
    return Out;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      Out.insert(V);
  for (const Stmt *C : S->children()) {
    std::set<const VarDecl *> Sub = referencedVars(C);
    Out.insert(Sub.begin(), Sub.end());
  }
  return Out;
}

std::set<std::string> ambiguousNames(const Stmt *Body) {
  std::map<std::string, unsigned> Locals;
  std::set<std::string> Others;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          ++Locals[V->getNameAsString()];
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && (isa<ParmVarDecl>(V) || !V->hasLocalStorage()))
        Others.insert(V->getNameAsString());
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  std::set<std::string> Ambiguous;
  for (const auto &[Name, N] : Locals)
    if (N > 1 || Others.count(Name))
      Ambiguous.insert(Name);
  return Ambiguous;
}

bool isPure(const Stmt *S) {
  ImpurityFinder F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return !F.Impure;
}

} // namespace cro
