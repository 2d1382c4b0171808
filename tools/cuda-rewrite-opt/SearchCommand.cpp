#include "SearchCommand.h"
#include "cro/Database/TuningDatabase.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Search/GpuEvaluator.h"
#include "cro/Search/RecordedSpace.h"
#include "cro/Support/AtomicFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include <cmath>

using namespace llvm;

namespace cro {

std::string defaultDatabasePath() {
  SmallString<256> P;
  if (std::optional<std::string> X = sys::Process::GetEnv("XDG_CACHE_HOME"))
    P = *X;
  else if (std::optional<std::string> H = sys::Process::GetEnv("HOME"))
    sys::path::append(P, *H, ".cache");
  else
    P = "/tmp";
  sys::path::append(P, "cuda-rewrite-opt");
  sys::fs::create_directories(P);
  sys::path::append(P, "tuning.db");
  return P.str().str();
}

std::string sourceHash(StringRef Source, const MeasureRequest &Req,
                       StringRef Harness) {
  SHA256 H;
  auto Add = [&](StringRef S) {
    H.update(S);
    H.update(StringRef("\0", 1));
  };
  Add(Source);
  Add(Harness);
  for (const std::string &F : Req.NvccFlags)
    Add(F);
  Add(Req.BuildTemplate);
  for (const std::string &A : Req.RunArgs)
    Add(A);
  std::array<uint8_t, 32> D = H.final();
  return toHex(ArrayRef<uint8_t>(D.data(), D.size()), /*LowerCase=*/true);
}

namespace {

Expected<std::unique_ptr<TuningDatabase>> openDatabase(StringRef Path) {
  if (Path == "none")
    return std::unique_ptr<TuningDatabase>();
  return TuningDatabase::open(Path.empty() ? defaultDatabasePath() : Path);
}

std::string nvccVersion(StringRef Identity) {
  // "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0.88".
  size_t V = Identity.rfind(", V");
  if (V == StringRef::npos)
    return Identity.trim().str();
  return Identity.substr(V + 3)
      .take_while([](char C) { return isDigit(C) || C == '.'; })
      .str();
}

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

json::Value movesJSON(const SearchResult &R, const SearchSpace &Space) {
  json::Array A;
  for (const Trial &T : R.Trials)
    A.push_back(toJSON(T, Space));
  return A;
}

} // namespace

/// The space of the file's knobs, restricted by --space, judged by the
/// rewrite engine and the GPU's (or the architecture's) limits.
static Expected<SearchSpace> fileSpace(StringRef SpaceFile,
                                       const KernelModel &Model,
                                       const RewriteContext &Ctx,
                                       const HardwareLimits &Limits) {
  std::optional<json::Object> Restrict;
  if (!SpaceFile.empty()) {
    Expected<json::Object> R = readConfiguration(SpaceFile);
    if (!R)
      return R.takeError();
    Restrict = std::move(*R);
  }
  Expected<SearchSpace> Space =
      SearchSpace::fromModel(Model, Limits, Restrict ? &*Restrict : nullptr);
  if (!Space)
    return Space.takeError();
  // The rewrite engine is the judge of the knobs' dependencies: a
  // configuration it cannot rewrite is never built.
  Space->setLegalityOracle(
      [&Ctx](const json::Object &Config, const Point &) -> std::string {
        Expected<Variant> V = applyConfiguration(Ctx, Config);
        if (!V)
          return toString(V.takeError());
        return "";
      });
  return Space;
}

int runPrintSpace(StringRef SpaceFile, const KernelModel &Model,
                  const RewriteContext &Ctx, raw_ostream &Err) {
  std::optional<LocalGpu> Gpu = probeLocalGpu();
  HardwareLimits Limits = queryDeviceLimits().value_or(
      tableLimits(Gpu ? Gpu->Arch : Model.GpuArch));
  Expected<SearchSpace> Space = fileSpace(SpaceFile, Model, Ctx, Limits);
  if (!Space)
    return reportAndGetExitCode(Space.takeError(), Err);
  json::Object Out = std::move(*Space->toJSON().getAsObject());
  std::vector<Point> All = Space->enumerate(200000);
  if (!All.empty()) {
    int64_t Valid = 0;
    std::map<std::string, int64_t> Reasons;
    for (const Point &P : All) {
      std::string Why = Space->violation(P);
      if (Why.empty())
        ++Valid;
      else
        ++Reasons[Why.substr(0, 160)];
    }
    Out["valid_points"] = Valid;
    json::Array R;
    for (const auto &[Why, N] : Reasons)
      R.push_back(json::Object{{"reason", Why}, {"points", N}});
    Out["invalid"] = std::move(R);
  } else {
    Out["valid_points"] = nullptr; // too many to list
  }
  outs() << formatv("{0:2}", json::Value(std::move(Out))) << "\n";
  return 0;
}

int runSimulate(StringRef SpaceFile, const SearchControl &Control,
                raw_ostream &Err) {
  Expected<RecordedSpace> RS = RecordedSpace::load(SpaceFile);
  if (!RS)
    return reportAndGetExitCode(RS.takeError(), Err);
  StrategyContext Ctx{
      RS->space(), Control.Seed, RS->features(), {}, Control.Budget};
  Expected<std::unique_ptr<SearchStrategy>> S =
      makeStrategy(Control.Strategy, Ctx);
  if (!S)
    return reportAndGetExitCode(S.takeError(), Err);
  SimulatedEvaluator Eval(*RS);
  SearchOptions Opts;
  Opts.Budget = Control.Budget;
  Opts.TimeLimitSeconds = Control.TimeLimitSeconds;
  Opts.Batch = Control.Batch;
  Opts.Patience = Control.Patience;
  SearchResult R = runSearch(RS->space(), **S, Eval, Opts);
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
      {"moves", movesJSON(R, RS->space())}};
  if (Optimum) {
    std::optional<size_t> N = evaluationsToReach(R.Trace, *Optimum, 0.05);
    Out["evaluations_to_5pct"] =
        N ? json::Value(int64_t(*N)) : json::Value(nullptr);
  }
  outs() << formatv("{0:2}", json::Value(std::move(Out))) << "\n";
  return StringRef(R.StopReason).starts_with("strategy failed")
             ? static_cast<int>(ExitCode::SearchFailed)
             : 0;
}

