#include "cro/Commands/TuneCommand.h"
#include "cro/Commands/GpuSearch.h"
#include "cro/Commands/Progress.h"
#include "cro/Commands/SearchReport.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Measure/Decision.h"
#include "cro/Measure/Harness.h"
#include "cro/Measure/Profiler.h"
#include "cro/Report/TuningReport.h"
#include "cro/Report/UnifiedDiff.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/VariantOutput.h"
#include "cro/Support/AtomicFile.h"
#include "cro/Support/Clock.h"
#include "cro/Support/ToolError.h"
#include "cro/Tune/FileSpace.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include <ctime>

using namespace llvm;

namespace cro {

namespace {

std::string today() {
  std::time_t T = std::time(nullptr);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&T));
  return Buf;
}

/// --profile: Nsight Compute's metrics of the first launch of each kernel,
/// original and winner side by side. A profiler that cannot run (no ncu,
/// no permission to read the counters) is a warning, not a failure.
void addProfilerMetrics(const GpuSearch &S, TuningReport &Rep, Progress &P) {
  const GpuEvaluatorOptions &O = S.evaluator().options();
  const std::string &OriginalExe = S.evaluator().originalExecutable();
  const std::string &VariantExe = S.evaluator().variantExecutable();
  std::string Ncu = findNcu(O.Eval.Run.CudaRoot);
  std::vector<std::string> Args =
      O.Eval.ArgSets.empty() ? std::vector<std::string>() : O.Eval.ArgSets[0];
  Expected<KernelMetrics> A =
      profileWithNcu(Ncu, OriginalExe, Args, O.Eval.Run.TargetKernels,
                     O.Eval.Run.TimeoutSeconds * 4);
  Expected<KernelMetrics> B =
      profileWithNcu(Ncu, VariantExe, Args, O.Eval.Run.TargetKernels,
                     O.Eval.Run.TimeoutSeconds * 4);
  std::string Why;
  if (!A)
    Why = toString(A.takeError());
  if (!B) {
    std::string W = toString(B.takeError());
    if (Why.empty())
      Why = W;
  }
  if (!Why.empty()) {
    P.say("warning: --profile: " + Why);
    return;
  }
  for (const auto &[Kernel, Values] : *A)
    for (const auto &[Name, X] : Values) {
      std::optional<double> Y;
      auto K = B->find(Kernel);
      if (K != B->end())
        if (auto M = K->second.find(Name); M != K->second.end())
          Y = M->second;
      Rep.Metrics.push_back({Kernel, "ncu " + Name, X, Y});
    }
}

/// Per kernel, the confirmation's launches, GPU time, share of the
/// program, time per launch, registers and occupancy, original and winner.
void addKernelMetrics(const Evaluation &C, TuningReport &Rep) {
  for (const auto &[K, T] : C.Original.Timings) {
    auto It = C.Variant.Timings.find(K);
    auto Add = [&](StringRef Name, auto F) {
      std::optional<double> B;
      if (It != C.Variant.Timings.end())
        B = F(It->second);
      Rep.Metrics.push_back({K, Name.str(), F(T), B});
    };
    Add("launches", [](const KernelTiming &X) { return double(X.Launches); });
    Add("GPU time in the program (ms)",
        [](const KernelTiming &X) { return X.ProgramMs; });
    Add("share of the program's GPU time", [&](const KernelTiming &X) {
      // Of its own program's total (the original's or the variant's).
      double Total = 0;
      for (const auto &[N, Y] : (&X == &T ? C.Original : C.Variant).Timings)
        Total += Y.ProgramMs;
      return Total > 0 ? X.ProgramMs / Total : 0.0;
    });
    Add("median time per launch (ms)",
        [](const KernelTiming &X) { return X.Time.Median; });
    Add("registers per thread",
        [](const KernelTiming &X) { return double(X.Registers); });
    Add("achieved occupancy",
        [](const KernelTiming &X) { return X.Occupancy; });
  }
}

/// The comment a written variant starts with: where and when it was tuned,
/// its rewrites, and the confirmation that decided it.
std::string tunedHeader(const TuningReport &Rep, const SessionOutcome &O,
                        StringRef ToolVersion) {
  std::string Header =
      formatv("// Tuned by {0} on {1} ({2}, driver {3}, nvcc {4}), {5}.\n",
              ToolVersion, Rep.Gpu, Rep.Arch, Rep.Driver, Rep.Nvcc, Rep.Date);
  for (const std::string &L : Rep.BestSequence)
    Header += "// Rewrites, " + L + "\n";
  Header += formatv("// Measured ({6}): {0:f4} ms (IQR {1:f4} ms) against "
                    "{2:f4} ms (IQR {3:f4} ms) for the original: "
                    "{4:f2}x (at least {7:f2}x at {8:P0} confidence), {5} "
                    "interleaved runs each; outputs verified against the "
                    "original's.\n",
                    *Rep.BestMs, Rep.BestSpreadMs, Rep.OriginalMs,
                    Rep.OriginalSpreadMs, Rep.OriginalMs / *Rep.BestMs, O.Runs,
                    objectiveDescription(Rep.Objective), *O.Gain.LowerBound,
                    O.Gain.Confidence);
  return Header;
}

