//===- KernelSelection.h - `--kernel`: tune only the kernels named --------===//
#ifndef CRO_COMMANDS_KERNELSELECTION_H
#define CRO_COMMANDS_KERNELSELECTION_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Rewrite/Transform.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace cro {

/// Keeps in M only the kernels Kernels names (by name or id), and in
/// Offered only their knobs and refusals and the file-wide ones; nothing
/// when Kernels is empty. A name no kernel has, or any name when Clang could
/// not parse the file, is an UnknownKernel error that lists the kernels.
llvm::Error selectKernels(llvm::ArrayRef<std::string> Kernels, KernelModel &M,
                          KnobSet &Offered);

} // namespace cro

#endif
