//===- AffineBuilder.h - turn a kernel's index expression into AffineExpr -===//
#ifndef CRO_ANALYSIS_AFFINEBUILDER_H
#define CRO_ANALYSIS_AFFINEBUILDER_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/AffineExpr.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace cro {

/// Builds affine forms of expressions inside one kernel body.
///
/// Variables: threadIdx.*, blockIdx.*, and the loop induction variables the
/// caller registers. Symbols: blockDim.*, gridDim.*, scalar parameters and
/// template parameters. Local variables that are never modified after their
/// initialization are replaced by their initializer, so `int row =
/// blockIdx.y * blockDim.y + threadIdx.y; A[row * K + k]` is seen through.
class AffineBuilder {
public:
  struct Result {
    std::optional<AffineExpr> Form;
    std::string Reason; ///< "index not affine: <expr>" when Form is empty
  };

  AffineBuilder(const SourceText &Text, const clang::FunctionDecl *Kernel);

  /// Treat V as a variable named Name (a loop induction variable).
  void addLoopVariable(const clang::VarDecl *V) { LoopVars.insert(V); }
  bool isModified(const clang::VarDecl *V) const { return Modified.count(V); }

  Result build(const clang::Expr *E);

private:
  std::optional<AffineExpr> visit(const clang::Expr *E, unsigned Depth);
  std::optional<AffineExpr> fail(const clang::Expr *E,
                                 llvm::StringRef Why = "");

  const SourceText &Text;
  llvm::DenseSet<const clang::VarDecl *> Modified;
  llvm::DenseSet<const clang::VarDecl *> LoopVars;
  std::string FailReason;
};

} // namespace cro

#endif
