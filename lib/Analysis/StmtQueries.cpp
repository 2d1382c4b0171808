#include "cro/Analysis/StmtQueries.h"

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

bool isPure(const Stmt *S) {
  ImpurityFinder F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return !F.Impure;
}

} // namespace cro
