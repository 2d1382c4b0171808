// --simulate's reader: any bytes as a recorded space; one that loads is
// searched briefly by every strategy, as --simulate would.
#include "FuzzSupport.h"
#include "cro/Search/RecordedSpace.h"
#include "cro/Search/Strategies.h"

using namespace cro;
using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::optional<json::Value> V = fuzzJson(Data, Size);
  if (!V)
    return 0;
  Expected<RecordedSpace> R = RecordedSpace::fromJSON(*V, "fuzz input");
  if (!R) {
    consumeError(R.takeError());
    return 0;
  }
  std::optional<double> Optimum = R->optimum();
  for (const char *Name :
       {"random", "exhaustive", "anneal", "genetic", "agent", "bayes"}) {
    StrategyContext Ctx{R->space(), Size, R->features(), {}, 8};
    Expected<std::unique_ptr<SearchStrategy>> S = makeStrategy(Name, Ctx);
    if (!S) {
      consumeError(S.takeError());
      continue;
    }
    SimulatedEvaluator Eval(*R);
    SearchOptions Opts;
    Opts.Budget = 8;
    Opts.Batch = 2;
    Opts.Patience = 0;
    SearchResult Result = runSearch(R->space(), **S, Eval, Opts);
    // A simulation can only find what the recording measured.
    if (Result.Best &&
        (!Optimum || *Result.Trials[*Result.Best].Time < *Optimum))
      __builtin_trap();
  }
  return 0;
}
