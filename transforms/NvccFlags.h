//===- NvccFlags.h - compiler flags as knobs ------------------------------===//
#ifndef CRO_TRANSFORMS_NVCCFLAGS_H
#define CRO_TRANSFORMS_NVCCFLAGS_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// File-wide knobs for nvcc flags that keep results bit-identical:
/// `nvcc.dlcm` (-Xptxas=-dlcm=ca|cg: cache global loads in L1 or not),
/// `nvcc.ptxas_opt` (-Xptxas=-O0..3), `nvcc.extra_device_vectorization`.
/// Each flag is one argument (`-Xptxas=...`): two knobs that each pass an
/// option to ptxas must not share one `-Xptxas`, which takes one value.
/// Flags that change numerical results -- `nvcc.use_fast_math`, `nvcc.ftz`,
/// `nvcc.prec_div`, `nvcc.prec_sqrt`, `nvcc.fmad` -- are offered only with
/// --allow-fast-math, and are listed as refused otherwise.
class NvccFlags : public Transform {
public:
  llvm::StringRef name() const override { return "nvcc-flags"; }
  KnobRole role() const override { return KnobRole::CompilerFlag; }
  void describeFile(const RewriteContext &Ctx, KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