/// No GPU: the database's result for this source, else the original.
int withoutGpu(const TuneRequest &Req, const KernelModel &Model,
               const RewriteContext &Ctx, raw_ostream &Err) {
  uint64_t Points = 0, Knobs = 0;
  if (Expected<SearchSpace> S = fileSpace(Req.Search.SpaceFile, Ctx)) {
    Points = S->size();
    Knobs = S->dimensions().size();
  } else {
    return reportAndGetExitCode(S.takeError(), Err);
  }
  std::string Names;
  for (const KernelInfo &K : Model.Kernels)
    Names += (Names.empty() ? "" : ", ") + K.Id;
  // --quiet keeps only the outcome (and warnings): what was written.
  std::string Found = Model.Unparsed.empty()
                          ? formatv("{0} kernel{1} ({2})", Model.Kernels.size(),
                                    Model.Kernels.size() == 1 ? "" : "s", Names)
                                .str()
                          : "kernels not modelled";
  if (!Req.Search.Quiet)
    Err << formatv("cuda-rewrite-opt: {0}: {1}; a search space of {2} points "
                   "over {3} knobs\n",
                   Ctx.FilePath, Found, Points, Knobs);
  ReplayRequest RR;
  RR.Measure = Req.Search.Measure;
  RR.DbPath = Req.Search.DbPath;
  RR.Gpu = Req.GpuName;
  RR.OutputFile = Req.Search.OutputFile;
  RR.Diff = Req.Diff;
  // Nothing was measured, so there is nothing to report or log: say so
  // rather than leave the user looking for a file.
  for (const std::string &F : {Req.ReportFile, Req.LogJson})
    if (!F.empty())
      Err << "cuda-rewrite-opt: not writing '" << F
          << "': nothing was measured on this machine\n";
  if (RR.DbPath == "none") {
    if (Error E = writeOutput(RR.OutputFile, withoutHarness(Ctx.mainSource())))
      return reportAndGetExitCode(std::move(E), Err);
    Err << "cuda-rewrite-opt: " << noGpuMessage()
        << " and no tuning database (--db none): wrote the original "
           "unchanged\n";
    return 0;
  }
  // runReplay says which GPU's result it wrote, or that there was none.
  if (!Req.Search.Quiet)
    Err << "cuda-rewrite-opt: " << noGpuMessage()
        << ": nothing can be measured; looking for a tuned result in the "
           "tuning database\n";
  return runReplay(RR, Model, Ctx, Err);
}

} // namespace

