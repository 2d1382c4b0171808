//===- ReadOnly.h - `const T *__restrict__` for read-only pointers --------===//
#ifndef CRO_TRANSFORMS_READONLY_H
#define CRO_TRANSFORMS_READONLY_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.read_only` (false/true): when true, every pointer parameter
/// the kernel only reads becomes `const T *__restrict__`, which lets the
/// compiler use the read-only data path (ld.global.nc). `__restrict__` is a
/// promise that nothing else aliases the memory during the launch, so it is
/// offered only when every pointer argument at every launch in the file is a
/// different plain variable and no parameter escapes the analysis -- or
/// under --assume-no-alias. Prototypes of the kernel change with it.
class ReadOnly : public Transform {
public:
  llvm::StringRef name() const override { return "read-only"; }
  KnobRole role() const override { return KnobRole::ReadOnlyCache; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
