//===- Strategy.h - the ask/tell interface every search strategy offers ---===//
//
// A strategy proposes a batch of points (ask) and is later told how they
// did (tell). The search loop asks for the next batch before it tells the
// results of the current one, so that the next batch builds while this one
// is measured: a strategy must not propose a point that is still pending.
// Strategies never see invalid points as evaluations: the loop checks each
// proposal against the space's constraints first and tells the verdict back
// as "invalid" without building it.
//
// Times are milliseconds of GPU time (lower is better); a trial without a
// time failed (did not compile, did not run, gave wrong results).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SEARCH_STRATEGY_H
#define CRO_SEARCH_STRATEGY_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Search/RandomForest.h"
#include "cro/Search/ValidityModel.h"
#include "cro/Space/SearchSpace.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>

namespace cro {

/// What the strategy asks to evaluate, and why (shown in reports).
struct Proposal {
  Point P;
  std::string Why;
  std::string Move; ///< the move type (agent), e.g. "register-tile"
};

struct Trial {
  Point P;
  std::string Key;            ///< SearchSpace::key(P)
  std::optional<double> Time; ///< ms; set only when verified
  /// "verified", "rejected" (wrong results), "build-failed", "run-failed",
  /// "invalid" (never built: a constraint or the rewrite engine refused).
  std::string Verdict;
  std::string Reason;
  std::string Why, Move; ///< copied from the proposal
  bool Resumed = false;  ///< taken from the tuning database, not measured
  /// Profiler facts about the variant's kernels when known: registers
  /// (largest per thread), occupancy (smallest achieved).
  std::optional<double> Registers, Occupancy;
  double Spread = 0; ///< ms, interquartile range of the replays
  bool ok() const { return Time.has_value(); }
};

/// Whether V is one of Trial's verdicts (a recorded space read from a file
/// may name any string).
bool isTrialVerdict(llvm::StringRef V);

/// What a kernel looks like to the agent's priors (from the analysis).
struct KernelFeatures {
  bool HasReductionLoop = false; ///< matmul-like: staging/register tiling
  bool HasLoops = false;
  bool Streaming = false; ///< one element per thread, no loop
  unsigned ReusedLoads = 0;
  unsigned Accesses = 0;
  unsigned Kernels = 0;
  /// Canonical text, for finding similar kernels in the database.
  std::string signature() const;
};

/// The features of the kernels of a file.
KernelFeatures kernelFeatures(const KernelModel &Model);
llvm::json::Value toJSON(const KernelFeatures &F);
bool fromJSON(const llvm::json::Value &V, KernelFeatures &F,
              llvm::json::Path P);

/// An earlier search's best configuration on a similar kernel (transfer).
struct PriorResult {
  std::string Signature;
  llvm::json::Object Config; ///< knob ids relative to that kernel
  double Speedup = 1;        ///< over that kernel's original
};

struct StrategyContext {
  const SearchSpace &Space;
  uint64_t Seed = 0;
  KernelFeatures Features;
  std::vector<PriorResult> Priors;
  unsigned Budget = 0; ///< evaluations the loop will allow (0 = unknown)
};

class SearchStrategy {
public:
  virtual ~SearchStrategy() = default;
  virtual llvm::StringRef name() const = 0;
  /// Up to N new points; fewer (or none) when the strategy has run out.
  virtual std::vector<Proposal> ask(unsigned N) = 0;
  /// Results of earlier proposals, in any order and grouping; also results
  /// the strategy did not ask for (resumed from the database).
  virtual void tell(llvm::ArrayRef<Trial> Results) = 0;
  /// Called once when the search ends (an external policy is told).
  virtual void finish() {}
  /// Why the strategy stopped early, when it broke (an external policy
  /// that crashed or answered nonsense); "" otherwise.
  virtual std::string failure() const { return ""; }
  /// Evaluations the strategy has committed to and not yet proposed (the
  /// agent's sweep of the block shapes): the loop does not stop for
  /// convergence before they are made, only for the budget or time.
  virtual unsigned committed() const { return 0; }
};

/// Creates the strategy NAME: exhaustive, random, anneal, genetic, bayes,
/// agent, or external:CMD.
llvm::Expected<std::unique_ptr<SearchStrategy>>
makeStrategy(llvm::StringRef Name, const StrategyContext &Ctx);

/// Names makeStrategy accepts (external:CMD aside), for messages.
extern const char *const StrategyNames[];

/// Book-keeping shared by the built-in strategies: what was proposed, what
/// came back, the best so far, and a deterministic generator.
class StrategyBase : public SearchStrategy {
public:
  explicit StrategyBase(const StrategyContext &Ctx)
      : Space(Ctx.Space), Rng(Ctx.Seed), Ctx(Ctx),
        Validity(Ctx.Space.radices()) {}
  void tell(llvm::ArrayRef<Trial> Results) override;

protected:
  /// Called for every result told, after the book-keeping.
  virtual void observe(const Trial &T) {}
  /// A point never proposed nor told that may be valid (SearchSpace::
  /// plausible: exact when the valid set is known); false marks nothing.
  bool fresh(const Point &P) const;
  /// Fresh, and not expected to be refused by what the refusals so far
  /// suggest (ValidityModel; always, when the valid set is known).
  bool promising(const Point &P) const;
  /// Marks P proposed and returns the proposal.
  Proposal propose(Point P, std::string Why, std::string Move = "");
  /// A fresh random point, uniform over the valid set when it is known;
  /// else by rejection sampling of promising points, then enumeration
  /// (promising points first). nullopt only when no fresh point is left.
  std::optional<Point> randomFresh(unsigned Tries = 2000) {
    return randomFresh(Rng, Tries);
  }
  /// The same, drawing from G (a generator of the strategy's own, for
  /// draws that must not depend on how much of Rng was used before).
  std::optional<Point> randomFresh(std::mt19937_64 &G, unsigned Tries = 2000);
  /// Fresh points for a model to choose from: all of them when there are
  /// at most 4096 (valid ones when the valid set is known), else a random
  /// sample plus the neighbours of the best points; promising ones only
  /// when there are any.
  std::vector<Point> candidatePool();
  /// The candidate of highest expected improvement below BestY (a log
  /// time) under Model, with its prediction; the first of equals.
  struct ModelChoice {
    Point P;
    RandomForest::Prediction Predicted;
  };
  std::optional<ModelChoice> mostPromising(const RandomForest &Model,
                                           const std::vector<Point> &Candidates,
                                           double BestY) const;
  /// The verified trials, fastest first.
  std::vector<const Trial *> ranked() const;
  const Trial *best() const { return Best; }
  /// A trial's cost for models: log(ms), failures well above the worst.
  double cost(const Trial &T) const;

  const SearchSpace &Space;
  std::mt19937_64 Rng;
  StrategyContext Ctx;
  std::map<Point, Trial> Told;
  std::set<Point> Proposed;
  std::vector<Point> Order; ///< told points, in the order told
  const Trial *Best = nullptr;
  double WorstLog = 0;
  ValidityModel Validity; ///< learned from the verdicts told

private:
  std::optional<Point> nextEnumerated();
  /// The enumeration randomFresh falls back to, shuffled, filled lazily:
  /// indices into the valid set when it is known, else points of the
  /// product; the points the validity model doubted are deferred until
  /// the rest is used.
  std::vector<uint32_t> RemainingValid;
  std::vector<Point> Remaining, Deferred;
  bool Enumerated = false;
};

} // namespace cro

#endif
