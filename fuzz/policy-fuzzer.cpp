// An external policy's answers (--strategy external:CMD): any line, read
// against a space of the fixed knobs. Proposals are points of the space; at
// most N; nothing else is proposed when the line is not {"configs": [...]}.
#include "FuzzSupport.h"
#include "cro/Search/Strategies.h"

using namespace cro;
using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const SearchSpace Space = [] {
    Expected<SearchSpace> S =
        SearchSpace::fromKnobs(fuzzKnobs(), tableLimits("sm_90"));
    if (!S)
      __builtin_trap();
    return std::move(*S);
  }();
  const unsigned N = 1 + Size % 5;
  ExternalReply R = parseExternalReply(
      StringRef(reinterpret_cast<const char *>(Data), Size), Space, N);
  if (R.Proposals.size() > N || (!R.Failure.empty() && !R.Proposals.empty()))
    __builtin_trap();
  for (const Proposal &P : R.Proposals) {
    Expected<Point> Back = Space.pointOf(Space.config(P.P));
    if (!Back || *Back != P.P)
      __builtin_trap();
  }
  return 0;
}
