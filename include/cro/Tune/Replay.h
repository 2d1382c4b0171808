//===- Replay.h - what a build writes from the tuning database ------------===//
//
// The build-machine path: no GPU, no measurement, the tuning database's
// result for the workload applied to today's source. A build must not break
// over the database: none yet, one that cannot be read, a row that today's
// knobs refuse (the transforms changed since it was tuned) all give the
// original, with a note saying why. Only a command line that cannot be
// served is an error: several GPUs have results and none is named.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TUNE_REPLAY_H
#define CRO_TUNE_REPLAY_H

#include "cro/Database/TuningDatabase.h"
#include "cro/Rewrite/Engine.h"
#include <optional>
#include <string>

namespace cro {

/// What the database says to write for a workload on a GPU: the main
/// command's confirmed choice (with the times that decided it), else the
/// fastest verified variant a search measured; none without a result.
struct ReplayChoice {
  std::optional<EvaluationRecord> Best;
  std::string Gpu;
  bool Confirmed = false; ///< the main command's choice, not a single run
};

/// Gpu "" (no GPU here, none named): the one GPU the database has results
/// for; several are a usage error (the caller must choose).
llvm::Expected<ReplayChoice>
chooseReplay(TuningDatabase &Db, llvm::StringRef Hash, llvm::StringRef Gpu);

/// What to write for a workload.
struct ReplayOutcome {
  /// The chosen variant (its source the original when nothing is replayed).
  Variant Chosen;
  /// The text of the main file to write (the variant's, with its nvcc flags
  /// line; or the original).
  std::string Text;
  bool Tuned = false; ///< a tuned result was applied
  /// One sentence for the user: which result was replayed, or why the
  /// original was written.
  std::string Note;
};

/// The database at DbPath (opened for reading; it need not exist) asked for
/// workload Hash on Gpu ("" = the only GPU it has results for), its result
/// applied to Ctx's source.
llvm::Expected<ReplayOutcome> replayFromDatabase(const RewriteContext &Ctx,
                                                 llvm::StringRef DbPath,
                                                 llvm::StringRef Hash,
                                                 llvm::StringRef Gpu);

} // namespace cro

#endif
