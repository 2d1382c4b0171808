//===- WarpAggregate.h - one atomic per group of lanes, not per thread ----===//
#ifndef CRO_TRANSFORMS_WARPAGGREGATE_H
#define CRO_TRANSFORMS_WARPAGGREGATE_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.warp_aggregate` (false/true): when true, every atomic
/// add, sub, max, min, and, or or xor of the kernel whose target is the
/// same address in every thread (a sum or a count: `atomicAdd(total, x[i])`,
/// `atomicAdd(&hits[blockIdx.x], 1)`; a peak: `atomicMax(peak, v)`) first
/// combines the values of the lanes that reach it together (cooperative
/// groups' coalesced_threads() and reduce with the atomic's operation), and
/// one lane applies the result to memory: one atomic per group of lanes
/// instead of one per thread, which otherwise serialize on one address.
///
/// The additions happen in another order, so a floating-point sum changes
/// in its last bits: the variant is kept only where the tool's verification
/// tolerance accepts it (integer sums are exact).
///
/// Legal where the model proves it: the old value the call returns is not
/// read; the target is uniform (AtomicUpdateInfo::UniformTargetWhy: the
/// kernel's unmodified parameters, constants, blockIdx/blockDim/gridDim and
/// locals computed from those, no memory read), so whichever lanes arrive
/// together update one address; the updated type is one both the atomic
/// and cooperative groups' reduce take; the call is written in the user's
/// file, outside macros. Whatever the control flow around the call,
/// coalesced_threads() is exactly the lanes that reach it together, so
/// each thread's value is added once.
/// The helper K's aggregated atomics of Function on ValueType become
/// (one atomic per group of lanes that arrive together), inserted with the
/// headers it needs into Out once however often it is asked for; nullopt
/// when that operation and type cannot be aggregated. The fold transform
/// writes its one atomic of a thread's folded values through it when the
/// kernel's warp_aggregate knob is on.
std::optional<std::string> warpAggregatedCallee(const RewriteContext &Ctx,
                                                const KernelInfo &K,
                                                llvm::StringRef Function,
                                                llvm::StringRef ValueType,
                                                EditSet &Out);

class WarpAggregate : public Transform {
public:
  llvm::StringRef name() const override { return "warp-aggregate"; }
  KnobRole role() const override { return KnobRole::WarpCooperation; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