int runTuneCommand(const TuneRequest &Req, const ParsedFile &PF,
                   const KernelModel &Model, const RewriteContext &Ctx,
                   raw_ostream &Err) {
  if (!Req.ReportFile.empty()) {
    // Refuse a bad report name before spending minutes on the search.
    if (Error E = checkReportPath(Req.ReportFile))
      return reportAndGetExitCode(std::move(E), Err);
  }
  std::string NoGpu;
  std::optional<LocalGpu> Gpu = measuringGpu(Req.Search.Measure, NoGpu);
  if (!Gpu && Req.RequireGpu)
    return reportAndGetExitCode(
        makeToolError(ExitCode::NoGpu,
                      NoGpu +
                          ", and --require-gpu: nothing was tuned or written"),
        Err);
  if (!Gpu)
    return withoutGpu(Req, Model, Ctx, Err);
  auto Start = Clock::now();

  std::unique_ptr<raw_fd_ostream> JsonLog;
  if (!Req.LogJson.empty()) {
    std::error_code EC;
    // raw_fd_ostream takes "-" for stdout.
    JsonLog = std::make_unique<raw_fd_ostream>(Req.LogJson, EC);
    if (EC)
      return reportAndGetExitCode(
          makeToolError(ExitCode::OutputError, "--log-json: cannot write '" +
                                                   Req.LogJson +
                                                   "': " + EC.message()),
          Err);
  }
  Progress P(Progress::chooseMode(Req.Search.Quiet), Err, std::move(JsonLog));
  SearchRequest SR = Req.Search;
  SR.Quiet = true; // Progress speaks for the search
  Expected<std::unique_ptr<GpuSearch>> S =
      GpuSearch::start(*Gpu, SR, PF, Model, Ctx, Err);
  if (!S)
    return reportAndGetExitCode(S.takeError(), Err);
  const SearchSpace &Space = (*S)->space();
  const Trial &Original = (*S)->evaluator().original();
  P.start(Ctx.FilePath, (*S)->gpu().Name, *Original.Time, Space.size(),
          SR.Control.Strategy, SR.Control.Budget);
  std::string Note;
  SearchResult R = (*S)->session().search(
      [&](const Trial &T, const SearchResult &SoFar) { P.trial(T, SoFar); },
      &Note);
  if (!(*S)->evaluator().databaseProblem().empty())
    P.say("warning: tuning database: " + (*S)->evaluator().databaseProblem());
  if (R.strategyFailed()) {
    P.say("error: " + R.StopReason + "; the output was not written");
    return static_cast<int>(ExitCode::SearchFailed);
  }

  TuningReport Rep;
  Rep.Tool = Req.ToolVersion;
  Rep.Objective = objectiveName(Req.Search.Measure.Goal).str();
  Rep.MinGain = Req.Search.Measure.MinGain;
  Rep.File = Ctx.FilePath.str();
  Rep.Gpu = (*S)->gpu().Name;
  Rep.Arch = (*S)->gpu().Arch;
  Rep.Driver = (*S)->gpu().Driver;
  Rep.Nvcc = (*S)->platform().Nvcc;
  Rep.Date = today();
  Rep.Strategy = SR.Control.Strategy;
  Rep.Budget = SR.Control.Budget;
  Rep.Seed = SR.Control.Seed;
  Rep.StopReason = R.StopReason;
  Rep.OriginalMs = *Original.Time;
  Rep.TotalSeconds = R.TotalSeconds;
  Rep.CompileSeconds = (*S)->evaluator().gpu().compileSeconds();
  Rep.CompileWaitSeconds = (*S)->evaluator().gpu().compileWaitSeconds();
  Rep.MeasureSeconds = (*S)->evaluator().gpu().measureSeconds();
  Rep.VerifySeconds = (*S)->evaluator().gpu().verifySeconds();
  Rep.VerifyWaitSeconds = (*S)->evaluator().gpu().verifyWaitSeconds();
  Rep.StrategySeconds = R.StrategySeconds;
  Rep.Evaluations = reportEvaluations(R, Space, *Original.Time);

  // The winner of the search, confirmed against the original in
  // interleaved runs and held to the minimum-gain rule (lib/Tune).
  Variant Chosen; // the original unless a variant is confirmed faster
  Chosen.Source = Ctx.mainSource().str();
  std::string Text = Chosen.Source;
  const Trial *Best = R.Best ? &R.Trials[*R.Best] : nullptr;
  if (Best && Best->P != Space.defaultPoint())
    P.say(formatv("confirming the best candidate ({0:f2}x in the search) "
                  "against the original, {1} interleaved runs each",
                  *Original.Time / *Best->Time,
                  std::max(GainRule().MinRuns, Req.Search.Measure.Runs))
              .str());
  SessionOutcome O = (*S)->session().decide(R);
  Rep.ConfirmSeconds = O.ConfirmSeconds;
  Rep.Decision = O.Decision;
  if (O.Candidate && O.Confirmed.Verified) {
    const Evaluation &C = O.Confirmed.Detail;
    Rep.ConfirmRuns = O.Runs;
    Rep.Tolerances = widenedTolerances(C.Original, Ctx.Model,
                                       (*S)->evaluator().options().Eval);
    if (std::optional<double> Ms = O.originalMs())
      Rep.OriginalMs = *Ms;
    Rep.OriginalSpreadMs = totalSpreadMs(C.Original);
    Rep.BestMs = O.variantMs();
    Rep.BestSpreadMs = totalSpreadMs(C.Variant);
    Rep.BestConfig = Space.key(*O.Candidate);
    Rep.BestSequence = rewritesByKernel(Space, *O.Candidate);
    Rep.FasterBeyondNoise = O.Gain.Faster;
    Rep.SpeedupLowerBound = O.Gain.LowerBound;
    Rep.Confidence = O.Gain.Confidence;
    addKernelMetrics(C, Rep);
    if (Req.Search.Measure.Profile)
      addProfilerMetrics(**S, Rep, P);
    if (O.written()) {
      Expected<Variant> Var =
          applyConfiguration(Ctx, Space.config(*O.Candidate));
      if (!Var)
        return reportAndGetExitCode(Var.takeError(), Err);
      Text = tunedHeader(Rep, O, Req.ToolVersion) + variantFileText(*Var);
      Chosen = std::move(*Var);
    }
  }
  bool Wrote = O.written();
  // (A generated harness is the tool's, not the user's: never written.)
  if (Error E = writeVariant(Chosen, withoutHarness(Text),
                             Req.Search.OutputFile, Ctx.Model.Program))
    return reportAndGetExitCode(std::move(E), Err);
  if (Error E = (*S)->session().record(O))
    P.say("warning: tuning database: " + toString(std::move(E)));
  if (Req.Diff)
    outs() << variantDiff(Chosen, withoutHarness(Ctx.mainSource()),
                          withoutHarness(Text), Ctx.FilePath,
                          Ctx.Model.Program);
  Rep.WallSeconds = secondsSince(Start);
  if (!Req.ReportFile.empty()) {
    if (Error E = writeReport(Rep, Req.ReportFile))
      return reportAndGetExitCode(std::move(E), Err);
  }
  P.done(
      json::Object{{"decision", Rep.Decision},
                   {"wrote_variant", Wrote},
                   {"evaluations", int64_t(R.Trials.size())},
                   {"speedup", Rep.BestMs && Wrote
                                   ? json::Value(Rep.OriginalMs / *Rep.BestMs)
                                   : json::Value(1.0)}});
  P.say(Rep.Decision);
  return 0;
}

} // namespace cro