int runSearchCommand(const SearchRequest &Req, const ParsedFile &PF,
                     const KernelModel &Model, const RewriteContext &Ctx,
                     raw_ostream &Err) {
  std::optional<LocalGpu> Gpu = probeLocalGpu();
  if (!Gpu)
    return reportAndGetExitCode(
        makeToolError(ExitCode::NoGpu,
                      "no NVIDIA GPU found on this machine: the search "
                      "measures every candidate on one (use --replay to "
                      "emit a result tuned elsewhere)"),
        Err);
  HardwareLimits Limits = queryDeviceLimits().value_or(tableLimits(Gpu->Arch));

  Expected<SearchSpace> SpaceOr = fileSpace(Req.SpaceFile, Model, Ctx, Limits);
  if (!SpaceOr)
    return reportAndGetExitCode(SpaceOr.takeError(), Err);
  SearchSpace &Space = *SpaceOr;

  Expected<std::unique_ptr<TuningDatabase>> Db = openDatabase(Req.DbPath);
  if (!Db)
    return reportAndGetExitCode(Db.takeError(), Err);

  Expected<EvaluateOptions> EO = evaluateOptions(Req.Measure, PF, Model);
  if (!EO)
    return reportAndGetExitCode(EO.takeError(), Err);
  GpuEvaluatorOptions GO;
  GO.Eval = std::move(*EO);
  GO.Eval.Runs = 1;
  GO.OriginalRuns = std::max(1u, Req.Measure.Runs);
  GO.Build = buildOptions(Req.Measure, PF, *Gpu);
  GO.Harness = Req.Harness;
  GO.Db = Db->get();
  GO.SourceHash = sourceHash(Ctx.Source, Req.Measure, Req.Harness);
  GO.Strategy = Req.Control.Strategy;
  GO.Where = {Gpu->Name, Limits.ComputeCapability, Gpu->Driver, ""};
  {
    Builder Probe(GO.Build);
    Expected<std::string> Id = Probe.compilerIdentity();
    if (!Id)
      return reportAndGetExitCode(Id.takeError(), Err);
    GO.Where.Nvcc = nvccVersion(*Id);
  }
  SmallString<128> Work;
  if (std::error_code EC = sys::fs::createUniqueDirectory("cro-search", Work))
    return reportAndGetExitCode(
        makeToolError(ExitCode::OutputError,
                      "temporary directory: " + EC.message()),
        Err);
  GO.Eval.WorkDir = Work.str().str();
  llvm::scope_exit Cleanup([&] { sys::fs::remove_directories(Work); });

  KernelFeatures Features = kernelFeatures(Model);
  std::vector<PriorResult> Priors;
  if (*Db) {
    if (Error E = (*Db)->describeSource(GO.SourceHash, Ctx.FilePath,
                                        Features.signature()))
      Err << "cuda-rewrite-opt: warning: " << toString(std::move(E)) << "\n";
    if (auto Similar = (*Db)->bestOfSimilar(Features.signature(), Gpu->Name,
                                            GO.SourceHash)) {
      for (const EvaluationRecord &R : *Similar) {
        Expected<json::Value> C = json::parse(R.Config);
        if (!C || !C->getAsObject() || !R.MedianMs || !R.OriginalMs) {
          if (!C)
            consumeError(C.takeError());
          continue;
        }
        Priors.push_back({Features.signature(), *C->getAsObject(),
                          *R.OriginalMs / *R.MedianMs});
      }
    } else {
      consumeError(Similar.takeError());
    }
  }

  GpuEvaluator Eval(Ctx, Space, GO);
  if (!Req.Quiet)
    Err << "cuda-rewrite-opt: measuring the original on " << Gpu->Name
        << "...\n";
  if (Error E = Eval.measureOriginal())
    return reportAndGetExitCode(std::move(E), Err);

  StrategyContext SCtx{Space, Req.Control.Seed, Features, Priors,
                       Req.Control.Budget};
  Expected<std::unique_ptr<SearchStrategy>> Strategy =
      makeStrategy(Req.Control.Strategy, SCtx);
  if (!Strategy)
    return reportAndGetExitCode(Strategy.takeError(), Err);
  SearchOptions Opts;
  Opts.Budget = Req.Control.Budget;
  Opts.TimeLimitSeconds = Req.Control.TimeLimitSeconds;
  Opts.Batch = Req.Control.Batch;
  Opts.Patience = Req.Control.Patience;
  double OriginalMs = *Eval.original().Time;
  if (!Req.Quiet)
    Err << formatv("cuda-rewrite-opt: original {0:f4} ms; searching {1} "
                   "points with '{2}', budget {3}\n",
                   OriginalMs, Space.size(), Req.Control.Strategy,
                   Req.Control.Budget);
  SearchResult R = runSearch(
      Space, **Strategy, Eval, Opts,
      [&](const Trial &T, const SearchResult &SoFar) {
        if (Req.Quiet)
          return;
        Err << formatv("[{0}/{1}] {2} {3}{4}  best {5:f2}x  {6}\n",
                       SoFar.Trials.size(), Opts.Budget, T.Verdict,
                       T.Time ? formatv("{0:f4} ms", *T.Time).str() : "",
                       T.Resumed ? " (from the database)" : "",
                       OriginalMs / SoFar.Trace.back(),
                       T.Key.size() > 120 ? T.Key.substr(0, 117) + "..."
                                          : T.Key);
      });
  if (!Eval.databaseProblem().empty())
    Err << "cuda-rewrite-opt: warning: tuning database: "
        << Eval.databaseProblem() << "\n";

  const Trial *Best = R.Best ? &R.Trials[*R.Best] : nullptr;
  json::Object Out{
      {"file", Ctx.FilePath},
      {"gpu", Gpu->Name},
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
                               {"measure", Eval.measureSeconds()}}},
      {"moves", movesJSON(R, Space)}};
  if (!Req.RecordSpace.empty()) {
    json::Object Meta{{"name", sys::path::stem(Ctx.FilePath).str()},
                      {"file", Ctx.FilePath},
                      {"gpu", Gpu->Name},
                      {"driver", Gpu->Driver},
                      {"nvcc", GO.Where.Nvcc},
                      {"strategy", Req.Control.Strategy},
                      {"original_ms", OriginalMs}};
    std::string Text =
        formatv("{0:1}", recordSpace(Space, R, Features, std::move(Meta)))
            .str() +
        "\n";
    if (Error E = writeFileAtomically(Req.RecordSpace, Text))
      return reportAndGetExitCode(std::move(E), Err);
  }
  if (!Req.OutputFile.empty() && Best) {
    Expected<Variant> V = applyConfiguration(Ctx, Space.config(Best->P));
    if (!V)
      return reportAndGetExitCode(V.takeError(), Err);
    if (Error E = writeFileAtomically(Req.OutputFile, variantFileText(*V)))
      return reportAndGetExitCode(std::move(E), Err);
  }
  outs() << formatv("{0:2}", json::Value(std::move(Out))) << "\n";
  if (StringRef(R.StopReason).starts_with("strategy failed")) {
    Err << "cuda-rewrite-opt: error: " << R.StopReason << "\n";
    return static_cast<int>(ExitCode::SearchFailed);
  }
  return 0;
}

