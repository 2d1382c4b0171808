#include "cro/Search/RandomForest.h"
#include "cro/Search/RecordedSpace.h"
#include "cro/Search/SearchLoop.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"
#include <cmath>
#include <set>

using namespace cro;
using namespace llvm;

namespace {

/// A recorded space of two knobs with one optimum, one invalid point and
/// one that fails to build.
RecordedSpace syntheticSpace() {
  json::Array Points;
  const int Blocks[] = {32, 64, 128, 256, 512, 1024};
  const int Tiles[] = {1, 2, 4, 8, 16};
  for (int B : Blocks)
    for (int T : Tiles) {
      json::Object C;
      if (B != 256)
        C["k.block"] = B;
      if (T != 1)
        C["k.tile"] = T;
      json::Object P{{"config", std::move(C)}};
      if (B == 1024 && T == 16) {
        P["verdict"] = "invalid";
      } else if (B == 32 && T == 16) {
        P["verdict"] = "build-failed";
      } else {
        P["verdict"] = "verified";
        P["time_ms"] = (1 + 0.2 * std::abs(std::log2(B) - 7)) *
                       (T == 8 ? 1.0 : 2.0 + std::abs(std::log2(T) - 3));
      }
      Points.push_back(std::move(P));
    }
  json::Value V = json::Object{
      {"name", "synthetic"},
      {"knobs",
       json::Array{
           json::Object{{"id", "k.block"},
                        {"transform", "block-size"},
                        {"role", "block-shape"},
                        {"values", json::Array{32, 64, 128, 256, 512, 1024}},
                        {"default", 256}},
           json::Object{{"id", "k.tile"},
                        {"transform", "shared-stage"},
                        {"role", "shared-staging"},
                        {"values", json::Array{1, 2, 4, 8, 16}},
                        {"default", 1}}}},
      {"points", std::move(Points)}};
  Expected<RecordedSpace> R = RecordedSpace::fromJSON(V, "synthetic");
  EXPECT_TRUE(bool(R)) << toString(R.takeError());
  return std::move(*R);
}

SearchResult simulate(RecordedSpace &S, StringRef Strategy, uint64_t Seed,
                      unsigned Budget, Evaluator *Eval = nullptr) {
  StrategyContext Ctx{S.space(), Seed, {}, {}, Budget};
  auto Strat = makeStrategy(Strategy, Ctx);
  EXPECT_TRUE(bool(Strat)) << toString(Strat.takeError());
  SimulatedEvaluator Sim(S);
  SearchOptions Opts;
  Opts.Budget = Budget;
  Opts.Batch = 3;
  return runSearch(S.space(), **Strat, Eval ? *Eval : Sim, Opts);
}

std::vector<std::string> keys(const SearchResult &R) {
  std::vector<std::string> K;
  for (const Trial &T : R.Trials)
    K.push_back(T.Key);
  return K;
}

TEST(SearchSpace, HardwareLimitsAreConstraints) {
  HardwareLimits L = tableLimits("sm_90");
  std::vector<Dimension> Dims(2);
  Dims[0].Knob = "k.block";
  Dims[0].Kernel = "k";
  Dims[0].Transform = "block-size";
  Dims[0].Role = KnobRole::BlockShape;
  Dims[0].Values = {json::Array{32, 32}, json::Array{16, 16}};
  Dims[0].Default = 1;
  Dims[1].Knob = "nvcc.maxrregcount";
  Dims[1].Transform = "launch-bounds";
  Dims[1].Role = KnobRole::RegisterCap;
  Dims[1].Values = {0, 64, 96};
  SearchSpace S(Dims, L);
  EXPECT_EQ(S.size(), 6u);
  EXPECT_TRUE(S.valid({1, 2})) << S.violation({1, 2});
  EXPECT_TRUE(S.valid({0, 1})); // 1024 x 64 = the whole register file
  EXPECT_NE(S.violation({0, 2}).find("needs more than the 65536 registers"),
            std::string::npos)
      << S.violation({0, 2});
  L.MaxThreadsPerBlock = 512;
  SearchSpace Small(Dims, L);
  EXPECT_NE(Small.violation({0, 0}).find("over the GPU's limit of 512"),
            std::string::npos);
  // The legality oracle is asked only for points the hardware allows.
  unsigned Asked = 0;
  Small.setLegalityOracle([&](const json::Object &, const Point &) {
    ++Asked;
    return std::string("refused by the rewrite engine");
  });
  EXPECT_FALSE(Small.valid({0, 0}));
  EXPECT_EQ(Asked, 0u);
  EXPECT_EQ(Small.violation({1, 0}), "refused by the rewrite engine");
  EXPECT_FALSE(Small.plausible({1, 0})) << "cached verdicts are known";
  EXPECT_TRUE(Small.plausible({1, 1})) << "not asked yet";
}

TEST(SearchSpace, KnobsSetWithoutWhatTheyRequireAreInvalidWithoutTheOracle) {
  std::vector<Dimension> Dims(2);
  Dims[0].Knob = "k.block";
  Dims[0].Kernel = "k";
  Dims[0].Role = KnobRole::BlockShape;
  Dims[0].Values = {"runtime", json::Array{16, 16}, json::Array{32, 8}};
  Dims[1].Knob = "k.shared_stage";
  Dims[1].Kernel = "k";
  Dims[1].Values = {"none", "halo"};
  Dims[1].Requires = {"k.block"};
  SearchSpace S(Dims, tableLimits("sm_90"));
  unsigned Asked = 0;
  S.setLegalityOracle([&](const json::Object &, const Point &) {
    ++Asked;
    return std::string();
  });
  EXPECT_FALSE(S.plausible({0, 1}));
  EXPECT_EQ(S.violation({0, 1}),
            "k.shared_stage = \"halo\" requires k.block to leave its "
            "original value (\"runtime\")");
  EXPECT_EQ(Asked, 0u);
  EXPECT_TRUE(S.valid({1, 1}));
  EXPECT_TRUE(S.valid({2, 0})) << "the required knob alone is free";
  // The requirement survives a recording of the space.
  Expected<SearchSpace> Back = SearchSpace::fromJSON(S.toJSON());
  ASSERT_TRUE(bool(Back)) << toString(Back.takeError());
  EXPECT_FALSE(Back->plausible({0, 1}));
  EXPECT_TRUE(Back->plausible({2, 1}));
}

TEST(Agent, MovesAreKnobRolesWhateverTheTransform) {
  // A block shape offered by a transform the agent has never heard of, with
  // the program's own run-time choice as the default: after its two random
  // opening points (the ones random search draws first with the same seed)
  // the agent probes the block shape, at the middle shapes (there is no
  // neighbour to step to), from the original (nothing else is measured
  // yet: a batch asked before anything is told, as on a GPU whose builds
  // overlap the measurements, gets probes, not more random points).
  std::vector<Dimension> Dims(2);
  Dims[0].Knob = "k.block";
  Dims[0].Kernel = "k";
  Dims[0].Transform = "someone-elses-block-transform";
  Dims[0].Role = KnobRole::BlockShape;
  Dims[0].Values = {32, 64, 128, 256, 512, 1024, "runtime"};
  Dims[0].Default = 6;
  Dims[1].Knob = "k.unroll.L0";
  Dims[1].Kernel = "k";
  Dims[1].Transform = "unroll";
  Dims[1].Role = KnobRole::Unroll;
  Dims[1].Values = {"none", 2, 4};
  SearchSpace S(Dims, tableLimits("sm_90"));
  StrategyContext Ctx{S, 1, {}, {}, 20};
  auto Strat = makeStrategy("agent", Ctx);
  ASSERT_TRUE(bool(Strat)) << toString(Strat.takeError());
  auto Random = makeStrategy("random", Ctx);
  ASSERT_TRUE(bool(Random)) << toString(Random.takeError());
  std::vector<Proposal> First = (*Strat)->ask(4);
  std::vector<Proposal> RandomFirst = (*Random)->ask(2);
  ASSERT_EQ(First.size(), 4u);
  ASSERT_EQ(RandomFirst.size(), 2u);
  for (size_t I = 0; I < 2; ++I) {
    EXPECT_EQ(First[I].Move, "explore");
    EXPECT_EQ(First[I].P, RandomFirst[I].P);
  }
  // The probes, larger then smaller, skip a shape the random points took.
  std::set<int64_t> Shapes;
  for (const Proposal &P : First)
    if (const json::Value *V = S.config(P.P).get("k.block"))
      Shapes.insert(V->getAsInteger().value_or(0));
  EXPECT_TRUE(Shapes.count(256) && Shapes.count(128));
  EXPECT_EQ(First[2].Move, "block-shape");
  EXPECT_EQ(First[2].P[1], 0u);
  EXPECT_NE(First[2].Why.find("on the original"), std::string::npos)
      << First[2].Why;
}

TEST(Agent, ProbesMoveFromTheBestVariantSoFar) {
  // Three move types: once an opening point beats the original, the probes
  // change one knob of that point, not of the original.
  std::vector<Dimension> Dims(3);
  const KnobRole Roles[] = {KnobRole::Unroll, KnobRole::Coarsening,
                            KnobRole::Vectorization};
  for (size_t I = 0; I < 3; ++I) {
    Dims[I].Knob = "k.p" + std::to_string(I);
    Dims[I].Kernel = "k";
    Dims[I].Transform = "t" + std::to_string(I);
    Dims[I].Role = Roles[I];
    Dims[I].Values = {1, 2, 4, 8, 16};
  }
  SearchSpace S(Dims, tableLimits("sm_90"));
  StrategyContext Ctx{S, 5, {}, {}, 50};
  auto Strat = makeStrategy("agent", Ctx);
  ASSERT_TRUE(bool(Strat)) << toString(Strat.takeError());
  std::vector<Proposal> Opening = (*Strat)->ask(2);
  ASSERT_EQ(Opening.size(), 2u);
  Point Original = S.defaultPoint();
  std::vector<Trial> Told{
      {Original, S.key(Original), 2.0, "verified", "", "", "baseline"},
      {Opening[0].P, S.key(Opening[0].P), 1.0, "verified", "", Opening[0].Why,
       Opening[0].Move},
      {Opening[1].P, S.key(Opening[1].P), 3.0, "verified", "", Opening[1].Why,
       Opening[1].Move}};
  (*Strat)->tell(Told);
  std::vector<Proposal> Probes = (*Strat)->ask(3);
  ASSERT_EQ(Probes.size(), 3u);
  for (const Proposal &P : Probes) {
    EXPECT_NE(P.Move, "explore");
    unsigned Changed = 0;
    for (size_t I = 0; I < 3; ++I)
      Changed += P.P[I] != Opening[0].P[I];
    EXPECT_EQ(Changed, 1u) << P.Why;
    EXPECT_NE(P.Why.find("the best variant so far"), std::string::npos)
        << P.Why;
  }
}

TEST(Agent, OneMoveTypeIsNotProbed) {
  // A recorded space without roles (every knob "other", as Kernel Tuner's
  // caches read): nothing to compare by probing, so after the opening the
  // agent chooses between moves from the best and exploring.
  std::vector<Dimension> Dims(3);
  for (size_t I = 0; I < 3; ++I) {
    Dims[I].Knob = "p" + std::to_string(I);
    Dims[I].Kernel = "k";
    Dims[I].Transform = "kernel-tuner";
    Dims[I].Values = {1, 2, 4, 8, 16};
  }
  SearchSpace S(Dims, tableLimits("sm_90"));
  StrategyContext Ctx{S, 3, {}, {}, 60};
  auto Strat = makeStrategy("agent", Ctx);
  ASSERT_TRUE(bool(Strat)) << toString(Strat.takeError());
  Point Original = S.defaultPoint();
  (*Strat)->tell(
      {{Original, S.key(Original), 2.0, "verified", "", "", "baseline"}});
  // Times fall with the sum of the indices: the best is far from the
  // original, and every result the agent gets is told at once.
  auto TimeOf = [](const Point &P) { return 3.0 - 0.1 * (P[0] + P[1] + P[2]); };
  unsigned Probes = 0, Moves = 0;
  for (int Round = 0; Round < 10; ++Round) {
    std::vector<Proposal> Props = (*Strat)->ask(4);
    std::vector<Trial> Told;
    for (const Proposal &P : Props) {
      Probes += P.Why.rfind("probe", 0) == 0;
      Moves += P.Why.rfind("move 'other'", 0) == 0;
      Told.push_back(
          {P.P, S.key(P.P), TimeOf(P.P), "verified", "", P.Why, P.Move});
    }
    (*Strat)->tell(Told);
  }
  EXPECT_EQ(Probes, 0u);
  EXPECT_GT(Moves, 0u);
}

TEST(SearchSpace, ConfigurationsRoundTrip) {
  RecordedSpace R = syntheticSpace();
  SearchSpace &S = R.space();
  EXPECT_EQ(S.key(S.defaultPoint()), "{}");
  Point P = {2, 3};
  EXPECT_EQ(S.key(P), "{\"k.block\":128,\"k.tile\":8}");
  Expected<Point> Back = S.pointOf(S.config(P));
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ(*Back, P);
  Expected<Point> Bad = S.pointOf(json::Object{{"k.nothing", 1}});
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(toString(Bad.takeError()),
            "unknown knob 'k.nothing' in this space");
}

TEST(Search, EveryStrategyIsDeterministicAndFindsTheOptimum) {
  for (std::string Name :
       {"exhaustive", "random", "anneal", "genetic", "bayes", "agent"}) {
    RecordedSpace S1 = syntheticSpace(), S2 = syntheticSpace();
    SearchResult A = simulate(S1, Name, 42, 29);
    SearchResult B = simulate(S2, Name, 42, 29);
    EXPECT_EQ(keys(A), keys(B)) << Name << " is not deterministic";
    // The whole valid space: every strategy gets to the optimum, never
    // evaluates a point twice, never builds the invalid one.
    ASSERT_EQ(A.Trials.size(), 29u) << Name << ": " << A.StopReason;
    ASSERT_TRUE(A.Best) << Name;
    EXPECT_DOUBLE_EQ(*A.Trials[*A.Best].Time, *S1.optimum()) << Name;
    std::vector<std::string> K = keys(A);
    std::sort(K.begin(), K.end());
    EXPECT_EQ(std::unique(K.begin(), K.end()), K.end()) << Name;
    EXPECT_EQ(A.Trials.front().Key, "{}") << "the original comes first";
    for (const Trial &T : A.Trials)
      EXPECT_NE(T.Key, "{\"k.block\":1024,\"k.tile\":16}") << Name;
    RecordedSpace S3 = syntheticSpace();
    SearchResult C = simulate(S3, Name, 7, 29);
    if (Name != "exhaustive")
      EXPECT_NE(keys(A), keys(C)) << Name << " ignores its seed";
  }
}

/// An evaluator with a memory, like the tuning database: it answers known()
/// for what it measured, and counts what it measures.
class RememberingEvaluator : public Evaluator {
public:
  /// Keeps the first Keep measurements only: the search was interrupted
  /// after them (the rest was never written to the database).
  RememberingEvaluator(const RecordedSpace &S, std::map<Point, Trial> &Store,
                       unsigned Keep = ~0u)
      : Sim(S), Store(Store), Keep(Keep) {}
  std::vector<Trial> evaluate(ArrayRef<Proposal> Batch) override {
    std::vector<Trial> Out = Sim.evaluate(Batch);
    for (size_t I = 0; I < Out.size(); ++I) {
      Out[I].P = Batch[I].P;
      if (Measured < Keep)
        Store[Out[I].P] = Out[I];
      ++Measured;
    }
    return Out;
  }
  std::optional<Trial> known(const Point &P) override {
    auto It = Store.find(P);
    if (It == Store.end())
      return std::nullopt;
    Trial T = It->second;
    T.Resumed = true;
    return T;
  }
  unsigned Measured = 0;

private:
  SimulatedEvaluator Sim;
  std::map<Point, Trial> &Store;
  unsigned Keep;
};

TEST(Search, InterruptedSearchResumesWithoutMeasuringAgain) {
  for (std::string Name : {"agent", "bayes", "random"}) {
    RecordedSpace S = syntheticSpace();
    SearchResult Whole = simulate(S, Name, 3, 18);

    // Interrupted after 9: the same search, whose database kept the first
    // 9 results (a strategy's plan may depend on its budget, so the
    // interrupted run had the whole one).
    std::map<Point, Trial> Store;
    RecordedSpace S1 = syntheticSpace();
    RememberingEvaluator First(S1, Store, 9);
    simulate(S1, Name, 3, 18, &First);
    EXPECT_EQ(Store.size(), 9u);

    RecordedSpace S2 = syntheticSpace();
    RememberingEvaluator Second(S2, Store);
    SearchResult Resumed = simulate(S2, Name, 3, 18, &Second);
    EXPECT_EQ(Second.Measured, 9u) << Name << ": only the new points";
    EXPECT_EQ(Resumed.Resumed, 9u);
    EXPECT_EQ(keys(Resumed), keys(Whole))
        << Name << ": the resumed search is the uninterrupted one";
  }
}

/// Builds in the background: the loop hands over the next batch before
/// measuring the current one, and evaluates batches in the order prepared.
class OverlappingEvaluator : public Evaluator {
public:
  explicit OverlappingEvaluator(const RecordedSpace &S) : Sim(S) {}
  bool overlaps() const override { return true; }
  void prepare(ArrayRef<Proposal> Batch) override {
    std::vector<Point> P;
    for (const Proposal &X : Batch)
      P.push_back(X.P);
    Prepared.push_back(P);
    MaxAhead = std::max<size_t>(MaxAhead, Prepared.size() - Evaluated);
  }
  std::vector<Trial> evaluate(ArrayRef<Proposal> Batch) override {
    EXPECT_LT(Evaluated, Prepared.size());
    EXPECT_EQ(Prepared[Evaluated].size(), Batch.size());
    for (size_t I = 0; I < Batch.size(); ++I)
      EXPECT_EQ(Prepared[Evaluated][I], Batch[I].P);
    ++Evaluated;
    return Sim.evaluate(Batch);
  }
  std::vector<std::vector<Point>> Prepared;
  size_t Evaluated = 0, MaxAhead = 0;

private:
  SimulatedEvaluator Sim;
};

TEST(Search, NextBatchIsPreparedWhileThisOneIsMeasured) {
  RecordedSpace S = syntheticSpace();
  OverlappingEvaluator Eval(S);
  SearchResult R = simulate(S, "random", 1, 13, &Eval);
  EXPECT_EQ(R.Trials.size(), 13u);
  EXPECT_EQ(Eval.MaxAhead, 2u) << "one batch measured, the next one built";
}

TEST(Search, ExhaustiveCoversTheValidSpaceOnce) {
  RecordedSpace S = syntheticSpace();
  SearchResult R = simulate(S, "exhaustive", 1, 1000);
  EXPECT_EQ(R.Trials.size(), 29u);
  EXPECT_EQ(R.Invalid.size(), 0u)
      << "a recording lists its valid points: none other is proposed";
  EXPECT_EQ(R.StopReason, "space exhausted");
  // The failed build counts as an evaluation and has no time.
  unsigned Failed = 0;
  for (const Trial &T : R.Trials)
    Failed += T.Verdict == "build-failed" && !T.Time;
  EXPECT_EQ(Failed, 1u);
}

TEST(RandomForest, LearnsAndKnowsWhatItDoesNotKnow) {
  std::mt19937_64 Rng(1);
  std::vector<std::vector<double>> X;
  std::vector<double> Y;
  for (int I = 0; I < 40; ++I) {
    double A = I % 8, B = I / 8;
    X.push_back({A, B});
    Y.push_back(A < 4 ? 1.0 : 3.0);
  }
  RandomForest F;
  F.fit(X, Y, Rng);
  EXPECT_NEAR(F.predict({1, 2}).Mean, 1.0, 0.3);
  EXPECT_NEAR(F.predict({6, 2}).Mean, 3.0, 0.3);
  // Expected improvement prefers the region predicted lower.
  EXPECT_GT(expectedImprovement(F.predict({1, 2}), 1.5),
            expectedImprovement(F.predict({6, 2}), 1.5));
}

} // namespace

