//===- TuningDatabase.h - every evaluated variant, kept in SQLite ---------===//
//
// The search's memory. Every evaluated variant is one row: which source (by
// content hash) and configuration, on which GPU with which driver and nvcc,
// built with which flags, what it measured and whether it was verified. An
// interrupted search finds what it already measured here instead of
// measuring it again; the build-machine path replays the best verified
// variant without a GPU. The file is shared by concurrent searches: WAL
// journaling, one transaction per write, and a busy timeout.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_DATABASE_TUNINGDATABASE_H
#define CRO_DATABASE_TUNINGDATABASE_H

#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace cro {

/// Where the results were measured: a configuration's time means nothing
/// elsewhere.
struct Platform {
  std::string Gpu;               ///< e.g. "NVIDIA H200"
  std::string ComputeCapability; ///< e.g. "9.0"
  std::string Driver;            ///< e.g. "580.159.04"
  std::string Nvcc;              ///< e.g. "13.0.88"
};

struct EvaluationRecord {
  std::string SourceHash; ///< content hash of the original file
  std::string File;       ///< as the user named it (informational)
  std::string Kernel;     ///< "" when the variant covers the whole file
  std::string Config;     ///< canonical JSON of the configuration
  std::string Sequence;   ///< JSON of the rewrite sequence applied
  Platform Where;
  std::string Flags; ///< nvcc flags the variant was built with
  /// "verified", "rejected" (wrong results), "build-failed", "run-failed".
  std::string Verdict;
  std::string Reason; ///< why, when not verified
  std::optional<double> MedianMs, SpreadMs, OriginalMs;
  std::string Metrics;  ///< JSON of profiler metrics ("" when none)
  std::string Strategy; ///< which strategy proposed it
  int64_t Id = 0;       ///< set when read back
};

/// A confirmed choice: the configuration written and the medians of the
/// interleaved runs that decided it (the original's and the chosen one's;
/// the same run set for both when the original was kept). Databases written
/// before 2026-12-05 hold the speed-up alone: their times read as nullopt.
struct DecisionRecord {
  std::string Config; ///< canonical JSON; "{}" = the original
  double Speedup = 1; ///< OriginalMs / VariantMs when both are known
  std::optional<double> OriginalMs, VariantMs;
};

class TuningDatabase {
public:
  /// Opens (creating when needed) the database at Path.
  static llvm::Expected<std::unique_ptr<TuningDatabase>>
  open(llvm::StringRef Path);
  /// Opens an existing database for queries only (the replay path of a
  /// build machine): never creates the file or its tables; an error when it
  /// does not exist, cannot be read or is not a tuning database.
  static llvm::Expected<std::unique_ptr<TuningDatabase>>
  openForReading(llvm::StringRef Path);
  ~TuningDatabase();

  /// Adds one evaluation, or replaces the earlier one of the same source,
  /// configuration and platform (a re-measurement).
  llvm::Error record(const EvaluationRecord &R);

  /// The evaluation of this source and configuration on this platform, if
  /// one was recorded (resuming a search).
  llvm::Expected<std::optional<EvaluationRecord>>
  find(llvm::StringRef SourceHash, llvm::StringRef Config,
       const Platform &Where);

  /// Every evaluation of this source on this GPU, oldest first.
  llvm::Expected<std::vector<EvaluationRecord>>
  evaluations(llvm::StringRef SourceHash, llvm::StringRef Gpu);

  /// The fastest verified variant of this source on this GPU (any driver
  /// or nvcc version), for replaying without a GPU.
  llvm::Expected<std::optional<EvaluationRecord>>
  bestVerified(llvm::StringRef SourceHash, llvm::StringRef Gpu);

  /// Remembers what kind of kernel a source is (KernelFeatures::signature),
  /// so later searches of similar kernels can start from its results.
  llvm::Error describeSource(llvm::StringRef SourceHash, llvm::StringRef File,
                             llvm::StringRef Signature);

  /// The fastest verified variant of each other source with this signature
  /// on this GPU, largest speedup first (transfer between searches).
  llvm::Expected<std::vector<EvaluationRecord>>
  bestOfSimilar(llvm::StringRef Signature, llvm::StringRef Gpu,
                llvm::StringRef ExcludeSourceHash, unsigned Limit = 5);

  /// What the main command chose for this source on this GPU after
  /// confirming its winner against the original ("{}": the original, when
  /// nothing beat it beyond the noise). --replay follows the latest one.
  llvm::Error recordDecision(llvm::StringRef SourceHash, llvm::StringRef Gpu,
                             const DecisionRecord &D);
  llvm::Expected<std::optional<DecisionRecord>>
  latestDecision(llvm::StringRef SourceHash, llvm::StringRef Gpu);

  /// The GPUs this source has verified results for.
  llvm::Expected<std::vector<std::string>>
  gpusWithResults(llvm::StringRef SourceHash);

private:
  explicit TuningDatabase(sqlite3 *Db) : Db(Db) {}
  llvm::Error exec(const char *Sql);
  bool hasColumn(llvm::StringRef Table, llvm::StringRef Column);
  sqlite3 *Db;
};

} // namespace cro

#endif
