//===- LaunchBounds.h - __launch_bounds__ and -maxrregcount ---------------===//
#ifndef CRO_TRANSFORMS_LAUNCHBOUNDS_H
#define CRO_TRANSFORMS_LAUNCHBOUNDS_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// The register-allocation knobs.
///
/// `<kernel>.launch_bounds`: "none" (no attribute), "max"
/// (`__launch_bounds__(B)`), or an integer k (`__launch_bounds__(B, k)`: at
/// least k blocks per multiprocessor), where B is always the kernel's block
/// size in the same variant -- so a larger block never exceeds the bound.
/// The default is what the source has. Needs a compile-time block size.
///
/// `nvcc.maxrregcount`: 0 (no limit) or a per-thread register cap for the
/// whole file, passed to nvcc as -maxrregcount.
class LaunchBounds : public Transform {
public:
  llvm::StringRef name() const override { return "launch-bounds"; }
  KnobRole role() const override { return KnobRole::LaunchBounds; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  void describeFile(const RewriteContext &Ctx, KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
