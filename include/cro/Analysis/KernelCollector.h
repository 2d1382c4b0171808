//===- KernelCollector.h - find the __global__ functions of the main file -===//
#ifndef CRO_ANALYSIS_KERNELCOLLECTOR_H
#define CRO_ANALYSIS_KERNELCOLLECTOR_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include "clang/AST/Decl.h"
#include <vector>

namespace cro {

/// Kernel definitions (template patterns, not instantiations) written in the
/// main file, in source order.
std::vector<const clang::FunctionDecl *>
collectKernelDefinitions(clang::ASTContext &Ctx, const SourceText &Text);

/// Fills name, location, span, parameters (without access modes) and
/// template parameters of Info from the kernel's declaration.
void describeKernelSignature(const clang::FunctionDecl *Kernel,
                             const SourceText &Text, KernelInfo &Info);

} // namespace cro

#endif
