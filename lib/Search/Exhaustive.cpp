//===- Exhaustive.cpp - every valid point, in enumeration order -----------===//
//
// For small spaces and for recording whole spaces (bench/spaces/). When the
// valid set is known it is walked in order, so every valid point is
// proposed exactly once and nothing else, whatever the batch. Otherwise the
// product is visited in mixed-radix order without listing it first (it
// starts at once on a large space); the search loop refuses the invalid
// points and keeps asking while the strategy has points left.
//
//===----------------------------------------------------------------------===//
#include "cro/Search/Strategies.h"

using namespace llvm;

namespace cro {

namespace {

class Exhaustive : public StrategyBase {
public:
  explicit Exhaustive(const StrategyContext &Ctx)
      : StrategyBase(Ctx), Next(Ctx.Space.dimensions().size(), 0) {}
  StringRef name() const override { return "exhaustive"; }

  std::vector<Proposal> ask(unsigned N) override {
    std::vector<Proposal> Out;
    if (const ValidSet *V = Space.validSet()) {
      for (; Out.size() < N && NextValid < V->size(); ++NextValid)
        if (Point P = V->at(NextValid); fresh(P))
          Out.push_back(
              propose(std::move(P), "next valid point in enumeration order"));
      return Out;
    }
    while (Out.size() < N && !Done) {
      Point P = Next;
      advance();
      if (fresh(P))
        Out.push_back(propose(std::move(P), "next point in enumeration order"));
    }
    return Out;
  }

private:
  void advance() {
    const auto &Dims = Space.dimensions();
    for (size_t I = Dims.size(); I-- > 0;) {
      if (++Next[I] < Dims[I].Values.size())
        return;
      Next[I] = 0;
    }
    Done = true; // wrapped around: every point was visited
  }
  Point Next;
  bool Done = false;
  size_t NextValid = 0; ///< index into the valid set, when it is known
};

} // namespace

std::unique_ptr<SearchStrategy>
makeExhaustiveStrategy(const StrategyContext &Ctx) {
  return std::make_unique<Exhaustive>(Ctx);
}

} // namespace cro
