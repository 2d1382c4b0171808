//===- RandomForest.h - the surrogate model of the model-based strategies -===//
//
// A small regression forest: bootstrap samples, random feature subsets per
// split, variance-reduction splits at midpoints between the distinct values
// of a feature (found from per-value sums: fitting is linear in the rows).
// Trees handle the space's mix of ordinal and categorical knobs without a
// kernel function, and the spread of the trees' predictions is the uncertainty
// that expected improvement needs. Deterministic for a given generator state.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SEARCH_RANDOMFOREST_H
#define CRO_SEARCH_RANDOMFOREST_H

#include <random>
#include <vector>

namespace cro {

class RandomForest {
public:
  struct Options {
    unsigned Trees = 32;
    unsigned MinLeaf = 2;
    unsigned MaxDepth = 12;
  };
  RandomForest() = default;
  explicit RandomForest(Options O) : Opts(O) {}

  /// Fits X (rows of features) to Y.
  void fit(const std::vector<std::vector<double>> &X,
           const std::vector<double> &Y, std::mt19937_64 &Rng);
  bool trained() const { return !Trees.empty(); }
  /// Adds one observation without refitting: each tree's leaf that X falls
  /// in takes Y into its mean, as if X had been in the tree's sample once.
  /// Cheap (one descent a tree); the splits stay those of the last fit.
  void addObservation(const std::vector<double> &X, double Y);

  struct Prediction {
    double Mean = 0, Std = 0;
  };
  Prediction predict(const std::vector<double> &X) const;

private:
  struct Node {
    int Feature = -1; ///< -1 = leaf
    double Threshold = 0, Value = 0;
    double Count = 0; ///< rows of the sample in a leaf
    int Left = -1, Right = -1;
  };
  using Tree = std::vector<Node>;
  /// The training features, binned: per feature, its sorted distinct
  /// values and each row's index among them; and the buffers every node
  /// reuses.
  struct Binned {
    std::vector<std::vector<double>> Values;
    std::vector<std::vector<unsigned>> Bin;
    struct Sums {
      double N = 0, Sum = 0, Sq = 0;
    };
    std::vector<Sums> Scratch;
    std::vector<unsigned> Features;
  };
  /// Grows a node over the bootstrap rows [Begin, End), which it reorders.
  int grow(Tree &T, Binned &B, const std::vector<double> &Y, unsigned *Begin,
           unsigned *End, unsigned Depth, std::mt19937_64 &Rng);
  Options Opts;
  std::vector<Tree> Trees;
};

/// Expected improvement below Best (minimizing) of a prediction.
double expectedImprovement(const RandomForest::Prediction &P, double Best);

} // namespace cro

#endif
