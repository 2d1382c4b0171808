//===- Vectorize.h - 8- and 16-byte loads and stores ----------------------===//
#ifndef CRO_TRANSFORMS_VECTORIZE_H
#define CRO_TRANSFORMS_VECTORIZE_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.vectorize`: 1 (as written), 2 or 4 consecutive elements
/// per thread, loaded and stored as one float2/float4 (int2/int4, uint2/
/// uint4, double2, or an aligned struct of other element types) when every
/// vector address is aligned for it -- checked at run time, with the scalar
/// code as the fallback for misaligned addresses and for the last, partial
/// group before the bound.
///
/// For kernels whose guard bounds the thread's index along x, with the grid
/// sized from that bound (the grid shrinks by the width). Each of a
/// thread's elements runs the work as written; the accesses every element
/// performs that are contiguous along x become vector loads before the
/// elements' work and vector stores after it, the rest stay per element.
/// Where the work has no such access but a loop of it does (a 3-D stencil
/// marching in z, a loop over rows), the elements share the loop's
/// iterations when its control and the work around it do not depend on the
/// element, and each iteration loads and stores the body's accesses. See
/// docs/transforms.md.
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
