#include "cro/Search/SearchLoop.h"
#include "cro/Support/Clock.h"
#include <cmath>
#include <limits>

using namespace llvm;

namespace cro {

namespace {

class Loop {
public:
  Loop(const SearchSpace &Space, SearchStrategy &Strategy, Evaluator &Eval,
       const SearchOptions &Opts, const TrialCallback &OnTrial)
      : Space(Space), Strategy(Strategy), Eval(Eval), Opts(Opts),
        OnTrial(OnTrial), Start(Clock::now()) {}

  SearchResult run() {
    Batch Current = prepare({{Space.defaultPoint(),
                              "the original: the baseline of every "
                              "comparison",
                              "baseline"}});
    while (!Current.All.empty()) {
      Batch Next;
      if (Eval.overlaps())
        Next = prepare(askValid(unsigned(Current.All.size())));
      evaluateBatch(Current);
      if (!stopReason().empty())
        break;
      if (!Eval.overlaps())
        Next = prepare(askValid(0));
      Current = std::move(Next);
    }
    if (R.StopReason.empty())
      R.StopReason = stopReason();
    if (R.StopReason.empty() && !Strategy.failure().empty())
      R.StopReason = SearchResult::StrategyFailed.str() + Strategy.failure();
    if (R.StopReason.empty() && Repeating)
      R.StopReason = SearchResult::StrategyFailed.str() +
                     "it proposed only points it had proposed before";
    if (R.StopReason.empty())
      R.StopReason = "space exhausted";
    auto T = Clock::now();
    Strategy.finish();
    R.StrategySeconds += secondsSince(T);
    R.TotalSeconds = secondsSince(Start);
    return std::move(R);
  }

private:
  /// Why to stop now ("" = go on).
  std::string stopReason() {
    if (R.Trials.size() >= Opts.Budget)
      return "budget";
    if (timeUp())
      return "time limit";
    if (Opts.Patience && R.Trials.size() > Opts.Patience &&
        Strategy.committed() == 0) {
      double Now = R.Trace.back();
      double Then = R.Trace[R.Trace.size() - 1 - Opts.Patience];
      if (std::isfinite(Now) && Now >= Then * (1 - Opts.Tolerance))
        return "converged";
    }
    return "";
  }

  bool timeUp() const {
    return Opts.TimeLimitSeconds > 0 &&
           secondsSince(Start) >= Opts.TimeLimitSeconds;
  }

  /// The next batch of valid, new proposals. Pending = proposals handed
  /// out but not yet evaluated (they count against the budget).
  std::vector<Proposal> askValid(unsigned Pending) {
    std::vector<Proposal> Out;
    unsigned Left = Opts.Budget > R.Trials.size() + Pending
                        ? Opts.Budget - unsigned(R.Trials.size()) - Pending
                        : 0;
    unsigned Want = timeUp() ? 0 : std::min(Opts.Batch, Left);
    // Asks again while the strategy refuses nothing new: every round either
    // gets points never seen before or ends the asking, and a space has
    // finitely many, so a strategy with valid points left is never cut off
    // however sparse the valid points are ("space exhausted" means it had
    // none left). A strategy that only repeats itself for a few rounds is
    // stopped.
    Repeating = false;
    unsigned StaleRounds = 0;
    while (Out.size() < Want && !timeUp()) {
      auto T = Clock::now();
      std::vector<Proposal> Props = Strategy.ask(Want - unsigned(Out.size()));
      R.StrategySeconds += secondsSince(T);
      if (Props.empty())
        break;
      std::vector<Trial> Refused;
      size_t New = 0;
      for (Proposal &P : Props) {
        std::string Key = Space.key(P.P);
        if (!Seen.insert(Key).second)
          continue;
        ++New;
        std::string Why = Space.violation(P.P);
        if (!Why.empty()) {
          Trial T{P.P, Key, std::nullopt, "invalid", Why, P.Why, P.Move};
          Refused.push_back(T);
          R.Invalid.push_back(std::move(T));
          continue;
        }
        Out.push_back(std::move(P));
      }
      if (!Refused.empty()) {
        auto T2 = Clock::now();
        Strategy.tell(Refused);
        R.StrategySeconds += secondsSince(T2);
      }
      if (New > 0) {
        StaleRounds = 0;
      } else if (++StaleRounds == 3) {
        Repeating = true;
        break;
      }
    }
    return Out;
  }

