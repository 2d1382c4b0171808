//===- RandomSearch.cpp - uniform random points, without replacement -----===//
//
// The baseline every other strategy is compared with (bench/search-
// efficiency.py): each valid point is equally likely and none comes twice.
//
//===----------------------------------------------------------------------===//
#include "cro/Search/Strategies.h"

using namespace llvm;

namespace cro {

namespace {

class RandomSearch : public StrategyBase {
public:
  using StrategyBase::StrategyBase;
  StringRef name() const override { return "random"; }
  std::vector<Proposal> ask(unsigned N) override {
    std::vector<Proposal> Out;
    while (Out.size() < N) {
      std::optional<Point> P = randomFresh();
      if (!P)
        break;
      Out.push_back(propose(std::move(*P), "uniformly random point"));
    }
    return Out;
  }
};

} // namespace

std::unique_ptr<SearchStrategy> makeRandomStrategy(const StrategyContext &Ctx) {
  return std::make_unique<RandomSearch>(Ctx);
}

} // namespace cro