int runReplay(const ReplayRequest &Req, const KernelModel &Model,
              const RewriteContext &Ctx, raw_ostream &Err) {
  Expected<std::unique_ptr<TuningDatabase>> Db = openDatabase(Req.DbPath);
  if (!Db)
    return reportAndGetExitCode(Db.takeError(), Err);
  if (!*Db)
    return reportAndGetExitCode(
        makeToolError(ExitCode::Usage, "--replay needs a tuning database"),
        Err);
  std::string Hash = sourceHash(Ctx.Source, Req.Measure, Req.Harness);
  std::string GpuName = Req.Gpu;
  if (GpuName.empty())
    if (std::optional<LocalGpu> G = probeLocalGpu())
      GpuName = G->Name;
  if (GpuName.empty()) {
    Expected<std::vector<std::string>> Gpus = (*Db)->gpusWithResults(Hash);
    if (!Gpus)
      return reportAndGetExitCode(Gpus.takeError(), Err);
    if (Gpus->size() > 1)
      return reportAndGetExitCode(
          makeToolError(ExitCode::Usage,
                        "no GPU here, and the database has results for "
                        "several GPUs (" +
                            join(*Gpus, ", ") + "): choose one with --gpu"),
          Err);
    if (Gpus->size() == 1)
      GpuName = Gpus->front();
  }
  std::optional<EvaluationRecord> Best;
  if (!GpuName.empty()) {
    Expected<std::optional<EvaluationRecord>> B =
        (*Db)->bestVerified(Hash, GpuName);
    if (!B)
      return reportAndGetExitCode(B.takeError(), Err);
    Best = std::move(*B);
  }
  std::string Text = Ctx.Source.str();
  if (!Best) {
    Err << "cuda-rewrite-opt: no tuned result for '" << Ctx.FilePath << "'"
        << (GpuName.empty() ? "" : " on " + GpuName)
        << " in the tuning database (with these build flags and arguments); "
           "wrote the original unchanged\n";
  } else {
    Expected<json::Value> C = json::parse(Best->Config);
    if (!C || !C->getAsObject()) {
      if (!C)
        consumeError(C.takeError());
      return reportAndGetExitCode(
          makeToolError(ExitCode::Internal,
                        "tuning database: malformed configuration " +
                            Best->Config),
          Err);
    }
    // The configuration is checked against today's knobs: a tool whose
    // transforms changed refuses an old configuration instead of guessing.
    if (Error E = validateConfiguration(Model, *C->getAsObject()))
      return reportAndGetExitCode(std::move(E), Err);
    Expected<Variant> V = applyConfiguration(Ctx, *C->getAsObject());
    if (!V)
      return reportAndGetExitCode(V.takeError(), Err);
    Text = variantFileText(*V);
    Err << formatv("cuda-rewrite-opt: replayed the best verified variant on "
                   "{0}: {1:f4} ms, {2:f2}x the original ({3})\n",
                   GpuName, *Best->MedianMs,
                   Best->OriginalMs ? *Best->OriginalMs / *Best->MedianMs : 1.0,
                   Best->Config);
  }
  if (Req.OutputFile.empty() || Req.OutputFile == "-") {
    outs() << Text;
    return 0;
  }
  if (Error E = writeFileAtomically(Req.OutputFile, Text))
    return reportAndGetExitCode(std::move(E), Err);
  return 0;
}

} // namespace cro
