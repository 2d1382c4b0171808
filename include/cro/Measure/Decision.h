//===- Decision.h - is a variant faster by enough to be worth writing? ----===//
//
// The main command writes a variant only when it pays: faster than the
// original by at least a minimum gain, with statistical confidence over
// interleaved runs. Three runs all faster happens by chance one time in
// eight when there is no effect at all, and a user reviewing a diff for
// 0.4% does not want it.
//
// The rule is distribution-free: the one-sided lower confidence bound of the
// speed-up (original time / variant time) that the Mann-Whitney rank test
// gives (the Hodges-Lehmann interval of a shift, on log times, so a ratio):
// sort the n*m ratios O_i / V_j of every original run against every variant
// run; the k-th smallest is a lower bound at confidence 1 - P(U <= k - 1),
// U the Mann-Whitney statistic under no effect (its exact distribution,
// counted). The variant is written when that bound is at least 1 + MinGain.
// With 5 runs each at 95% the bound is the 5th smallest of 25 ratios.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_MEASURE_DECISION_H
#define CRO_MEASURE_DECISION_H

#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>

namespace cro {

struct GainRule {
  /// The smallest speed-up worth a rewrite, as a fraction (0.02 = 2%).
  double MinGain = 0.02;
  /// Confidence of the lower bound (one-sided).
  double Confidence = 0.95;
  /// Fewer runs than this on either side decide nothing.
  unsigned MinRuns = 5;
};

struct GainDecision {
  bool Faster = false; ///< the bound clears 1 + MinGain
  double Ratio = 1;    ///< median(original) / median(variant)
  /// The speed-up the variant has at least, at Confidence; nullopt when the
  /// runs are too few for any bound at that confidence.
  std::optional<double> LowerBound;
  double Confidence = 0.95; ///< the confidence actually reached (>= asked)
  unsigned OriginalRuns = 0, VariantRuns = 0;
  std::string Why; ///< one sentence: the numbers and the rule's verdict
};

/// Decides from one objective value per run (ms; smaller is faster).
GainDecision decideGain(llvm::ArrayRef<double> OriginalRuns,
                        llvm::ArrayRef<double> VariantRuns,
                        const GainRule &Rule);

/// P(U <= u) for the Mann-Whitney statistic of samples of n and m with no
/// effect (no ties), exactly.
double mannWhitneyCdf(unsigned N, unsigned M, long U);

} // namespace cro

#endif
