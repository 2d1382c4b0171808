//===- SearchLoop.h - ask, check, build, measure, tell; until done --------===//
//
// The loop between a strategy and an evaluator (the GPU, or a recorded
// space). The original is always evaluated first: it is the baseline every
// variant is verified and timed against. Every proposal is checked against
// the space's constraints before it is built; invalid ones are told back
// without counting. Results the evaluator already knows (the tuning
// database) count as evaluations without being measured again, which is
// how an interrupted search resumes.
//
// When the evaluator builds in the background, the next batch is asked for
// and handed to it before the current batch is measured.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SEARCH_SEARCHLOOP_H
#define CRO_SEARCH_SEARCHLOOP_H

#include "cro/Search/Strategy.h"
#include "llvm/ADT/StringRef.h"
#include <functional>

namespace cro {

class Evaluator {
public:
  virtual ~Evaluator() = default;
  /// True when prepare() works in the background (building), so the loop
  /// should hand over the next batch before measuring this one.
  virtual bool overlaps() const { return false; }
  /// Starts preparing a batch (compiling it).
  virtual void prepare(llvm::ArrayRef<Proposal> Batch) {}
  /// Evaluates a batch that was prepared, in order.
  virtual std::vector<Trial> evaluate(llvm::ArrayRef<Proposal> Batch) = 0;
  /// A result known without measuring (from the tuning database).
  virtual std::optional<Trial> known(const Point &P) { return std::nullopt; }
};

struct SearchOptions {
  unsigned Budget = 100;       ///< evaluations, the original included
  double TimeLimitSeconds = 0; ///< 0 = none
  unsigned Batch = 4;          ///< proposals per ask
  /// Stop when the last Patience evaluations did not improve the best by
  /// more than Tolerance (relative); 0 = never.
  unsigned Patience = 0;
  double Tolerance = 0.01;
};

struct SearchResult {
  std::vector<Trial> Trials;  ///< evaluations in order; [0] is the original
  std::vector<Trial> Invalid; ///< proposals refused before building
  /// Best verified time after each evaluation (ms; infinity before any).
  std::vector<double> Trace;
  std::vector<double> Elapsed; ///< seconds since the start, per evaluation
  std::optional<size_t> Best;  ///< index into Trials of the fastest variant
  double StrategySeconds = 0;  ///< time spent in ask and tell
  double EvaluateSeconds = 0;  ///< time spent evaluating (build + measure)
  double TotalSeconds = 0;
  unsigned Resumed = 0; ///< evaluations taken from the database
  /// "budget", "time limit", "converged", "space exhausted", or why the
  /// strategy failed (StrategyFailed, then the reason).
  std::string StopReason;
  static constexpr llvm::StringLiteral StrategyFailed = "strategy failed: ";

  /// The search ended because its strategy broke (an external policy died
  /// or babbled): a failed command, whatever it measured before.
  bool strategyFailed() const {
    return llvm::StringRef(StopReason).starts_with(StrategyFailed);
  }
};

using TrialCallback =
    std::function<void(const Trial &, const SearchResult &SoFar)>;

SearchResult runSearch(const SearchSpace &Space, SearchStrategy &Strategy,
                       Evaluator &Eval, const SearchOptions &Opts,
                       const TrialCallback &OnTrial = {});

llvm::json::Value toJSON(const Trial &T, const SearchSpace &Space);

} // namespace cro

#endif
