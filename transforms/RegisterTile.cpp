#include "RegisterTile.h"
#include "BlockSize.h"
#include "ReductionNest.h"
#include "ThreadRemap.h"

using namespace llvm;

namespace cro {

void RegisterTile::describe(const RewriteContext &Ctx, const KernelInfo &K,
                            KnobSink &Out) const {
  NestPlan P = planReductionNest(Ctx, K);
  if (P.Refusal.empty())
    P.Refusal = P.OneOutputOnly;
  // A block chosen at run time: tiles are sized by the constant a variant
  // gives block-size, which then writes the grid for the tiles.
  bool RuntimeBlock =
      P.Refusal.empty() && BlockSize::runtimeBlockReplaceable(Ctx, K);
  if (P.Refusal.empty() && !RuntimeBlock)
    P.Refusal = blockShapeRefusal(K);
  if (!P.Refusal.empty())
    return Out.refuse(K.Id, P.Refusal, K.Location);
  std::vector<int64_t> Ys{1}, Xs{1};
  for (const ThreadIndexVar *V : {P.Y, P.X}) {
    if (!V)
      continue;
    std::string Why = gridShrinkRefusal(Ctx, K, V->Dim);
    if (!Why.empty())
      return Out.refuse(K.Id, Why, K.Location);
    (V == P.Y ? Ys : Xs) = {1, 2, 4, 8};
  }
  Knob Kn;
  Kn.Id = registerTileKnob(K);
  Kn.Kernel = K.Id;
  if (RuntimeBlock)
    Kn.Requires = {K.Id + ".block"};
  Kn.Default = "1x1";
  for (int64_t Y : Ys)
    for (int64_t X : Xs)
      if (Y * X <= 64) // more accumulators than that spill
        Kn.Values.push_back(std::to_string(Y) + "x" + std::to_string(X));
  Out.offer(std::move(Kn));
}

Error RegisterTile::apply(const RewriteContext &Ctx, const Knob &Kn,
                          const json::Value &, const ResolvedConfig &Config,
                          EditSet &Out) const {
  const KernelInfo *K = kernelOf(Ctx, Kn);
  // With staging offered too, the shared-stage knob writes the whole nest.
  if (!K || Config.knob(sharedStageKnob(*K)))
    return Error::success();
  return emitReductionNest(Ctx, *K, planReductionNest(Ctx, *K),
                           nestChoice(*K, Config), Config, Out);
}

} // namespace cro
