//===- ParallelScan.h - a one-thread prefix sum split across a group ------===//
#ifndef CRO_TRANSFORMS_PARALLELSCAN_H
#define CRO_TRANSFORMS_PARALLELSCAN_H

#include "cro/Rewrite/Transform.h"
#include <optional>

namespace cro {

/// Knob `<kernel>.parallel_scan`: 1, or G (32, 256, 1024) to launch a
/// kernel whose blocks have one thread with G threads, which compute its
/// prefix-sum loops (SerialScanInfo: `x[k] += x[k - 1]`, `s += t; x[k] =
/// s;`) a chunk of G iterations at a time: each thread takes one
/// iteration's term, a shuffle scan (and, past one warp, a scan of the
/// warps' totals in shared memory) adds the chunk up, every thread stores
/// its element, and the chunk's total is carried into the next. The rest
/// of the body runs in every thread as the original's one thread ran it:
/// the analysis proved it writes no memory, and its reads of threadIdx and
/// blockDim become 0 and 1.
///
/// The totals are the same sums added in another order: exact for
/// integers, within rounding for floating point, which verification
/// decides.
/// The group size parallel-scan gives K's blocks in Config, when it is on
/// (the block every launch of K then has); nullopt otherwise.
std::optional<int64_t> parallelScanGroup(const KernelInfo &K,
                                         const ResolvedConfig &Config);

class ParallelScan : public Transform {
public:
  llvm::StringRef name() const override { return "parallel-scan"; }
  KnobRole role() const override { return KnobRole::WarpCooperation; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
