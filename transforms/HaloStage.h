//===- HaloStage.h - a stencil's neighbourhood through shared memory ------===//
//
// The third kind of kernel shared-stage rewrites (value "halo"): a 2-D
// stencil whose reads of one read-only array are the thread's own element
// and neighbours at small constant offsets, in[(y+dy)*S + (x+dx)], or at
// coordinates that provably stay near the thread's (clamped to the image,
// NeighbourReads.h), in[R*S + C]. Before
// the guard, the block loads its region plus a halo of max|dy| rows and
// max|dx| columns into a shared tile (every thread, so every thread reaches
// the barrier); each read then takes the tile when its element was loaded
// and falls back to the original global read otherwise.
//
// What makes the loads safe: a tile element is loaded only where the guard
// holds, and there the original thread certainly reads that element (its
// own, offset (0,0), on every path through the work, or in the iteration of
// its neighbourhood loops where they are 0), and the grid covers
// the whole guarded domain (it is sized from the guard's bounds).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TRANSFORMS_HALOSTAGE_H
#define CRO_TRANSFORMS_HALOSTAGE_H

#include "cro/Rewrite/Transform.h"
#include <map>

namespace cro {

struct HaloRead {
  const AccessInfo *Access = nullptr;
  int64_t DX = 0, DY = 0;
  /// A read whose coordinates are not affine but stay near the thread's
  /// (clamped, chosen): DX and DY are unused, the tile cell is computed
  /// from its row and column.
  const ThreadMapping::BoundedRead *Bounded = nullptr;
};

struct HaloPlan {
  std::string Refusal;
  std::string Array, Type;
  std::vector<HaloRead> Reads;
  const HaloRead *Center = nullptr;
  /// The centre's index as the loader writes it: as spelled, or from its
  /// affine form when it is spelled through a local.
  std::string CenterIndex;
  int64_t HX = 0, HY = 0; ///< halo width in x and y
  /// The region the staged reads happen in (ThreadMapping::UpperBounds and
  /// LowerBounds: the guard's, or its first branch's).
  std::map<std::string, std::string> UpperBounds, LowerBounds;
};

HaloPlan planHalo(const RewriteContext &Ctx, const KernelInfo &K);

llvm::Error emitHalo(const RewriteContext &Ctx, const KernelInfo &K,
                     const HaloPlan &P, const ResolvedConfig &Config,
                     EditSet &Out);

} // namespace cro

#endif
