#include "cro/Support/Process.h"
#include "cro/Support/Clock.h"
#include "llvm/Support/Signals.h"
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <time.h>
#include <unistd.h>

extern char **environ;

namespace cro {

std::string ProcessResult::describe() const {
  if (!Started)
    return "could not start: " + StartError;
  if (!Lost.empty())
    return Lost;
  if (TimedOut)
    return "timed out after " + std::to_string(int(Seconds + 0.5)) +
           " s (process group killed)";
  if (Signal)
    return "killed by signal " + std::to_string(Signal) + " (" +
           strsignal(Signal) + ")";
  return "exit code " + std::to_string(ExitCode);
}

namespace {

/// The process groups running now, so that an interrupted tool (Ctrl-C,
/// SIGTERM) takes its compilers and programs with it instead of leaving
/// them on the GPU. A fixed table of atomics: the interrupt handler may only
/// do async-signal-safe things.
constexpr int MaxLiveGroups = 512;
std::atomic<pid_t> LiveGroups[MaxLiveGroups];
/// Per group, the signal that stops it (ProcessOptions::StopSignal) and the
/// grace in milliseconds before SIGKILL.
std::atomic<int> LiveStopSignals[MaxLiveGroups];
std::atomic<int> LiveGraceMs[MaxLiveGroups];

/// Whether the child P has exited (reaping it), or is not ours to wait for
/// any more (another thread reaped it). Async-signal-safe.
bool exitedNow(pid_t P) {
  int Status;
  pid_t W = waitpid(P, &Status, WNOHANG);
  return W == P || (W < 0 && errno == ECHILD);
}

void onInterrupt() {
  // The polite ones first (srun cancels its job on SIGTERM), given their
  // grace to go; then everything still there is killed.
  int GraceMs = 0;
  for (int I = 0; I < MaxLiveGroups; ++I) {
    pid_t P = LiveGroups[I].load();
    if (P > 0 && LiveStopSignals[I].load() != SIGKILL) {
      kill(-P, LiveStopSignals[I].load());
      GraceMs = std::max(GraceMs, LiveGraceMs[I].load());
    }
  }
  for (int Waited = 0; Waited < GraceMs; Waited += 50) {
    bool Any = false;
    for (int I = 0; I < MaxLiveGroups; ++I) {
      pid_t P = LiveGroups[I].load();
      Any |= P > 0 && LiveStopSignals[I].load() != SIGKILL && !exitedNow(P);
    }
    if (!Any)
      break;
    struct timespec Nap = {0, 50 * 1000 * 1000};
    nanosleep(&Nap, nullptr);
  }
  for (std::atomic<pid_t> &G : LiveGroups) {
    pid_t P = G.load();
    if (P > 0)
      kill(-P, SIGKILL);
  }
  const char Msg[] =
      "\ncuda-rewrite-opt: interrupted; the running compilers and programs "
      "were stopped. Every evaluation finished so far is in the tuning "
      "database: the same command resumes from there.\n";
  ssize_t Ignored = write(2, Msg, sizeof Msg - 1);
  (void)Ignored;
  _exit(130);
}

int trackGroup(pid_t P, const ProcessOptions &Opts) {
  static std::once_flag Installed;
  std::call_once(Installed,
                 [] { llvm::sys::SetInterruptFunction(onInterrupt); });
  for (int I = 0; I < MaxLiveGroups; ++I) {
    pid_t Free = 0;
    // The stop signal is in place before the group is visible to the
    // handler.
    LiveStopSignals[I].store(Opts.StopSignal);
    LiveGraceMs[I].store(int(Opts.StopGraceSeconds * 1000));
    if (LiveGroups[I].compare_exchange_strong(Free, P))
      return I;
  }
  return -1; // more groups than slots: that one is not tracked
}

void untrackGroup(int Slot) {
  if (Slot >= 0)
    LiveGroups[Slot].store(0);
}

/// The environment for the child: ours, with Extra's entries replacing or
/// adding variables.
std::vector<std::string>
childEnvironment(const std::vector<std::string> &Extra) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E) {
    std::string Entry = *E;
    std::string Name = Entry.substr(0, Entry.find('='));
    bool Replaced = false;
    for (const std::string &X : Extra)
      Replaced |= X.compare(0, Name.size() + 1, Name + "=") == 0;
    if (!Replaced)
      Env.push_back(Entry);
  }
  Env.insert(Env.end(), Extra.begin(), Extra.end());
  return Env;
}

