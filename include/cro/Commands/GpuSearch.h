//===- GpuSearch.h - a tuning session on this machine's GPU ---------------===//
//
// Turns the command line (SearchRequest) into a TuningSession measuring on
// the local GPU: the build and run options, the workload's identity, the
// database, a scratch directory. The policy is lib/Tune's.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_COMMANDS_GPUSEARCH_H
#define CRO_COMMANDS_GPUSEARCH_H

#include "cro/Commands/SearchCommand.h"
#include "cro/Tune/SessionEvaluators.h"
#include "cro/Tune/TuningSession.h"

namespace cro {

class GpuSearch {
public:
  /// Sets everything up for the GPU Gpu (the caller found it) and starts
  /// the session (the original measured); errors carry the exit code.
  static llvm::Expected<std::unique_ptr<GpuSearch>>
  start(const LocalGpu &Gpu, const SearchRequest &Req, const ParsedFile &PF,
        const KernelModel &Model, const RewriteContext &Ctx,
        llvm::raw_ostream &Err);
  ~GpuSearch();

  TuningSession &session() { return *Session; }
  const SearchSpace &space() const { return *Space; }
  const LocalGpu &gpu() const { return Gpu; }
  const Platform &platform() const { return Eval->options().Where; }
  const GpuTuningEvaluator &evaluator() const { return *Eval; }
  const KernelFeatures &features() const { return Features; }

private:
  GpuSearch() = default;
  LocalGpu Gpu;
  std::unique_ptr<SearchSpace> Space;
  std::unique_ptr<TuningDatabase> Db;
  std::unique_ptr<GpuTuningEvaluator> Eval;
  std::unique_ptr<TuningSession> Session;
  KernelFeatures Features;
  std::string WorkDir;
};

} // namespace cro

#endif
