#include "cro/Search/GpuEvaluator.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/VariantOutput.h"
#include "cro/Support/Clock.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace cro {

namespace {

/// Runs of the original after the first that capture their outputs too, to
/// measure how much the original differs from itself (captureNoise): two
/// pairs instead of one, at the cost of writing the captures twice more.
constexpr unsigned NoiseCaptureRuns = 2;

std::string sequenceJSON(const std::vector<RewriteStep> &Steps) {
  json::Array A;
  for (const RewriteStep &S : Steps)
    A.push_back(json::Object{
        {"knob", S.Knob}, {"transform", S.Transform}, {"value", S.Value}});
  return formatv("{0}", json::Value(std::move(A))).str();
}

std::string joined(const std::vector<std::string> &V) {
  std::string S;
  for (const std::string &X : V)
    S += (S.empty() ? "" : " ") + X;
  return S;
}

} // namespace

GpuEvaluator::GpuEvaluator(const RewriteContext &Ctx, const SearchSpace &Space,
                           GpuEvaluatorOptions O)
    : Ctx(Ctx), Space(Space), Opts(std::move(O)), Build(Opts.Build) {}

GpuEvaluator::~GpuEvaluator() {
  // Builds still running finish before their results go away.
  for (auto &P : Queue)
    if (P->Built.valid())
      if (Expected<std::vector<BuildResult>> R = P->Built.get(); !R)
        consumeError(R.takeError());
}

Error GpuEvaluator::measureOriginal() {
  std::string Text = Ctx.mainSource().str();
  auto Wait0 = Clock::now();
  Expected<std::vector<BuildResult>> B = Build.build({{Text, {}}});
  CompileWaitSeconds += secondsSince(Wait0);
  if (!B)
    return B.takeError();
  if (!(*B)[0].Ok)
    return makeToolError(ExitCode::NotVerified,
                         "the original does not compile with the build "
                         "command:\n" +
                             (*B)[0].Log);
  auto T0 = Clock::now();
  // Several runs of the original: the baseline's time is their median, and
  // the first run's captures are what every variant is compared with. The
  // next two runs capture too: where the original's own outputs differ
  // between runs (float atomics), variants may differ as much.
  std::vector<double> Medians;
  std::vector<ProgramRun> NoiseRuns;
  for (unsigned I = 0; I < std::max(1u, Opts.OriginalRuns); ++I) {
    // The later runs capture against the first: where they reproduce it
    // bit for bit (the usual case) nothing is written.
    ProgramRun R = runProgram((*B)[0].Executable, Opts.Eval,
                              "original." + std::to_string(I),
                              I <= NoiseCaptureRuns, I ? &Original : nullptr);
    if (!R.Ok)
      return makeToolError(ExitCode::NotVerified,
                           "the original program does not run cleanly, so no "
                           "variant can be verified against it: " +
                               R.Problem);
    std::optional<double> T = objectiveMs(R);
    bool TargetLaunched = Opts.Eval.Run.MaxLaunches <= 0;
    for (const auto &[K, Timing] : R.Timings)
      TargetLaunched |= Timing.Replayed;
    if (!T || !TargetLaunched)
      return makeToolError(ExitCode::NotVerified,
                           "the original program ran, but none of the target "
                           "kernels was launched (check --run arguments)");
    Medians.push_back(*T);
    if (I == 0)
      Original = std::move(R);
    else if (I <= NoiseCaptureRuns)
      NoiseRuns.push_back(std::move(R));
    else
      removeRunDirectories(R);
  }
  Opts.Eval.OriginalNoise = captureNoise(Original, NoiseRuns, Ctx.Model);
  for (ProgramRun &R : NoiseRuns)
    removeRunDirectories(R);
  MeasureSeconds += secondsSince(T0);
  std::sort(Medians.begin(), Medians.end());
  OriginalTrial = Trial();
  OriginalTrial.P = Space.defaultPoint();
  OriginalTrial.Key = Space.key(OriginalTrial.P);
  OriginalTrial.Verdict = "verified";
  OriginalTrial.Time = Medians[Medians.size() / 2];
  OriginalTrial.Spread = Medians.back() - Medians.front();
  kernelResources(Original, OriginalTrial.Registers, OriginalTrial.Occupancy);
  // A resumed search keeps the original's recorded time, so that the
  // strategy sees exactly the history it saw before (its resumed results
  // were measured against that time); the captures are always fresh.
  if (Opts.Db) {
    Expected<std::optional<EvaluationRecord>> Known =
        Opts.Db->find(Opts.SourceHash, OriginalTrial.Key, Opts.Where);
    if (!Known) {
      DbProblem = toString(Known.takeError());
    } else if (*Known && (*Known)->Verdict == "verified" &&
               (*Known)->MedianMs) {
      OriginalTrial.Time = (*Known)->MedianMs;
      OriginalTrial.Spread = (*Known)->SpreadMs.value_or(0);
      return Error::success();
    }
  }
  // The original is a result too: replaying picks it when nothing beat it.
  record(OriginalTrial, {}, {});
  return Error::success();
}

