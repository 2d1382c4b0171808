//===- Registry.h - the transforms a rewrite uses, in edit order ----------===//
//
// The rewrite engine knows transforms only through this registry, which its
// user fills and passes in the RewriteContext: lib/Rewrite does not link the
// transforms (transforms/ links lib/Rewrite), and a tool or test can run with
// any set of them. The built-in transforms are added, in the order their
// edits are made, by registerBuiltinTransforms() (transforms/Registry.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_REWRITE_REGISTRY_H
#define CRO_REWRITE_REGISTRY_H

#include "cro/Rewrite/Transform.h"
#include <memory>
#include <vector>

namespace cro {

class TransformRegistry {
public:
  /// Adds T after the transforms already added: its edits are made after
  /// theirs. A second transform of the same name is a programming error.
  void add(std::unique_ptr<Transform> T);
  const std::vector<std::unique_ptr<Transform>> &transforms() const {
    return All;
  }
  const Transform *find(llvm::StringRef Name) const;

private:
  std::vector<std::unique_ptr<Transform>> All;
};

/// Adds every transform in transforms/ to R, in edit order.
void registerBuiltinTransforms(TransformRegistry &R);

} // namespace cro

#endif
