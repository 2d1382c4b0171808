//===- StrategyScaling.cpp - what a proposal costs as the space grows -----===//
//
// Runs every built-in strategy on synthetic spaces of 1k, 10k, 100k and 1M
// points through the real search loop and reports the strategy's own time
// (ask + tell) per evaluation, how many proposals the constraints refused,
// why the search stopped, and how close it got to the optimum.
//
// The spaces: knobs of ten power-of-two values (block shape, tiles,
// unrolling, as in tuning spaces), two pairwise constraints of the usual
// kind (a block under a thread limit, a tile that must fit the block) and a
// bound on the product of all knobs (shared memory or registers a thread)
// set so that the fraction of valid points is the one asked for; the time
// is a smooth bowl with knob interactions and a deterministic bumpy term,
// so the models have something to learn. Each space runs twice: with its valid
// set listed (as a recorded space, or a space the legality oracle judged whole)
// and without (strategies learn validity from the loop's refusals).
//
// Usage: cro-strategy-scaling [--budget N] [--batch N] [--sizes 1000,...]
//        [--strategies a,b] [--valid-fraction F] [--seed N] > results.json
//
//===----------------------------------------------------------------------===//
#include "cro/Search/SearchLoop.h"
#include "cro/Search/Strategies.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>

using namespace llvm;
using namespace cro;

static cl::opt<unsigned> Budget("budget", cl::init(1000),
                                cl::desc("evaluations per run"));
static cl::opt<unsigned> BatchSize("batch", cl::init(4),
                                   cl::desc("proposals per ask"));
static cl::opt<std::string>
    Sizes("sizes", cl::init("1000,10000,100000,1000000"),
          cl::desc("space sizes (points of the cartesian product)"));
static cl::opt<std::string>
    StrategyList("strategies",
                 cl::init("exhaustive,random,anneal,genetic,bayes,agent"),
                 cl::desc("strategies to run"));
static cl::opt<double>
    ValidFraction("valid-fraction", cl::init(0.25),
                  cl::desc("the fraction of the product that is valid"));
static cl::opt<unsigned> Seed("seed", cl::init(1));

namespace {

/// A deterministic value in [0, 1) of a point (the bumpy term, the
/// thinning constraint).
double hash01(const Point &P, uint64_t Salt) {
  uint64_t H = 1469598103934665603ull ^ Salt;
  for (unsigned V : P) {
    H ^= V + 0x9e3779b97f4a7c15ull;
    H *= 1099511628211ull;
    H ^= H >> 29;
  }
  return double(H >> 11) / double(1ull << 53);
}

/// The synthetic tuning problem of a given size.
struct Problem {
  std::vector<Dimension> Dims;
  /// The product bound: the sum of the knobs' log2 values at most this.
  unsigned SumBound = ~0u;

  explicit Problem(uint64_t Size) {
    // Ten values a knob (1, 2, 4, ..., 512): 10^k points.
    unsigned K = unsigned(std::lround(std::log10(double(Size))));
    for (unsigned I = 0; I < K; ++I) {
      Dimension D;
      D.Knob = formatv("knob{0}", I).str();
      D.Kernel = "synthetic";
      D.Transform = "synthetic";
      for (unsigned V = 0; V < 10; ++V)
        D.Values.push_back(int64_t(1) << V);
      Dims.push_back(std::move(D));
    }
  }
  /// The two structural constraints: knob0 * knob1 <= 2^12 (a block under
  /// a thread limit) and knob2 <= 2 * knob0 (a tile that fits the block).
  bool structural(const Point &P) const {
    if (P.size() >= 2 && P[0] + P[1] > 12)
      return false;
    if (P.size() >= 3 && P[2] > P[0] + 1)
      return false;
    return true;
  }
  static unsigned sum(const Point &P) {
    unsigned S = 0;
    for (unsigned V : P)
      S += V;
    return S;
  }
  bool valid(const Point &P) const {
    return structural(P) && sum(P) <= SumBound;
  }
  double time(const Point &P) const {
    double T = 1;
    for (size_t I = 0; I < P.size(); ++I) {
      double X = P[I] - (3.0 + I % 5);
      T += 0.02 * (1 + I % 3) * X * X;
    }
    if (P.size() >= 2)
      T += 0.05 * std::abs(double(P[0]) - P[1] - 1);
    return T * (1 + 0.15 * hash01(P, 11));
  }
};

class SyntheticEvaluator : public Evaluator {
public:
  explicit SyntheticEvaluator(const Problem &Pr) : Pr(Pr) {}
  std::vector<Trial> evaluate(ArrayRef<Proposal> Batch) override {
    std::vector<Trial> Out;
    for (const Proposal &P : Batch) {
      Trial T;
      T.P = P.P;
      T.Verdict = "verified";
      T.Time = Pr.time(P.P);
      Out.push_back(T);
    }
    return Out;
  }

private:
  const Problem &Pr;
};

} // namespace