std::optional<Trial> GpuEvaluator::known(const Point &P) {
  if (P == Space.defaultPoint())
    return OriginalTrial;
  if (!Opts.Db)
    return std::nullopt;
  Expected<std::optional<EvaluationRecord>> R =
      Opts.Db->find(Opts.SourceHash, Space.key(P), Opts.Where);
  if (!R) {
    DbProblem = toString(R.takeError());
    return std::nullopt;
  }
  // A run that failed may have failed for a reason outside the variant
  // (a lost GPU): measure it again.
  if (!*R || (*R)->Verdict == "run-failed")
    return std::nullopt;
  Trial T;
  T.P = P;
  T.Verdict = (*R)->Verdict;
  T.Reason = (*R)->Reason;
  T.Time = (*R)->Verdict == "verified" ? (*R)->MedianMs : std::nullopt;
  T.Spread = (*R)->SpreadMs.value_or(0);
  T.Resumed = true;
  return T;
}

void GpuEvaluator::prepare(ArrayRef<Proposal> Batch) {
  auto P = std::make_unique<Prepared>();
  std::vector<BuildRequest> Requests;
  for (const Proposal &Prop : Batch) {
    P->Points.push_back(Prop.P);
    Expected<Variant> V = applyConfiguration(Ctx, Space.config(Prop.P));
    if (!V) {
      P->Problems.push_back(toString(V.takeError()));
      P->Sequences.emplace_back();
      P->Flags.emplace_back();
      P->BuildIndex.push_back(-1);
      continue;
    }
    P->Problems.emplace_back();
    P->Sequences.push_back(V->Sequence);
    P->Flags.push_back(V->NvccFlags);
    P->BuildIndex.push_back(int(Requests.size()));
    Requests.push_back({V->Source, V->NvccFlags, copiesToBuild(*V)});
  }
  // Compiling runs on other threads while the previous batch is measured
  // on the GPU; the Builder compiles the batch's variants in parallel.
  // One batch compiles at a time (the Builder already uses every core).
  P->Built =
      std::async(std::launch::async, [this, Requests = std::move(Requests)]() {
        std::lock_guard<std::mutex> Lock(BuildMutex);
        return Build.build(Requests);
      });
  Queue.push_back(std::move(P));
}

std::optional<ProgramRun>
GpuEvaluator::runVariant(Trial &T, const BuildResult &B, unsigned Slot) {
  if (!B.Ok) {
    T.Verdict = "build-failed";
    T.Reason = "nvcc: " + StringRef(B.Log).take_front(2000).str();
    return std::nullopt;
  }
  auto T0 = Clock::now();
  // Captures bit-identical to the original's are checked by checksum in the
  // program and never written.
  EvaluateOptions InSlot = Opts.Eval;
  InSlot.Run.Slot = Slot;
  ProgramRun R =
      runProgram(B.Executable, InSlot, "variant." + std::to_string(Counter++),
                 true, &Original);
  {
    std::lock_guard<std::mutex> Lock(SecondsMutex);
    MeasureSeconds += secondsSince(T0);
  }
  if (!R.Ok) {
    removeRunDirectories(R);
    T.Verdict = "run-failed";
    T.Reason = R.Problem;
    return std::nullopt;
  }
  return R;
}

