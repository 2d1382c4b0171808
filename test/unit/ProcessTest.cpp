#include "cro/Support/Process.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include "gtest/gtest.h"
#include <csignal>
#include <fstream>
#include <sys/wait.h>
#include <thread>

using namespace cro;
using namespace llvm;

namespace {

std::string tempPath(const char *Suffix) {
  SmallString<128> P;
  sys::fs::createTemporaryFile("cro-process-test", Suffix, P);
  return P.str().str();
}

std::string slurp(const std::string &Path) {
  auto B = MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "";
}

bool alive(pid_t Pid) {
  std::ifstream Stat("/proc/" + std::to_string(Pid) + "/stat");
  std::string Line;
  if (!std::getline(Stat, Line))
    return false;
  // "pid (comm) S ...": a zombie is dead for our purposes.
  size_t Close = Line.rfind(')');
  return Close != std::string::npos && Close + 2 < Line.size() &&
         Line[Close + 2] != 'Z';
}

TEST(Process, ExitCodesAndOutput) {
  ProcessOptions O;
  O.StdoutFile = tempPath("out");
  O.Env = {"CRO_TEST_VALUE=42"};
  ProcessResult R =
      runProcess({"sh", "-c", "echo value=$CRO_TEST_VALUE; exit 3"}, O);
  EXPECT_TRUE(R.Started);
  EXPECT_EQ(R.ExitCode, 3);
  EXPECT_FALSE(R.succeeded());
  EXPECT_EQ(R.describe(), "exit code 3");
  EXPECT_EQ(slurp(O.StdoutFile), "value=42\n");
  sys::fs::remove(O.StdoutFile);
}

TEST(Process, CrashIsReportedAsASignal) {
  ProcessResult R = runProcess({"sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(R.Signal, SIGSEGV);
  EXPECT_NE(R.describe().find("signal 11"), std::string::npos);
}

TEST(Process, TimeoutKillsTheWholeGroup) {
  std::string PidFile = tempPath("pid");
  ProcessOptions O;
  O.TimeoutSeconds = 0.5;
  ProcessResult R =
      runProcess({"sh", "-c", "sleep 30 & echo $! > " + PidFile + "; wait"}, O);
  EXPECT_TRUE(R.TimedOut);
  EXPECT_LT(R.Seconds, 5.0);
  pid_t Child = std::stoi(slurp(PidFile));
  // The grandchild was in the same group: it is gone too.
  for (int I = 0; I < 100 && alive(Child); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(alive(Child));
  sys::fs::remove(PidFile);
}

TEST(Process, NoShellInterpolation) {
  ProcessOptions O;
  O.StdoutFile = tempPath("out");
  ProcessResult R = runProcess({"echo", "a; rm -rf /nonexistent $(id)"}, O);
  EXPECT_TRUE(R.succeeded());
  EXPECT_EQ(slurp(O.StdoutFile), "a; rm -rf /nonexistent $(id)\n");
  sys::fs::remove(O.StdoutFile);
}

TEST(Process, MissingProgram) {
  ProcessResult R = runProcess({"/nonexistent/program"});
  EXPECT_FALSE(R.Started);
  EXPECT_NE(R.describe().find("could not start"), std::string::npos);
}

} // namespace

TEST(Process, InterruptStopsRunningChildren) {
  // A tool interrupted while a child runs (Ctrl-C during a compile or a GPU
  // run) takes the child's whole group with it and exits 130.
  std::string PidFile = tempPath("pid");
  pid_t Tool = fork();
  ASSERT_GE(Tool, 0);
  if (Tool == 0) {
    sys::AddSignalHandler([](void *) {},
                          nullptr); // LLVM's handlers, as InitLLVM
    runProcess({"sh", "-c", "echo $$ > " + PidFile + "; sleep 30 & wait"});
    _exit(0);
  }
  pid_t Child = 0;
  for (int I = 0; I < 200 && !Child; ++I) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::string Text = slurp(PidFile);
    if (!Text.empty() && Text.back() == '\n')
      Child = std::stoi(Text);
  }
  ASSERT_GT(Child, 0) << "the child never started";
  kill(Tool, SIGINT);
  int Status = 0;
  waitpid(Tool, &Status, 0);
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 130);
  for (int I = 0; I < 100 && alive(Child); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(alive(Child)) << "the child outlived the interrupted tool";
  sys::fs::remove(PidFile);
}
