//===- AffineBuilder.h - turn a kernel's index expression into AffineExpr -===//
#ifndef CRO_ANALYSIS_AFFINEBUILDER_H
#define CRO_ANALYSIS_AFFINEBUILDER_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/AffineExpr.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <vector>

namespace cro {

/// Builds affine forms of expressions inside one kernel body.
///
/// Variables: threadIdx.*, blockIdx.*, and the loop induction variables the
/// caller registers. Symbols: blockDim.*, gridDim.*, scalar parameters and
/// template parameters, fields of unmodified by-value struct parameters.
/// Locals are replaced by their reaching definition where straight-line code
/// gives one: the initializer of a local never modified afterwards (`int row
/// = blockIdx.y * blockDim.y + threadIdx.y; A[row * K + k]`), or the single
/// top-level assignment of one declared without it (`int i; i = ...;`).
/// Calls of small pure helpers (`return <expr>;` only) are seen through, and
/// value-preserving integer casts are transparent.
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
  /// V is a local declared without an initializer and assigned exactly once,
  /// at the top level of the kernel: that assignment is its definition.
  bool definedOnce(const clang::VarDecl *V) const {
    return SingleAssignments.count(V);
  }

  Result build(const clang::Expr *E);

private:
  std::optional<AffineExpr> visit(const clang::Expr *E, unsigned Depth);
  std::optional<AffineExpr> fail(const clang::Expr *E,
                                 llvm::StringRef Why = "");
  std::optional<AffineExpr> inlineHelper(const clang::CallExpr *Call,
                                         unsigned Depth);

  const SourceText &Text;
  llvm::DenseSet<const clang::VarDecl *> Modified;
  llvm::DenseSet<const clang::VarDecl *> LoopVars;
  /// `v = e;` statements that are the only definition of v (see above).
  llvm::DenseMap<const clang::VarDecl *, const clang::BinaryOperator *>
      SingleAssignments;
  /// Parameter bindings of the helper calls being seen through.
  std::vector<std::map<const clang::ParmVarDecl *, AffineExpr>> Inlined;
  std::string FailReason;
};

} // namespace cro

#endif