int main(int Argc, char **Argv) {
  cl::ParseCommandLineOptions(Argc, Argv,
                              "proposal cost of the search strategies\n");
  json::Array Runs;
  for (StringRef SizeText : split(Sizes, ',')) {
    uint64_t Size = 0;
    if (SizeText.getAsInteger(10, Size) || Size < 10) {
      errs() << "cro-strategy-scaling: bad size '" << SizeText << "'\n";
      return 2;
    }
    Problem Pr(Size);
    HardwareLimits Limits;
    Limits.MaxThreadsPerBlock = 1024;
    SearchSpace Space(Pr.Dims, Limits);
    // The product bound that leaves the fraction of valid points asked
    // for (the structural constraints alone leave about half).
    std::vector<Point> All = Space.enumerate(UINT64_MAX);
    std::vector<size_t> BySum;
    for (const Point &P : All)
      if (Pr.structural(P)) {
        unsigned S = Problem::sum(P);
        if (BySum.size() <= S)
          BySum.resize(S + 1);
        ++BySum[S];
      }
    size_t Kept = 0;
    for (Pr.SumBound = 0; Pr.SumBound < BySum.size(); ++Pr.SumBound) {
      Kept += BySum[Pr.SumBound];
      if (Kept >= ValidFraction * All.size())
        break;
    }
    std::vector<Point> ValidPoints;
    double Optimum = INFINITY;
    for (const Point &P : All)
      if (Pr.valid(P)) {
        ValidPoints.push_back(P);
        Optimum = std::min(Optimum, Pr.time(P));
      }
    All.clear();
    All.shrink_to_fit();
    // The original: the middle valid point.
    const Point &Original = ValidPoints[ValidPoints.size() / 2];
    for (size_t I = 0; I < Pr.Dims.size(); ++I)
      Pr.Dims[I].Default = Original[I];

    for (bool Listed : {true, false})
      for (StringRef Name : split(StrategyList, ',')) {
        // A space a run: verdicts are cached, and a later run must not
        // profit from what an earlier one was refused.
        SearchSpace S(Pr.Dims, Limits);
        S.setLegalityOracle([&Pr](const json::Object &, const Point &P) {
          return Pr.valid(P) ? std::string()
                             : std::string("refused by the synthetic "
                                           "constraints");
        });
        if (Listed)
          S.setValidPoints(ValidPoints);
        StrategyContext Ctx{S, Seed, KernelFeatures(), {}, Budget};
        Expected<std::unique_ptr<SearchStrategy>> Strategy =
            makeStrategy(Name, Ctx);
        if (!Strategy) {
          errs() << "cro-strategy-scaling: " << toString(Strategy.takeError())
                 << "\n";
          return 2;
        }
        SyntheticEvaluator Eval(Pr);
        SearchOptions Opts;
        Opts.Budget = Budget;
        Opts.Batch = BatchSize;
        auto Start = std::chrono::steady_clock::now();
        SearchResult R = runSearch(S, **Strategy, Eval, Opts);
        double Wall = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - Start)
                          .count();
        double Best = R.Best ? *R.Trials[*R.Best].Time : INFINITY;
        json::Object Run{
            {"strategy", Name},
            {"points", int64_t(S.size())},
            {"valid_points", int64_t(ValidPoints.size())},
            {"valid_set_listed", Listed},
            {"evaluations", int64_t(R.Trials.size())},
            {"invalid_proposals", int64_t(R.Invalid.size())},
            {"stop_reason", R.StopReason},
            {"strategy_ms_per_evaluation",
             1000 * R.StrategySeconds / std::max<size_t>(1, R.Trials.size())},
            {"wall_seconds", Wall},
            {"best_over_optimum", Best / Optimum}};
        errs() << formatv("{0,-10} {1,8} points {2,-8} {3,5} evaluations "
                          "{4,6} refused  {5,7:f3} ms/evaluation  {6}\n",
                          Name, S.size(), Listed ? "listed" : "learned",
                          R.Trials.size(), R.Invalid.size(),
                          1000 * R.StrategySeconds /
                              std::max<size_t>(1, R.Trials.size()),
                          R.StopReason);
        Runs.push_back(std::move(Run));
      }
  }
  outs() << formatv("{0:2}", json::Value(json::Object{
                                 {"budget", int64_t(Budget)},
                                 {"batch", int64_t(BatchSize)},
                                 {"valid_fraction", ValidFraction.getValue()},
                                 {"seed", int64_t(Seed)},
                                 {"runs", std::move(Runs)}}))
         << "\n";
  return 0;
}
