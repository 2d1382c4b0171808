#include "cro/Measure/Statistics.h"
#include <algorithm>
#include <random>

namespace cro {

namespace {
double quantile(const std::vector<double> &Sorted, double Q) {
  if (Sorted.empty())
    return 0;
  double Pos = Q * (Sorted.size() - 1);
  size_t I = size_t(Pos);
  double F = Pos - I;
  return I + 1 < Sorted.size() ? Sorted[I] * (1 - F) + Sorted[I + 1] * F
                               : Sorted[I];
}
} // namespace

Summary summarize(std::vector<double> S) {
  Summary R;
  R.N = S.size();
  if (S.empty())
    return R;
  std::sort(S.begin(), S.end());
  R.Min = S.front();
  R.Max = S.back();
  R.Median = quantile(S, 0.5);
  R.P25 = quantile(S, 0.25);
  R.P75 = quantile(S, 0.75);
  return R;
}

Interval bootstrapMedianInterval(const std::vector<double> &Samples,
                                 unsigned Resamples, uint64_t Seed) {
  Interval I;
  if (Samples.empty())
    return I;
  std::mt19937_64 Rng(Seed);
  std::uniform_int_distribution<size_t> Pick(0, Samples.size() - 1);
  std::vector<double> Medians, Draw(Samples.size());
  Medians.reserve(Resamples);
  for (unsigned R = 0; R < Resamples; ++R) {
    for (double &X : Draw)
      X = Samples[Pick(Rng)];
    std::sort(Draw.begin(), Draw.end());
    Medians.push_back(quantile(Draw, 0.5));
  }
  std::sort(Medians.begin(), Medians.end());
  I.Low = quantile(Medians, 0.025);
  I.High = quantile(Medians, 0.975);
  return I;
}

bool fasterBeyondNoise(const std::vector<double> &A,
                       const std::vector<double> &B) {
  if (A.size() < 3 || B.size() < 3)
    return false;
  return bootstrapMedianInterval(A).High < bootstrapMedianInterval(B).Low;
}

} // namespace cro
