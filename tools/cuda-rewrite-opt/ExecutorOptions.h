//===- ExecutorOptions.h - --executor, --gpus and the Slurm options -------===//
#ifndef CRO_TOOL_EXECUTOROPTIONS_H
#define CRO_TOOL_EXECUTOROPTIONS_H

#include "cro/Execute/Executor.h"
#include "llvm/Support/CommandLine.h"
#include <memory>
#include <vector>

namespace cro {

/// The options' own section of --help.
llvm::cl::OptionCategory &executorCategory();

/// The options themselves (for the check that every option given does
/// something in the mode asked for).
std::vector<const llvm::cl::Option *> executorOptions();

/// The executor the options ask for; nullptr when they ask for nothing
/// (this host, the tool's own environment: the tool as it always ran). An
/// error for a bad --gpus or a Slurm option without --executor slurm.
/// With --gpus, this process's own CUDA_VISIBLE_DEVICES becomes the first
/// chosen GPU, so that what runs outside the slots (the GPU probe, the
/// profiler) runs on slot 0's GPU.
llvm::Expected<std::unique_ptr<Executor>> executorFromOptions();

} // namespace cro

#endif
