//===- ThreadMapping.h - the shape the memory-hierarchy transforms rewrite ===//
//
// Coarsening, shared-memory staging and register tiling all rewrite the same
// kind of kernel: each thread computes its global index per dimension, an
// optional guard keeps it inside the domain, and the rest is the work. This
// analysis finds that shape (or says why a kernel does not have it) and, in
// the work, a reduction loop those transforms can restructure.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_ANALYSIS_THREADMAPPING_H
#define CRO_ANALYSIS_THREADMAPPING_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include "clang/AST/Decl.h"

namespace cro {

/// How MustAccesses names an element: spelling without whitespace.
std::string accessKey(llvm::StringRef Base, llvm::StringRef Index);

/// A bound's value as ThreadMapping::BoundForm (one symbol with
/// coefficient 1 plus a constant, or a constant), when F has that shape.
std::optional<ThreadMapping::BoundForm> boundFormOf(const AffineExpr &F);

/// Fills Info.Mapping from the kernel's body. Needs Info.Loops and
/// Info.Launches (a constant block factor must match the launches).
void analyzeThreadMapping(const clang::FunctionDecl *Kernel,
                          const SourceText &Text, KernelInfo &Info);

} // namespace cro

#endif
