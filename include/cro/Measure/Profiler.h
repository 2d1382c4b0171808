//===- Profiler.h - hardware metrics from Nsight Compute, when present ----===//
//
// For the candidates the search asks about: each target kernel's first
// launch is profiled with `ncu --csv --page raw`, giving achieved DRAM
// bandwidth and SM throughput as a percentage of the GPU's peak, achieved
// occupancy, and the kernel's duration under the profiler.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_MEASURE_PROFILER_H
#define CRO_MEASURE_PROFILER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <vector>

namespace cro {

/// kernel name -> metric name -> value (first launch of each kernel).
using KernelMetrics = std::map<std::string, std::map<std::string, double>>;

/// The metrics asked of ncu.
const std::vector<std::string> &profilerMetrics();

/// Parses `ncu --csv --page raw` output. Kernel names are reduced to their
/// base names ("ns::k" without parameters or template arguments).
KernelMetrics parseNcuCsv(llvm::StringRef Csv);

/// Nsight Compute's command line: the toolkit's at CudaRoot, else ncu on
/// PATH, else the toolkit's path (profileWithNcu then says it is missing).
std::string findNcu(llvm::StringRef CudaRoot);

/// Runs Exe under ncu for Kernels. Errors when ncu is missing or fails
/// (for instance without permission to read the GPU's counters).
llvm::Expected<KernelMetrics>
profileWithNcu(const std::string &Ncu, const std::string &Exe,
               const std::vector<std::string> &Args,
               const std::vector<std::string> &Kernels, double TimeoutSeconds);

} // namespace cro

#endif
