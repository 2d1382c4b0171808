//===- BlockIndexReads.h - where a kernel reads its block's number --------===//
//
// A kernel learns which part of the grid it is through blockIdx and gridDim.
// A rewrite that has one block do the work of several consecutive original
// blocks (coarsen's block form) replaces each read of blockIdx.d by the
// number of the original block being worked on, and each read of gridDim.d
// by the original grid's extent: the body then computes exactly what the
// original blocks did, whatever it derives from those numbers. That is
// possible only where every read is in the kernel's own text; a read inside
// a macro, a device function or inline assembly is an obstacle, named here.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_ANALYSIS_BLOCKINDEXREADS_H
#define CRO_ANALYSIS_BLOCKINDEXREADS_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include "clang/AST/Decl.h"

namespace cro {

/// Fills Info.BlockReads from the kernel's body and the device functions it
/// calls. Needs Info.BodySpan.
void analyzeBlockIndexReads(const clang::FunctionDecl *Kernel,
                            const SourceText &Text, KernelInfo &Info);

} // namespace cro

#endif
