//===- SharedStage.h - stage reused global loads through shared memory ----===//
#ifndef CRO_TRANSFORMS_SHAREDSTAGE_H
#define CRO_TRANSFORMS_SHAREDSTAGE_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knobs `<kernel>.shared_stage` and `<kernel>.shared_pad` (0 or 1 extra
/// column against bank conflicts), for two kinds of kernels:
///
///  - a reduction loop (`for k: acc += A[row*K + k] * B[k*N + col]`) whose
///    global operands are reused by several threads of a block (the index
///    lacks threadIdx.x or threadIdx.y): values "none", 8, 16, 32, 64, the
///    tile depth along k. The loop is strip-mined, each reused operand is
///    loaded cooperatively into a __shared__ tile between two barriers, and
///    the body reads the tiles (see ReductionNest.h, which register-tile
///    shares);
///  - a store whose index is not contiguous across a warp while the value
///    is computed from contiguous reads (transpose): values "none", "tile".
///    Each thread computes its value into a square tile, and after a barrier
///    the block stores the tile transposed, so both sides are coalesced. The
///    block must be square.
///
/// Refused, with the reason, when the kernel does not have the thread-mapping
/// shape, already uses shared memory, barriers or warp intrinsics, returns
/// from the work, writes memory in the loop, or has no reused operand.
class SharedStage : public Transform {
public:
  llvm::StringRef name() const override { return "shared-stage"; }
  KnobRole role() const override { return KnobRole::SharedStaging; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
