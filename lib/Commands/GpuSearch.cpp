#include "cro/Commands/GpuSearch.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Support/ToolError.h"
#include "cro/Tune/FileSpace.h"
#include "cro/Tune/Workload.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

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

GpuSearch::~GpuSearch() {
  Session.reset();
  Eval.reset(); // its builds finish first
  if (!WorkDir.empty())
    sys::fs::remove_directories(WorkDir);
}

Expected<std::unique_ptr<GpuSearch>>
GpuSearch::start(const LocalGpu &Gpu, const SearchRequest &Req,
                 const ParsedFile &PF, const KernelModel &Model,
                 const RewriteContext &Ctx, raw_ostream &Err) {
  std::unique_ptr<GpuSearch> S(new GpuSearch());
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
  GpuEvaluatorOptions GO;
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
  std::string Hash = GO.SourceHash;
  S->Eval = std::make_unique<GpuTuningEvaluator>(Ctx, *S->Space, std::move(GO));
  GainRule Rule;
  Rule.MinGain = Req.Measure.MinGain;
  S->Session = std::make_unique<TuningSession>(
      *S->Space, *S->Eval, S->Db.get(),
      WorkloadKey{Hash, Ctx.FilePath.str(), Gpu.Name}, S->Features, Req.Control,
      Rule, Req.Measure.Runs);
  if (!Req.Quiet)
    Err << "cuda-rewrite-opt: measuring the original on " << Gpu.Name
        << "...\n";
  if (Error E = S->Session->start())
    return std::move(E);
  for (const std::string &W : S->Session->warnings())
    Err << "cuda-rewrite-opt: warning: " << W << "\n";
  return std::move(S);
}

} // namespace cro
