//===- RegisterTile.h - several outputs per thread of a reduction ---------===//
#ifndef CRO_TRANSFORMS_REGISTERTILE_H
#define CRO_TRANSFORMS_REGISTERTILE_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.register_tile`: "RYxRX" outputs per thread ("1x1" is the
/// source as written; 2x2, 4x4, 8x8 and the rectangular shapes between), for
/// kernels whose work is a reduction loop per output (matmul-like). Outputs
/// are strided by the block (row + i*blockDim.y, col + j*blockDim.x) so a
/// warp's accesses stay contiguous; accumulators become RY x RX register
/// arrays; the grid shrinks by RY and RX. Composes with shared-stage: the
/// tiles then cover the block's RY*blockDim.y rows and RX*blockDim.x
/// columns, and the generated code is written once by that transform.
class RegisterTile : public Transform {
public:
  llvm::StringRef name() const override { return "register-tile"; }
  KnobRole role() const override { return KnobRole::RegisterTiling; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
