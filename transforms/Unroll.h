//===- Unroll.h - `#pragma unroll N` on a kernel's loops ------------------===//
#ifndef CRO_TRANSFORMS_UNROLL_H
#define CRO_TRANSFORMS_UNROLL_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.unroll.<loop>` for every loop of a kernel: "none" (no
/// pragma, the compiler decides), 1, 2, 4, 8, 16, and "full" when the trip
/// count is a compile-time constant. The default is the loop's current pragma.
/// Unrolling never changes what a loop computes, so the only refusals are
/// loops the tool cannot edit in place (written inside a macro).
/// The pragma line for an unroll knob's value: "#pragma unroll" for "full",
/// "#pragma unroll N", a symbolic count kept as written, "" for "none".
std::string unrollPragma(const llvm::json::Value &V);

class Unroll : public Transform {
public:
  llvm::StringRef name() const override { return "unroll"; }
  KnobRole role() const override { return KnobRole::Unroll; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
