//===- Bayes.cpp - Bayesian optimization with a random-forest surrogate ---===//
//
// After a random initial design, every proposal maximizes expected
// improvement (over the best log time) under a random forest fitted to all
// results so far (SMAC's recipe, for discrete and categorical knobs).
// Candidates: every fresh point when the space has at most a few thousand,
// else a random sample plus the neighbours of the best points. The forest is
// fitted and the candidates drawn once per new result, not per proposal, so
// a proposal costs the same in a space of 1,000 or 1,000,000 points. A
// chosen point is told to the forest as its predicted mean ("kriging
// believer", added to the fitted trees' leaves) so a batch spreads out.
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
    bool JustDrawn = false;
    while (Out.size() < N) {
      if (Order.size() + Out.size() < InitialDesign) {
        std::optional<Point> P = randomFresh();
        if (!P)
          break;
        Out.push_back(propose(std::move(*P), "initial design (random)"));
        continue;
      }
      if (Stale)
        refit();
      std::optional<size_t> Pick;
      RandomForest::Prediction ChoicePred;
      double ChoiceEI = -1;
      // The best candidate the refusals do not doubt, else the best one.
      for (bool Doubted : {false, true}) {
        for (size_t I = 0; I < Pool.size(); ++I) {
          if (Doubted ? !fresh(Pool[I]) : !promising(Pool[I]))
            continue;
          RandomForest::Prediction Pr = Model.predict(PoolX[I]);
          double EI = expectedImprovement(Pr, BestY);
          if (EI > ChoiceEI) {
            ChoiceEI = EI;
            Pick = I;
            ChoicePred = Pr;
          }
        }
        if (Pick)
          break;
      }
      if (!Pick && !JustDrawn) {
        // Every candidate was proposed (refused ones are asked for again):
        // a new draw.
        drawPool();
        JustDrawn = true;
        continue;
      }
      if (!Pick) {
        // A new draw found nothing fresh: sampling misses what is left,
        // which randomFresh lists.
        std::optional<Point> P = randomFresh();
        if (!P)
          break;
        Out.push_back(propose(std::move(*P), "a random point: the model's "
                                             "candidates are all used"));
        continue;
      }
      JustDrawn = false;
      Model.addObservation(PoolX[*Pick], ChoicePred.Mean);
      Out.push_back(
          propose(Pool[*Pick],
                  formatv("highest expected improvement: predicted {0:f4} ms "
                          "(+-{1:f0}%)",
                          std::exp(ChoicePred.Mean),
                          100 * (std::exp(ChoicePred.Std) - 1))
                      .str()));
    }
    return Out;
  }

protected:
  void observe(const Trial &) override { Stale = true; }

private:
  /// Fits the forest to every result told and draws new candidates.
  void refit() {
    std::vector<std::vector<double>> X;
    std::vector<double> Y;
    for (const Point &P : Order) {
      X.push_back(Space.features(P));
      Y.push_back(cost(Told.at(P)));
    }
    Model = RandomForest();
    Model.fit(X, Y, Rng);
    BestY = *std::min_element(Y.begin(), Y.end());
    drawPool();
    Stale = false;
  }
  void drawPool() {
    Pool = candidatePool();
    PoolX.clear();
    for (const Point &C : Pool)
      PoolX.push_back(Space.features(C));
  }

  // Kept from one ask to the next until a result is told: refused
  // proposals are asked for again, and need neither a new fit nor new
  // candidates.
  RandomForest Model;
  double BestY = 0;
  std::vector<Point> Pool;
  std::vector<std::vector<double>> PoolX;
  bool Stale = true;
};

} // namespace

std::unique_ptr<SearchStrategy> makeBayesStrategy(const StrategyContext &Ctx) {
  return std::make_unique<Bayes>(Ctx);
}

} // namespace cro
