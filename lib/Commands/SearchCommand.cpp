#include "cro/Commands/SearchCommand.h"
#include "cro/Commands/GpuSearch.h"
#include "cro/Commands/SearchReport.h"
#include "cro/Database/TuningDatabase.h"
#include "cro/Frontend/CompileArgs.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Measure/Harness.h"
#include "cro/Report/TuningReport.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/VariantOutput.h"
#include "cro/Search/GpuEvaluator.h"
#include "cro/Search/KernelTunerFormats.h"
#include "cro/Search/RecordedSpace.h"
#include "cro/Support/AtomicFile.h"
#include "cro/Support/ToolError.h"
#include "cro/Tune/FileSpace.h"
#include "cro/Tune/Replay.h"
#include "cro/Tune/Workload.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include <chrono>
#include <cmath>
#include <map>
#include <random>

using namespace llvm;

namespace cro {

std::string sourceHash(StringRef Source, const MeasureRequest &Req) {
  return workloadHash(
      {Source.str(), Req.NvccFlags, Req.BuildTemplate, Req.RunArgs, Req.Goal});
}

namespace {

json::Value traceJSON(const std::vector<double> &Trace) {
  json::Array A;
  for (double T : Trace)
    A.push_back(std::isfinite(T) ? json::Value(T) : json::Value(nullptr));
  return A;
}

/// Evaluations until the best is within Fraction of Optimum (1-based), or
/// nullopt when it never gets there.
std::optional<size_t> evaluationsToReach(const std::vector<double> &Trace,
                                         double Optimum, double Fraction) {
  for (size_t I = 0; I < Trace.size(); ++I)
    if (Trace[I] <= Optimum * (1 + Fraction))
      return I + 1;
  return std::nullopt;
}

/// --search and --simulate print their result either way; a search whose
/// strategy broke is also an error (13), said on stderr.
int exitCodeOf(const SearchResult &R, raw_ostream &Err) {
  if (!R.strategyFailed())
    return 0;
  Err << "cuda-rewrite-opt: error: " << R.StopReason << "\n";
  return static_cast<int>(ExitCode::SearchFailed);
}

json::Value movesJSON(const SearchResult &R, const SearchSpace &Space) {
  json::Array A;
  for (const Trial &T : R.Trials)
    A.push_back(toJSON(T, Space));
  return A;
}

/// The report of a simulated search: the recorded times instead of a
/// confirmation run.
TuningReport simulationReport(RecordedSpace &RS, const SearchControl &Control,
                              const SearchResult &R, StringRef ToolVersion) {
  TuningReport Rep;
  Rep.Tool = ToolVersion.str();
  Rep.File = RS.name() + " (recorded space, simulated)";
  Rep.Gpu = RS.gpu().empty() ? "unknown" : RS.gpu() + " (recorded)";
  Rep.Strategy = Control.Strategy;
  Rep.Budget = Control.Budget;
  Rep.Seed = Control.Seed;
  Rep.StopReason = R.StopReason;
  Rep.StrategySeconds = R.StrategySeconds;
  Rep.TotalSeconds = R.TotalSeconds;
  const SearchSpace &Space = RS.space();
  double Original =
      R.Trials.empty() || !R.Trials[0].Time ? 0 : *R.Trials[0].Time;
  Rep.OriginalMs = Original;
  if (!R.Trials.empty())
    Rep.OriginalSpreadMs = R.Trials[0].Spread;
  Rep.Evaluations = reportEvaluations(R, Space, Original);
  if (R.Best) {
    Rep.BestMs = R.Trials[*R.Best].Time;
    Rep.BestSpreadMs = R.Trials[*R.Best].Spread;
    Rep.BestConfig = Space.key(R.Trials[*R.Best].P);
    Rep.BestSequence = rewritesByKernel(Space, R.Trials[*R.Best].P);
    Rep.Decision = formatv("Simulated against a recorded space: the best "
                           "point found is {0:f2}x the original (recorded "
                           "times, no confirmation run).",
                           Original / *Rep.BestMs)
                       .str();
  }
  return Rep;
}

} // namespace

int runPrintSpace(StringRef SpaceFile, const RewriteContext &Ctx,
                  raw_ostream &Err) {
  Expected<SearchSpace> Space = fileSpace(SpaceFile, Ctx);
  if (!Space)
    return reportAndGetExitCode(Space.takeError(), Err);
  json::Object Out = std::move(*Space->toJSON().getAsObject());
  // Every point is checked up to 200,000 of them; a larger space is
  // described by a fixed random sample (the same on every run), so that a
  // user still sees how much of it is valid and what rules the rest out.
  std::vector<Point> Points = Space->enumerate(200000);
  bool Sampled = Points.empty();
  if (Sampled) {
    std::mt19937_64 Rng(1);
    for (int I = 0; I < 2000; ++I)
      Points.push_back(Space->randomPoint(Rng));
  }
  int64_t Valid = 0;
  std::map<std::string, int64_t> Reasons;
  for (const Point &P : Points) {
    std::string Why = Space->violation(P);
    if (Why.empty())
      ++Valid;
    else
      ++Reasons[Why.substr(0, 160)];
  }
  json::Array R;
  for (const auto &[Why, N] : Reasons)
    R.push_back(json::Object{{"reason", Why}, {"points", N}});
  Out["invalid"] = std::move(R);
  if (!Sampled) {
    Out["valid_points"] = Valid;
  } else {
    Out["valid_points"] = nullptr; // not counted: too many
    Out["sample"] = json::Object{
        {"points", int64_t(Points.size())},
        {"valid", Valid},
        {"note", "the space is too large to check point by point; these "
                 "counts are of a random sample (\"invalid\" too); "
                 "restrict it with --space FILE for exact counts"}};
  }
  outs() << formatv("{0:2}", json::Value(std::move(Out))) << "\n";
  return 0;
}

int runEvaluatePoint(StringRef SpaceFile, StringRef Config, raw_ostream &Err) {
  Expected<RecordedSpace> RS = RecordedSpace::load(SpaceFile);
  if (!RS)
    return reportAndGetExitCode(RS.takeError(), Err);
  Expected<json::Value> V = json::parse(Config);
  if (!V || !V->getAsObject()) {
    if (!V)
      consumeError(V.takeError());
    return reportAndGetExitCode(
        makeToolError(ExitCode::Usage, "--evaluate-point: '" + Config.str() +
                                           "' is not a JSON object"),
        Err);
  }
  Expected<Point> P = RS->space().pointOf(*V->getAsObject());
  if (!P)
    return reportAndGetExitCode(P.takeError(), Err);
  outs() << formatv("{0}", recordedPointJSON(*RS, *P)) << "\n";
  return 0;
}

int runSimulate(const SimulateRequest &Req, raw_ostream &Err) {
  StringRef SpaceFile = Req.SpaceFile, ReportFile = Req.ReportFile,
            ToolVersion = Req.ToolVersion;
  const SearchControl &Control = Req.Control;
  if (!ReportFile.empty())
    if (Error E = checkReportPath(ReportFile))
      return reportAndGetExitCode(std::move(E), Err);
  Expected<RecordedSpace> RS = RecordedSpace::load(SpaceFile);
  if (!RS)
    return reportAndGetExitCode(RS.takeError(), Err);
  // The search of a tuning session, on the recorded times (no noise, no
  // database: the same recording gives the same search every time).
  RecordedTuningEvaluator Eval(*RS, nullptr, "", {RS->gpu(), "", "", ""}, {});
  // Through an executor, each evaluation is a process of this tool that
  // reads the recording (by its absolute path: the jobs' directory may be
  // another) and prints the point's result into a shared work directory.
  std::string WorkDir;
  llvm::scope_exit RemoveWork([&] {
    if (!WorkDir.empty())
      sys::fs::remove_directories(WorkDir);
  });
  if (Req.Via) {
    SmallString<256> Abs(SpaceFile), Work;
    sys::fs::make_absolute(Abs);
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("cro-simulate", Work))
      return reportAndGetExitCode(
          makeToolError(ExitCode::OutputError,
                        "temporary directory: " + EC.message()),
          Err);
    WorkDir = Work.str().str();
    Eval.evaluateThrough(
        *Req.Via, {Req.ToolPath, "--simulate=" + Abs.str().str()}, WorkDir);
  }
  TuningSession Session(RS->space(), Eval, nullptr, {"", RS->name(), RS->gpu()},
                        RS->features(), Control, GainRule());
  if (Error E = Session.start())
    return reportAndGetExitCode(std::move(E), Err);
  Expected<std::unique_ptr<SearchStrategy>> S = Session.makeStrategy();
  if (!S)
    return reportAndGetExitCode(S.takeError(), Err);
  SearchResult R = Session.search(**S);
  std::optional<double> Optimum = RS->optimum();
  json::Object Out{
      {"space", RS->name()},
      {"strategy", Control.Strategy},
      {"seed", int64_t(Control.Seed)},
      {"budget", Control.Budget},
      {"batch", Control.Batch},
      {"evaluations", int64_t(R.Trials.size())},
      {"invalid_proposals", int64_t(R.Invalid.size())},
      {"best_time",
       R.Best ? json::Value(*R.Trials[*R.Best].Time) : json::Value(nullptr)},
      {"best_config", R.Best
                          ? json::Value(RS->space().config(R.Trials[*R.Best].P))
                          : json::Value(nullptr)},
      {"optimum", Optimum ? json::Value(*Optimum) : json::Value(nullptr)},
      {"original_time", R.Trials.empty() || !R.Trials[0].Time
                            ? json::Value(nullptr)
                            : json::Value(*R.Trials[0].Time)},
      {"trace", traceJSON(R.Trace)},
      {"stop_reason", R.StopReason},
      {"strategy_seconds", R.StrategySeconds},
      {"points_in_space", int64_t(RS->points())},
      {"executor", Req.Via ? Req.Via->describe() : "this process"},
      {"moves", movesJSON(R, RS->space())}};
  if (Optimum) {
    std::optional<size_t> N = evaluationsToReach(R.Trace, *Optimum, 0.05);
    Out["evaluations_to_5pct"] =
        N ? json::Value(int64_t(*N)) : json::Value(nullptr);
  }
  if (!ReportFile.empty()) {
    if (Error E = writeReport(simulationReport(*RS, Control, R, ToolVersion),
                              ReportFile))
      return reportAndGetExitCode(std::move(E), Err);
  }
  outs() << formatv("{0:2}", json::Value(std::move(Out))) << "\n";
  return exitCodeOf(R, Err);
}

