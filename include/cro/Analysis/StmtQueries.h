//===- StmtQueries.h - questions about statements the analyses share -----===//
#ifndef CRO_ANALYSIS_STMTQUERIES_H
#define CRO_ANALYSIS_STMTQUERIES_H

#include "clang/AST/RecursiveASTVisitor.h"
#include <optional>

namespace cro {

/// The variable E names, through parentheses and value-preserving casts.
const clang::VarDecl *referencedVar(const clang::Expr *E);

/// `for (T v = b; v < e; ++v)` (or v++, v += 1): v, b and e.
struct CanonicalFor {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Begin = nullptr, *End = nullptr;
};
std::optional<CanonicalFor> canonicalFor(const clang::ForStmt *F,
                                         const clang::ASTContext &Ctx);

/// True when S only combines values already in registers: no memory read
/// (subscript, dereference), no call, no assignment or increment.
bool isPure(const clang::Stmt *S);

/// A visitor that knows how many loops and switches it is inside (where
/// `break` and `continue` bind, and where `return` leaves more than one
/// iteration).
template <typename Derived>
class NestCountingVisitor : public clang::RecursiveASTVisitor<Derived> {
  using Base = clang::RecursiveASTVisitor<Derived>;

public:
  unsigned Nest = 0;
#define CRO_NESTED(KIND)                                                       \
  bool Traverse##KIND(clang::KIND *S) {                                        \
    ++Nest;                                                                    \
    bool R = Base::Traverse##KIND(S);                                          \
    --Nest;                                                                    \
    return R;                                                                  \
  }
  CRO_NESTED(ForStmt)
  CRO_NESTED(WhileStmt)
  CRO_NESTED(DoStmt)
  CRO_NESTED(SwitchStmt)
  CRO_NESTED(CXXForRangeStmt)
#undef CRO_NESTED
};

} // namespace cro

#endif
