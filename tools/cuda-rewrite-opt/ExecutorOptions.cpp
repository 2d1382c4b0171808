#include "ExecutorOptions.h"
#include "cro/Execute/SlurmExecutor.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/Process.h"
#include <cstdlib>

using namespace llvm;

namespace cro {

cl::OptionCategory &executorCategory() {
  static cl::OptionCategory C("where builds and runs happen");
  return C;
}

namespace {

cl::opt<std::string> ExecutorName(
    "executor",
    cl::desc("'local' (this host, the default) or 'slurm': every build and "
             "program run is a Slurm job started by srun. With slurm, "
             "$TMPDIR (the work files), --cache-dir and --db must be on a "
             "file system the nodes share (docs/cluster.md)"),
    cl::init("local"), cl::cat(executorCategory()));
cl::opt<std::string>
    Gpus("gpus",
         cl::desc("Measure on several GPUs of this host, one variant in flight "
                  "per GPU: 'all', a count, or a list of indices or UUIDs "
                  "(0,2); one model only. The original and the confirmation "
                  "run on the first"),
         cl::value_desc("all|N|LIST"), cl::cat(executorCategory()));
cl::opt<std::string> SlurmPartition("slurm-partition",
                                    cl::desc("Partition of the jobs"),
                                    cl::cat(executorCategory()));
cl::opt<std::string> SlurmAccount("slurm-account",
                                  cl::desc("Account the jobs are charged to"),
                                  cl::cat(executorCategory()));
cl::opt<std::string> SlurmGres(
    "slurm-gres",
    cl::desc("Generic resources of a program run's job, e.g. gpu:1 (builds "
             "ask for none)"),
    cl::cat(executorCategory()));
cl::opt<unsigned> SlurmTime(
    "slurm-time",
    cl::desc("Time limit of a job in minutes (default: --timeout, rounded "
             "up, plus one)"),
    cl::init(0), cl::cat(executorCategory()));
cl::opt<unsigned>
    SlurmJobs("slurm-jobs",
              cl::desc("Program runs in flight at once as jobs (default 4)"),
              cl::init(4), cl::cat(executorCategory()));

Error usage(const Twine &Msg) {
  return makeToolError(ExitCode::Usage, Msg.str());
}

} // namespace

std::vector<const cl::Option *> executorOptions() {
  return {&ExecutorName, &Gpus,      &SlurmPartition, &SlurmAccount,
          &SlurmGres,    &SlurmTime, &SlurmJobs};
}

Expected<std::unique_ptr<Executor>> executorFromOptions() {
  bool SlurmGiven =
      SlurmPartition.getNumOccurrences() || SlurmAccount.getNumOccurrences() ||
      SlurmGres.getNumOccurrences() || SlurmTime.getNumOccurrences() ||
      SlurmJobs.getNumOccurrences();
  if (ExecutorName == "slurm") {
    if (Gpus.getNumOccurrences())
      return usage("--gpus chooses GPUs of this host; with --executor slurm "
                   "the jobs' GPUs are the cluster's (--slurm-gres, "
                   "--slurm-jobs)");
    if (SlurmJobs == 0)
      return usage("--slurm-jobs must be at least 1");
    SlurmOptions O;
    O.Partition = SlurmPartition;
    O.Account = SlurmAccount;
    O.Gres = SlurmGres;
    O.TimeMinutes = SlurmTime;
    O.Jobs = SlurmJobs;
    return std::make_unique<SlurmExecutor>(std::move(O));
  }
  if (ExecutorName != "local")
    return usage("--executor must be 'local' or 'slurm', not '" + ExecutorName +
                 "'");
  if (SlurmGiven)
    return usage("the --slurm-* options go with --executor slurm");
  if (!Gpus.getNumOccurrences())
    return nullptr;
  Expected<std::vector<std::string>> Chosen = selectGpus(
      Gpus, listLocalGpus(), sys::Process::GetEnv("CUDA_VISIBLE_DEVICES"));
  if (!Chosen)
    return Chosen.takeError();
  setenv("CUDA_VISIBLE_DEVICES", Chosen->front().c_str(), 1);
  return std::make_unique<LocalExecutor>(std::move(*Chosen));
}

} // namespace cro
