//===- BlockSum.h - kernels that add one value per thread into a total ----===//
//
// A reduction kernel written the plain way gives each thread one element:
// it computes a value, the block combines its threads' values (a tree of
// additions in shared memory) and adds the result to a total with
// atomicAdd, or every thread adds its value to the total directly. Each
// block then does little work and waits on one load per thread. Since the
// total is a sum of the threads' values with weights that do not depend on
// the block, a thread can add up its values of several original blocks
// before the block combines them. This analysis proves that shape on the
// AST (BlockSumInfo says what it found, or why not).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_ANALYSIS_BLOCKSUM_H
#define CRO_ANALYSIS_BLOCKSUM_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include "clang/AST/Decl.h"

namespace cro {

/// Fills Info.BlockSum. Needs Info's accesses and atomics.
void analyzeBlockSum(const clang::FunctionDecl *Kernel, const SourceText &Text,
                     KernelInfo &Info);

} // namespace cro

#endif