int runSearchCommand(const SearchRequest &Req, const ParsedFile &PF,
                     const KernelModel &Model, const RewriteContext &Ctx,
                     raw_ostream &Err) {
  std::string NoGpu;
  std::optional<LocalGpu> Gpu = measuringGpu(Req.Measure, NoGpu);
  if (!Gpu)
    return reportAndGetExitCode(
        makeToolError(ExitCode::NoGpu,
                      NoGpu +
                          ": the search measures every candidate on one (use "
                          "--replay to emit a result tuned elsewhere)"),
        Err);
  Expected<std::unique_ptr<GpuSearch>> S =
      GpuSearch::start(*Gpu, Req, PF, Model, Ctx, Err);
  if (!S)
    return reportAndGetExitCode(S.takeError(), Err);
  const SearchSpace &Space = (*S)->space();
  double OriginalMs = *(*S)->evaluator().original().Time;
  double StartUnixSeconds =
      std::chrono::duration<double>(
          std::chrono::system_clock::now().time_since_epoch())
          .count();
  std::string Note;
  SearchResult R = (*S)->session().search(
      [&](const Trial &T, const SearchResult &SoFar) {
        if (Req.Quiet)
          return;
        Err << formatv("[{0}/{1}] {2} {3}{4}  best {5:f2}x  {6}\n",
                       SoFar.Trials.size(), Req.Control.Budget, T.Verdict,
                       T.Time ? formatv("{0:f4} ms", *T.Time).str() : "",
                       T.Resumed ? " (from the database)" : "",
                       OriginalMs / SoFar.Trace.back(),
                       T.Key.size() > 120 ? T.Key.substr(0, 117) + "..."
                                          : T.Key);
      },
      Req.Quiet ? nullptr : &Note);
  if (!Note.empty())
    Err << "cuda-rewrite-opt: " << Note << "\n";

  const Trial *Best = R.Best ? &R.Trials[*R.Best] : nullptr;
  const GpuEvaluator &Eval = (*S)->evaluator().gpu();
  json::Object Out{
      {"file", Ctx.FilePath},
      {"gpu", (*S)->gpu().Name},
      {"strategy", Req.Control.Strategy},
      {"seed", int64_t(Req.Control.Seed)},
      {"budget", Req.Control.Budget},
      {"space_size", int64_t(std::min<uint64_t>(Space.size(), INT64_MAX))},
      {"evaluations", int64_t(R.Trials.size())},
      {"resumed", R.Resumed},
      {"invalid_proposals", int64_t(R.Invalid.size())},
      {"stop_reason", R.StopReason},
      {"original_ms", OriginalMs},
      {"best_time", Best ? json::Value(*Best->Time) : json::Value(nullptr)},
      {"best_config",
       Best ? json::Value(Space.config(Best->P)) : json::Value(nullptr)},
      {"speedup",
       Best ? json::Value(OriginalMs / *Best->Time) : json::Value(nullptr)},
      {"trace", traceJSON(R.Trace)},
      {"elapsed_s", json::Array(std::vector<json::Value>(R.Elapsed.begin(),
                                                         R.Elapsed.end()))},
      {"seconds", json::Object{{"total", R.TotalSeconds},
                               {"strategy", R.StrategySeconds},
                               {"compile", Eval.compileSeconds()},
                               {"compile_wait", Eval.compileWaitSeconds()},
                               {"measure", Eval.measureSeconds()},
                               {"verify", Eval.verifySeconds()},
                               {"verify_wait", Eval.verifyWaitSeconds()}}},
      {"moves", movesJSON(R, Space)}};
  if (!Req.RecordSpace.empty()) {
    json::Object Meta{{"name", sys::path::stem(Req.RecordSpace).str()},
                      {"file", Ctx.FilePath},
                      {"gpu", (*S)->gpu().Name},
                      {"driver", (*S)->gpu().Driver},
                      {"nvcc", (*S)->platform().Nvcc},
                      {"strategy", Req.Control.Strategy},
                      {"original_ms", OriginalMs}};
    json::Value Recording =
        Req.RecordT4
            ? recordSpaceT4(Space, R, StartUnixSeconds, std::move(Meta))
            : recordSpace(Space, R, (*S)->features(), std::move(Meta));
    std::string Text = formatv("{0:1}", Recording).str() + "\n";
    if (Error E = writeFileAtomically(Req.RecordSpace, Text))
      return reportAndGetExitCode(std::move(E), Err);
  }
  if (!Req.OutputFile.empty() && Best) {
    Expected<Variant> V = applyConfiguration(Ctx, Space.config(Best->P));
    if (!V)
      return reportAndGetExitCode(V.takeError(), Err);
    // (A generated harness is the tool's, not the user's: never written.)
    if (Error E = writeVariant(*V, withoutHarness(variantFileText(*V)),
                               Req.OutputFile, Ctx.Model.Program))
      return reportAndGetExitCode(std::move(E), Err);
  }
  outs() << formatv("{0:2}", json::Value(std::move(Out))) << "\n";
  return exitCodeOf(R, Err);
}

