#include "cro/Search/Strategy.h"
#include "cro/Search/Strategies.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>

using namespace llvm;

namespace cro {

bool isTrialVerdict(StringRef V) {
  return V == "verified" || V == "rejected" || V == "build-failed" ||
         V == "run-failed" || V == "invalid";
}

const char *const StrategyNames[] = {
    "agent", "bayes", "random", "anneal", "genetic", "exhaustive", nullptr};

std::string KernelFeatures::signature() const {
  return formatv("kernels={0};reduction={1};loops={2};streaming={3};reused={4}",
                 Kernels, HasReductionLoop, HasLoops, Streaming,
                 std::min(ReusedLoads, 4u))
      .str();
}

void StrategyBase::tell(ArrayRef<Trial> Results) {
  for (const Trial &T : Results) {
    // Build and run failures passed the constraints: for the validity
    // model they are valid points.
    Validity.observe(T.P, T.Verdict != "invalid");
    if (T.Verdict == "invalid") {
      Proposed.insert(T.P); // never again
      continue;
    }
    auto [It, New] = Told.insert_or_assign(T.P, T);
    Proposed.insert(T.P);
    if (New)
      Order.push_back(T.P);
    if (T.ok()) {
      WorstLog = std::max(WorstLog, std::log(*T.Time));
      if (!Best || *T.Time < *Best->Time)
        Best = &It->second;
    }
    observe(It->second);
  }
}

bool StrategyBase::fresh(const Point &P) const {
  return !Proposed.count(P) && !Told.count(P) && Space.plausible(P);
}

bool StrategyBase::promising(const Point &P) const {
  return fresh(P) && (Space.validSet() || !Validity.likelyInvalid(P));
}

Proposal StrategyBase::propose(Point P, std::string Why, std::string Move) {
  Proposed.insert(P);
  return Proposal{std::move(P), std::move(Why), std::move(Move)};
}

/// The largest product randomFresh lists when sampling fails.
static constexpr uint64_t EnumerationLimit = 1u << 20;

std::optional<Point> StrategyBase::randomFresh(std::mt19937_64 &G,
                                               unsigned Tries) {
  if (Enumerated)
    return nextEnumerated();
  const ValidSet *V = Space.validSet();
  if (V && V->empty())
    return std::nullopt;
  std::optional<Point> Doubtful;
  for (unsigned I = 0; I < Tries; ++I) {
    Point P = V ? V->sample(G) : Space.randomPoint(G);
    if (promising(P))
      return P;
    if (!Doubtful && fresh(P))
      Doubtful = std::move(P);
  }
  // Sampling keeps hitting used or doubtful points: the rest is listed
  // (or the space is exhausted). A product too large to list gets the
  // doubtful point: it may be valid after all.
  if (!V && Space.size() > EnumerationLimit)
    return Doubtful;
  if (V && V->size() <= UINT32_MAX) {
    RemainingValid.resize(V->size());
    for (size_t I = 0; I < V->size(); ++I)
      RemainingValid[I] = uint32_t(I);
    std::shuffle(RemainingValid.begin(), RemainingValid.end(), G);
  } else {
    Remaining = Space.enumerate(EnumerationLimit);
    std::shuffle(Remaining.begin(), Remaining.end(), G);
  }
  Enumerated = true;
  return nextEnumerated();
}

std::optional<Point> StrategyBase::nextEnumerated() {
  if (const ValidSet *V = Space.validSet(); V && !RemainingValid.empty()) {
    while (!RemainingValid.empty()) {
      Point P = V->at(RemainingValid.back());
      RemainingValid.pop_back();
      if (fresh(P))
        return P;
    }
    return std::nullopt;
  }
  while (!Remaining.empty()) {
    Point P = std::move(Remaining.back());
    Remaining.pop_back();
    if (!fresh(P))
      continue;
    if (promising(P))
      return P;
    Deferred.push_back(std::move(P));
  }
  // Only doubtful points are left: they may be valid after all.
  while (!Deferred.empty()) {
    Point P = std::move(Deferred.back());
    Deferred.pop_back();
    if (fresh(P))
      return P;
  }
  return std::nullopt;
}

std::vector<Point> StrategyBase::candidatePool() {
  const ValidSet *V = Space.validSet();
  std::set<Point> Pool;
  if (V && V->size() <= 4096) {
    for (size_t I = 0; I < V->size(); ++I)
      if (Point P = V->at(I); fresh(P))
        Pool.insert(std::move(P));
  } else if (!V && Space.size() <= 4096) {
    for (Point &P : Space.enumerate())
      if (fresh(P))
        Pool.insert(std::move(P));
  } else {
    for (unsigned I = 0; I < 4000 && Pool.size() < 1500; ++I) {
      Point P = V ? V->sample(Rng) : Space.randomPoint(Rng);
      if (fresh(P))
        Pool.insert(std::move(P));
    }
    std::vector<const Trial *> R = ranked();
    for (size_t I = 0; I < R.size() && I < 5; ++I)
      for (Point &Q : Space.neighbours(R[I]->P))
        if (fresh(Q))
          Pool.insert(std::move(Q));
  }
  std::vector<Point> Likely, Doubtful;
  for (const Point &P : Pool)
    (promising(P) ? Likely : Doubtful).push_back(P);
  return Likely.empty() ? Doubtful : Likely;
}

std::optional<StrategyBase::ModelChoice>
StrategyBase::mostPromising(const RandomForest &Model,
                            const std::vector<Point> &Candidates,
                            double BestY) const {
  std::optional<ModelChoice> Choice;
  double ChoiceEI = -1;
  for (const Point &C : Candidates) {
    RandomForest::Prediction Pr = Model.predict(Space.features(C));
    double EI = expectedImprovement(Pr, BestY);
    if (EI > ChoiceEI) {
      ChoiceEI = EI;
      Choice = ModelChoice{C, Pr};
    }
  }
  return Choice;
}

std::vector<const Trial *> StrategyBase::ranked() const {
  std::vector<const Trial *> R;
  for (const auto &[P, T] : Told)
    if (T.ok())
      R.push_back(&T);
  std::stable_sort(R.begin(), R.end(), [](const Trial *A, const Trial *B) {
    return *A->Time < *B->Time;
  });
  return R;
}

double StrategyBase::cost(const Trial &T) const {
  if (T.ok())
    return std::log(*T.Time);
  // A failed variant is treated as clearly worse than anything measured,
  // so models steer away from its neighbourhood without a hard wall.
  return WorstLog + std::log(2.0);
}

Expected<std::unique_ptr<SearchStrategy>>
makeStrategy(StringRef Name, const StrategyContext &Ctx) {
  if (Name.starts_with("external:"))
    return makeExternalStrategy(Name.drop_front(strlen("external:")), Ctx);
  if (Name == "exhaustive")
    return makeExhaustiveStrategy(Ctx);
  if (Name == "random")
    return makeRandomStrategy(Ctx);
  if (Name == "anneal")
    return makeAnnealStrategy(Ctx);
  if (Name == "genetic")
    return makeGeneticStrategy(Ctx);
  if (Name == "bayes")
    return makeBayesStrategy(Ctx);
  if (Name == "agent")
    return makeAgentStrategy(Ctx);
  return makeToolError(ExitCode::Usage,
                       "unknown strategy '" + Name.str() +
                           "' (agent, bayes, random, anneal, genetic, "
                           "exhaustive, or external:CMD)");
}

} // namespace cro
