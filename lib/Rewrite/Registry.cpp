//===- Registry.cpp - the transforms a rewrite uses, in edit order --------===//
#include "cro/Rewrite/Registry.h"
#include <cassert>

namespace cro {

void TransformRegistry::add(std::unique_ptr<Transform> T) {
  assert(!find(T->name()) && "two transforms with one name");
  All.push_back(std::move(T));
}

const Transform *TransformRegistry::find(llvm::StringRef Name) const {
  for (const auto &T : All)
    if (T->name() == Name)
      return T.get();
  return nullptr;
}

} // namespace cro
