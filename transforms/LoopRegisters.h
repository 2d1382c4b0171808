//===- LoopRegisters.h - helpers for keeping a loop's elements in registers
//===//
//
// scalar-replace (an element the loop reads and writes at one index) and
// carry-forward (the element one iteration stores and the next reads) both
// put a loop inside a block that declares registers, offer one knob per
// loop, and refuse where a pointer that escapes the analysis may reach the
// element. The shared parts live here.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TRANSFORMS_LOOPREGISTERS_H
#define CRO_TRANSFORMS_LOOPREGISTERS_H

#include "cro/Rewrite/Transform.h"
#include <functional>

namespace cro {

/// What a transform found for one loop: nothing to hold in registers
/// (Relevant false), a refusal, or a plan (Refusal empty).
struct LoopVerdict {
  bool Relevant = false;
  std::string Refusal;
};

/// Offers `<kernel>.<KnobName>.<loop>` (false/true) for every loop of K
/// outside macros that Verdict finds relevant and does not refuse, refuses
/// the others it finds relevant, and refuses K with NoneReason when no loop
/// is.
void offerPerLoop(const KernelInfo &K, KnobSink &Out, llvm::StringRef KnobName,
                  const std::function<LoopVerdict(const LoopInfo &)> &Verdict,
                  llvm::StringRef NoneReason);

/// Inserts Text (whole lines, indented by the caller) before L and before
/// its unroll pragma, if it has one -- and before the pragma unroll
/// inserts, since the transforms that use this are registered before it
/// and insertions at one offset keep their order.
llvm::Error insertBeforeLoop(llvm::StringRef Src, const LoopInfo &L,
                             const std::string &Text, EditSet &Out);

/// Why a pointer parameter of K that escapes the analysis may reach Array
/// (its accesses then go unseen), as "'p' escapes the analysis (why), so
/// 'Array' may be accessed where the model does not see it"; "" when none.
std::string escapedAliasRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                                llvm::StringRef Array,
                                llvm::StringRef Verb = "accessed");

} // namespace cro

#endif
