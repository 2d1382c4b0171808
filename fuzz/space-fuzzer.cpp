// --space's reader: any bytes as the knob restriction of a search space,
// over the fixed knobs. A space that is built must be self-consistent: each
// point's configuration gives back the point, and its key is stable.
#include "FuzzSupport.h"
#include "cro/Space/SearchSpace.h"
#include <random>

using namespace cro;
using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const KnobSet Knobs = fuzzKnobs();
  std::optional<json::Value> V = fuzzJson(Data, Size);
  if (!V)
    return 0;
  const json::Object *Restrict = V->getAsObject();
  if (!Restrict)
    return 0;
  Expected<SearchSpace> S =
      SearchSpace::fromKnobs(Knobs, tableLimits("sm_90"), Restrict);
  if (!S) {
    consumeError(S.takeError());
    return 0;
  }
  std::mt19937_64 Rng(Size);
  for (const Point &P : S->enumerate(256)) {
    Expected<Point> Back = S->pointOf(S->config(P));
    if (!Back || *Back != P || S->key(*Back) != S->key(P))
      __builtin_trap(); // config and pointOf must be inverses
    (void)S->violation(P);
    (void)S->features(P);
  }
  for (int I = 0; I < 8; ++I)
    (void)S->plausible(S->randomPoint(Rng));
  (void)S->toJSON();
  return 0;
}
