#include "cro/Tune/TuningSession.h"
#include "cro/Measure/Statistics.h"
#include "cro/Search/Strategies.h"
#include "cro/Support/Clock.h"
#include "cro/Support/ToolError.h"
#include "cro/Tune/Workload.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace llvm;

namespace cro {

std::optional<double> SessionOutcome::originalMs() const {
  if (Confirmed.OriginalMs.empty())
    return std::nullopt;
  return summarize(Confirmed.OriginalMs).Median;
}

std::optional<double> SessionOutcome::variantMs() const {
  if (Confirmed.VariantMs.empty())
    return std::nullopt;
  return summarize(Confirmed.VariantMs).Median;
}

TuningSession::TuningSession(SearchSpace &Space, TuningEvaluator &Eval,
                             TuningDatabase *Db, WorkloadKey Key,
                             KernelFeatures Features, SearchControl Control,
                             GainRule Rule, unsigned ConfirmRuns)
    : Space(Space), Eval(Eval), Db(Db), Key(std::move(Key)),
      Features(std::move(Features)), Control(std::move(Control)), Rule(Rule),
      ConfirmRuns(ConfirmRuns) {}

Error TuningSession::start() {
  if (Db) {
    if (Error E = Db->describeSource(Key.Hash, Key.File, Features.signature()))
      Warnings.push_back(toString(std::move(E)));
    Priors = transferPriors(*Db, Features, Key.Gpu, Key.Hash);
  }
  return Eval.measureOriginal();
}

Expected<std::unique_ptr<SearchStrategy>> TuningSession::makeStrategy() const {
  StrategyContext SCtx{Space, Control.Seed, Features, Priors, Control.Budget};
  return cro::makeStrategy(Control.Strategy, SCtx);
}

SearchResult TuningSession::search(const TrialCallback &OnTrial,
                                   std::string *Note) {
  Expected<std::unique_ptr<SearchStrategy>> Strategy = makeStrategy();
  if (!Strategy) {
    SearchResult R;
    R.StopReason =
        SearchResult::StrategyFailed.str() + toString(Strategy.takeError());
    return R;
  }
  return search(**Strategy, OnTrial, Note);
}

SearchResult TuningSession::search(SearchStrategy &Strategy,
                                   const TrialCallback &OnTrial,
                                   std::string *Note) {
  auto ListStart = Clock::now();
  if (Space.listValidPoints(/*MaxPoints=*/20000, /*Seconds=*/2.0) && Note)
    *Note =
        formatv("{0} of the space's {1} points are valid (the rewrite "
                "engine judged every one in {2:f1} s); the search "
                "proposes only those",
                Space.validSet()->size(), Space.size(), secondsSince(ListStart))
            .str();
  SearchOptions Opts;
  Opts.Budget = Control.Budget;
  Opts.TimeLimitSeconds = Control.TimeLimitSeconds;
  Opts.Batch = Control.Batch;
  Opts.Patience = Control.Patience;
  return runSearch(Space, Strategy, Eval, Opts, OnTrial);
}

SessionOutcome TuningSession::decide(const SearchResult &R) {
  SessionOutcome O;
  O.SearchOriginalMs = Eval.original().Time.value_or(0);
  const Trial *Best = R.Best ? &R.Trials[*R.Best] : nullptr;
  if (!Best || Best->P == Space.defaultPoint()) {
    O.Decision = "No variant was faster than the original: the output is "
                 "the original, unchanged.";
    return O;
  }
  // The search's single run per variant can be lucky: the winner is
  // measured again, interleaved with the original, and held to the rule.
  O.Candidate = Best->P;
  O.SearchMs = Best->Time.value_or(0);
  O.Runs = std::max(Rule.MinRuns, ConfirmRuns);
  auto Start = Clock::now();
  O.Confirmed = Eval.confirm(Best->P, O.Runs);
  O.ConfirmSeconds = secondsSince(Start);
  if (!O.Confirmed.Verified) {
    O.What = SessionOutcome::Kind::Rejected;
    O.Decision = "The best candidate failed verification when measured "
                 "again (" +
                 O.Confirmed.Rejection +
                 "): the output is the original, unchanged.";
    return O;
  }
  O.Gain = decideGain(O.Confirmed.OriginalMs, O.Confirmed.VariantMs, Rule);
  if (O.Gain.Faster) {
    O.What = SessionOutcome::Kind::Written;
    O.Decision = "Wrote the fastest verified variant: " + O.Gain.Why + ".";
  } else {
    O.What = SessionOutcome::Kind::NotFaster;
    O.Decision = "The best candidate is not written: " + O.Gain.Why +
                 "; the output is the original, unchanged.";
  }
  return O;
}

Error TuningSession::record(const SessionOutcome &O) {
  if (!Db)
    return Error::success();
  DecisionRecord D;
  // The original's time: the confirmation's median, else the search's.
  D.OriginalMs = O.originalMs();
  if (!D.OriginalMs && Eval.original().Time)
    D.OriginalMs = *Eval.original().Time;
  if (O.written()) {
    D.Config = Space.key(*O.Candidate);
    D.VariantMs = O.variantMs();
  } else {
    D.Config = "{}";
    D.VariantMs = D.OriginalMs;
  }
  D.Speedup = D.OriginalMs && D.VariantMs && *D.VariantMs > 0
                  ? *D.OriginalMs / *D.VariantMs
                  : 1.0;
  return Db->recordDecision(Key.Hash, Key.Gpu, D);
}

} // namespace cro
