//===- BodyAnalysis.h - loops, memory accesses and couplings of a kernel --===//
#ifndef CRO_ANALYSIS_BODYANALYSIS_H
#define CRO_ANALYSIS_BODYANALYSIS_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include "clang/AST/Decl.h"

namespace cro {

/// Fills Loops, Accesses, SharedArrays, BlockDimUses, the Uses* flags and
/// each pointer parameter's Access of Info from the kernel's body.
void analyzeKernelBody(const clang::FunctionDecl *Kernel,
                       const SourceText &Text, KernelInfo &Info);

/// Fills Couplings and HardcodedSize: uses in the body of the macros,
/// constants and template parameters that set the block size at Info's
/// launches, and literals equal to that block size. Needs Info.Launches.
void analyzeBlockCoupling(const clang::FunctionDecl *Kernel,
                          const SourceText &Text, KernelInfo &Info);

} // namespace cro

#endif
