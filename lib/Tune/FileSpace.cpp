#include "cro/Tune/FileSpace.h"
#include "cro/Rewrite/Engine.h"

using namespace llvm;

namespace cro {

Expected<SearchSpace> fileSpace(StringRef SpaceFile,
                                const RewriteContext &Ctx) {
  std::optional<json::Object> Restrict;
  if (!SpaceFile.empty()) {
    Expected<json::Object> R = readConfiguration(SpaceFile);
    if (!R)
      return R.takeError();
    Restrict = std::move(*R);
  }
  Expected<SearchSpace> Space = SearchSpace::fromKnobs(
      Ctx.Knobs, Ctx.Target, Restrict ? &*Restrict : nullptr);
  if (!Space)
    return Space.takeError();
  Space->setLegalityOracle(
      [&Ctx](const json::Object &Config, const Point &) -> std::string {
        Expected<Variant> V = applyConfiguration(Ctx, Config);
        if (!V)
          return toString(V.takeError());
        return "";
      });
  return Space;
}

} // namespace cro
