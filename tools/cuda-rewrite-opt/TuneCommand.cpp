#include "TuneCommand.h"
#include "GpuSearch.h"
#include "Progress.h"
#include "SearchReport.h"
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
void addProfilerMetrics(const GpuSearch &S, const std::string &OriginalExe,
                        const std::string &VariantExe, TuningReport &Rep,
                        Progress &P) {
  const GpuEvaluatorOptions &O = S.options();
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
  std::optional<LocalGpu> Gpu = probeLocalGpu();
  if (!Gpu && Req.RequireGpu)
    return reportAndGetExitCode(
        makeToolError(ExitCode::NoGpu,
                      noGpuMessage() +
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
  SearchResult R = (*S)->run(
      [&](const Trial &T, const SearchResult &SoFar) { P.trial(T, SoFar); });
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
  Rep.CompileSeconds = (*S)->evaluator().compileSeconds();
  Rep.CompileWaitSeconds = (*S)->evaluator().compileWaitSeconds();
  Rep.MeasureSeconds = (*S)->evaluator().measureSeconds();
  Rep.VerifySeconds = (*S)->evaluator().verifySeconds();
  Rep.VerifyWaitSeconds = (*S)->evaluator().verifyWaitSeconds();
  Rep.StrategySeconds = R.StrategySeconds;
  Rep.Evaluations = reportEvaluations(R, Space, *Original.Time);

  // The winner of the search, confirmed against the original in
  // interleaved runs: the search's single run per variant can be lucky.
  Variant Chosen; // the original unless a variant is confirmed faster
  Chosen.Source = Ctx.mainSource().str();
  std::string Text = Chosen.Source;
  const Trial *Best = R.Best ? &R.Trials[*R.Best] : nullptr;
  bool Wrote = false;
  if (!Best || Best->P == Space.defaultPoint()) {
    Rep.Decision = "No variant was faster than the original: the output is "
                   "the original, unchanged.";
  } else {
    GainRule Rule;
    Rule.MinGain = Req.Search.Measure.MinGain;
    unsigned Runs = std::max(Rule.MinRuns, Req.Search.Measure.Runs);
    P.say(formatv("confirming the best candidate ({0:f2}x in the search) "
                  "against the original, {1} interleaved runs each",
                  *Original.Time / *Best->Time, Runs)
              .str());
    std::string OriginalExe, VariantExe;
    auto ConfirmStart = Clock::now();
    Evaluation C = (*S)->confirm(Best->P, Runs, &OriginalExe, &VariantExe);
    Rep.ConfirmSeconds = secondsSince(ConfirmStart);
    std::vector<double> O = runObjectivesMs(C.Original),
                        V = runObjectivesMs(C.Variant);
    Rep.ConfirmRuns = Runs;
    if (!C.Verified) {
      Rep.Decision = "The best candidate failed verification when measured "
                     "again (" +
                     C.Rejection + "): the output is the original, unchanged.";
    } else {
      Rep.OriginalMs = summarize(O).Median;
      Rep.OriginalSpreadMs = totalSpreadMs(C.Original);
      Rep.BestMs = summarize(V).Median;
      Rep.BestSpreadMs = totalSpreadMs(C.Variant);
      Rep.BestConfig = Space.key(Best->P);
      Rep.BestSequence = rewritesByKernel(Space, Best->P);
      GainDecision G = decideGain(O, V, Rule);
      Rep.FasterBeyondNoise = G.Faster;
      Rep.SpeedupLowerBound = G.LowerBound;
      Rep.Confidence = G.Confidence;
      for (const auto &[K, T] : C.Original.Timings) {
        auto It = C.Variant.Timings.find(K);
        auto Get = [&](auto F)
            -> std::pair<std::optional<double>, std::optional<double>> {
          return {F(T), It == C.Variant.Timings.end()
                            ? std::nullopt
                            : std::optional<double>(F(It->second))};
        };
        auto Add = [&](StringRef Name, auto F) {
          auto [A, B] = Get(F);
          Rep.Metrics.push_back({K, Name.str(), A, B});
        };
        Add("launches", [](const KernelTiming &X) { return X.Launches; });
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
      if (Req.Search.Measure.Profile)
        addProfilerMetrics(**S, OriginalExe, VariantExe, Rep, P);
      if (Rep.FasterBeyondNoise) {
        Expected<Variant> Var = applyConfiguration(Ctx, Space.config(Best->P));
        if (!Var)
          return reportAndGetExitCode(Var.takeError(), Err);
        std::string Header = formatv(
            "// Tuned by {0} on {1} ({2}, driver {3}, nvcc {4}), {5}.\n",
            Req.ToolVersion, Rep.Gpu, Rep.Arch, Rep.Driver, Rep.Nvcc, Rep.Date);
        for (const std::string &L : Rep.BestSequence)
          Header += "// Rewrites, " + L + "\n";
        Header += formatv(
            "// Measured ({6}): {0:f4} ms (IQR {1:f4} ms) against "
            "{2:f4} ms (IQR {3:f4} ms) for the original: "
            "{4:f2}x (at least {7:f2}x at {8:P0} confidence), {5} "
            "interleaved runs each; outputs verified against the "
            "original's.\n",
            *Rep.BestMs, Rep.BestSpreadMs, Rep.OriginalMs, Rep.OriginalSpreadMs,
            Rep.OriginalMs / *Rep.BestMs, Runs,
            objectiveDescription(Rep.Objective), *G.LowerBound, G.Confidence);
        Text = Header + variantFileText(*Var);
        Chosen = std::move(*Var);
        Wrote = true;
        Rep.Decision = "Wrote the fastest verified variant: " + G.Why + ".";
      } else {
        Rep.Decision = "The best candidate is not written: " + G.Why +
                       "; the output is the original, unchanged.";
      }
    }
  }
  // (A generated harness is the tool's, not the user's: never written.)
  if (Error E = writeVariant(Chosen, withoutHarness(Text),
                             Req.Search.OutputFile, Ctx.Model.Program))
    return reportAndGetExitCode(std::move(E), Err);
  (*S)->recordDecision(Wrote ? Space.key(Best->P) : "{}",
                       Wrote ? Rep.OriginalMs / *Rep.BestMs : 1.0);
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
