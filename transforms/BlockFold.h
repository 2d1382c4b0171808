//===- BlockFold.h - a thread adds up its values of several blocks --------===//
#ifndef CRO_TRANSFORMS_BLOCKFOLD_H
#define CRO_TRANSFORMS_BLOCKFOLD_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.fold`: 1, or F to have each thread add up its values of F
/// consecutive original blocks before they reach the total, in a kernel
/// that adds one value per thread into one launch-wide atomicAdd total
/// (BlockSumInfo): a dot product with per-thread atomics, a shared-memory
/// tree reduction whose block result is atomically added. The grid shrinks
/// to ceil(G / F) blocks; each thread then issues F independent loads
/// before its block combines once, instead of one load, a whole tree of
/// barriers and an atomic per original block.
///
/// The total is a sum of the contributions with weights that do not
/// depend on the block, so the variant adds the same total; in floating
/// point it adds it in another order, which the verification's tolerance
/// for launch-wide atomic sums decides (docs/measure.md). The kernel's
/// reads of blockIdx.x in the repeated text are the original block's
/// number, its reads of gridDim.x the original grid's extent, and original
/// blocks past the original grid are skipped -- as coarsen's block form
/// does (BlockCoarsen.h), whose legality this transform shares.
class BlockFold : public Transform {
public:
  llvm::StringRef name() const override { return "fold"; }
  KnobRole role() const override { return KnobRole::Coarsening; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
