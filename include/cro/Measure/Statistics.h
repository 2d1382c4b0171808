//===- Statistics.h - medians, spreads, and "is it really faster" ---------===//
#ifndef CRO_MEASURE_STATISTICS_H
#define CRO_MEASURE_STATISTICS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cro {

struct Summary {
  double Median = 0, Min = 0, Max = 0;
  double P25 = 0, P75 = 0; ///< spread: the interquartile range
  size_t N = 0;
};

Summary summarize(std::vector<double> Samples);

/// A 95% confidence interval of the median by bootstrap (deterministic:
/// fixed seed).
struct Interval {
  double Low = 0, High = 0;
};
Interval bootstrapMedianInterval(const std::vector<double> &Samples,
                                 unsigned Resamples = 2000,
                                 uint64_t Seed = 12345);

/// True when A is faster than B beyond the noise: A's interval lies entirely
/// below B's. Equal-looking times are "no difference", never "faster".
bool fasterBeyondNoise(const std::vector<double> &A,
                       const std::vector<double> &B);

} // namespace cro

#endif
