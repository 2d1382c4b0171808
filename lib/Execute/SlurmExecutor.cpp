#include "cro/Execute/SlurmExecutor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include <cmath>
#include <unistd.h>

using namespace llvm;

namespace cro {

namespace {

/// How long srun has to cancel its job after SIGTERM before it is killed.
constexpr double SrunGraceSeconds = 15;
/// The end of a job's stderr that is read for srun's own lines.
constexpr uint64_t TailBytes = 64 * 1024;

std::string defaultJobName() {
  char Host[256] = {0};
  gethostname(Host, sizeof Host - 1);
  StringRef Short = StringRef(Host).split('.').first;
  return "cro-" + (Short.empty() ? std::string("host") : Short.str()) + "-" +
         std::to_string(getpid());
}

std::string tail(StringRef Path) {
  auto B = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!B)
    return "";
  StringRef S = (*B)->getBuffer();
  return S.take_back(TailBytes).str();
}

} // namespace

SlurmExecutor::SlurmExecutor(SlurmOptions O) : Opts(std::move(O)) {
  if (Opts.JobName.empty())
    Opts.JobName = defaultJobName();
}

SlurmExecutor::~SlurmExecutor() {
  if (!Started.load())
    return;
  // Jobs of this session still queued or running (a caller that gave up on
  // one without waiting): nothing of the session outlives it.
  ProcessOptions P;
  P.TimeoutSeconds = 30;
  std::vector<std::string> Cancel = {Opts.Scancel, "--name=" + Opts.JobName};
  if (std::optional<std::string> User = sys::Process::GetEnv("USER"))
    Cancel.push_back("--user=" + *User);
  (void)runProcess(Cancel, P);
}

std::vector<std::string> SlurmExecutor::command(ArrayRef<std::string> Argv,
                                                JobKind Kind,
                                                double TimeoutSeconds) const {
  std::vector<std::string> C = {Opts.Srun, "--job-name=" + Opts.JobName,
                                "--nodes=1", "--ntasks=1", "--quiet"};
  if (!Opts.Partition.empty())
    C.push_back("--partition=" + Opts.Partition);
  if (!Opts.Account.empty())
    C.push_back("--account=" + Opts.Account);
  if (Kind == JobKind::Run && !Opts.Gres.empty())
    C.push_back("--gres=" + Opts.Gres);
  unsigned Minutes = Opts.TimeMinutes;
  if (!Minutes && TimeoutSeconds > 0)
    Minutes = unsigned(std::ceil(TimeoutSeconds / 60)) + 1;
  if (Minutes)
    C.push_back("--time=" + std::to_string(Minutes));
  C.push_back("--");
  C.insert(C.end(), Argv.begin(), Argv.end());
  return C;
}

std::string SlurmExecutor::describe() const {
  std::string S = "Slurm (";
  if (!Opts.Partition.empty())
    S += "partition " + Opts.Partition + ", ";
  if (!Opts.Gres.empty())
    S += "--gres=" + Opts.Gres + ", ";
  return S + std::to_string(slots()) + " run" + (slots() == 1 ? "" : "s") +
         " at once, jobs named " + Opts.JobName + ")";
}

ProcessResult SlurmExecutor::run(ArrayRef<std::string> Argv,
                                 const ProcessOptions &In, JobKind Kind,
                                 unsigned) {
  ProcessOptions P = In;
  P.StopSignal = SIGTERM;
  P.StopGraceSeconds = SrunGraceSeconds;
  // srun's own lines go where the job's stderr goes; with nowhere given,
  // to a file of ours so that they can be read.
  std::string OwnErr;
  if (P.StderrFile.empty()) {
    SmallString<128> Path;
    if (!sys::fs::createTemporaryFile("cro-srun", "err", Path)) {
      OwnErr = Path.str().str();
      P.StderrFile = OwnErr;
    }
  }
  ++Started;
  ProcessResult R = runProcess(command(Argv, Kind, In.TimeoutSeconds), P);
  if (R.Started && !P.StderrFile.empty() && !R.succeeded())
    classifySlurmJob(tail(P.StderrFile), R);
  if (!OwnErr.empty())
    sys::fs::remove(OwnErr);
  return R;
}

void classifySlurmJob(StringRef Text, ProcessResult &R) {
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, false);
  std::string Said;
  bool TimeLimit = false, Cancelled = false, NodeFail = false, Refused = false,
       ExitedNormally = false, TaskSignal = false;
  for (StringRef L : Lines) {
    L = L.trim();
    bool FromSlurm = L.starts_with("srun:") || L.starts_with("slurmstepd");
    if (!FromSlurm)
      continue;
    Said += (Said.empty() ? "" : "; ") + L.str();
    TimeLimit |= L.contains("DUE TO TIME LIMIT");
    NodeFail |= L.contains("NODE_FAIL") || L.contains("DUE TO NODE FAILURE") ||
                L.contains("Node failure");
    Cancelled |= L.contains("CANCELLED") && !L.contains("DUE TO TIME LIMIT");
    Refused |= L.contains("Unable to allocate resources") ||
               L.contains("Job submit/allocate failed") ||
               L.contains("Invalid generic resource") ||
               L.contains("invalid partition") || L.contains("Invalid account");
    if (L.contains(": task ")) {
      ExitedNormally |= L.contains("Exited with exit code");
      TaskSignal |= !L.contains("Exited with exit code");
    }
  }
  if (Said.empty())
    return; // the program's own failure, nothing Slurm adds
  if (Refused) {
    R.Started = false;
    R.StartError = "Slurm did not run the job: " + Said;
  } else if (TimeLimit) {
    R.TimedOut = true;
  } else if (NodeFail) {
    R.Lost = "the Slurm job was lost to a node failure: " + Said;
  } else if (Cancelled && !R.TimedOut) {
    R.Lost = "the Slurm job was cancelled: " + Said;
  } else if (TaskSignal && !ExitedNormally && R.ExitCode > 128) {
    R.Signal = R.ExitCode - 128;
    R.ExitCode = -1;
  }
}

} // namespace cro
