//===- Registry.cpp - the transforms, in the order their edits are made ---===//
//
// To add a transform: one .h/.cpp pair in this directory, one line below,
// one lit test file in test/transforms/.
//
//===----------------------------------------------------------------------===//
#include "cro/Rewrite/Registry.h"
#include "BlockSize.h"
#include "Coarsen.h"
#include "LaunchBounds.h"
#include "NvccFlags.h"
#include "Privatize.h"
#include "ReadOnly.h"
#include "RegisterTile.h"
#include "SharedStage.h"
#include "Tile.h"
#include "Unroll.h"
#include "Vectorize.h"

namespace cro {

const std::vector<std::unique_ptr<Transform>> &allTransforms() {
  static const std::vector<std::unique_ptr<Transform>> All = [] {
    std::vector<std::unique_ptr<Transform>> V;
    V.push_back(std::make_unique<BlockSize>());
    V.push_back(std::make_unique<LaunchBounds>());
    V.push_back(std::make_unique<Unroll>());
    V.push_back(std::make_unique<ReadOnly>());
    V.push_back(std::make_unique<NvccFlags>());
    V.push_back(std::make_unique<Coarsen>());
    V.push_back(std::make_unique<SharedStage>());
    V.push_back(std::make_unique<RegisterTile>());
    V.push_back(std::make_unique<Vectorize>());
    V.push_back(std::make_unique<Tile>());
    V.push_back(std::make_unique<Privatize>());
    return V;
  }();
  return All;
}

const Transform *findTransform(llvm::StringRef Name) {
  for (const auto &T : allTransforms())
    if (T->name() == Name)
      return T.get();
  return nullptr;
}

} // namespace cro
