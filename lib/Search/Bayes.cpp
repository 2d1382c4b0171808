//===- Bayes.cpp - Bayesian optimization with a random-forest surrogate ---===//
//
// After a random initial design, every proposal maximizes expected
// improvement (over the best log time) under a random forest fitted to all
// results so far (SMAC's recipe, for discrete and categorical knobs).
// Candidates: every fresh point when the space has at most a few thousand,
// else a random sample plus the neighbours of the best points. Within one
// batch, a chosen point is told to the model as its predicted mean
// ("kriging believer") so the batch spreads out.
//
//===----------------------------------------------------------------------===//
#include "cro/Search/RandomForest.h"
#include "cro/Search/Strategies.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace llvm;

namespace cro {

namespace {

class Bayes : public StrategyBase {
public:
  using StrategyBase::StrategyBase;
  StringRef name() const override { return "bayes"; }

  std::vector<Proposal> ask(unsigned N) override {
    std::vector<Proposal> Out;
    const size_t InitialDesign = 6;
    std::vector<std::vector<double>> X;
    std::vector<double> Y;
    for (const Point &P : Order) {
      X.push_back(Space.features(P));
      Y.push_back(cost(Told.at(P)));
    }
    while (Out.size() < N) {
      if (X.size() < InitialDesign) {
        std::optional<Point> P = randomFresh();
        if (!P)
          break;
        Out.push_back(propose(std::move(*P), "initial design (random)"));
        continue;
      }
      RandomForest Model;
      Model.fit(X, Y, Rng);
      double BestY = *std::min_element(Y.begin(), Y.end());
      std::optional<ModelChoice> Pick =
          mostPromising(Model, candidatePool(), BestY);
      if (!Pick)
        break;
      const RandomForest::Prediction &ChoicePred = Pick->Predicted;
      X.push_back(Space.features(Pick->P));
      Y.push_back(ChoicePred.Mean);
      Out.push_back(propose(
          Pick->P, formatv("highest expected improvement: predicted {0:f4} ms "
                           "(+-{1:f0}%)",
                           std::exp(ChoicePred.Mean),
                           100 * (std::exp(ChoicePred.Std) - 1))
                       .str()));
    }
    return Out;
  }
};

} // namespace

std::unique_ptr<SearchStrategy> makeBayesStrategy(const StrategyContext &Ctx) {
  return std::make_unique<Bayes>(Ctx);
}

} // namespace cro
