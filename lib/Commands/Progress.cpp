#include "cro/Commands/Progress.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace cro {

namespace {

std::string duration(double S) {
  if (S < 60)
    return formatv("{0:f0}s", S).str();
  return formatv("{0}m{1:d2}s", int(S) / 60, int(S) % 60).str();
}

} // namespace

Progress::Mode Progress::chooseMode(bool Quiet) {
  if (Quiet)
    return Mode::Quiet;
  return sys::Process::StandardErrIsDisplayed() ? Mode::Live : Mode::Lines;
}

void Progress::event(json::Object E) {
  if (!JsonLog)
    return;
  E["t"] = secondsSince(Start);
  *JsonLog << formatv("{0}", json::Value(std::move(E))) << "\n";
  JsonLog->flush();
}

void Progress::start(StringRef File, StringRef Gpu, double Original,
                     uint64_t SpaceSize, StringRef Strategy, unsigned B) {
  OriginalMs = Original;
  Budget = B;
  event(json::Object{
      {"event", "start"},
      {"file", File},
      {"gpu", Gpu},
      {"original_ms", Original},
      {"space_size", int64_t(std::min<uint64_t>(SpaceSize, INT64_MAX))},
      {"strategy", Strategy},
      {"budget", B}});
  say(formatv("original {0:f4} ms on {1}; searching {2} points with '{3}', "
              "at most {4} evaluations",
              Original, Gpu, SpaceSize, Strategy, B)
          .str());
}

void Progress::trial(const Trial &T, const SearchResult &SoFar) {
  size_t Done = SoFar.Trials.size();
  double Best = OriginalMs / SoFar.Trace.back();
  double Elapsed = SoFar.Elapsed.back();
  double Eta = Done ? Elapsed / Done * (Budget > Done ? Budget - Done : 0) : 0;
  event(json::Object{
      {"event", "evaluation"},
      {"index", int64_t(Done)},
      {"config", T.Key},
      {"verdict", T.Verdict},
      {"time_ms", T.Time ? json::Value(*T.Time) : json::Value(nullptr)},
      {"reason", T.Reason},
      {"why", T.Why},
      {"resumed", T.Resumed},
      {"best_speedup", Best}});
  std::string Candidate =
      T.Key.size() > 70 ? T.Key.substr(0, 67) + "..." : T.Key;
  switch (M) {
  case Mode::Quiet:
    return;
  case Mode::Live:
    Err << formatv("\r\x1b[K[{0}/{1}] best {2:f2}x  ETA {3}  {4} {5}", Done,
                   Budget, Best, duration(Eta), T.Verdict, Candidate);
    Err.flush();
    LineOpen = true;
    return;
  case Mode::Lines:
    Err << formatv("cuda-rewrite-opt: [{0}/{1}] {2}{3}{4}  best {5:f2}x  {6}\n",
                   Done, Budget, T.Verdict,
                   T.Time ? formatv(" {0:f4} ms", *T.Time).str() : "",
                   T.Resumed ? " (from the database)" : "", Best, T.Key);
    return;
  }
}

void Progress::say(StringRef Line) {
  if (M == Mode::Quiet)
    return;
  if (LineOpen)
    Err << "\r\x1b[K";
  LineOpen = false;
  Err << "cuda-rewrite-opt: " << Line << "\n";
}

void Progress::done(const json::Object &Summary) {
  json::Object E = Summary;
  E["event"] = "done";
  event(std::move(E));
  if (LineOpen && M == Mode::Live)
    Err << "\n";
  LineOpen = false;
}

} // namespace cro
