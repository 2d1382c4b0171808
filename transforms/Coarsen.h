//===- Coarsen.h - each thread computes several outputs -------------------===//
#ifndef CRO_TRANSFORMS_COARSEN_H
#define CRO_TRANSFORMS_COARSEN_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.coarsen`: "none", or "<dim><K>" (x2, x4, x8, y2, ...) for
/// the strided form -- thread t of a block computes outputs t, t + B, ...,
/// t + (K-1)B of a block K times wider, so a warp's accesses stay contiguous
/// -- and "<dim><K>-contiguous" for outputs tK ... tK + K - 1. The grid
/// shrinks by K in that dimension; the guard stays on every output.
///
/// Legal when the kernel has the thread-mapping shape (index variables,
/// guard, work), its threads do not communicate (no shared memory,
/// __syncthreads or warp intrinsics: a block no longer holds the same
/// outputs), it reads no threadIdx/blockIdx/gridDim outside the index, and
/// every launch sizes that grid dimension as ceil(E / block) with E the
/// bound the guard uses.
/// A value of the coarsen knob, read: "x4" is {x, 4, strided}.
struct Coarsening {
  std::string Dim;
  int64_t Factor = 1;
  bool Contiguous = false;
};

/// How Config coarsens K; nullopt for "none" (or no coarsen knob). The
/// transforms that remap threads themselves read it to compose or refuse.
std::optional<Coarsening> coarsening(const KernelInfo &K,
                                     const ResolvedConfig &Config);

class Coarsen : public Transform {
public:
  llvm::StringRef name() const override { return "coarsen"; }
  KnobRole role() const override { return KnobRole::Coarsening; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
