// --apply's reader: any bytes as a configuration file, judged against the
// fixed knobs. Must never crash or hang; errors are fine.
#include "FuzzSupport.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/Transform.h"

using namespace cro;
using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const KnobSet Knobs = fuzzKnobs();
  std::optional<json::Value> V = fuzzJson(Data, Size);
  if (!V)
    return 0;
  if (const json::Object *O = V->getAsObject()) {
    if (Error E = validateConfiguration(Knobs, *O)) {
      consumeError(std::move(E));
      return 0;
    }
    // Valid: every value resolves, and the rest keep their defaults.
    ResolvedConfig R(Knobs.Knobs);
    for (const auto &KV : *O)
      R.set(KV.first.str(), KV.second);
    for (const Knob &K : Knobs.Knobs)
      if (!R.value(K.Id) || !R.knob(K.Id))
        __builtin_trap(); // a validated configuration names real knobs
    for (const Knob &K : Knobs.Knobs)
      (void)R.isDefault(K);
  }
  return 0;
}