std::string GpuEvaluator::check(const ProgramRun &R, double &Seconds) const {
  auto V0 = Clock::now();
  std::string Why = verify(Original, R, Ctx.Model, Opts.Eval);
  // The captures were only needed for this comparison: a program can
  // capture a gigabyte a run, and a search of 40 runs kept them all on the
  // disk until the end (corpus run 1) -- the disk's room, and seconds to
  // delete them at exit.
  removeRunDirectories(R);
  Seconds = secondsSince(V0);
  return Why;
}

void GpuEvaluator::judge(Trial &T, const ProgramRun &R,
                         const std::string &Why) const {
  if (!Why.empty()) {
    T.Verdict = "rejected";
    T.Reason = Why;
    return;
  }
  std::optional<double> Time = objectiveMs(R);
  if (!Time) {
    T.Verdict = "run-failed";
    T.Reason = "no target kernel was timed";
    return;
  }
  T.Verdict = "verified";
  T.Time = *Time;
  T.Spread = totalSpreadMs(R);
  kernelResources(R, T.Registers, T.Occupancy);
}

std::vector<Trial> GpuEvaluator::evaluate(ArrayRef<Proposal> Batch) {
  std::vector<Point> Wanted;
  for (const Proposal &Prop : Batch)
    Wanted.push_back(Prop.P);
  // The batch was normally prepared in order; anything else is rebuilt.
  while (!Queue.empty() && Queue.front()->Points != Wanted) {
    if (Expected<std::vector<BuildResult>> Stale = Queue.front()->Built.get();
        !Stale)
      consumeError(Stale.takeError());
    Queue.pop_front();
  }
  if (Queue.empty())
    prepare(Batch);
  std::unique_ptr<Prepared> P = std::move(Queue.front());
  Queue.pop_front();
  auto Wait0 = Clock::now();
  Expected<std::vector<BuildResult>> Built = P->Built.get();
  CompileWaitSeconds += secondsSince(Wait0);
  std::string BuildProblem;
  if (!Built)
    BuildProblem = toString(Built.takeError());

  unsigned Slots = Opts.Eval.Run.Via ? Opts.Eval.Run.Via->slots() : 1;
  if (Slots > 1)
    return evaluateOnSlots(*P, Built ? &*Built : nullptr, BuildProblem);

  std::vector<Trial> Out(P->Points.size());
  auto Finish = [&](size_t I) {
    Out[I].Key = Space.key(Out[I].P);
    record(Out[I], P->Sequences[I], P->Flags[I]);
  };
  // A variant's outputs are compared with the original's on the CPU while
  // the next variant runs on the GPU (the objective is GPU time, from the
  // GPU's own records, so the comparison does not disturb it). At most one
  // comparison is in flight, so captures of at most two runs are on the
  // disk. A --check command runs the user's own check, which may read what
  // the program wrote where the next run writes too: then nothing overlaps.
  struct PendingCheck {
    size_t Index;
    ProgramRun Run;
    std::future<std::pair<std::string, double>> Why;
  };
  std::unique_ptr<PendingCheck> InFlight;
  bool Overlap = Opts.Eval.CheckCommand.empty() && Opts.Eval.CaptureChecksums;
  auto Settle = [&]() {
    if (!InFlight)
      return;
    auto W0 = Clock::now();
    auto [Why, Seconds] = InFlight->Why.get();
    VerifyWaitSeconds += secondsSince(W0);
    VerifySeconds += Seconds;
    judge(Out[InFlight->Index], InFlight->Run, Why);
    Finish(InFlight->Index);
    InFlight.reset();
  };
  for (size_t I = 0; I < P->Points.size(); ++I) {
    Trial &T = Out[I];
    T.P = P->Points[I];
    std::optional<ProgramRun> Ran;
    if (!P->Problems[I].empty()) {
      // The space's legality check applies the same rewrite, so this is a
      // rewrite that failed only on this path: reported, never built.
      T.Verdict = "build-failed";
      T.Reason = "rewrite: " + P->Problems[I];
    } else if (!Built) {
      T.Verdict = "build-failed";
      T.Reason = BuildProblem;
    } else {
      const BuildResult &B = (*Built)[P->BuildIndex[I]];
      CompileSeconds += B.Seconds;
      Ran = runVariant(T, B);
    }
    if (!Ran) {
      Finish(I);
      continue;
    }
    Settle();
    auto Pending = std::make_unique<PendingCheck>();
    Pending->Index = I;
    Pending->Run = std::move(*Ran);
    const ProgramRun *Run = &Pending->Run;
    Pending->Why = std::async(std::launch::async, [this, Run] {
      double Seconds = 0;
      std::string Why = check(*Run, Seconds);
      return std::make_pair(Why, Seconds);
    });
    InFlight = std::move(Pending);
    if (!Overlap)
      Settle();
  }
  Settle();
  return Out;
}

