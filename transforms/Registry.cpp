//===- Registry.cpp - the transforms, in the order their edits are made ---===//
//
// To add a transform: one .h/.cpp pair in this directory (and its line in
// CMakeLists.txt), one line below, one lit test file in test/transforms/
// (docs/transforms.md, "Adding a transform").
//
//===----------------------------------------------------------------------===//
#include "cro/Rewrite/Registry.h"
#include "BlockFold.h"
#include "BlockSize.h"
#include "CarryForward.h"
#include "Coarsen.h"
#include "LaunchBounds.h"
#include "NvccFlags.h"
#include "ParallelScan.h"
#include "Privatize.h"
#include "ReadOnly.h"
#include "RegisterTile.h"
#include "ScalarReplace.h"
#include "SharedStage.h"
#include "Tile.h"
#include "Unroll.h"
#include "Vectorize.h"
#include "WarpAggregate.h"
#include "WarpReduce.h"

namespace cro {

void registerBuiltinTransforms(TransformRegistry &R) {
  R.add(std::make_unique<BlockSize>());
  R.add(std::make_unique<LaunchBounds>());
  // Before unroll: both insert at a loop's first line, the block that holds
  // scalar-replace's registers must come before unroll's pragma.
  R.add(std::make_unique<ScalarReplace>());
  // Also before unroll: its register block encloses the loop and its pragma.
  R.add(std::make_unique<CarryForward>());
  // Also before unroll: it zeroes the sum at the loop's first line.
  R.add(std::make_unique<WarpReduce>());
  R.add(std::make_unique<ParallelScan>());
  R.add(std::make_unique<Unroll>());
  R.add(std::make_unique<ReadOnly>());
  R.add(std::make_unique<NvccFlags>());
  R.add(std::make_unique<Coarsen>());
  R.add(std::make_unique<BlockFold>());
  R.add(std::make_unique<SharedStage>());
  R.add(std::make_unique<RegisterTile>());
  R.add(std::make_unique<Vectorize>());
  R.add(std::make_unique<Tile>());
  R.add(std::make_unique<Privatize>());
  R.add(std::make_unique<WarpAggregate>());
}

} // namespace cro
