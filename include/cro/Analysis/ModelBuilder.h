//===- ModelBuilder.h - the kernel model of a parsed file -----------------===//
#ifndef CRO_ANALYSIS_MODELBUILDER_H
#define CRO_ANALYSIS_MODELBUILDER_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Frontend/Frontend.h"

namespace cro {

/// Builds the model of PF's main file. Kernel bodies are read from the
/// device parse (what runs on the GPU, `__CUDA_ARCH__` code included);
/// launches from the host parse. Locations name the main file DisplayName.
KernelModel buildKernelModel(const ParsedFile &PF, llvm::StringRef DisplayName);

/// The model of a file Clang could not parse (PF.parsed() is false): no
/// kernels, Unparsed set to Clang's first error, and the program's text --
/// the main file and the user's files the preprocessor entered before the
/// parse stopped, so that the database identity still covers them.
KernelModel buildUnparsedModel(const ParsedFile &PF,
                               llvm::StringRef DisplayName);

} // namespace cro

#endif