  /// A batch split into what is known (the database) and what the
  /// evaluator must measure; only the latter is handed to it.
  struct Batch {
    std::vector<Proposal> All;
    std::vector<std::optional<Trial>> Known;
    std::vector<Proposal> ToMeasure;
  };

  Batch prepare(std::vector<Proposal> Props) {
    Batch B;
    for (Proposal &P : Props) {
      B.Known.push_back(Eval.known(P.P));
      if (!B.Known.back())
        B.ToMeasure.push_back(P);
      B.All.push_back(std::move(P));
    }
    if (!B.ToMeasure.empty())
      Eval.prepare(B.ToMeasure);
    return B;
  }

  void evaluateBatch(const Batch &B) {
    auto T = Clock::now();
    std::vector<Trial> Measured =
        B.ToMeasure.empty() ? std::vector<Trial>() : Eval.evaluate(B.ToMeasure);
    R.EvaluateSeconds += secondsSince(T);
    std::vector<Trial> Results;
    size_t M = 0;
    for (size_t I = 0; I < B.All.size(); ++I) {
      Trial Tr;
      if (B.Known[I]) {
        Tr = *B.Known[I];
      } else if (M < Measured.size()) {
        Tr = Measured[M++];
      } else {
        // An evaluator that lost a result: a failure, never a guess.
        Tr.Verdict = "run-failed";
        Tr.Reason = "the evaluator returned no result for this point";
      }
      Tr.P = B.All[I].P;
      Tr.Key = Space.key(Tr.P);
      Tr.Why = B.All[I].Why;
      Tr.Move = B.All[I].Move;
      if (Tr.Resumed)
        ++R.Resumed;
      double BestSoFar = R.Trace.empty()
                             ? std::numeric_limits<double>::infinity()
                             : R.Trace.back();
      if (Tr.ok() && *Tr.Time < BestSoFar) {
        BestSoFar = *Tr.Time;
        R.Best = R.Trials.size();
      }
      R.Trials.push_back(Tr);
      R.Trace.push_back(BestSoFar);
      R.Elapsed.push_back(secondsSince(Start));
      if (OnTrial)
        OnTrial(R.Trials.back(), R);
      Results.push_back(std::move(Tr));
    }
    auto T2 = Clock::now();
    Strategy.tell(Results);
    R.StrategySeconds += secondsSince(T2);
  }

  const SearchSpace &Space;
  SearchStrategy &Strategy;
  Evaluator &Eval;
  const SearchOptions &Opts;
  const TrialCallback &OnTrial;
  Clock::time_point Start;
  SearchResult R;
  std::set<std::string> Seen;
  bool Repeating = false; ///< the strategy's last answer held nothing new
};

} // namespace

SearchResult runSearch(const SearchSpace &Space, SearchStrategy &Strategy,
                       Evaluator &Eval, const SearchOptions &Opts,
                       const TrialCallback &OnTrial) {
  return Loop(Space, Strategy, Eval, Opts, OnTrial).run();
}

json::Value toJSON(const Trial &T, const SearchSpace &Space) {
  json::Object O{{"config", Space.config(T.P)}, {"verdict", T.Verdict}};
  if (T.Time)
    O["time_ms"] = *T.Time;
  if (T.Spread > 0)
    O["spread_ms"] = T.Spread;
  if (!T.Reason.empty())
    O["reason"] = T.Reason;
  if (!T.Move.empty())
    O["move"] = T.Move;
  if (!T.Why.empty())
    O["why"] = T.Why;
  if (T.Resumed)
    O["resumed"] = true;
  if (T.Registers)
    O["registers"] = *T.Registers;
  if (T.Occupancy)
    O["occupancy"] = *T.Occupancy;
  return O;
}

} // namespace cro
