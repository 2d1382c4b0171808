//===- StmtQueries.h - questions about statements the analyses share -----===//
#ifndef CRO_ANALYSIS_STMTQUERIES_H
#define CRO_ANALYSIS_STMTQUERIES_H

#include "clang/AST/RecursiveASTVisitor.h"
#include <optional>
#include <set>
#include <string>

namespace cro {

/// The variable E names, through parentheses and value-preserving casts.
const clang::VarDecl *referencedVar(const clang::Expr *E);

/// S begins and ends in the file's own text, not inside a macro expansion,
/// so a rewrite can replace or copy it as spelled.
bool writtenAsIs(const clang::Stmt *S);

/// A counted loop with unit step: v from b up to e, exclusive or (for
/// `v <= e`) inclusive. Whatever the spelling: `for (T v = b; ...)` or `v`
/// declared before and assigned in the init (`int k; for (k = 0; ...)`),
/// `v < e`, `v <= e`, `e > v`, `e >= v`, and `++v`, `v++`, `v += 1`,
/// `v = v + 1`, `v = 1 + v`.
struct CanonicalFor {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Begin = nullptr, *End = nullptr;
  bool Inclusive = false;       ///< `v <= e`: the last value is e itself
  bool DeclaredOutside = false; ///< the init assigns a variable declared before
};
std::optional<CanonicalFor> canonicalFor(const clang::ForStmt *F,
                                         const clang::ASTContext &Ctx);

/// The loop's exclusive end as C text: `e` or, for an inclusive loop,
/// `(e) + 1` (no overflow where the original terminates: v would overflow).
std::string exclusiveEndText(const CanonicalFor &C, llvm::StringRef EndText);

/// Where the body reads V other than inside a for loop that assigns V in
/// its init before anything reads it and that does not contain Loop: a
/// rewrite that gives Loop its own variable leaves V unchanged for those
/// reads (a loop around Loop that assigns V itself still reads what Loop
/// left in V, in its condition and increment). The first such read, or
/// null.
const clang::DeclRefExpr *readOutsideItsLoops(const clang::VarDecl *V,
                                              const clang::Stmt *Body,
                                              const clang::ForStmt *Loop);

/// Every variable S names (locals, parameters, globals).
std::set<const clang::VarDecl *> referencedVars(const clang::Stmt *S);

/// Names that may mean different variables at different places of Body:
/// declared by two locals, or by a local and by a parameter or global that
/// Body also reads. Text spelled again elsewhere in Body (a condition, a
/// bound) is safe only when it names none of them.
std::set<std::string> ambiguousNames(const clang::Stmt *Body);

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
