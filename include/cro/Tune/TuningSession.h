//===- TuningSession.h - one tuning run: search, confirm, decide, record --===//
//
// The main command's policy, as a library: start (the original's baseline,
// transfer priors from similar kernels), search the space with a strategy,
// confirm the search's winner against the original in interleaved runs,
// decide by the minimum-gain rule (cro/Measure/Decision.h) whether it is
// worth writing, and record the decision for --replay. What measures is a
// TuningEvaluator: the GPU (GpuTuningEvaluator), or a recorded space with a
// noise model (RecordedTuningEvaluator), so the whole policy runs in CI.
// Writing the file and the report belongs to the caller, which knows the
// source and the rewrite engine.
//
// The model is TVM MetaSchedule's TuneContext: the session holds what one
// tuning problem needs and nothing of how options were spelled.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TUNE_TUNINGSESSION_H
#define CRO_TUNE_TUNINGSESSION_H

#include "cro/Database/TuningDatabase.h"
#include "cro/Measure/Decision.h"
#include "cro/Measure/Evaluate.h"
#include "cro/Search/SearchLoop.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cro {

/// How to search: the strategy and when to stop.
struct SearchControl {
  std::string Strategy = "agent";
  unsigned Budget = 100;
  double TimeLimitSeconds = 0;
  uint64_t Seed = 1;
  unsigned Batch = 8;
  unsigned Patience = 40;
};

/// The winner measured again against the original, interleaved.
struct Confirmation {
  bool Verified = false;
  std::string Rejection; ///< why not, when not verified
  /// The objective of each run (ms), the original's and the variant's.
  std::vector<double> OriginalMs, VariantMs;
  /// The runs themselves, per kernel, where the evaluator has them (the
  /// GPU's; empty for a recorded space).
  Evaluation Detail;
};

/// What measures for a session: the search's evaluations (Evaluator, which
/// also answers what the database already knows), the original's baseline
/// and the confirmation of a point against the original.
class TuningEvaluator : public Evaluator {
public:
  /// Measures the original (its time is every speed-up's denominator); an
  /// error when it cannot be trusted (does not build or run cleanly).
  virtual llvm::Error measureOriginal() = 0;
  virtual const Trial &original() const = 0;
  /// P and the original, Runs times each, interleaved, P's outputs verified
  /// again.
  virtual Confirmation confirm(const Point &P, unsigned Runs) = 0;
  /// Why recording to the database failed, if it did (tuning goes on).
  virtual std::string databaseProblem() const { return ""; }
};

/// The decision of a session.
struct SessionOutcome {
  enum class Kind {
    NoCandidate, ///< nothing beat the original in the search
    Rejected,    ///< the winner failed verification when measured again
    NotFaster,   ///< verified, but not faster by the rule's minimum gain
    Written,     ///< faster beyond the noise by at least the minimum gain
  };
  Kind What = Kind::NoCandidate;
  /// The search's winner (set unless NoCandidate).
  std::optional<Point> Candidate;
  /// Its search time (ms) and the original's when the search began.
  double SearchMs = 0, SearchOriginalMs = 0;
  Confirmation Confirmed;
  GainDecision Gain;
  unsigned Runs = 0; ///< interleaved runs each in the confirmation
  double ConfirmSeconds = 0;
  /// One or two sentences: what is written and why (the report's).
  std::string Decision;
  bool written() const { return What == Kind::Written; }
  /// The medians of the confirmation (nullopt before one).
  std::optional<double> originalMs() const;
  std::optional<double> variantMs() const;
};

/// Which tuning problem, where: the database's keys.
struct WorkloadKey {
  std::string Hash; ///< workloadHash()
  std::string File; ///< as the user named it (informational)
  std::string Gpu;  ///< the GPU's name, as LocalGpu reports it
};

class TuningSession {
public:
  /// Db may be null (no database: nothing resumed, recorded or replayed).
  TuningSession(SearchSpace &Space, TuningEvaluator &Eval, TuningDatabase *Db,
                WorkloadKey Key, KernelFeatures Features, SearchControl Control,
                GainRule Rule, unsigned ConfirmRuns = 5);

  /// Describes the workload in the database, takes the priors of similar
  /// kernels and measures the original.
  llvm::Error start();
  /// Runs the strategy over the space. Strategies propose from the valid
  /// points when the space can list them quickly (the rewrite engine judges
  /// every point); Note then says how many there are.
  SearchResult search(const TrialCallback &OnTrial = {},
                      std::string *Note = nullptr);
  /// The same with a strategy the caller made (makeStrategy), for a caller
  /// that reports a strategy it cannot make as an error of its own kind
  /// rather than as a failed search.
  SearchResult search(SearchStrategy &Strategy,
                      const TrialCallback &OnTrial = {},
                      std::string *Note = nullptr);
  /// The session's strategy (Control.Strategy), seeded and given the priors.
  llvm::Expected<std::unique_ptr<SearchStrategy>> makeStrategy() const;
  /// Confirms R's winner against the original and decides.
  SessionOutcome decide(const SearchResult &R);
  /// Records the outcome as the workload's choice on this GPU.
  llvm::Error record(const SessionOutcome &O);

  const std::vector<PriorResult> &priors() const { return Priors; }
  const SearchSpace &space() const { return Space; }
  TuningEvaluator &evaluator() { return Eval; }
  const WorkloadKey &key() const { return Key; }
  /// Problems with the database that did not stop the session.
  const std::vector<std::string> &warnings() const { return Warnings; }

private:
  SearchSpace &Space;
  TuningEvaluator &Eval;
  TuningDatabase *Db;
  WorkloadKey Key;
  KernelFeatures Features;
  SearchControl Control;
  GainRule Rule;
  unsigned ConfirmRuns;
  std::vector<PriorResult> Priors;
  std::vector<std::string> Warnings;
};

} // namespace cro

#endif
