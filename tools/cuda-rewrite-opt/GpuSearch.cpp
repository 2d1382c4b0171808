#include "GpuSearch.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/VariantOutput.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>

using namespace llvm;

namespace cro {

namespace {

std::string nvccVersion(StringRef Identity) {
  // "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0.88".
  size_t V = Identity.rfind(", V");
  if (V == StringRef::npos)
    return Identity.trim().str();
  return Identity.substr(V + 3)
      .take_while([](char C) { return isDigit(C) || C == '.'; })
      .str();
}

} // namespace

Expected<std::unique_ptr<TuningDatabase>> openDatabase(StringRef Path) {
  if (Path == "none")
    return std::unique_ptr<TuningDatabase>();
  return TuningDatabase::open(Path.empty() ? defaultDatabasePath() : Path);
}

Expected<SearchSpace> fileSpace(StringRef SpaceFile,
                                const RewriteContext &Ctx) {
  std::optional<json::Object> Restrict;
  if (!SpaceFile.empty()) {
    Expected<json::Object> R = readConfiguration(SpaceFile);
    if (!R)
      return R.takeError();
    Restrict = std::move(*R);
  }
  Expected<SearchSpace> Space =
      SearchSpace::fromKnobs(Ctx.Knobs, Ctx.Target,
                             Restrict ? &*Restrict : nullptr);
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

GpuSearch::~GpuSearch() {
  Eval.reset(); // its builds finish first
  if (!WorkDir.empty())
    sys::fs::remove_directories(WorkDir);
}

Expected<std::unique_ptr<GpuSearch>>
GpuSearch::start(const LocalGpu &Gpu, const SearchRequest &Req,
                 const ParsedFile &PF, const KernelModel &Model,
                 const RewriteContext &Ctx, raw_ostream &Err) {
  std::unique_ptr<GpuSearch> S(new GpuSearch());
  S->Req = &Req;
  S->Ctx = &Ctx;
  S->Err = &Err;
  S->Gpu = Gpu;
  Expected<SearchSpace> Space = fileSpace(Req.SpaceFile, Ctx);
  if (!Space)
    return Space.takeError();
  S->Space = std::make_unique<SearchSpace>(std::move(*Space));

  // The database is memory, not a precondition: a search on a machine whose
  // cache directory is read-only still measures and writes its result.
  Expected<std::unique_ptr<TuningDatabase>> Db = openDatabase(Req.DbPath);
  if (Db)
    S->Db = std::move(*Db);
  else
    Err << "cuda-rewrite-opt: warning: " << toString(Db.takeError())
        << "; this search's results will not be kept (nothing to resume "
           "from or replay later)\n";

  Expected<EvaluateOptions> EO = evaluateOptions(Req.Measure, PF, Model);
  if (!EO)
    return EO.takeError();
  GpuEvaluatorOptions &GO = S->Options;
  GO.Eval = std::move(*EO);
  GO.Eval.Runs = 1;
  GO.OriginalRuns = std::max(1u, Req.Measure.Runs);
  GO.Build = buildOptions(Req.Measure, PF, Gpu);
  GO.Db = S->Db.get();
  GO.SourceHash = sourceHash(Ctx.Model.Program.identityText(), Req.Measure);
  GO.Strategy = Req.Control.Strategy;
  // The GPU measured on (its own architecture, whatever --cuda-gpu-arch).
  GO.Where = {Gpu.Name, tableLimits(Gpu.Arch).ComputeCapability, Gpu.Driver,
              ""};
  {
    Builder Probe(GO.Build);
    Expected<std::string> Id = Probe.compilerIdentity();
    if (!Id)
      return Id.takeError();
    GO.Where.Nvcc = nvccVersion(*Id);
  }
  SmallString<128> Work;
  if (std::error_code EC = sys::fs::createUniqueDirectory("cro-search", Work))
    return makeToolError(ExitCode::OutputError,
                         "temporary directory: " + EC.message());
  S->WorkDir = Work.str().str();
  GO.Eval.WorkDir = S->WorkDir;

  S->Features = kernelFeatures(Model);
  if (S->Db) {
    if (Error E = S->Db->describeSource(GO.SourceHash, Ctx.FilePath,
                                        S->Features.signature()))
      Err << "cuda-rewrite-opt: warning: " << toString(std::move(E)) << "\n";
    if (auto Similar = S->Db->bestOfSimilar(S->Features.signature(), Gpu.Name,
                                            GO.SourceHash)) {
      for (const EvaluationRecord &R : *Similar) {
        Expected<json::Value> C = json::parse(R.Config);
        if (!C || !C->getAsObject() || !R.MedianMs || !R.OriginalMs) {
          if (!C)
            consumeError(C.takeError());
          continue;
        }
        S->Priors.push_back({S->Features.signature(), *C->getAsObject(),
                             *R.OriginalMs / *R.MedianMs});
      }
    } else {
      consumeError(Similar.takeError());
    }
  }

  S->Eval = std::make_unique<GpuEvaluator>(Ctx, *S->Space, GO);
  if (!Req.Quiet)
    Err << "cuda-rewrite-opt: measuring the original on " << Gpu.Name
        << "...\n";
  if (Error E = S->Eval->measureOriginal())
    return std::move(E);
  return std::move(S);
}

SearchResult GpuSearch::run(const TrialCallback &OnTrial) {
  // Strategies propose from the valid points when the rewrite engine can
  // judge the whole space quickly (it rewrites the source once a point);
  // otherwise they learn validity from its refusals.
  auto ListStart = std::chrono::steady_clock::now();
  if (Space->listValidPoints(/*MaxPoints=*/20000, /*Seconds=*/2.0) &&
      !Req->Quiet)
    *Err << formatv("cuda-rewrite-opt: {0} of the space's {1} points are "
                    "valid (the rewrite engine judged every one in {2:f1} "
                    "s); the search proposes only those\n",
                    Space->validSet()->size(), Space->size(),
                    std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - ListStart)
                        .count());
  StrategyContext SCtx{*Space, Req->Control.Seed, Features, Priors,
                       Req->Control.Budget};
  SearchOptions Opts;
  Opts.Budget = Req->Control.Budget;
  Opts.TimeLimitSeconds = Req->Control.TimeLimitSeconds;
  Opts.Batch = Req->Control.Batch;
  Opts.Patience = Req->Control.Patience;
  Expected<std::unique_ptr<SearchStrategy>> Strategy =
      makeStrategy(Req->Control.Strategy, SCtx);
  if (!Strategy) {
    SearchResult R;
    R.StopReason =
        SearchResult::StrategyFailed.str() + toString(Strategy.takeError());
    return R;
  }
  SearchResult R = runSearch(*Space, **Strategy, *Eval, Opts, OnTrial);
  return R;
}

void GpuSearch::recordDecision(StringRef Config, double Speedup) {
  if (!Db)
    return;
  if (Error E =
          Db->recordDecision(Options.SourceHash, Gpu.Name, Config, Speedup))
    *Err << "cuda-rewrite-opt: warning: " << toString(std::move(E)) << "\n";
}

Evaluation GpuSearch::confirm(const Point &P, unsigned Runs,
                              std::string *OriginalExe,
                              std::string *VariantExe) {
  Evaluation E;
  Expected<Variant> V = applyConfiguration(*Ctx, Space->config(P));
  if (!V) {
    E.Rejection = toString(V.takeError());
    return E;
  }
  Builder B(Options.Build);
  Expected<std::vector<BuildResult>> Built =
      B.build({{Ctx->mainSource().str(), {}},
               {V->Source, V->NvccFlags, copiesToBuild(*V)}});
  if (!Built) {
    E.Rejection = toString(Built.takeError());
    return E;
  }
  if (!(*Built)[0].Ok || !(*Built)[1].Ok) {
    E.Rejection =
        "does not compile any more: " + (*Built)[(*Built)[0].Ok ? 1 : 0].Log;
    return E;
  }
  if (OriginalExe)
    *OriginalExe = (*Built)[0].Executable;
  if (VariantExe)
    *VariantExe = (*Built)[1].Executable;
  EvaluateOptions EO = Options.Eval;
  EO.Runs = std::max(2u, Runs);
  // Held to the same standard as in the search: the original's own
  // run-to-run differences, measured when the search began.
  EO.OriginalNoise = Eval->originalNoise();
  return evaluate((*Built)[0].Executable, (*Built)[1].Executable, Ctx->Model,
                  EO);
}

} // namespace cro
