//===- Tile.h - strip-mine a kernel loop, and move its tile inward --------===//
#ifndef CRO_TRANSFORMS_TILE_H
#define CRO_TRANSFORMS_TILE_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.tile.<loop>`: "none", or T in 4..64 to strip-mine the loop
/// into tiles of T iterations (`for (v_tile = b; v_tile < e; v_tile += T)
/// for (v = v_tile; v < v_tile + T && v < e; ++v)`, the same iterations in
/// the same order), and "T-inner" when the loop's whole body is another
/// loop and the two may trade places: the tile loop stays outside, the
/// inner loop runs next, and the T iterations of the tile run innermost --
/// classic loop tiling, which keeps a tile's data in cache or registers
/// across the inner loop.
///
/// Refused (per loop, with the reason) for loops that are not canonical,
/// are left early, or change their own bound; "-inner" is offered only when
/// every write of the body goes to an element only its iteration touches and
/// no outside variable (a reduction) is written, and, unless
/// --assume-no-alias, no other pointer may alias a written array.
class Tile : public Transform {
public:
  llvm::StringRef name() const override { return "tile"; }
  KnobRole role() const override { return KnobRole::LoopTiling; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
