//===- Workload.h - what makes two runs the same tuning problem -----------===//
//
// A tuning database keys every measurement by its workload: the program's
// text (every file it includes, with their paths from the main file), how it
// is built and run, and what the times measure. Two runs with the same
// workload on the same GPU are the same tuning problem: a search resumes
// from the other's results and a replay writes its choice.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TUNE_WORKLOAD_H
#define CRO_TUNE_WORKLOAD_H

#include "cro/Database/TuningDatabase.h"
#include "cro/Measure/Evaluate.h"
#include "cro/Search/Strategy.h"
#include <memory>
#include <string>
#include <vector>

namespace cro {

struct WorkloadInputs {
  /// ProgramText::identityText(): the main file and what it includes.
  std::string Program;
  /// The original's nvcc flags. Include directories count only through the
  /// files they make the program include (in Program), so a checkout
  /// elsewhere is the same workload.
  std::vector<std::string> NvccFlags;
  std::string BuildTemplate; ///< --build ("" = nvcc)
  std::vector<std::string> RunArgs;
  Objective Goal = Objective::ProgramTime;
};

/// The workload's identity: a SHA-256 in hex (the database's source_hash).
std::string workloadHash(const WorkloadInputs &W);

/// $XDG_CACHE_HOME/cuda-rewrite-opt/tuning.db, else ~/.cache/..., else
/// /tmp/... (an empty variable counts as unset).
std::string defaultDatabasePath();

/// Opens the database at Path ("" = the default); "none" gives no database
/// (a null pointer), not an error.
llvm::Expected<std::unique_ptr<TuningDatabase>>
openDatabase(llvm::StringRef Path);

/// What earlier searches of similar kernels (the same feature signature) on
/// this GPU found: their fastest verified configurations and speed-ups, for
/// the strategies to start from. Empty when the database has none or cannot
/// say (a query error is not a reason to stop tuning).
std::vector<PriorResult> transferPriors(TuningDatabase &Db,
                                        const KernelFeatures &Features,
                                        llvm::StringRef Gpu,
                                        llvm::StringRef WorkloadHash);

} // namespace cro

#endif