std::vector<Trial>
GpuEvaluator::evaluateOnSlots(Prepared &P,
                              const std::vector<BuildResult> *Built,
                              const std::string &BuildProblem) {
  std::vector<Trial> Out(P.Points.size());
  // Each slot runs a variant and compares its outputs itself: the slots'
  // GPUs are busy with the other variants meanwhile, so there is nothing
  // to overlap the comparison with.
  runOnSlots(Opts.Eval.Run.Via->slots(), P.Points.size(),
             [&](size_t I, unsigned Slot) {
               Trial &T = Out[I];
               T.P = P.Points[I];
               if (!P.Problems[I].empty()) {
                 T.Verdict = "build-failed";
                 T.Reason = "rewrite: " + P.Problems[I];
                 return;
               }
               if (!Built) {
                 T.Verdict = "build-failed";
                 T.Reason = BuildProblem;
                 return;
               }
               std::optional<ProgramRun> Ran =
                   runVariant(T, (*Built)[P.BuildIndex[I]], Slot);
               if (!Ran)
                 return;
               double Seconds = 0;
               std::string Why = check(*Ran, Seconds);
               judge(T, *Ran, Why);
               std::lock_guard<std::mutex> Lock(SecondsMutex);
               VerifySeconds += Seconds;
               VerifyWaitSeconds += Seconds;
             });
  // The database is written from this thread only.
  for (size_t I = 0; I < Out.size(); ++I) {
    if (Built && P.BuildIndex[I] >= 0)
      CompileSeconds += (*Built)[P.BuildIndex[I]].Seconds;
    Out[I].Key = Space.key(Out[I].P);
    record(Out[I], P.Sequences[I], P.Flags[I]);
  }
  return Out;
}

void GpuEvaluator::record(const Trial &T,
                          const std::vector<RewriteStep> &Sequence,
                          const std::vector<std::string> &Flags) {
  if (!Opts.Db)
    return;
  EvaluationRecord R;
  R.SourceHash = Opts.SourceHash;
  R.File = Ctx.FilePath.str();
  R.Config = T.Key;
  R.Sequence = sequenceJSON(Sequence);
  R.Where = Opts.Where;
  R.Flags =
      joined(Opts.Build.Flags) + (Flags.empty() ? "" : " ") + joined(Flags);
  R.Verdict = T.Verdict;
  R.Reason = T.Reason;
  R.MedianMs = T.Time;
  R.SpreadMs = T.Spread;
  R.OriginalMs = OriginalTrial.Time;
  json::Object M;
  if (T.Registers)
    M["registers"] = *T.Registers;
  if (T.Occupancy)
    M["occupancy"] = *T.Occupancy;
  R.Metrics = formatv("{0}", json::Value(std::move(M))).str();
  R.Strategy = Opts.Strategy;
  if (Error E = Opts.Db->record(R))
    DbProblem = toString(std::move(E));
}

} // namespace cro
