//===- SlurmExecutor.h - builds and program runs as Slurm jobs ------------===//
//
// Each process becomes a one-task job started by srun: srun asks slurmctld
// for an allocation, runs the process on the node it gets, streams its
// output back and returns its exit status, so a caller sees a process like
// any other. The working directory, the files a run writes (captures,
// records) and the build cache must be on a file system the nodes share;
// the environment goes with the job (srun's default --export=ALL).
//
// Every job of a session carries one job name ("cro-<host>-<pid>"). A job
// at its time limit, and every job when the tool is interrupted, is stopped
// by SIGTERM to its srun, which cancels it on the cluster (a killed srun
// would leave it running); whatever is left when the executor goes away is
// cancelled by name (scancel). Jobs Slurm refuses, cancels, or loses to a
// node failure come back as processes that did not succeed, with Slurm's
// own words as the reason (ProcessResult::StartError, ::Lost).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_EXECUTE_SLURMEXECUTOR_H
#define CRO_EXECUTE_SLURMEXECUTOR_H

#include "cro/Execute/Executor.h"
#include <atomic>

namespace cro {

struct SlurmOptions {
  std::string Partition; ///< "" = the cluster's default
  std::string Account;   ///< "" = the user's default
  /// Generic resources a program run asks for, e.g. "gpu:1" (builds ask
  /// for none); "" = none (a cluster whose nodes are all one GPU each).
  std::string Gres;
  /// Slurm's time limit of a job, in minutes; 0 = from the process's own
  /// time limit (rounded up, plus a minute, so the tool's limit acts
  /// first and reports it).
  unsigned TimeMinutes = 0;
  unsigned Jobs = 4; ///< program runs in flight at once
  std::string Srun = "srun";
  std::string Scancel = "scancel";
  std::string JobName; ///< "" = "cro-<host>-<pid>"
};

class SlurmExecutor : public Executor {
public:
  explicit SlurmExecutor(SlurmOptions Opts);
  ~SlurmExecutor() override;

  unsigned slots() const override { return std::max(1u, Opts.Jobs); }
  ProcessResult run(llvm::ArrayRef<std::string> Argv,
                    const ProcessOptions &Opts, JobKind Kind,
                    unsigned Slot = 0) override;
  std::string describe() const override;
  bool remote() const override { return true; }

  /// The srun command line that runs Argv as a job of this kind with this
  /// time limit (seconds, 0 = none).
  std::vector<std::string> command(llvm::ArrayRef<std::string> Argv,
                                   JobKind Kind, double TimeoutSeconds) const;
  const std::string &jobName() const { return Opts.JobName; }
  /// Jobs started so far.
  unsigned started() const { return Started.load(); }

private:
  SlurmOptions Opts;
  std::atomic<unsigned> Started{0};
};

/// Reads what srun and slurmstepd said (the "srun: error: ..." and
/// "slurmstepd: error: *** ... ***" lines of a job's stderr) into R: a job
/// Slurm refused did not start; one cancelled or lost to a node failure is
/// Lost; one at its time limit timed out; a task killed by a signal has
/// that signal (srun reports it as exit status 128+N).
void classifySlurmJob(llvm::StringRef SlurmLines, ProcessResult &R);

} // namespace cro

#endif
