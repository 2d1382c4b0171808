#include "cro/Analysis/StmtQueries.h"
#include "cro/Analysis/ASTHelpers.h"

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
      DS && DS->isSingleDecl())
    C.Var = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!C.Var || !C.Var->getInit() || !C.Var->getType()->isIntegerType())
    return std::nullopt;
  C.Begin = C.Var->getInit();
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || Cond->getOpcode() != BO_LT ||
      referencedVar(Cond->getLHS()) != C.Var)
    return std::nullopt;
  C.End = Cond->getRHS();
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  bool Unit = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    Unit = U->isIncrementOp() && referencedVar(U->getSubExpr()) == C.Var;
  if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    Unit = B->getOpcode() == BO_AddAssign &&
           referencedVar(B->getLHS()) == C.Var &&
           evaluateInt(B->getRHS(), Ctx) == 1;
  if (!Unit)
    return std::nullopt;
  return C;
}

bool isPure(const Stmt *S) {
  ImpurityFinder F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return !F.Impure;
}

} // namespace cro
