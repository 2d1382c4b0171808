#include "cro/Search/RandomForest.h"
#include "llvm/ADT/ArrayRef.h"
#include <algorithm>
#include <cmath>
#include <numeric>

namespace cro {

void RandomForest::fit(const std::vector<std::vector<double>> &X,
                       const std::vector<double> &Y, std::mt19937_64 &Rng) {
  Trees.clear();
  if (X.empty())
    return;
  // Knob features take few distinct values, so each column is binned once
  // (its sorted distinct values) and a node finds its best split from bin
  // sums in O(rows + bins) per feature instead of sorting its rows.
  Binned B;
  size_t F = X.front().size();
  B.Values.resize(F);
  B.Bin.resize(F);
  for (size_t Feat = 0; Feat < F; ++Feat) {
    std::vector<double> &V = B.Values[Feat];
    for (const std::vector<double> &Row : X)
      V.push_back(Row[Feat]);
    std::sort(V.begin(), V.end());
    V.erase(std::unique(V.begin(), V.end()), V.end());
    B.Bin[Feat].reserve(X.size());
    for (const std::vector<double> &Row : X)
      B.Bin[Feat].push_back(unsigned(
          std::lower_bound(V.begin(), V.end(), Row[Feat]) - V.begin()));
  }
  std::uniform_int_distribution<unsigned> Pick(0, unsigned(X.size()) - 1);
  std::vector<unsigned> Rows(X.size());
  for (unsigned T = 0; T < Opts.Trees; ++T) {
    for (unsigned &R : Rows)
      R = Pick(Rng);
    Tree Tr;
    grow(Tr, B, Y, Rows.data(), Rows.data() + Rows.size(), 0, Rng);
    Trees.push_back(std::move(Tr));
  }
}

int RandomForest::grow(Tree &T, Binned &B, const std::vector<double> &Y,
                       unsigned *Begin, unsigned *End, unsigned Depth,
                       std::mt19937_64 &Rng) {
  int Id = int(T.size());
  T.emplace_back();
  llvm::ArrayRef<unsigned> Rows(Begin, End);
  double Sum = 0;
  for (unsigned R : Rows)
    Sum += Y[R];
  T[Id].Value = Sum / Rows.size();
  T[Id].Count = Rows.size();
  if (Rows.size() < 2 * Opts.MinLeaf || Depth >= Opts.MaxDepth)
    return Id;

  size_t F = B.Values.size();
  std::vector<unsigned> &Features = B.Features;
  Features.resize(F);
  std::iota(Features.begin(), Features.end(), 0);
  std::shuffle(Features.begin(), Features.end(), Rng);
  Features.resize(std::max<size_t>(1, (F + 2) / 3));

  double BestScore = 0;
  int BestFeature = -1;
  double BestThreshold = 0;
  std::vector<Binned::Sums> &Bins = B.Scratch;
  double Total = 0, TotalSq = 0;
  for (unsigned R : Rows) {
    Total += Y[R];
    TotalSq += Y[R] * Y[R];
  }
  double N = Rows.size();
  // Sum of squared deviations removed by a split, from prefix sums.
  double Base = TotalSq - Total * Total / N;
  for (unsigned Feat : Features) {
    const std::vector<unsigned> &Bin = B.Bin[Feat];
    const std::vector<double> &Values = B.Values[Feat];
    Bins.assign(Values.size(), Binned::Sums());
    for (unsigned R : Rows) {
      Binned::Sums &S = Bins[Bin[R]];
      S.N += 1;
      S.Sum += Y[R];
      S.Sq += Y[R] * Y[R];
    }
    double NL = 0, LeftSum = 0, LeftSq = 0;
    int Prev = -1; // the last non-empty bin
    for (size_t I = 0; I < Bins.size(); ++I) {
      if (Bins[I].N == 0)
        continue;
      if (Prev >= 0) {
        // A split between bin Prev and bin I: Prev and below go left.
        double NR = N - NL;
        if (NL >= Opts.MinLeaf && NR >= Opts.MinLeaf) {
          double RightSum = Total - LeftSum, RightSq = TotalSq - LeftSq;
          double SSE = (LeftSq - LeftSum * LeftSum / NL) +
                       (RightSq - RightSum * RightSum / NR);
          double Gain = Base - SSE;
          if (Gain > BestScore + 1e-12) {
            BestScore = Gain;
            BestFeature = int(Feat);
            BestThreshold = (Values[Prev] + Values[I]) / 2;
          }
        }
      }
      NL += Bins[I].N;
      LeftSum += Bins[I].Sum;
      LeftSq += Bins[I].Sq;
      Prev = int(I);
    }
  }
  if (BestFeature < 0)
    return Id;
  const std::vector<unsigned> &Bin = B.Bin[BestFeature];
  const std::vector<double> &Values = B.Values[BestFeature];
  // In place: rows that go left first.
  unsigned *Mid = std::partition(Begin, End, [&](unsigned Row) {
    return Values[Bin[Row]] <= BestThreshold;
  });
  T[Id].Feature = BestFeature;
  T[Id].Threshold = BestThreshold;
  int LeftId = grow(T, B, Y, Begin, Mid, Depth + 1, Rng);
  int RightId = grow(T, B, Y, Mid, End, Depth + 1, Rng);
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

void RandomForest::addObservation(const std::vector<double> &X, double Y) {
  for (Tree &T : Trees) {
    int N = 0;
    while (T[N].Feature >= 0)
      N = X[T[N].Feature] <= T[N].Threshold ? T[N].Left : T[N].Right;
    T[N].Value = (T[N].Value * T[N].Count + Y) / (T[N].Count + 1);
    T[N].Count += 1;
  }
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