namespace {

/// A recorded space of Kernels kernels, each with a 12-value block knob
/// whose best value (32 threads, far from the default 256) gives no hint in
/// its neighbours, and an unroll knob worth 2% a step. The program's time is
/// the sum of its kernels'.
RecordedSpace needleSpace(int Kernels) {
  const int Blocks[] = {32,  64,  96,  128, 160, 192,
                        256, 320, 384, 512, 768, 1024};
  const char *Unrolls[] = {"none", "2", "4", "8"};
  json::Array Knobs, Points;
  for (int K = 0; K < Kernels; ++K) {
    std::string Name = "k" + std::to_string(K);
    Knobs.push_back(
        json::Object{{"id", Name + ".block"},
                     {"transform", "block-size"},
                     {"role", "block-shape"},
                     {"values", json::Array(std::vector<json::Value>(
                                    std::begin(Blocks), std::end(Blocks)))},
                     {"default", 256}});
    Knobs.push_back(json::Object{{"id", Name + ".unroll.L0"},
                                 {"transform", "unroll"},
                                 {"role", "unroll"},
                                 {"values", json::Array{"none", "2", "4", "8"}},
                                 {"default", "none"}});
  }
  // Every point: an odometer over (block, unroll) per kernel.
  std::vector<unsigned> Digit(2 * Kernels, 0);
  while (true) {
    json::Object C;
    double Ms = 0;
    for (int K = 0; K < Kernels; ++K) {
      int B = Blocks[Digit[2 * K]];
      unsigned U = Digit[2 * K + 1];
      std::string Name = "k" + std::to_string(K);
      if (B != 256)
        C[Name + ".block"] = B;
      if (U)
        C[Name + ".unroll.L0"] = Unrolls[U];
      Ms += (B == 32 ? 1.0 : 2.0) * std::pow(0.98, U);
    }
    Points.push_back(json::Object{
        {"config", std::move(C)}, {"verdict", "verified"}, {"time_ms", Ms}});
    size_t I = 0;
    for (; I < Digit.size(); ++I) {
      if (++Digit[I] < (I % 2 ? 4u : 12u))
        break;
      Digit[I] = 0;
    }
    if (I == Digit.size())
      break;
  }
  Expected<RecordedSpace> R =
      RecordedSpace::fromJSON(json::Object{{"name", "needle"},
                                           {"knobs", std::move(Knobs)},
                                           {"points", std::move(Points)}},
                              "needle");
  EXPECT_TRUE(bool(R)) << toString(R.takeError());
  return std::move(*R);
}

/// The agent's best time at Budget with the main command's patience.
double agentBest(RecordedSpace &S, uint64_t Seed, unsigned Budget,
                 SearchResult *Out = nullptr) {
  StrategyContext Ctx{S.space(), Seed, {}, {}, Budget};
  auto Strat = makeStrategy("agent", Ctx);
  EXPECT_TRUE(bool(Strat));
  SimulatedEvaluator Sim(S);
  SearchOptions Opts;
  Opts.Budget = Budget;
  Opts.Batch = 4;
  Opts.Patience = 10;
  SearchResult R = runSearch(S.space(), **Strat, Sim, Opts);
  double Best = R.Best ? *R.Trials[*R.Best].Time : 1e9;
  if (Out)
    *Out = std::move(R);
  return Best;
}

} // namespace

