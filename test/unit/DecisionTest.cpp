// The rule that decides whether the main command writes a variant: faster
// by at least --min-gain with confidence, on simulated timings of known
// effect and noise (many seeds, so the rates are what is tested).
#include "cro/Measure/Decision.h"
#include "gtest/gtest.h"
#include <random>
#include <vector>

using namespace cro;

namespace {

/// Runs of a program whose true time is Ms, each off by a normal relative
/// noise of sd Noise, and now and then (one run in Outliers) 30% slow: a
/// neighbour on the machine.
std::vector<double> runs(std::mt19937_64 &R, double Ms, double Noise,
                         unsigned N, unsigned Outliers = 0) {
  std::normal_distribution<double> G(0, Noise);
  std::vector<double> Out;
  for (unsigned I = 0; I < N; ++I) {
    double T = Ms * (1 + G(R));
    if (Outliers && R() % Outliers == 0)
      T *= 1.3;
    Out.push_back(T);
  }
  return Out;
}

/// The share of 400 simulated confirmations that write the variant.
double writeRate(double Speedup, double Noise, unsigned Runs,
                 unsigned Outliers = 0, GainRule Rule = GainRule()) {
  std::mt19937_64 R(2026);
  unsigned Written = 0;
  const unsigned Trials = 400;
  for (unsigned T = 0; T < Trials; ++T) {
    std::vector<double> O = runs(R, 10.0, Noise, Runs, Outliers);
    std::vector<double> V = runs(R, 10.0 / Speedup, Noise, Runs, Outliers);
    Written += decideGain(O, V, Rule).Faster;
  }
  return double(Written) / Trials;
}

} // namespace

TEST(Decision, MannWhitneyDistributionIsExact) {
  // 5 against 5: 252 arrangements; 1, 1, 2, 3, 5 of them have U = 0..4.
  EXPECT_NEAR(mannWhitneyCdf(5, 5, 0), 1.0 / 252, 1e-12);
  EXPECT_NEAR(mannWhitneyCdf(5, 5, 4), 12.0 / 252, 1e-12);
  EXPECT_NEAR(mannWhitneyCdf(5, 5, 12), 0.5, 1e-12); // symmetric, 25 / 2
  EXPECT_EQ(mannWhitneyCdf(3, 4, -1), 0.0);
  EXPECT_EQ(mannWhitneyCdf(3, 4, 12), 1.0);
  // 1 against m: U is uniform on 0..m.
  EXPECT_NEAR(mannWhitneyCdf(1, 9, 2), 3.0 / 10, 1e-12);
}

TEST(Decision, NoEffectIsNeverWritten) {
  EXPECT_EQ(writeRate(1.0, 0.01, 5), 0.0);
  // 5% noise: the bound reaches 1.02 by chance less than 1% of the time.
  EXPECT_LE(writeRate(1.0, 0.05, 5), 0.01);
  GainRule Any;
  Any.MinGain = 0; // "any gain at all": wrong at most 5% of the time
  EXPECT_LE(writeRate(1.0, 0.01, 5, 0, Any), 0.05);
}

TEST(Decision, EffectsBelowTheMinimumGainAreNotWritten) {
  // The case: 0.2-1.5% gains written as "faster in every run".
  EXPECT_EQ(writeRate(1.005, 0.002, 5), 0.0);
  EXPECT_LE(writeRate(1.01, 0.003, 5), 0.01);
}

TEST(Decision, ClearEffectsAreWritten) {
  EXPECT_GE(writeRate(1.05, 0.005, 5), 0.99);
  EXPECT_GE(writeRate(1.05, 0.01, 5), 0.90);
  EXPECT_EQ(writeRate(2.0, 0.02, 5), 1.0);
  // An outlier run now and then does not stop a large effect.
  EXPECT_GE(writeRate(1.5, 0.01, 5, 10), 0.95);
}

TEST(Decision, HeavyNoiseNeedsALargerEffect) {
  // 10% noise: a 5% effect is rarely told apart in 5 runs (and never a
  // no-effect written more often than the confidence allows).
  EXPECT_LE(writeRate(1.05, 0.10, 5), 0.15);
  EXPECT_LE(writeRate(1.0, 0.10, 5), 0.05);
  // More runs narrow the bound.
  EXPECT_GT(writeRate(1.15, 0.05, 15), writeRate(1.15, 0.05, 5));
}

TEST(Decision, SaysWhyAndRefusesTooFewRuns) {
  std::vector<double> O = {10, 10.1, 9.9}, V = {5, 5.1, 4.9};
  GainDecision D = decideGain(O, V, GainRule());
  EXPECT_FALSE(D.Faster);
  EXPECT_FALSE(D.LowerBound);
  EXPECT_NE(D.Why.find("fewer than the 5"), std::string::npos) << D.Why;

  std::vector<double> O5 = {10, 10.2, 9.9, 10.1, 10},
                      V5 = {5, 5.1, 4.9, 5, 5.05};
  D = decideGain(O5, V5, GainRule());
  EXPECT_TRUE(D.Faster);
  ASSERT_TRUE(D.LowerBound);
  // The 5th smallest of the 25 ratios: below every median ratio.
  EXPECT_LT(*D.LowerBound, D.Ratio);
  EXPECT_GT(*D.LowerBound, 1.9);
  EXPECT_GE(D.Confidence, 0.95);
  EXPECT_NE(D.Why.find("Mann-Whitney"), std::string::npos) << D.Why;
}
