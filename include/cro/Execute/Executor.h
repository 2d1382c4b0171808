//===- Executor.h - where builds and program runs happen ------------------===//
//
// An evaluation is independent processes (nvcc, then the program under the
// measurement library), so spreading a search over several GPUs or a
// cluster is a matter of where those processes run, not of a new engine:
// an Executor runs a process in one of its slots. LocalExecutor runs it on
// this host, one slot per GPU (CUDA_VISIBLE_DEVICES per run); SlurmExecutor
// runs it as a Slurm job through srun (SlurmExecutor.h). Callers ask how
// many slots there are and keep that many processes in flight
// (runOnSlots).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_EXECUTE_EXECUTOR_H
#define CRO_EXECUTE_EXECUTOR_H

#include "cro/Support/Process.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cro {

/// What a process needs: a build needs cores, a program run needs a GPU
/// (and its time is measured, so it never shares one).
enum class JobKind { Build, Run };

class Executor {
public:
  virtual ~Executor();
  /// Program runs that may be in flight at once (GPUs; jobs on a cluster).
  virtual unsigned slots() const = 0;
  /// Runs Argv as runProcess does. Run jobs name the slot (0..slots()-1)
  /// that owns them, and no two run in one slot at once; Build jobs ignore
  /// it.
  virtual ProcessResult run(llvm::ArrayRef<std::string> Argv,
                            const ProcessOptions &Opts, JobKind Kind,
                            unsigned Slot = 0) = 0;
  /// For reports and progress: "this host", "this host, GPUs 0,1", "Slurm
  /// (partition gpu, 4 jobs at once)".
  virtual std::string describe() const = 0;
  /// Whether the runs happen on other machines (whose GPU this host's
  /// nvidia-smi does not see).
  virtual bool remote() const { return false; }
};

/// This host. Without devices: one slot, the environment untouched (the
/// tool as it always ran). With devices: one slot per entry, each run with
/// CUDA_VISIBLE_DEVICES set to its slot's device.
class LocalExecutor : public Executor {
public:
  explicit LocalExecutor(std::vector<std::string> Devices = {})
      : Devices(std::move(Devices)) {}
  unsigned slots() const override {
    return Devices.empty() ? 1 : unsigned(Devices.size());
  }
  ProcessResult run(llvm::ArrayRef<std::string> Argv,
                    const ProcessOptions &Opts, JobKind Kind,
                    unsigned Slot = 0) override;
  std::string describe() const override;
  const std::vector<std::string> &devices() const { return Devices; }

private:
  std::vector<std::string> Devices;
};

/// Runs a trivial job through E (a build job: `true`), so that an executor
/// that cannot run anything (srun missing, a partition Slurm refuses)
/// fails the command at once, with its reason, instead of failing every
/// evaluation of a search. ExitCode::ExecutorFailed.
llvm::Error checkExecutor(Executor &E);

/// One GPU of this host as nvidia-smi lists it.
struct GpuEntry {
  std::string Index; ///< nvidia-smi's index, what CUDA_VISIBLE_DEVICES takes
  std::string Uuid;
  std::string Name; ///< the model, e.g. "NVIDIA H200"
};

/// The devices --gpus selects: "all" (every GPU the programs may use:
/// CUDA_VISIBLE_DEVICES's entries when it is set, else every GPU listed),
/// a count N (the first N of those), or a comma-separated list of indices
/// or UUIDs. An error names a bad or unknown entry, a repeated one, more
/// GPUs than there are, and GPUs of different models: their times are
/// never compared with each other.
llvm::Expected<std::vector<std::string>>
selectGpus(llvm::StringRef Spec, llvm::ArrayRef<GpuEntry> Listed,
           std::optional<std::string> VisibleDevices);

/// Calls Work(Item, Slot) for every Item in [0, Items) on Slots threads:
/// each slot takes the next item as soon as it is free, so a slot never
/// runs two items at once and the slots stay busy while items remain.
/// Returns when every item is done. With one slot (or one item), runs on
/// the calling thread, in order.
void runOnSlots(unsigned Slots, size_t Items,
                const std::function<void(size_t Item, unsigned Slot)> &Work);

} // namespace cro

#endif
