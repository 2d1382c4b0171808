//===- RandomForest.h - the surrogate model of the model-based strategies -===//
//
// A small regression forest: bootstrap samples, random feature subsets per
// split, variance-reduction splits at midpoints. Trees handle the space's
// mix of ordinal and categorical knobs without a kernel function, and the
// spread of the trees' predictions is the uncertainty that expected
// improvement needs. Deterministic for a given generator state.
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

  struct Prediction {
    double Mean = 0, Std = 0;
  };
  Prediction predict(const std::vector<double> &X) const;

private:
  struct Node {
    int Feature = -1; ///< -1 = leaf
    double Threshold = 0, Value = 0;
    int Left = -1, Right = -1;
  };
  using Tree = std::vector<Node>;
  int grow(Tree &T, const std::vector<std::vector<double>> &X,
           const std::vector<double> &Y, std::vector<unsigned> &Rows,
           unsigned Depth, std::mt19937_64 &Rng);
  Options Opts;
  std::vector<Tree> Trees;
};

/// Expected improvement below Best (minimizing) of a prediction.
double expectedImprovement(const RandomForest::Prediction &P, double Best);

} // namespace cro

#endif
