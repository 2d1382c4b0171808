#include "cro/Measure/Decision.h"
#include "cro/Measure/Statistics.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <vector>

using namespace llvm;

namespace cro {

double mannWhitneyCdf(unsigned N, unsigned M, long U) {
  if (U < 0)
    return 0;
  const long Max = long(N) * M;
  if (U >= Max)
    return 1;
  // Count[n][u]: arrangements of n X's among the first m' Y's with statistic
  // u, built column by column (f(n, m, u) = f(n-1, m, u-m) + f(n, m-1, u)).
  // Doubles: C(200, 100) overflows integers, not doubles' range.
  std::vector<std::vector<double>> F(N + 1, std::vector<double>(Max + 1, 0));
  // F[i][u] for the current m; start with m = 0: only u = 0.
  for (unsigned I = 0; I <= N; ++I)
    F[I][0] = 1;
  for (unsigned J = 1; J <= M; ++J) {
    std::vector<std::vector<double>> G(N + 1, std::vector<double>(Max + 1, 0));
    for (unsigned I = 0; I <= N; ++I)
      for (long V = 0; V <= long(I) * J; ++V) {
        double Sum = F[I][V]; // the last element is a Y
        if (I > 0 && V >= long(J))
          Sum += G[I - 1][V - J]; // the last element is an X above J Y's
        G[I][V] = Sum;
      }
    F = std::move(G);
  }
  double Total = 0, Below = 0;
  for (long V = 0; V <= Max; ++V) {
    Total += F[N][V];
    if (V <= U)
      Below += F[N][V];
  }
  return Total > 0 ? Below / Total : 1;
}

GainDecision decideGain(ArrayRef<double> O, ArrayRef<double> V,
                        const GainRule &Rule) {
  GainDecision D;
  D.OriginalRuns = O.size();
  D.VariantRuns = V.size();
  D.Confidence = Rule.Confidence;
  if (O.empty() || V.empty()) {
    D.Why = "no timing runs of both programs";
    return D;
  }
  double MO = summarize(std::vector<double>(O.begin(), O.end())).Median;
  double MV = summarize(std::vector<double>(V.begin(), V.end())).Median;
  D.Ratio = MV > 0 ? MO / MV : 1;
  const double Needed = 1 + Rule.MinGain;
  if (O.size() < Rule.MinRuns || V.size() < Rule.MinRuns) {
    D.Why = formatv("{0:f3}x by the medians, but {1} and {2} runs are fewer "
                    "than the {3} each that the decision needs",
                    D.Ratio, O.size(), V.size(), Rule.MinRuns)
                .str();
    return D;
  }
  // The largest k with P(U <= k - 1) <= alpha.
  const double Alpha = 1 - Rule.Confidence;
  unsigned K = 0;
  double Reached = 1;
  for (long C = 1; C <= long(O.size() * V.size()); ++C) {
    double P = mannWhitneyCdf(O.size(), V.size(), C - 1);
    if (P > Alpha)
      break;
    K = C;
    Reached = 1 - P;
  }
  if (K == 0) {
    D.Why = formatv("{0:f3}x by the medians, but {1} and {2} runs cannot give "
                    "a bound at {3:P0} confidence",
                    D.Ratio, O.size(), V.size(), Rule.Confidence)
                .str();
    return D;
  }
  std::vector<double> Ratios;
  for (double A : O)
    for (double B : V)
      Ratios.push_back(B > 0 ? A / B : 0);
  std::nth_element(Ratios.begin(), Ratios.begin() + (K - 1), Ratios.end());
  D.LowerBound = Ratios[K - 1];
  D.Confidence = Reached;
  D.Faster = *D.LowerBound >= Needed;
  D.Why =
      formatv("{0:f3}x by the medians of {1} and {2} interleaved runs; at "
              "{3:P1} confidence at least {4:f3}x (Mann-Whitney bound on the "
              "ratio), {5} the required {6:f3}x (--min-gain {7:P1})",
              D.Ratio, O.size(), V.size(), D.Confidence, *D.LowerBound,
              D.Faster ? "reaching" : "below", Needed, Rule.MinGain)
          .str();
  return D;
}

} // namespace cro
