// Where processes run: the scheduling of items over slots, the local
// executor's GPU per slot, the choice of GPUs, the srun command line and
// what srun's own words mean. The Slurm executor against a real cluster is
// SlurmLive (run by test/slurm/executor.sh, which starts one).
#include "cro/Execute/Executor.h"
#include "cro/Build/Builder.h"
#include "cro/Execute/SlurmExecutor.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <atomic>
#include <chrono>
#include <csignal>
#include <mutex>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace cro;
using namespace llvm;

namespace {

std::string tempPath(const char *Suffix) {
  SmallString<128> P;
  sys::fs::createTemporaryFile("cro-executor-test", Suffix, P);
  return P.str().str();
}

std::string slurp(const std::string &Path) {
  auto B = MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "";
}

TEST(RunOnSlots, EveryItemOnceNoSlotTwiceAtOnce) {
  constexpr unsigned Slots = 3;
  constexpr size_t Items = 24;
  std::atomic<int> Busy[Slots] = {};
  std::atomic<int> InFlight{0}, MostInFlight{0};
  std::mutex M;
  std::multiset<size_t> Done;
  std::set<unsigned> SlotsUsed;
  bool Overlapped = false;
  runOnSlots(Slots, Items, [&](size_t Item, unsigned Slot) {
    ASSERT_LT(Slot, Slots);
    EXPECT_EQ(Busy[Slot]++, 0) << "slot " << Slot << " ran two items at once";
    int Now = ++InFlight;
    int Most = MostInFlight.load();
    while (Now > Most && !MostInFlight.compare_exchange_weak(Most, Now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    --InFlight;
    --Busy[Slot];
    std::lock_guard<std::mutex> L(M);
    Done.insert(Item);
    SlotsUsed.insert(Slot);
    Overlapped |= Now > 1;
  });
  ASSERT_EQ(Done.size(), Items);
  for (size_t I = 0; I < Items; ++I)
    EXPECT_EQ(Done.count(I), 1u) << "item " << I;
  EXPECT_LE(MostInFlight.load(), int(Slots));
  EXPECT_TRUE(Overlapped) << "the slots never worked at the same time";
  EXPECT_EQ(SlotsUsed.size(), Slots);
}

TEST(RunOnSlots, OneSlotRunsInOrderOnTheCallingThread) {
  std::vector<size_t> Order;
  std::thread::id Caller = std::this_thread::get_id();
  runOnSlots(1, 5, [&](size_t Item, unsigned Slot) {
    EXPECT_EQ(Slot, 0u);
    EXPECT_EQ(std::this_thread::get_id(), Caller);
    Order.push_back(Item);
  });
  EXPECT_EQ(Order, (std::vector<size_t>{0, 1, 2, 3, 4}));
  // More slots than items: no item twice, none lost.
  std::atomic<int> Count{0};
  runOnSlots(8, 2, [&](size_t, unsigned) { ++Count; });
  EXPECT_EQ(Count.load(), 2);
  runOnSlots(4, 0, [&](size_t, unsigned) { ADD_FAILURE(); });
}

TEST(LocalExecutor, EachSlotSeesItsOwnGpu) {
  LocalExecutor E({"3", "5"});
  EXPECT_EQ(E.slots(), 2u);
  EXPECT_EQ(E.describe(), "this host, GPUs 3,5");
  ProcessOptions O;
  O.StdoutFile = tempPath("out");
  O.Env = {"CUDA_VISIBLE_DEVICES=7"};
  std::vector<std::string> Echo = {"sh", "-c",
                                   "printf %s \"$CUDA_VISIBLE_DEVICES\""};
  ASSERT_TRUE(E.run(Echo, O, JobKind::Run, 1).succeeded());
  EXPECT_EQ(slurp(O.StdoutFile), "5");
  ASSERT_TRUE(E.run(Echo, O, JobKind::Run, 0).succeeded());
  EXPECT_EQ(slurp(O.StdoutFile), "3");
  // A build is not a GPU's: the caller's environment stands.
  ASSERT_TRUE(E.run(Echo, O, JobKind::Build, 1).succeeded());
  EXPECT_EQ(slurp(O.StdoutFile), "7");
  // Without devices: one slot, the environment untouched.
  LocalExecutor Plain;
  EXPECT_EQ(Plain.slots(), 1u);
  EXPECT_EQ(Plain.describe(), "this host");
  ASSERT_TRUE(Plain.run(Echo, O, JobKind::Run, 0).succeeded());
  EXPECT_EQ(slurp(O.StdoutFile), "7");
  sys::fs::remove(O.StdoutFile);
}

std::string errorOf(Expected<std::vector<std::string>> R) {
  if (R) {
    std::string S;
    for (const std::string &D : *R)
      S += (S.empty() ? "" : ",") + D;
    return "ok:" + S;
  }
  return toString(R.takeError());
}

TEST(SelectGpus, AllCountListAndTheirMistakes) {
  std::vector<GpuEntry> Four = {{"0", "GPU-a", "NVIDIA H100"},
                                {"1", "GPU-b", "NVIDIA H100"},
                                {"2", "GPU-c", "NVIDIA H100"},
                                {"3", "GPU-d", "NVIDIA H100"}};
  EXPECT_EQ(errorOf(selectGpus("all", Four, std::nullopt)), "ok:0,1,2,3");
  EXPECT_EQ(errorOf(selectGpus("2", Four, std::nullopt)), "ok:0,1");
  EXPECT_EQ(errorOf(selectGpus("2,0", Four, std::nullopt)), "ok:2,0");
  EXPECT_EQ(errorOf(selectGpus("GPU-c", Four, std::nullopt)), "ok:GPU-c");
  // CUDA_VISIBLE_DEVICES bounds what "all" and a count mean.
  EXPECT_EQ(errorOf(selectGpus("all", Four, std::string("1,3"))), "ok:1,3");
  EXPECT_EQ(errorOf(selectGpus("1", Four, std::string("3,1"))), "ok:3");
  EXPECT_NE(errorOf(selectGpus("3", Four, std::string("1,3")))
                .find("3 GPUs asked for, but 2 can be used here"),
            std::string::npos);
  EXPECT_NE(errorOf(selectGpus("0", Four, std::nullopt)).find("at least 1"),
            std::string::npos);
  EXPECT_NE(errorOf(selectGpus("1,1", Four, std::nullopt)).find("twice"),
            std::string::npos);
  EXPECT_NE(errorOf(selectGpus("7", Four, std::nullopt)).find("asked for"),
            std::string::npos);
  EXPECT_NE(errorOf(selectGpus("0,9", Four, std::nullopt))
                .find("no GPU '9' on this machine"),
            std::string::npos);
  EXPECT_NE(errorOf(selectGpus("0,,1", Four, std::nullopt)).find("empty"),
            std::string::npos);
  EXPECT_NE(errorOf(selectGpus("all", {}, std::nullopt)).find("no GPU"),
            std::string::npos);
  // Two models: never compared with each other.
  std::vector<GpuEntry> Mixed = {{"0", "GPU-a", "NVIDIA H100"},
                                 {"1", "GPU-b", "NVIDIA A100"}};
  EXPECT_NE(errorOf(selectGpus("all", Mixed, std::nullopt))
                .find("never compared across GPU models"),
            std::string::npos);
  EXPECT_EQ(errorOf(selectGpus("1", Mixed, std::string("1"))), "ok:1");
}

TEST(SlurmExecutor, TheSrunCommandLine) {
  SlurmOptions O;
  O.Partition = "gpu";
  O.Account = "proj";
  O.Gres = "gpu:1";
  O.JobName = "cro-test";
  SlurmExecutor E(O);
  std::vector<std::string> Run =
      E.command({"./a.out", "x y"}, JobKind::Run, 300);
  EXPECT_EQ(Run, (std::vector<std::string>{
                     "srun", "--job-name=cro-test", "--nodes=1", "--ntasks=1",
                     "--quiet", "--partition=gpu", "--account=proj",
                     "--gres=gpu:1", "--time=6", "--", "./a.out", "x y"}));
  // A build asks for no GPU; no time limit, none asked of Slurm.
  std::vector<std::string> Build = E.command({"nvcc"}, JobKind::Build, 0);
  EXPECT_EQ(Build, (std::vector<std::string>{"srun", "--job-name=cro-test",
                                             "--nodes=1", "--ntasks=1",
                                             "--quiet", "--partition=gpu",
                                             "--account=proj", "--", "nvcc"}));
  O.TimeMinutes = 45;
  O.Jobs = 0;
  SlurmExecutor Fixed(O);
  EXPECT_EQ(Fixed.command({"x"}, JobKind::Run, 300)[8], "--time=45");
  EXPECT_EQ(Fixed.slots(), 1u);
  EXPECT_TRUE(Fixed.remote());
  // A name of its own by default, the same for all of a session's jobs.
  SlurmExecutor Default({});
  EXPECT_EQ(StringRef(Default.jobName()).starts_with("cro-"), true);
  EXPECT_EQ(StringRef(Default.jobName()).ends_with(std::to_string(getpid())),
            true);
}

ProcessResult exited(int Code) {
  ProcessResult R;
  R.Started = true;
  R.ExitCode = Code;
  return R;
}

TEST(SlurmExecutor, WhatSrunSaid) {
  ProcessResult Refused = exited(1);
  classifySlurmJob("srun: error: invalid partition specified: nope\n"
                   "srun: error: Unable to allocate resources: Invalid "
                   "partition name specified\n",
                   Refused);
  EXPECT_FALSE(Refused.Started);
  EXPECT_NE(Refused.describe().find("Slurm did not run the job"),
            std::string::npos);

  ProcessResult Limit = exited(1);
  classifySlurmJob("program output\nslurmstepd-n1: error: *** STEP 12.0 ON n1 "
                   "CANCELLED AT 2026-12-05T10:00:00 DUE TO TIME LIMIT ***\n"
                   "srun: error: n1: task 0: Killed\n",
                   Limit);
  EXPECT_TRUE(Limit.TimedOut);
  EXPECT_TRUE(Limit.Lost.empty());

  ProcessResult Cancelled = exited(143);
  classifySlurmJob("slurmstepd-n1: error: *** STEP 13.0 ON n1 CANCELLED AT "
                   "2026-12-05T10:00:00 ***\n",
                   Cancelled);
  EXPECT_FALSE(Cancelled.succeeded());
  EXPECT_NE(Cancelled.describe().find("the Slurm job was cancelled"),
            std::string::npos);

  ProcessResult Node = exited(1);
  classifySlurmJob("srun: error: Node failure on n3\n", Node);
  EXPECT_NE(Node.describe().find("node failure"), std::string::npos);

  ProcessResult Segv = exited(139);
  classifySlurmJob("srun: error: n1: task 0: Segmentation fault\n", Segv);
  EXPECT_EQ(Segv.Signal, 11);

  // The program's own exit status stays the program's.
  ProcessResult Seven = exited(7);
  classifySlurmJob("srun: error: n1: task 0: Exited with exit code 7\n", Seven);
  EXPECT_EQ(Seven.ExitCode, 7);
  EXPECT_EQ(Seven.Signal, 0);
  EXPECT_EQ(Seven.describe(), "exit code 7");
  // A program that exits 139 itself, without a word from srun.
  ProcessResult Own = exited(139);
  classifySlurmJob("my program failed\n", Own);
  EXPECT_EQ(Own.ExitCode, 139);
}

TEST(Process, AStopSignalWithGraceBeforeTheKill) {
  // What srun gets at a time limit: SIGTERM, time to cancel its job, then
  // (only if it is still there) SIGKILL.
  std::string Mark = tempPath("mark");
  ProcessOptions O;
  O.TimeoutSeconds = 0.5;
  O.StopSignal = SIGTERM;
  O.StopGraceSeconds = 10;
  ProcessResult R = runProcess({"sh", "-c",
                                "trap 'echo stopped > " + Mark +
                                    "; exit 0' TERM; "
                                    "while :; do sleep 0.05; done"},
                               O);
  EXPECT_TRUE(R.TimedOut);
  EXPECT_LT(R.Seconds, 5) << "the grace was waited out instead of the exit";
  EXPECT_EQ(slurp(Mark), "stopped\n");
  sys::fs::remove(Mark);
  // One that ignores the signal is killed after the grace.
  O.StopGraceSeconds = 0.5;
  R = runProcess({"sh", "-c", "trap '' TERM; while :; do sleep 0.05; done"}, O);
  EXPECT_TRUE(R.TimedOut);
  EXPECT_LT(R.Seconds, 5);
}

TEST(Executor, CheckSaysWhyNothingRuns) {
  SlurmOptions O;
  O.Srun = "/nonexistent/srun";
  SlurmExecutor E(O);
  Error Err = checkExecutor(E);
  ASSERT_TRUE(bool(Err));
  std::string Msg;
  ExitCode Code = ExitCode::Success;
  handleAllErrors(std::move(Err), [&](const ToolError &T) {
    Msg = T.message();
    Code = T.code();
  });
  EXPECT_EQ(Code, ExitCode::ExecutorFailed);
  EXPECT_NE(Msg.find("cannot run a job"), std::string::npos) << Msg;
  LocalExecutor Here;
  EXPECT_FALSE(bool(checkExecutor(Here)));
}

} // namespace

// Against a real cluster: test/slurm/executor.sh starts one on this machine
// and runs these with CRO_SLURM_LIVE=1; skipped otherwise.
namespace {

bool liveCluster() {
  return sys::Process::GetEnv("CRO_SLURM_LIVE").value_or("") == "1";
}

/// The states of the jobs named Name that Slurm still has queued or
/// running.
std::vector<std::string> queued(const std::string &Name) {
  std::string Out = tempPath("squeue");
  ProcessOptions O;
  O.StdoutFile = Out;
  O.TimeoutSeconds = 30;
  runProcess({"squeue", "-h", "-o", "%T", "--name=" + Name}, O);
  std::vector<std::string> States;
  SmallVector<StringRef, 8> Lines;
  std::string Text = slurp(Out);
  StringRef(Text).split(Lines, '\n', -1, false);
  for (StringRef L : Lines)
    States.push_back(L.trim().str());
  sys::fs::remove(Out);
  return States;
}

/// Waits up to Seconds for the queue of Name to hold Count jobs in State
/// ("" = any state, Count 0 = none left).
bool waitForQueue(const std::string &Name, size_t Count,
                  const std::string &State, double Seconds) {
  for (double T = 0; T < Seconds; T += 0.25) {
    std::vector<std::string> Q = queued(Name);
    size_t N = 0;
    for (const std::string &S : Q)
      N += State.empty() || S == State;
    if (N == Count && (Count > 0 || Q.empty()))
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return false;
}

TEST(SlurmLive, AJobRunsWithTheCallersEnvironmentAndStatus) {
  if (!liveCluster())
    GTEST_SKIP() << "no cluster (test/slurm/executor.sh starts one)";
  SlurmOptions SO;
  SO.JobName = "cro-live-status-" + std::to_string(getpid());
  SlurmExecutor E(SO);
  ProcessOptions O;
  O.StdoutFile = tempPath("out");
  O.Env = {"CRO_LIVE_VALUE=from-the-caller"};
  O.TimeoutSeconds = 60;
  SmallString<128> Dir;
  sys::fs::createUniqueDirectory("cro-live", Dir);
  O.WorkingDirectory = Dir.str().str();
  ProcessResult R =
      E.run({"sh", "-c", "echo $CRO_LIVE_VALUE $(pwd) $SLURM_JOB_NAME; exit 3"},
            O, JobKind::Run);
  EXPECT_TRUE(R.Started) << R.describe();
  EXPECT_EQ(R.ExitCode, 3) << R.describe();
  EXPECT_EQ(slurp(O.StdoutFile),
            "from-the-caller " + Dir.str().str() + " " + SO.JobName + "\n");
  EXPECT_EQ(E.started(), 1u);
  sys::fs::remove(O.StdoutFile);
  sys::fs::remove_directories(Dir);
}

TEST(SlurmLive, AJobAtItsTimeLimitIsCancelledOnTheCluster) {
  if (!liveCluster())
    GTEST_SKIP() << "no cluster (test/slurm/executor.sh starts one)";
  SlurmOptions SO;
  SO.JobName = "cro-live-limit-" + std::to_string(getpid());
  SlurmExecutor E(SO);
  ProcessOptions O;
  O.TimeoutSeconds = 4;
  ProcessResult R = E.run({"sleep", "300"}, O, JobKind::Run);
  EXPECT_TRUE(R.TimedOut) << R.describe();
  EXPECT_LT(R.Seconds, 25) << "srun did not go at SIGTERM";
  EXPECT_TRUE(waitForQueue(SO.JobName, 0, "", 20))
      << "the job still runs on the cluster after the tool gave up on it";
}

TEST(SlurmLive, AnInterruptedToolCancelsItsJobs) {
  if (!liveCluster())
    GTEST_SKIP() << "no cluster (test/slurm/executor.sh starts one)";
  std::string Name = "cro-live-interrupt-" + std::to_string(getpid());
  pid_t Child = fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    // The tool: two long jobs in flight, until Ctrl-C.
    SlurmOptions SO;
    SO.JobName = Name;
    SO.Jobs = 2;
    SlurmExecutor E(SO);
    runOnSlots(2, 2, [&](size_t, unsigned Slot) {
      ProcessOptions O;
      E.run({"sleep", "300"}, O, JobKind::Run, Slot);
    });
    _exit(0); // not reached: the interrupt ends the process
  }
  bool Running = waitForQueue(Name, 2, "RUNNING", 60);
  kill(Child, SIGINT);
  int Status = 0;
  waitpid(Child, &Status, 0);
  EXPECT_TRUE(Running) << "the two jobs never ran";
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 130);
  EXPECT_TRUE(waitForQueue(Name, 0, "", 20))
      << "jobs of the interrupted tool still run on the cluster";
}

} // namespace

namespace {

TEST(SlurmLive, CompilesAreJobsOnTheCluster) {
  if (!liveCluster())
    GTEST_SKIP() << "no cluster (test/slurm/executor.sh starts one)";
  // A compiler that says where it ran; the build directories are under
  // TMPDIR, which the script puts on the shared directory.
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("cro-live-build", Dir));
  std::string Cc = (Dir + "/cc").str();
  {
    std::error_code EC;
    raw_fd_ostream OS(Cc, EC);
    OS << "#!/bin/sh\n"
          "if [ \"$1\" = --version ]; then echo cc 1.0; exit 0; fi\n"
          "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && exe=$2; shift; done\n"
          "printf '#!/bin/sh\\necho job %s\\n' \"$SLURM_JOB_ID\" > \"$exe\"\n"
          "chmod +x \"$exe\"\n";
  }
  sys::fs::setPermissions(Cc, sys::fs::all_exe | sys::fs::owner_all);
  SlurmOptions SO;
  SO.JobName = "cro-live-build-" + std::to_string(getpid());
  SlurmExecutor E(SO);
  BuildOptions O;
  O.Compiler = Cc;
  O.CacheDir = (Dir + "/cache").str();
  O.OriginalPath = (Dir + "/kernel.cu").str();
  O.Jobs = 2;
  O.Via = &E;
  Builder B(O);
  Expected<std::vector<BuildResult>> R =
      B.build({{"int a;", {}}, {"int b;", {}}});
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  for (const BuildResult &Res : *R) {
    ASSERT_TRUE(Res.Ok) << Res.Log;
    std::string Out = (Dir + "/out").str();
    ProcessOptions PO;
    PO.StdoutFile = Out;
    ASSERT_TRUE(runProcess({Res.Executable}, PO).succeeded());
    EXPECT_TRUE(StringRef(slurp(Out)).starts_with("job "));
    EXPECT_NE(slurp(Out), "job \n") << "the compile ran outside Slurm";
  }
  EXPECT_EQ(E.started(), 2u);
  sys::fs::remove_directories(Dir);
}

} // namespace
