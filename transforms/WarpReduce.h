//===- WarpReduce.h - a thread's summing loop split across lanes ----------===//
#ifndef CRO_TRANSFORMS_WARPREDUCE_H
#define CRO_TRANSFORMS_WARPREDUCE_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.warp_reduce`: 1 (as written), or G in 4, 8, 16, 32
/// consecutive lanes of a warp doing one thread's work together. The
/// thread's loop that sums into a local (`for (k = 0; k < n; k++) sum +=
/// m[i * n + k] * v[k];`, the matrix-vector and row-reduction pattern)
/// gives lane l the iterations l, l + G, l + 2G, ... (so a warp reads a row
/// contiguously instead of one element of 32 rows), a `__shfl_down_sync`
/// tree sums the lanes' partial sums, and lane 0 runs what follows the
/// loop. The grid grows G times: group g takes the place of the original's
/// thread g, whatever the guard.
///
/// A loop that keeps a maximum or minimum instead (`m = fmaxf(m, x[k])`,
/// `lo = min(lo, a[k])`: the model's AccumulatorCombine) is split the same
/// way, its lanes' values combined with the function the loop calls.
///
/// The additions happen in another order, so floating-point sums change in
/// their last bits: the variant is kept only where the tool's verification
/// tolerance accepts it (integer sums, maxima and minima are exact).
///
/// Legal where the model proves it: the thread index along x is the
/// global index and nothing else reads threadIdx.x or blockIdx.x; threads
/// do not communicate (shared memory, barriers, warp intrinsics) or update
/// memory atomically; the loop is a statement of the guarded work that
/// counts up by one between bounds that read no memory, its body leaves it
/// only by running to its end, writes no memory and changes one variable
/// declared outside it, only by adding to it or taking a maximum or minimum
/// into it (the model's accumulator);
/// the work before the loop writes no memory (every lane runs it); what
/// follows the loop does not read the loop variable (each lane's differs);
/// the guard changes nothing when evaluated; the blocks' x extent is a
/// multiple of 32, so a group never straddles warps.
class WarpReduce : public Transform {
public:
  llvm::StringRef name() const override { return "warp-reduce"; }
  KnobRole role() const override { return KnobRole::WarpCooperation; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
