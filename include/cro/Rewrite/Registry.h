//===- Registry.h - all transforms, by name, in a fixed order -------------===//
#ifndef CRO_REWRITE_REGISTRY_H
#define CRO_REWRITE_REGISTRY_H

#include "cro/Rewrite/Transform.h"
#include <memory>
#include <vector>

namespace cro {

/// Every transform, in the order their edits are made
/// (transforms/Registry.cpp).
const std::vector<std::unique_ptr<Transform>> &allTransforms();
const Transform *findTransform(llvm::StringRef Name);

} // namespace cro

#endif
