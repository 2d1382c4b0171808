//===- TransposeStrip.h - a TILE x ROWS transpose through a shared tile ---===//
//
// The second form of shared-stage's transposed tile (value "tile"): a
// block of T x R threads owns a T x T tile of the output, each thread
// looping over T / R rows of it,
//
//   x = blockIdx.x * T + threadIdx.x;   y = blockIdx.y * T + threadIdx.y;
//   for (j = 0; j < T; j += R)
//     out[x * S + (y + j)] = value(x, y + j);
//
// whose store is strided by S across a warp (threadIdx.x). What is proven
// from the store's affine form after macro expansion, not from its
// spelling: it reads the thread's position only through threadIdx.x/y,
// blockIdx.x/y and the loop variable; row y + j is the unit-stride
// coordinate (coefficient 1 for threadIdx.y and for j) and blockIdx.y
// moves it by T, blockIdx.x moves the strided coordinate by T, and the
// loop visits j = 0, R, ..., T - R with the block exactly T x R. So block
// (bx, by) stores exactly the T x T elements (bx*T + c, by*T + r), and
// thread (tx, ty) in iteration j the one at c = tx, r = ty + j.
//
// The rewrite keeps the loop as written with its store replaced by
// tile[ty + j][tx] = value (every value is computed by the thread and in
// the iteration that computed it), then after a barrier stores the tile
// transposed: thread (tx, ty) in step r writes element c = ty + r, r' = tx,
// so a warp writes T consecutive elements. The same elements are written
// with the same values; only the order of a block's stores changes, which
// is why the value must not read the stored array.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TRANSFORMS_TRANSPOSESTRIP_H
#define CRO_TRANSFORMS_TRANSPOSESTRIP_H

#include "cro/Rewrite/Transform.h"

namespace cro {

struct StripPlan {
  std::string Refusal;
  const AccessInfo *Store = nullptr;
  const LoopInfo *Loop = nullptr;
  int64_t Tile = 0; ///< T: the tile's side, blockDim.x
  int64_t Rows = 0; ///< R: blockDim.y, the loop's step
  std::string Type; ///< the stored element's type
};

StripPlan planTransposeStrip(const RewriteContext &Ctx, const KernelInfo &K);

/// Why the block shape of Config does not fit the plan (T x R), or "".
std::string stripBlockRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                              const StripPlan &P, const ResolvedConfig &Config);

llvm::Error emitTransposeStrip(const RewriteContext &Ctx, const KernelInfo &K,
                               const StripPlan &P, int64_t Pad,
                               const ResolvedConfig &Config, EditSet &Out);

} // namespace cro

#endif
