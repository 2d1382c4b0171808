//===- Anneal.cpp - simulated annealing over one-knob moves ---------------===//
//
// A walk that moves to a neighbour (one knob changed: to the next or
// previous value, or, for knobs with few values, to any value) and accepts a
// worse one with probability exp(-(log t' - log t) / T). The temperature
// falls linearly with the budget spent; with no fresh neighbour left, or
// after a run of rejections, the walk restarts from the best point or a
// random one.
//
//===----------------------------------------------------------------------===//
#include "cro/Search/Strategies.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace llvm;

namespace cro {

namespace {

class Anneal : public StrategyBase {
public:
  using StrategyBase::StrategyBase;
  StringRef name() const override { return "anneal"; }

  std::vector<Proposal> ask(unsigned N) override {
    std::vector<Proposal> Out;
    if (!Current) {
      // Start from the first result told (the original), else at random.
      if (!Order.empty())
        Current = Order.front();
    }
    while (Out.size() < N) {
      std::optional<Point> Next;
      if (Current) {
        std::vector<Point> Ns = Space.neighbours(*Current);
        std::shuffle(Ns.begin(), Ns.end(), Rng);
        // A neighbour the refusals so far do not doubt, else any.
        for (Point &Q : Ns)
          if (promising(Q)) {
            Next = std::move(Q);
            break;
          }
        for (size_t I = 0; I < Ns.size() && !Next; ++I)
          if (fresh(Ns[I]))
            Next = std::move(Ns[I]);
      }
      if (!Next) {
        // A dead end: restart from the best, else anywhere.
        if (Best && Current != Best->P) {
          Current = Best->P;
          continue;
        }
        Next = randomFresh();
        if (!Next)
          break;
        Out.push_back(propose(std::move(*Next), "restart at a random point"));
        continue;
      }
      Out.push_back(
          propose(std::move(*Next),
                  formatv("neighbour of the current point (temperature {0:f2})",
                          temperature())
                      .str()));
    }
    return Out;
  }

protected:
  void observe(const Trial &T) override {
    ++Seen;
    if (!Current) {
      Current = T.P;
      return;
    }
    auto It = Told.find(*Current);
    double Here = It == Told.end() ? WorstLog : cost(It->second);
    double There = cost(T);
    std::uniform_real_distribution<double> U(0, 1);
    if (There <= Here || U(Rng) < std::exp(-(There - Here) / temperature()))
      Current = T.P;
  }

private:
  double temperature() const {
    // log-time differences: 0.3 accepts a variant 35% slower about a third
    // of the time at the start; near zero at the end of the budget.
    double Budget = Ctx.Budget ? Ctx.Budget : 100;
    double Left = std::max(0.02, 1.0 - Seen / Budget);
    return 0.3 * Left;
  }
  std::optional<Point> Current;
  unsigned Seen = 0;
};

} // namespace

std::unique_ptr<SearchStrategy> makeAnnealStrategy(const StrategyContext &Ctx) {
  return std::make_unique<Anneal>(Ctx);
}

} // namespace cro
