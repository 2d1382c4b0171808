//===- Genetic.cpp - a steady-state genetic algorithm ---------------------===//
//
// Parents are drawn by tournament (two random members of the evaluated
// population, the faster wins), combined by uniform crossover and mutated
// (each knob re-drawn with probability 1/knobs). The first generation is
// random. Failed variants stay in the population as the least fit.
//
//===----------------------------------------------------------------------===//
#include "cro/Search/Strategies.h"

using namespace llvm;

namespace cro {

namespace {

class Genetic : public StrategyBase {
public:
  using StrategyBase::StrategyBase;
  StringRef name() const override { return "genetic"; }

  std::vector<Proposal> ask(unsigned N) override {
    std::vector<Proposal> Out;
    const unsigned InitialPopulation = 12;
    while (Out.size() < N) {
      if (Order.size() + Out.size() < InitialPopulation || Order.size() < 2) {
        std::optional<Point> P = randomFresh();
        if (!P)
          break;
        Out.push_back(propose(std::move(*P), "initial population (random)"));
        continue;
      }
      std::optional<Point> Child;
      for (unsigned Try = 0; Try < 50 && !Child; ++Try) {
        const Point &A = tournament(), &B = tournament();
        Point C = A;
        std::bernoulli_distribution Coin(0.5);
        for (size_t I = 0; I < C.size(); ++I)
          if (Coin(Rng))
            C[I] = B[I];
        const auto &Dims = Space.dimensions();
        std::bernoulli_distribution Mutate(1.0 / std::max<size_t>(1, C.size()));
        for (size_t I = 0; I < C.size(); ++I)
          if (Mutate(Rng))
            C[I] = std::uniform_int_distribution<unsigned>(
                0, unsigned(Dims[I].Values.size()) - 1)(Rng);
        if (promising(C))
          Child = std::move(C);
      }
      if (!Child) {
        Child = randomFresh();
        if (!Child)
          break;
        Out.push_back(
            propose(std::move(*Child),
                    "random immigrant (crossover found nothing new)"));
        continue;
      }
      Out.push_back(
          propose(std::move(*Child), "crossover of two tournament winners"));
    }
    return Out;
  }

private:
  const Point &tournament() {
    // The population is everything evaluated; the last 32 results and the
    // best 8 compete, so the search keeps both recency and elitism.
    std::vector<const Point *> Pool;
    for (size_t I = Order.size() > 32 ? Order.size() - 32 : 0; I < Order.size();
         ++I)
      Pool.push_back(&Order[I]);
    std::vector<const Trial *> R = ranked();
    for (size_t I = 0; I < R.size() && I < 8; ++I)
      Pool.push_back(&R[I]->P);
    std::uniform_int_distribution<size_t> Pick(0, Pool.size() - 1);
    const Point *A = Pool[Pick(Rng)], *B = Pool[Pick(Rng)];
    return cost(Told.at(*A)) <= cost(Told.at(*B)) ? *A : *B;
  }
};

} // namespace

std::unique_ptr<SearchStrategy>
makeGeneticStrategy(const StrategyContext &Ctx) {
  return std::make_unique<Genetic>(Ctx);
}

} // namespace cro