std::vector<char *> cStrings(std::vector<std::string> &V) {
  std::vector<char *> Out;
  for (std::string &S : V)
    Out.push_back(S.data());
  Out.push_back(nullptr);
  return Out;
}

/// Stops the group Pid leads (its StopSignal, the grace, then SIGKILL) and
/// reaps Pid into Status.
void stopGroup(pid_t Pid, int &Status, const ProcessOptions &Opts) {
  if (Opts.StopSignal != SIGKILL) {
    kill(-Pid, Opts.StopSignal);
    auto Start = Clock::now();
    while (secondsSince(Start) < Opts.StopGraceSeconds) {
      if (waitpid(Pid, &Status, WNOHANG) == Pid)
        return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  kill(-Pid, SIGKILL);
  waitpid(Pid, &Status, 0);
}

} // namespace

ProcessResult runProcess(llvm::ArrayRef<std::string> ArgvIn,
                         const ProcessOptions &Opts) {
  ProcessResult R;
  if (ArgvIn.empty()) {
    R.StartError = "empty command";
    return R;
  }
  std::vector<std::string> Argv(ArgvIn.begin(), ArgvIn.end());
  std::vector<std::string> Env = childEnvironment(Opts.Env);
  std::vector<char *> CArgv = cStrings(Argv), CEnv = cStrings(Env);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  std::string Out = Opts.StdoutFile.empty() ? "/dev/null" : Opts.StdoutFile;
  std::string Err = Opts.StderrFile.empty() ? "/dev/null" : Opts.StderrFile;
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 1, Out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (Err == Out)
    posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  else
    posix_spawn_file_actions_addopen(&Actions, 2, Err.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!Opts.WorkingDirectory.empty())
    posix_spawn_file_actions_addchdir_np(&Actions,
                                         Opts.WorkingDirectory.c_str());
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&Attr, 0); // a new group, led by the child

  auto Start = Clock::now();
  pid_t Pid;
  int RC =
      posix_spawnp(&Pid, CArgv[0], &Actions, &Attr, CArgv.data(), CEnv.data());
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  if (RC != 0) {
    R.StartError = Argv[0] + ": " + strerror(RC);
    return R;
  }
  R.Started = true;
  int Slot = trackGroup(Pid, Opts);

  int Status = 0;
  auto Elapsed = [&] { return secondsSince(Start); };
  std::chrono::milliseconds Poll(1);
  while (true) {
    pid_t W = waitpid(Pid, &Status, WNOHANG);
    if (W == Pid)
      break;
    if (W < 0 && errno != EINTR) {
      R.StartError = std::string("waitpid: ") + strerror(errno);
      break;
    }
    if (Opts.TimeoutSeconds > 0 && Elapsed() > Opts.TimeoutSeconds) {
      stopGroup(Pid, Status, Opts); // the whole group: children too
      R.TimedOut = true;
      break;
    }
    std::this_thread::sleep_for(Poll);
    if (Poll < std::chrono::milliseconds(50))
      Poll *= 2;
  }
  // Whatever the child left running in its group goes with it.
  kill(-Pid, SIGKILL);
  untrackGroup(Slot);
  R.Seconds = Elapsed();
  if (R.TimedOut)
    return R;
  if (WIFEXITED(Status))
    R.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    R.Signal = WTERMSIG(Status);
  return R;
}

} // namespace cro
