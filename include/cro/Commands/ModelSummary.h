//===- ModelSummary.h - what the tool prints for a file by default --------===//
#ifndef CRO_COMMANDS_MODELSUMMARY_H
#define CRO_COMMANDS_MODELSUMMARY_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Frontend/LocalGpu.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace cro {

/// The human-readable summary of M printed when no mode is given: each
/// kernel's launches (with where their sizes come from), loops, accesses
/// and block-size couplings, and what a GPU (Gpu, or none) allows next.
void printModelSummary(const KernelModel &M,
                       const std::optional<LocalGpu> &Gpu,
                       llvm::raw_ostream &OS);

} // namespace cro

#endif
