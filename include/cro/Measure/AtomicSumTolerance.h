//===- AtomicSumTolerance.h - how far a reordered atomic sum may move -----===//
//
// A kernel that adds its threads' values into one element with a
// floating-point atomic (`atomicAdd(result, a[i] * b[i])`, every thread of
// the launch at the same address) computes a sum of up to one term per thread
// of the launch, in whatever order the hardware serves the atomics. That
// order is nearly fixed from run to run, so the original reproduces its own
// result closely (captureNoise sees little); but its result is itself only
// one rounding of the exact sum among many. A variant that adds in another
// order -- a warp's shuffle tree before one atomic, another block size --
// lands on another rounding, as far from the original as the original is
// from the exact sum.
//
// For T terms added in some order, rounding errors that are independent
// grow like sqrt(T) units of the last place (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., section 4.2), relative to
// the sum of the terms' magnitudes. Such an output is compared at a
// relative tolerance of sqrt(T) * u (u: 2^-24 for float, 2^-53 for double)
// of the element itself when that exceeds the type's default: |sum| is at
// most the sum of magnitudes, so the allowance is never more than the
// rounding argument gives. Below about 2.8 million float terms the default
// 1e-4 is the larger and nothing changes.
//
// The terms are one per thread of the launch, or one per block along the
// dimensions an `if` around every such update fixes (`if (threadIdx.x ==
// 0) atomicAdd(out, partial[0])` after a block's shared-memory tree: one
// term per block; the tree's own rounding grows like log2 of the block,
// far less). Only where the model shows the pattern: every atomic update
// through the captured buffer's parameter is an atomicAdd of a float or double
// whose address is the same in every thread of the launch (AtomicUpdateInfo's
// LaunchUniformTargetWhy empty). Per-block sums (`&out[blockIdx.x]`) and
// scattered atomics (float histograms, force accumulation) keep the
// default: their elements sum far fewer terms than the launch has threads.
// A tolerance the user sets (--rtol) is used as given.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_MEASURE_ATOMICSUMTOLERANCE_H
#define CRO_MEASURE_ATOMICSUMTOLERANCE_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Measure/Compare.h"
#include "cro/Measure/Runner.h"
#include <optional>
#include <string>

namespace cro {

struct AtomicSumTolerance {
  double RelTol = 0;  ///< sqrt(terms) * unit roundoff
  uint64_t Terms = 0; ///< at most: threads, or blocks (see above)
  std::string Parameter;
  /// One sentence for reports and rejections: what is summed, the
  /// tolerance and why.
  std::string Why;
};

/// The tolerance a capture of the original gets because its buffer is a
/// sum of the launch's float atomics at one address, when that is above
/// Default; nullopt otherwise (not that pattern, threads unknown, or the
/// default is already as loose).
std::optional<AtomicSumTolerance> atomicSumTolerance(const CaptureRecord &C,
                                                     const KernelModel &Model,
                                                     ElementKind Kind,
                                                     double Default);

} // namespace cro

#endif
