//===- Privatize.h - block-private copies of atomically updated arrays ----===//
#ifndef CRO_TRANSFORMS_PRIVATIZE_H
#define CRO_TRANSFORMS_PRIVATIZE_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.privatize` (false/true): when true, every pointer
/// parameter the kernel only updates with `atomicAdd(&p[index], v)` (a
/// histogram's bins) is counted in a copy per block in shared memory --
/// zeroed at the start, added to the global array once per element at the
/// end -- so that the atomics contend in shared memory instead of in L2.
///
/// Legal by construction when: the elements are integers (the sum is exact
/// in any order), the old value is never read, the parameter is accessed in
/// no other way, the index has a compile-time range [0, N) with N elements
/// fitting in 16 KiB (an unsigned char index, `e & mask`, `unsigned % n`),
/// and the kernel has no `return`, so every thread reaches the barrier
/// before the final additions. Only elements the block changed are added,
/// so the global array is touched at no index the original did not touch.
class Privatize : public Transform {
public:
  llvm::StringRef name() const override { return "privatize"; }
  KnobRole role() const override { return KnobRole::Privatization; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
