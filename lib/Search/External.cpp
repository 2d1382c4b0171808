//===- External.cpp - a search policy in another process ------------------===//
//
// --strategy external:CMD runs CMD (split at spaces, no shell) and talks to
// it in JSON lines over its stdin/stdout (docs/search.md has the protocol).
// The policy sees the space, the kernel's features and every result; it
// answers with configurations, which the tool checks like any other
// proposal: an unknown knob or value, or a configuration the constraints
// reject, is never built and comes back to the policy as "invalid" with the
// reason. This is how an LLM-driven agent plugs in without ever emitting
// unverified code.
//
//===----------------------------------------------------------------------===//
#include "cro/Build/Builder.h"
#include "cro/Search/Strategies.h"
#include "cro/Support/InputFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Program.h"
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace cro {

namespace {

/// A child process with a pipe to its stdin and one from its stdout; its
/// stderr is the tool's (the policy's messages reach the user).
class PipeProcess {
public:
  ~PipeProcess() { stop(); }

  Error start(const std::vector<std::string> &Argv) {
    std::string Program = Argv.front();
    if (Program.find('/') == std::string::npos)
      if (ErrorOr<std::string> P = sys::findProgramByName(Program))
        Program = *P;
    // Said before forking: a child that cannot exec would only look like a
    // policy that exited without a word.
    if (!sys::fs::can_execute(Program))
      return makeToolError(ExitCode::SearchFailed,
                           "cannot run the external policy '" + Argv.front() +
                               "': not found or not executable");
    int In[2], Out[2];
    if (pipe(In) || pipe(Out))
      return makeToolError(ExitCode::Internal,
                           "pipe: " + std::string(strerror(errno)));
    Pid = fork();
    if (Pid < 0)
      return makeToolError(ExitCode::Internal, "fork failed");
    if (Pid == 0) {
      dup2(In[0], 0);
      dup2(Out[1], 1);
      close(In[0]);
      close(In[1]);
      close(Out[0]);
      close(Out[1]);
      std::vector<char *> Args;
      for (const std::string &A : Argv)
        Args.push_back(const_cast<char *>(A.c_str()));
      Args.push_back(nullptr);
      execv(Program.c_str(), Args.data());
      _exit(127);
    }
    close(In[0]);
    close(Out[1]);
    ToChild = In[1];
    FromChild = Out[0];
    // A policy that exits early must not kill the tool with SIGPIPE.
    signal(SIGPIPE, SIG_IGN);
    return Error::success();
  }

  bool writeLine(StringRef Line) {
    std::string Data = Line.str() + "\n";
    size_t Done = 0;
    while (Done < Data.size()) {
      ssize_t W = write(ToChild, Data.data() + Done, Data.size() - Done);
      if (W < 0 && errno == EINTR)
        continue;
      if (W <= 0)
        return false;
      Done += size_t(W);
    }
    return true;
  }

  /// The next line, or nullopt on end of file or after TimeoutSeconds.
  std::optional<std::string> readLine(double TimeoutSeconds) {
    while (true) {
      size_t NL = Buffer.find('\n');
      if (NL != std::string::npos) {
        std::string Line = Buffer.substr(0, NL);
        Buffer.erase(0, NL + 1);
        return Line;
      }
      pollfd P{FromChild, POLLIN, 0};
      int R = poll(&P, 1, int(TimeoutSeconds * 1000));
      if (R < 0 && errno == EINTR)
        continue;
      if (R <= 0) {
        TimedOut = R == 0;
        return std::nullopt;
      }
      char Chunk[4096];
      ssize_t N = read(FromChild, Chunk, sizeof Chunk);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return std::nullopt;
      Buffer.append(Chunk, size_t(N));
    }
  }

  void stop() {
    if (Pid <= 0)
      return;
    if (ToChild >= 0)
      close(ToChild);
    ToChild = -1;
    // Give the policy a moment to exit on end of input, then insist.
    for (int I = 0; I < 50; ++I) {
      if (waitpid(Pid, nullptr, WNOHANG) == Pid) {
        Pid = -1;
        break;
      }
      usleep(20000);
    }
    if (Pid > 0) {
      kill(Pid, SIGKILL);
      waitpid(Pid, nullptr, 0);
      Pid = -1;
    }
    if (FromChild >= 0)
      close(FromChild);
    FromChild = -1;
  }

  bool TimedOut = false;

private:
  pid_t Pid = -1;
  int ToChild = -1, FromChild = -1;
  std::string Buffer;
};

} // namespace

ExternalReply parseExternalReply(StringRef Line, const SearchSpace &Space,
                                 unsigned N) {
  ExternalReply Out;
  Expected<json::Value> Reply = parseJsonBounded(Line);
  const json::Object *O = Reply ? Reply->getAsObject() : nullptr;
  const json::Array *Configs = O ? O->getArray("configs") : nullptr;
  if (!Configs) {
    if (!Reply)
      consumeError(Reply.takeError());
    Out.Failure = "the external policy answered something other than "
                  "{\"configs\": [...]}: " +
                  Line.substr(0, 200).str();
    return Out;
  }
  for (const json::Value &C : *Configs) {
    if (Out.Proposals.size() == N)
      break;
    // Each entry is a configuration, or {"config": ..., "why": ...}.
    const json::Object *Entry = C.getAsObject();
    if (!Entry) {
      Out.Rejected.push_back({C, "not a JSON object"});
      continue;
    }
    const json::Object *Config = Entry;
    std::string Why = "proposed by the external policy";
    if (const json::Object *Inner = Entry->getObject("config")) {
      Config = Inner;
      if (auto W = Entry->getString("why"))
        Why = W->str();
    }
    Expected<Point> P = Space.pointOf(*Config);
    if (!P) {
      Out.Rejected.push_back({json::Object(*Config), toString(P.takeError())});
      continue;
    }
    Out.Proposals.push_back({*P, Why, "external"});
  }
  return Out;
}

namespace {

class External : public SearchStrategy {
public:
  External(const StrategyContext &Ctx, std::string Command)
      : Ctx(Ctx), Command(std::move(Command)) {}
  StringRef name() const override { return "external"; }

  Error start() {
    std::vector<std::string> Argv = splitBuildTemplate(Command);
    if (Argv.empty())
      return makeToolError(ExitCode::Usage,
                           "--strategy external: needs a command, e.g. "
                           "external:python3 policy.py");
    if (Error E = Child.start(Argv))
      return E;
    send(json::Object{{"type", "start"},
                      {"protocol", 1},
                      {"space", Ctx.Space.toJSON()},
                      {"kernel_features", toJSON(Ctx.Features)},
                      {"budget", Ctx.Budget},
                      {"seed", int64_t(Ctx.Seed)}});
    return Error::success();
  }

  std::vector<Proposal> ask(unsigned N) override {
    std::vector<Proposal> Out;
    if (!Failure.empty())
      return Out;
    flushRejected();
    if (!send(json::Object{{"type", "ask"}, {"n", N}}))
      return Out;
    std::optional<std::string> Line = Child.readLine(TimeoutSeconds);
    if (!Line) {
      Failure = Child.TimedOut
                    ? formatv("the external policy did not answer within "
                              "{0} s",
                              TimeoutSeconds)
                          .str()
                    : "the external policy exited (end of its output)";
      return Out;
    }
    ExternalReply Reply = parseExternalReply(*Line, Ctx.Space, N);
    Failure = std::move(Reply.Failure);
    for (auto &R : Reply.Rejected)
      Rejected.push_back(std::move(R));
    return std::move(Reply.Proposals);
  }

  void tell(ArrayRef<Trial> Results) override {
    json::Array R;
    for (const Trial &T : Results)
      R.push_back(resultJSON(json::Value(Ctx.Space.config(T.P)), T.Verdict,
                             T.Reason, T.Time));
    send(json::Object{{"type", "tell"}, {"results", std::move(R)}});
  }

  void finish() override {
    flushRejected();
    send(json::Object{{"type", "end"}});
    Child.stop();
  }

  std::string failure() const override { return Failure; }

private:
  static json::Value resultJSON(json::Value Config, StringRef Verdict,
                                StringRef Reason, std::optional<double> Time) {
    // Owned copies: a json::Value made from a StringRef only points at it.
    json::Object O{{"config", std::move(Config)}, {"verdict", Verdict.str()}};
    if (!Reason.empty())
      O["reason"] = Reason.str();
    if (Time)
      O["time_ms"] = *Time;
    return O;
  }

  void flushRejected() {
    if (Rejected.empty())
      return;
    json::Array R;
    for (auto &[C, Why] : Rejected)
      R.push_back(resultJSON(C, "invalid", Why, std::nullopt));
    Rejected.clear();
    send(json::Object{{"type", "tell"}, {"results", std::move(R)}});
  }

  bool send(json::Value V) {
    if (!Failure.empty())
      return false;
    if (!Child.writeLine(formatv("{0}", V).str())) {
      Failure = "the external policy closed its input";
      return false;
    }
    return true;
  }

  StrategyContext Ctx;
  std::string Command;
  PipeProcess Child;
  std::vector<std::pair<json::Value, std::string>> Rejected;
  std::string Failure;
  double TimeoutSeconds = 120;
};

} // namespace

Expected<std::unique_ptr<SearchStrategy>>
makeExternalStrategy(StringRef Command, const StrategyContext &Ctx) {
  auto S = std::make_unique<External>(Ctx, Command.str());
  if (Error E = S->start())
    return std::move(E);
  return std::unique_ptr<SearchStrategy>(std::move(S));
}

} // namespace cro
