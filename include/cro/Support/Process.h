//===- Process.h - run a program with a time limit, in its own group ------===//
//
// Variants and user programs can hang, crash, or leave children behind. Each
// runs as the leader of a new process group, with an argument vector (never
// a shell), and on timeout the whole group is killed. LLVM's ExecuteAndWait
// kills only the direct child, which is why this exists.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SUPPORT_PROCESS_H
#define CRO_SUPPORT_PROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <csignal>
#include <optional>
#include <string>
#include <vector>

namespace cro {

struct ProcessOptions {
  /// Extra environment entries ("NAME=value"), added to (or replacing those
  /// of) the tool's own environment.
  std::vector<std::string> Env;
  std::string WorkingDirectory; ///< "" = the tool's
  std::string StdoutFile;       ///< "" = /dev/null
  std::string StderrFile;       ///< "" = /dev/null; may equal StdoutFile
  double TimeoutSeconds = 0;    ///< 0 = no limit
  /// How the process is stopped at its time limit or when the tool is
  /// interrupted: this signal to its group, then SIGKILL if it is still
  /// there after StopGraceSeconds. A program is simply killed; srun must
  /// get SIGTERM, which cancels its job (SIGKILL would leave the job
  /// running on the cluster).
  int StopSignal = SIGKILL;
  double StopGraceSeconds = 0;
};

struct ProcessResult {
  bool Started = false;
  std::string StartError; ///< why it did not start
  int ExitCode = -1;      ///< when it exited normally
  int Signal = 0;         ///< when a signal ended it
  bool TimedOut = false;  ///< killed (with its group) at the time limit
  double Seconds = 0;     ///< wall time
  /// Set by an executor when the process was lost for a reason outside it
  /// (a cancelled Slurm job, a failed node): why.
  std::string Lost;
  bool succeeded() const {
    return Started && !TimedOut && Signal == 0 && ExitCode == 0 && Lost.empty();
  }
  /// "exit code 3", "killed by signal 11 (Segmentation fault)", "timed out
  /// after 10 s", ...
  std::string describe() const;
};

/// Runs Argv[0] (looked up on PATH when it has no slash) with Argv.
ProcessResult runProcess(llvm::ArrayRef<std::string> Argv,
                         const ProcessOptions &Opts = {});

} // namespace cro

#endif
