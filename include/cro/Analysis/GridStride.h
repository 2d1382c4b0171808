//===- GridStride.h - kernels whose result does not depend on the grid ----===//
//
// A grid-stride loop
//     for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
//          i += blockDim.x * gridDim.x)
// visits every index below n exactly once over all threads, for any number
// of blocks. When that is the only way a kernel reads blockIdx.x, gridDim.x
// and threadIdx.x, its loops carry nothing from one index to the next, and
// nothing outside them writes memory, then the grid's extent along x is
// free: a launch with fewer blocks computes the same outputs, each thread
// taking more of the indices. This analysis finds those dimensions, or says
// why a kernel with grid-stride loops does not have one.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_ANALYSIS_GRIDSTRIDE_H
#define CRO_ANALYSIS_GRIDSTRIDE_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include "clang/AST/Decl.h"

namespace cro {

/// Fills Info.GridStride from the kernel's body. Needs Info.Loops (to name
/// the loops it finds).
void analyzeGridStride(const clang::FunctionDecl *Kernel,
                       const SourceText &Text, KernelInfo &Info);

} // namespace cro

#endif
