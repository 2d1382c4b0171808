//===- BlockCoarsen.h - one block does the work of several ----------------===//
//
// The block form of coarsening: the kernel's body is wrapped in a loop over
// the original blocks this block now stands for, and every read of
// blockIdx.d (gridDim.d) in its text becomes the number of that original
// block (the original grid's extent). Whatever the body derives from the
// block's number -- an index in a local of any name, a tile offset, a
// per-block output `partial[blockIdx.x]`, shared-memory work between
// barriers -- it derives it exactly as the original block did, so no
// particular spelling of the thread index is needed. Block b of the variant
// runs original blocks F*b ... F*b + F-1 one after another (the strided
// form of coarsen: a warp's accesses stay as contiguous as they were);
// original blocks past the original grid are skipped, so the variant's
// rounded-up grid does no extra work. The launch's grid shrinks to ceil(G /
// F).
//
// Legal when every read of blockIdx.d and gridDim.d is in the kernel's own
// text (BlockIndexReads: none in a macro, a called device function or
// inline assembly), the original grid's extent G is known inside the kernel
// (a compile-time constant, or computed from the block's extent and a value
// each launch passes the kernel as an argument), and a thread that leaves
// its work early (`return`, which becomes `continue`) cannot leave the
// other threads at a barrier or a warp exchange for the next block: a
// kernel whose threads communicate may not return early. A kernel with
// shared memory gets a barrier between two blocks' work, so the next
// block's writes cannot overtake the last one's reads.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TRANSFORMS_BLOCKCOARSEN_H
#define CRO_TRANSFORMS_BLOCKCOARSEN_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Why K's blocks along Dim cannot each do the work of several original
/// blocks; "" when they can.
std::string blockCoarsenRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                                llvm::StringRef Dim);

/// Text a caller puts around the loop over original blocks: Before runs
/// once before it, After once after it (each a sequence of lines, each line
/// ending in a newline, indented by the caller).
struct BlockLoopFrame {
  std::string Before, After;
};

/// Rewrites K so that each block along Dim does the work of Factor
/// consecutive original blocks, and shrinks its launches' grids.
llvm::Error blockCoarsen(const RewriteContext &Ctx, const KernelInfo &K,
                         llvm::StringRef Dim, int64_t Factor,
                         const ResolvedConfig &Config, EditSet &Out,
                         const BlockLoopFrame &Frame = {});

/// The original grid's extent along Dim as an expression the kernel can
/// evaluate (a constant, its parameters, blockDim), the same for every
/// launch; nullopt with Why when the kernel cannot know it.
std::optional<std::string> originalGrid(const KernelInfo &K,
                                        llvm::StringRef Dim, std::string &Why);

/// The indentation of the kernel body's first line of code.
std::string kernelBodyIndent(const RewriteContext &Ctx, const KernelInfo &K);

} // namespace cro

#endif