namespace {

} // namespace

namespace {

/// A path in a Make rule: spaces and '#' escaped with a backslash, '$' as
/// "$$" (what GCC writes, and what Ninja and Make read).
std::string makeEscaped(StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#')
      Out += '\\';
    if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

} // namespace

std::string replayDependencies(StringRef Target, const ProgramText &Program,
                               StringRef DbPath) {
  std::string Rule = makeEscaped(Target) + ":";
  for (const ProgramFile &F : Program.files()) {
    SmallString<256> Abs(F.Path);
    sys::fs::make_absolute(Abs);
    Rule += " \\\n  " + makeEscaped(Abs);
  }
  // A database that does not exist yet cannot be a prerequisite (the build
  // would stop: no rule to make it); its nearest existing directory is,
  // whose time changes when the database appears there.
  SmallString<256> Db(DbPath);
  sys::fs::make_absolute(Db);
  while (!Db.empty() && !sys::fs::exists(Db) && sys::path::has_parent_path(Db))
    Db = sys::path::parent_path(Db);
  if (!Db.empty())
    Rule += " \\\n  " + makeEscaped(Db);
  return Rule + "\n";
}

int runReplay(const ReplayRequest &Req, const KernelModel &Model,
              const RewriteContext &Ctx, raw_ostream &Err) {
  if (Req.DbPath == "none")
    return reportAndGetExitCode(
        makeToolError(ExitCode::Usage,
                      "--replay reads the tuning database, and --db none "
                      "names none"),
        Err);
  std::string Path = Req.DbPath.empty() ? defaultDatabasePath() : Req.DbPath;
  // Which GPU's result: the one named, else this machine's, else the
  // database's only one.
  std::string Gpu = Req.Gpu;
  if (Gpu.empty())
    if (std::optional<LocalGpu> G = probeLocalGpu())
      Gpu = G->Name;
  Expected<ReplayOutcome> R = replayFromDatabase(
      Ctx, Path, sourceHash(Ctx.Model.Program.identityText(), Req.Measure),
      Gpu);
  if (!R)
    return reportAndGetExitCode(R.takeError(), Err);
  // Writes what was chosen (and its diff), then says why (a failed write
  // says only that).
  bool ToFile = !Req.OutputFile.empty() && Req.OutputFile != "-";
  if (ToFile || !Req.Diff)
    if (Error E = writeVariant(R->Chosen, withoutHarness(R->Text),
                               Req.OutputFile, Model.Program))
      return reportAndGetExitCode(std::move(E), Err);
  if (Req.Diff)
    outs() << variantDiff(R->Chosen, withoutHarness(Ctx.mainSource()),
                          withoutHarness(R->Text), Ctx.FilePath, Model.Program);
  if (!Req.DepFile.empty())
    if (Error E = writeFileAtomically(
            Req.DepFile,
            replayDependencies(Req.DepFileTarget.empty() ? Req.OutputFile
                                                         : Req.DepFileTarget,
                               Model.Program, Path)))
      return reportAndGetExitCode(std::move(E), Err);
  Err << "cuda-rewrite-opt: " << R->Note << "\n";
  return 0;
}

} // namespace cro
