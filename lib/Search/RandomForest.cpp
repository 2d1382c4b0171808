#include "cro/Search/RandomForest.h"
#include <algorithm>
#include <cmath>
#include <numeric>

namespace cro {

void RandomForest::fit(const std::vector<std::vector<double>> &X,
                       const std::vector<double> &Y, std::mt19937_64 &Rng) {
  Trees.clear();
  if (X.empty())
    return;
  std::uniform_int_distribution<unsigned> Pick(0, unsigned(X.size()) - 1);
  for (unsigned T = 0; T < Opts.Trees; ++T) {
    std::vector<unsigned> Rows(X.size());
    for (unsigned &R : Rows)
      R = Pick(Rng);
    Tree Tr;
    grow(Tr, X, Y, Rows, 0, Rng);
    Trees.push_back(std::move(Tr));
  }
}

int RandomForest::grow(Tree &T, const std::vector<std::vector<double>> &X,
                       const std::vector<double> &Y,
                       std::vector<unsigned> &Rows, unsigned Depth,
                       std::mt19937_64 &Rng) {
  int Id = int(T.size());
  T.emplace_back();
  double Sum = 0;
  for (unsigned R : Rows)
    Sum += Y[R];
  T[Id].Value = Sum / Rows.size();
  if (Rows.size() < 2 * Opts.MinLeaf || Depth >= Opts.MaxDepth)
    return Id;

  size_t F = X.front().size();
  std::vector<unsigned> Features(F);
  std::iota(Features.begin(), Features.end(), 0);
  std::shuffle(Features.begin(), Features.end(), Rng);
  Features.resize(std::max<size_t>(1, (F + 2) / 3));

  double BestScore = 0;
  int BestFeature = -1;
  double BestThreshold = 0;
  std::vector<std::pair<double, double>> Sorted;
  for (unsigned Feat : Features) {
    Sorted.clear();
    for (unsigned R : Rows)
      Sorted.push_back({X[R][Feat], Y[R]});
    std::sort(Sorted.begin(), Sorted.end());
    // Sum of squared deviations removed by the split, from prefix sums.
    double Total = 0, TotalSq = 0;
    for (auto &[V, Yv] : Sorted) {
      Total += Yv;
      TotalSq += Yv * Yv;
    }
    double N = Sorted.size();
    double Base = TotalSq - Total * Total / N;
    double LeftSum = 0, LeftSq = 0;
    for (size_t I = 0; I + 1 < Sorted.size(); ++I) {
      LeftSum += Sorted[I].second;
      LeftSq += Sorted[I].second * Sorted[I].second;
      if (Sorted[I].first == Sorted[I + 1].first)
        continue;
      double NL = I + 1, NR = N - NL;
      if (NL < Opts.MinLeaf || NR < Opts.MinLeaf)
        continue;
      double RightSum = Total - LeftSum, RightSq = TotalSq - LeftSq;
      double SSE = (LeftSq - LeftSum * LeftSum / NL) +
                   (RightSq - RightSum * RightSum / NR);
      double Gain = Base - SSE;
      if (Gain > BestScore + 1e-12) {
        BestScore = Gain;
        BestFeature = int(Feat);
        BestThreshold = (Sorted[I].first + Sorted[I + 1].first) / 2;
      }
    }
  }
  if (BestFeature < 0)
    return Id;
  std::vector<unsigned> L, R;
  for (unsigned Row : Rows)
    (X[Row][BestFeature] <= BestThreshold ? L : R).push_back(Row);
  T[Id].Feature = BestFeature;
  T[Id].Threshold = BestThreshold;
  int LeftId = grow(T, X, Y, L, Depth + 1, Rng);
  int RightId = grow(T, X, Y, R, Depth + 1, Rng);
  T[Id].Left = LeftId;
  T[Id].Right = RightId;
  return Id;
}

RandomForest::Prediction
RandomForest::predict(const std::vector<double> &X) const {
  Prediction P;
  if (Trees.empty())
    return P;
  double Sum = 0, Sq = 0;
  for (const Tree &T : Trees) {
    int N = 0;
    while (T[N].Feature >= 0)
      N = X[T[N].Feature] <= T[N].Threshold ? T[N].Left : T[N].Right;
    Sum += T[N].Value;
    Sq += T[N].Value * T[N].Value;
  }
  P.Mean = Sum / Trees.size();
  P.Std = std::sqrt(std::max(0.0, Sq / Trees.size() - P.Mean * P.Mean));
  return P;
}

double expectedImprovement(const RandomForest::Prediction &P, double Best) {
  // A floor on the spread keeps points the trees agree on from scoring
  // zero, which would make ties of the whole candidate pool.
  double S = std::max(P.Std, 1e-3);
  double Z = (Best - P.Mean) / S;
  double Pdf = std::exp(-0.5 * Z * Z) / std::sqrt(2 * M_PI);
  double Cdf = 0.5 * std::erfc(-Z / std::sqrt(2.0));
  return (Best - P.Mean) * Cdf + S * Pdf;
}

} // namespace cro
