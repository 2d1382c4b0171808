//===- Vectorize.h - 8- and 16-byte loads and stores ----------------------===//
#ifndef CRO_TRANSFORMS_VECTORIZE_H
#define CRO_TRANSFORMS_VECTORIZE_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.vectorize`: 1 (as written), 2 or 4 consecutive elements
/// per thread, loaded and stored as one float2/float4 (int2/int4, uint2/
/// uint4, double2) when every pointer the kernel touches is aligned for it
/// -- checked at run time, with the scalar code as the fallback for
/// misaligned pointers and for the last, partial group before the bound.
///
/// For 1-D element-wise kernels: every global access is `p[i]` with i the
/// thread's index, the work is straight-line code (no branches, loops or
/// conditional operators, so every element is read and written exactly as
/// the scalar code would), and the guard is `i < bound` with the grid sized
/// from that bound. The grid shrinks by the width.
class Vectorize : public Transform {
public:
  llvm::StringRef name() const override { return "vectorize"; }
  KnobRole role() const override { return KnobRole::Vectorization; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