TEST(Agent, NeverBelowTheBestBlockShapeAlone) {
  // One kernel: 11 other block shapes fit in half of a budget of 30, so
  // the agent sweeps them all -- and the patience of 10 does not stop it
  // before (nothing improves on the original for many evaluations).
  for (uint64_t Seed : {1, 2, 3, 4, 5}) {
    RecordedSpace S = needleSpace(1);
    SearchResult R;
    double Best = agentBest(S, Seed, 30, &R);
    EXPECT_LE(Best, 1.0) << "seed " << Seed << ", stopped: " << R.StopReason;
    bool Swept = false;
    for (const Trial &T : R.Trials)
      Swept |= T.Why.find("sweep of the block shapes") != std::string::npos;
    EXPECT_TRUE(Swept);
  }
  // Two kernels: 144 combinations do not fit in 30 of a budget of 60, the
  // 22 single-knob changes do; the best of each, combined, is the optimum
  // of block shapes alone (the kernels' times add up).
  for (uint64_t Seed : {1, 2, 3}) {
    RecordedSpace S = needleSpace(2);
    SearchResult R;
    double Best = agentBest(S, Seed, 60, &R);
    EXPECT_LE(Best, 2.0) << "seed " << Seed << ", stopped: " << R.StopReason;
  }
  // Too many block shapes for half the budget: no sweep is promised.
  RecordedSpace S = needleSpace(2);
  StrategyContext Ctx{S.space(), 1, {}, {}, 20};
  auto Strat = makeStrategy("agent", Ctx);
  ASSERT_TRUE(bool(Strat));
  EXPECT_EQ((*Strat)->committed(), 0u);
}
