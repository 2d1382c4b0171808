//===- ScalarReplace.h - accumulate in a register across a loop -----------===//
#ifndef CRO_TRANSFORMS_SCALARREPLACE_H
#define CRO_TRANSFORMS_SCALARREPLACE_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.scalar_replace.<loop>`: false, or true to keep the global
/// elements the loop reads and writes at one index (`c[i * n + j] += a[i *
/// n + k] * b[k * n + j]` over k) in registers for the whole loop -- loaded
/// once before it, stored once after it -- instead of a global
/// read-modify-write per iteration. The same operations in the same order
/// act on the register, so results stay bit-identical.
///
/// Legal where the model proves it: the index does not change in the loop;
/// the loop counts up by one between bounds that read no memory and
/// nothing in it leaves it early (break, return, goto, continue); some
/// access of the element runs in every iteration, so it lies inside its
/// array whenever the loop runs, and the load and store happen only then;
/// no other access in the loop may touch the element (the same array at an
/// index not a constant apart, or another pointer the launches may pass the
/// same memory, unless __restrict__ or --assume-no-alias); no barrier in
/// the loop (another thread could read the element between iterations);
/// no pointer that may alias it escapes the analysis.
class ScalarReplace : public Transform {
public:
  llvm::StringRef name() const override { return "scalar-replace"; }
  KnobRole role() const override { return KnobRole::ScalarReplacement; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
