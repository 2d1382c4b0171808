//===- Runner.h - run a program under the CUPTI injection library ---------===//
#ifndef CRO_MEASURE_RUNNER_H
#define CRO_MEASURE_RUNNER_H

#include "cro/Execute/Executor.h"
#include "cro/Support/Process.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cro {

struct KernelRecord {
  std::string Kernel;
  uint64_t StartNs = 0, EndNs = 0;
  unsigned Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  unsigned Registers = 0;
  /// One of the measurement library's own replays, not a launch of the
  /// program.
  bool Replay = false;
  double ms() const { return (EndNs - StartNs) * 1e-6; }
};

struct ReplayRecord {
  std::string Kernel;
  int Launch = 0;
  unsigned Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  unsigned Registers = 0;
  /// Theoretical occupancy (CUDA occupancy API): resident threads per SM
  /// over the maximum; -1 when unknown.
  double Occupancy = -1;
  std::vector<double> TimesMs;
};

struct CaptureRecord {
  std::string Kernel;
  int Launch = 0;
  int Allocation = 0;
  std::vector<int> Args; ///< kernel arguments pointing into the allocation
  uint64_t Bytes = 0;
  /// "" when the run had a reference capture with the same bytes and
  /// checksum (RunOptions::CaptureReference): nothing was written.
  std::string File;
  /// XXH64 of the bytes, 16 hex digits ("" from a library that had none).
  std::string Checksum;
  /// Threads the launch started (grid times block) and its block's extents
  /// (0 from a library that did not report them).
  uint64_t Threads = 0;
  unsigned Block[3] = {0, 0, 0};
};

/// Whether two captures hold the same bytes by their checksums (both
/// known, same size): no need to read either file.
bool sameBytes(const CaptureRecord &A, const CaptureRecord &B);

struct RunOptions {
  std::vector<std::string> Args;          ///< program arguments
  /// Replayed and captured; "*" is every kernel (a program Clang could not
  /// parse, whose kernels the model does not name).
  std::vector<std::string> TargetKernels;
  std::string InjectionLibrary;
  std::string CudaRoot;   ///< its CUPTI is put on LD_LIBRARY_PATH
  std::string CaptureDir; ///< "" = no capture
  /// A file of another run's captures (writeCaptureReference): captures
  /// with the same bytes are reported by their checksum and not written.
  std::string CaptureReference;
  std::string WorkDir;    ///< where the output files go (must exist)
  int Replays = 0;        ///< 0 = automatic (~100 ms of wall time, >= 5)
  int MaxLaunches = 3;    ///< launches per kernel replayed
  int MaxCaptures = 8;    ///< launches per kernel captured and compared
  bool FlushL2 = false;
  double TimeoutSeconds = 300;
  /// Where the program runs (nullptr = this host, as the tool's own
  /// environment says), and the executor's slot (its GPU) that runs it.
  Executor *Via = nullptr;
  unsigned Slot = 0;
};

struct RunResult {
  ProcessResult Process;
  std::string Output; ///< the program's stdout and stderr
  std::vector<KernelRecord> Kernels;
  std::vector<ReplayRecord> Replays;
  std::vector<CaptureRecord> Captures;
  std::vector<std::string> Errors; ///< from the injection library
  bool InjectionStarted = false;
};

/// Runs Exe under the injection library. Errors only when nothing could be
/// run; crashes, timeouts and exit codes are in the result.
llvm::Expected<RunResult> runUnderInjection(const std::string &Exe,
                                            const RunOptions &Opts);

/// Writes the captures of one run of a program (one argument set: launches
/// as the library numbers them) in the form CRO_CAPTURE_REFERENCE reads;
/// captures without a checksum are left out.
llvm::Error writeCaptureReference(llvm::ArrayRef<CaptureRecord> Captures,
                                  llvm::StringRef Path);

/// Parses the injection library's JSON-lines output into Result.
void parseInjectionOutput(llvm::StringRef Text, RunResult &Result);

/// $CRO_INJECTION_LIB, else libcro-inject.so beside the running executable's
/// real path (its ../lib, the install prefix's layout, or its own
/// directory) -- never the working directory, whatever argv[0] (ToolPath)
/// says; "" when there is none.
std::string findInjectionLibrary(llvm::StringRef ToolPath);

/// Builds the measurement library from the source carried in the tool, with
/// the host compiler and the CUPTI of the toolkit at CudaRoot (so the two
/// versions match), into the build cache; a later call finds it there.
llvm::Expected<std::string> buildInjectionLibrary(llvm::StringRef CudaRoot,
                                                  llvm::StringRef CacheDir);

} // namespace cro

#endif
