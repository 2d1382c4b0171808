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
/// Fills M.BoundedReads, and M.UnboundedChoices with the `?:` choices
/// that are not (M.AmbiguousNames must be filled in already).
void findBoundedReads(const SourceText &Text, AffineBuilder &Affine,
                      ThreadMapping &M,
                      llvm::ArrayRef<const clang::Stmt *> Work);

/// An affine index as the thread's own element moved by DY rows and DX
/// columns: its variables are those of M's thread index, `S * y + x` (or `x`
/// for a 1-D index) with y and x the thread's global indices (blockIdx
/// scaled as the index variables scale it), and its constant part is
/// DY * S + DX. Stride is S (zero for a 1-D index).
struct ElementOffset {
  int64_t DY = 0, DX = 0;
  SymPoly Stride;
};

/// The farthest a neighbour read may be from the thread's element, in rows
/// or columns, for the model to describe it (a choice's alternatives) and
/// for a halo to stage it: beyond, the halo's cells would outnumber the
/// tile's and the loads it saves.
constexpr int64_t MaxNeighbourReach = 4;

/// F's offset from the thread's element, or nullopt when F is not that
/// element moved by constants. With a constant stride S, the constant part
/// is split with |DX| <= S / 2, and only where S > 2 * MaxReach (a narrower
/// row would make "a row down" and "S columns right" indistinguishable
/// from the neighbours that matter).
std::optional<ElementOffset>
elementOffset(const AffineExpr &F, const ThreadMapping &M, int64_t MaxReach);

} // namespace cro

#endif
