// Search on spaces whose valid points are a small part of the cartesian
// product (issue 22): every strategy reaches its budget, or runs out only
// when no valid point is left; exhaustive visits every valid point once,
// whatever the batch; with the valid set listed, nothing invalid is
// proposed at all.
#include "cro/Search/RandomForest.h"
#include "cro/Search/RecordedSpace.h"
#include "cro/Search/SearchLoop.h"
#include "cro/Search/ValidityModel.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"
#include <cmath>
#include <set>

using namespace cro;
using namespace llvm;

namespace {

const char *const AllStrategies[] = {"exhaustive", "random", "anneal",
                                     "genetic",    "bayes",  "agent"};

/// A space of knobs with Radix values each (powers of two) whose valid
/// points satisfy two structural constraints (a product bound on knobs 0
/// and 1, knob 2 no larger than knob 0 plus one step) and a thinning one
/// that keeps about Keep of them. Knob 0 is a block shape, so the agent's
/// block sweep runs too.
struct SparseProblem {
  std::vector<unsigned> Radices;
  double Keep;
  unsigned SumBound = 0; ///< knob0 + knob1 at most this (0: radix + 1)

  bool valid(const Point &P) const {
    if (P[0] + P[1] > (SumBound ? SumBound : Radices[0] + 1))
      return false;
    if (P[2] > P[0] + 1)
      return false;
    uint64_t H = 14695981039346656037ull;
    for (unsigned V : P)
      H = (H ^ (V + 1)) * 1099511628211ull;
    return double(H % 10007) / 10007 < Keep;
  }
  double time(const Point &P) const {
    double T = 1;
    for (size_t I = 0; I < P.size(); ++I)
      T += 0.1 * std::pow(double(P[I]) - 2.0 - I % 3, 2);
    return T;
  }
  std::vector<Dimension> dims() const {
    std::vector<Dimension> Dims;
    for (size_t I = 0; I < Radices.size(); ++I) {
      Dimension D;
      D.Knob = formatv("k.knob{0}", I).str();
      D.Kernel = "k";
      D.Role = I == 0 ? KnobRole::BlockShape : KnobRole::Other;
      for (unsigned V = 0; V < Radices[I]; ++V)
        D.Values.push_back(int64_t(1) << V);
      Dims.push_back(std::move(D));
    }
    return Dims;
  }
  /// The valid points, and the first one (in enumeration order) made the
  /// original: every search starts from a valid point.
  std::vector<Point> validPoints() const {
    std::vector<Point> Out;
    SearchSpace All(dims(), unlimited());
    for (const Point &P : All.enumerate(UINT64_MAX))
      if (valid(P))
        Out.push_back(P);
    return Out;
  }
  static HardwareLimits unlimited() {
    HardwareLimits L;
    L.MaxThreadsPerBlock = 1u << 30;
    return L;
  }
  /// The space with its legality oracle, the valid set listed or not.
  SearchSpace space(bool Listed) const {
    std::vector<Point> Valid = validPoints();
    std::vector<Dimension> D = dims();
    for (size_t I = 0; I < D.size(); ++I)
      D[I].Default = Valid.front()[I];
    SearchSpace S(D, unlimited());
    SparseProblem Copy = *this;
    S.setLegalityOracle([Copy](const json::Object &, const Point &P) {
      return Copy.valid(P) ? std::string() : std::string("refused");
    });
    if (Listed)
      S.setValidPoints(Valid);
    return S;
  }
};

class ProblemEvaluator : public Evaluator {
public:
  explicit ProblemEvaluator(const SparseProblem &Pr) : Pr(Pr) {}
  std::vector<Trial> evaluate(ArrayRef<Proposal> Batch) override {
    std::vector<Trial> Out;
    for (const Proposal &P : Batch) {
      Trial T;
      T.P = P.P;
      EXPECT_TRUE(Pr.valid(P.P)) << "an invalid point was built";
      T.Verdict = "verified";
      T.Time = Pr.time(P.P);
      Out.push_back(T);
    }
    return Out;
  }

private:
  const SparseProblem &Pr;
};

SearchResult search(const SparseProblem &Pr, SearchSpace &S, StringRef Strategy,
                    unsigned Budget, unsigned Batch) {
  StrategyContext Ctx{S, 7, {}, {}, Budget};
  auto Strat = makeStrategy(Strategy, Ctx);
  EXPECT_TRUE(bool(Strat)) << toString(Strat.takeError());
  ProblemEvaluator Eval(Pr);
  SearchOptions Opts;
  Opts.Budget = Budget;
  Opts.Batch = Batch;
  return runSearch(S, **Strat, Eval, Opts);
}

std::set<Point> distinctPoints(const SearchResult &R) {
  std::set<Point> Out;
  for (const Trial &T : R.Trials)
    Out.insert(T.P);
  return Out;
}

TEST(ValidSet, RanksPointsInEnumerationOrder) {
  ValidSet V({3, 4}, {{2, 3}, {0, 1}, {0, 1}, {1, 0}, {3, 0}});
  EXPECT_EQ(V.size(), 3u) << "a duplicate and a point outside are dropped";
  EXPECT_EQ(V.at(0), (Point{0, 1}));
  EXPECT_EQ(V.at(1), (Point{1, 0}));
  EXPECT_EQ(V.at(2), (Point{2, 3}));
  EXPECT_EQ(*V.rankOf({2, 3}), 11u);
  EXPECT_EQ(V.pointOf(11), (Point{2, 3}));
  EXPECT_TRUE(V.contains({1, 0}));
  EXPECT_FALSE(V.contains({1, 1}));
  EXPECT_FALSE(V.contains({3, 0}));
  EXPECT_FALSE(V.contains({1}));
  std::mt19937_64 Rng(1);
  std::map<Point, unsigned> Drawn;
  for (int I = 0; I < 3000; ++I)
    ++Drawn[V.sample(Rng)];
  EXPECT_EQ(Drawn.size(), 3u);
  for (const auto &[P, N] : Drawn)
    EXPECT_NEAR(N, 1000, 150) << "uniform over the valid points";
}

TEST(SearchSpace, ListsItsValidPointsWhenTheOracleIsQuickEnough) {
  SparseProblem Pr{{4, 4, 4}, 0.5};
  SearchSpace S = Pr.space(/*Listed=*/false);
  EXPECT_EQ(S.validSet(), nullptr);
  EXPECT_FALSE(S.listValidPoints(/*MaxPoints=*/10, 10.0)) << "too many points";
  EXPECT_FALSE(S.listValidPoints(64, /*Seconds=*/0.0)) << "out of time";
  EXPECT_EQ(S.validSet(), nullptr);
  ASSERT_TRUE(S.listValidPoints(64, 10.0));
  ASSERT_NE(S.validSet(), nullptr);
  EXPECT_EQ(S.validSet()->size(), Pr.validPoints().size());
  for (const Point &P : S.enumerate())
    EXPECT_EQ(S.plausible(P), Pr.valid(P));
  // Every refused point's reason is kept (a recording writes them).
  EXPECT_EQ(S.knownInvalid().size(), 64 - Pr.validPoints().size());
}

TEST(ValidityModel, LearnsAPairwiseConstraintFromRefusals) {
  // Knobs a, b of 8 values: a + b <= 8 is valid.
  ValidityModel M({8, 8, 8});
  std::mt19937_64 Rng(3);
  std::uniform_int_distribution<unsigned> U(0, 7);
  for (int I = 0; I < 3000; ++I) {
    Point P{U(Rng), U(Rng), U(Rng)};
    M.observe(P, P[0] + P[1] <= 8);
  }
  EXPECT_GT(M.refusals(), 500u);
  unsigned Wrong = 0, Doubted = 0, Invalid = 0;
  for (unsigned A = 0; A < 8; ++A)
    for (unsigned B = 0; B < 8; ++B)
      for (unsigned C = 0; C < 8; ++C) {
        bool Valid = A + B <= 8;
        bool Doubt = M.likelyInvalid({A, B, C});
        Wrong += Valid && Doubt;
        Invalid += !Valid;
        Doubted += !Valid && Doubt;
      }
  EXPECT_EQ(Wrong, 0u) << "no valid point doubted";
  EXPECT_EQ(Doubted, Invalid) << "every refused pair learned";
}

TEST(RandomForest, AnObservationAddedNarrowsTheSpreadThere) {
  std::mt19937_64 Rng(1);
  std::vector<std::vector<double>> X;
  std::vector<double> Y;
  for (int I = 0; I < 60; ++I) {
    X.push_back({double(I % 10), double(I / 10)});
    Y.push_back(std::sin(I) + (I % 10) * 0.3);
  }
  RandomForest F;
  F.fit(X, Y, Rng);
  std::vector<double> Q{4.5, 2};
  RandomForest::Prediction Before = F.predict(Q);
  for (int I = 0; I < 5; ++I)
    F.addObservation(Q, Before.Mean);
  RandomForest::Prediction After = F.predict(Q);
  EXPECT_LT(After.Std, Before.Std);
  EXPECT_NEAR(After.Mean, Before.Mean, 0.5 * Before.Std + 1e-9);
}

TEST(SparseSpace, ExhaustiveVisitsEveryValidPointOnceWhateverTheBatch) {
  SparseProblem Pr{{8, 8, 8, 8}, 0.12}; // about 5% of 4096 valid
  size_t Valid = Pr.validPoints().size();
  ASSERT_GT(Valid, 100u);
  ASSERT_LT(Valid, 4096u / 15);
  for (bool Listed : {true, false})
    for (unsigned Batch : {1u, 2u, 3u, 8u, 64u, 5000u}) {
      SearchSpace S = Pr.space(Listed);
      SearchResult R = search(Pr, S, "exhaustive", 100000, Batch);
      SCOPED_TRACE(formatv("batch {0}, valid set {1}", Batch,
                           Listed ? "listed" : "learned")
                       .str());
      EXPECT_EQ(R.Trials.size(), Valid);
      EXPECT_EQ(distinctPoints(R).size(), Valid) << "each exactly once";
      EXPECT_EQ(R.StopReason, "space exhausted");
      if (Listed)
        EXPECT_EQ(R.Invalid.size(), 0u);
      else
        EXPECT_EQ(R.Invalid.size(), 4096u - Valid);
    }
}

TEST(SparseSpace, NoStrategyStopsEarly) {
  SparseProblem Pr{{10, 10, 10, 10}, 0.1}; // about 5% of 10,000 valid
  size_t Valid = Pr.validPoints().size();
  ASSERT_GT(Valid, 300u);
  ASSERT_LT(Valid, 10000u / 15);
  for (bool Listed : {true, false})
    for (const char *Name : AllStrategies) {
      SCOPED_TRACE(
          formatv("{0}, valid set {1}", Name, Listed ? "listed" : "learned")
              .str());
      SearchSpace S = Pr.space(Listed);
      SearchResult R = search(Pr, S, Name, 250, 4);
      EXPECT_EQ(R.Trials.size(), 250u);
      EXPECT_EQ(R.StopReason, "budget");
      EXPECT_EQ(distinctPoints(R).size(), 250u);
      if (Listed)
        EXPECT_EQ(R.Invalid.size(), 0u) << "nothing invalid proposed";
    }
}

TEST(SparseSpace, SpaceExhaustedOnlyWhenNoValidPointIsLeft) {
  SparseProblem Pr{{8, 8, 8, 4}, 0.12}; // about 5% of 2048 valid
  size_t Valid = Pr.validPoints().size();
  ASSERT_GT(Valid, 40u);
  for (bool Listed : {true, false})
    for (const char *Name : AllStrategies) {
      SCOPED_TRACE(
          formatv("{0}, valid set {1}", Name, Listed ? "listed" : "learned")
              .str());
      SearchSpace S = Pr.space(Listed);
      SearchResult R = search(Pr, S, Name, 100000, 4);
      EXPECT_EQ(R.StopReason, "space exhausted");
      EXPECT_EQ(distinctPoints(R).size(), Valid) << "every valid point";
      EXPECT_EQ(R.Trials.size(), Valid);
    }
}

TEST(SparseSpace, LearnedValidityWastesFewerProposalsThanTheProduct) {
  // Without the valid set, strategies learn from refusals. 5% of the
  // product is valid, by structural constraints only (a sum bound on two
  // knobs, a third bounded by the first): random search over the product
  // would be refused about 19 times per evaluation.
  SparseProblem Pr{{10, 10, 10, 10}, 1.0, /*SumBound=*/4};
  size_t Valid = Pr.validPoints().size();
  ASSERT_EQ(Valid, 500u);
  for (const char *Name : {"random", "genetic", "agent"}) {
    SCOPED_TRACE(Name);
    SearchSpace S = Pr.space(/*Listed=*/false);
    SearchResult R = search(Pr, S, Name, 200, 4);
    EXPECT_EQ(R.Trials.size(), 200u);
    EXPECT_LT(R.Invalid.size(), 200u * 19 / 4) << "learned: 4x fewer";
  }
}

/// A strategy that proposes the same point forever.
class Parrot : public SearchStrategy {
public:
  explicit Parrot(Point P) : P(std::move(P)) {}
  StringRef name() const override { return "parrot"; }
  std::vector<Proposal> ask(unsigned N) override {
    return std::vector<Proposal>(N, Proposal{P, "again", ""});
  }
  void tell(ArrayRef<Trial>) override {}
  Point P;
};

TEST(SearchLoop, AStrategyThatOnlyRepeatsItselfIsStopped) {
  SparseProblem Pr{{4, 4, 4}, 1.0};
  SearchSpace S = Pr.space(/*Listed=*/true);
  Point Other = S.validSet()->at(1);
  Parrot Strat(Other);
  ProblemEvaluator Eval(Pr);
  SearchOptions Opts;
  Opts.Budget = 50;
  SearchResult R = runSearch(S, Strat, Eval, Opts);
  EXPECT_EQ(R.Trials.size(), 2u) << "the original and the point, once";
  EXPECT_TRUE(R.strategyFailed()) << R.StopReason;
}

} // namespace
