//===- GpuSearch.h - one search on the local GPU, set up and run ----------===//
//
// Everything a search on the GPU needs, in one object that --search and the
// main command share: the space (with the GPU's limits and the rewrite
// engine as judge), the tuning database (resume, transfer priors), the
// evaluator (parallel nvcc, verification, timing), the strategy, and a final
// confirmation of the winner against the original in interleaved runs.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TOOLS_GPUSEARCH_H
#define CRO_TOOLS_GPUSEARCH_H

#include "SearchCommand.h"
#include "cro/Database/TuningDatabase.h"
#include "cro/Search/GpuEvaluator.h"

namespace cro {

class GpuSearch {
public:
  /// Sets everything up for the GPU Gpu (the caller found it) and measures
  /// the original; errors carry the exit code (no measurement library, an
  /// original that does not run).
  static llvm::Expected<std::unique_ptr<GpuSearch>>
  start(const LocalGpu &Gpu, const SearchRequest &Req, const ParsedFile &PF,
        const KernelModel &Model, const RewriteContext &Ctx,
        llvm::raw_ostream &Err);
  ~GpuSearch();

  SearchResult run(const TrialCallback &OnTrial);

  /// The winner P against the original: both built (from the cache) and run
  /// Runs times each, interleaved, outputs verified again. The executables'
  /// paths are stored in the optional out-parameters (for the profiler).
  Evaluation confirm(const Point &P, unsigned Runs,
                     std::string *OriginalExe = nullptr,
                     std::string *VariantExe = nullptr);
  const GpuEvaluatorOptions &options() const { return Options; }

  /// Remembers the main command's confirmed choice for --replay (a warning
  /// on Err when the database cannot take it).
  void recordDecision(llvm::StringRef Config, double Speedup);

  const SearchSpace &space() const { return *Space; }
  const LocalGpu &gpu() const { return Gpu; }
  const Platform &platform() const { return Options.Where; }
  const GpuEvaluator &evaluator() const { return *Eval; }
  const KernelFeatures &features() const { return Features; }

private:
  GpuSearch() = default;
  const SearchRequest *Req = nullptr;
  const RewriteContext *Ctx = nullptr;
  LocalGpu Gpu;
  std::unique_ptr<SearchSpace> Space;
  std::unique_ptr<TuningDatabase> Db;
  GpuEvaluatorOptions Options;
  std::unique_ptr<GpuEvaluator> Eval;
  KernelFeatures Features;
  std::vector<PriorResult> Priors;
  std::string WorkDir;
  llvm::raw_ostream *Err = nullptr;
};

/// The space of the file's knobs (Ctx.Knobs), restricted by SpaceFile
/// ("" = all), judged by the rewrite engine and the target (Ctx.Target).
llvm::Expected<SearchSpace> fileSpace(llvm::StringRef SpaceFile,
                                      const RewriteContext &Ctx);

/// Opens the database Path ("" = the default, "none" = none: nullptr).
llvm::Expected<std::unique_ptr<TuningDatabase>>
openDatabase(llvm::StringRef Path);

} // namespace cro

#endif
