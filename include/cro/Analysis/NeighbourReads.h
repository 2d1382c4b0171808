//===- NeighbourReads.h - reads near the thread's element, not affine -----===//
//
// A stencil often reads its neighbours through coordinates it clamps to the
// image, `in[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)]`
// with dy and dx from small loops, or chooses between neighbours with `?:`.
// Those indices are not affine, yet each coordinate provably stays within a
// constant distance of the thread's own: with the thread inside the guard
// (0 <= y < h), clamping y + dy into [0, h - 1] moves it towards y, never
// past it. This analysis gives each such read its row and column and their
// offset ranges (ThreadMapping::BoundedRead), by interval arithmetic over
// the expression: the thread index is [0, 0] from itself, a loop variable of
// constant bounds its range, `+`/`-` add ranges, `min(e, b)` with b at or
// above the thread index (b >= h - 1 where the guard gives y < h) widens the
// lower end to 0, `max(e, b)` with b at or below it (b <= 0) the upper end.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_ANALYSIS_NEIGHBOURREADS_H
#define CRO_ANALYSIS_NEIGHBOURREADS_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/AffineBuilder.h"
#include "cro/Analysis/KernelModel.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"

namespace cro {

/// The non-affine reads of pointer parameters in Work whose row and column
/// stay within constant offsets of the thread's index (M's index variables
/// and guard bounds, which must be filled in already).
std::vector<ThreadMapping::BoundedRead>
findBoundedReads(const SourceText &Text, AffineBuilder &Affine,
                 const ThreadMapping &M,
                 llvm::ArrayRef<const clang::Stmt *> Work);

} // namespace cro

#endif
