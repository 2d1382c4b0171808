//===- CarryForward.h - a recurrence's previous element in a register -----===//
#ifndef CRO_TRANSFORMS_CARRYFORWARD_H
#define CRO_TRANSFORMS_CARRYFORWARD_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// Knob `<kernel>.carry_forward.<loop>`: false, or true to hand the element
/// one iteration of a loop stores to the next iteration in a register,
/// instead of reading it back from memory (`sums[k] += sums[k - 1]`, a
/// running sum; `c[i] = c[i] / (b[i] - a[i] * c[i - 1])`, the forward sweep
/// of a tridiagonal solve). The read of the element stored the iteration
/// before waits on that store's round trip through the memory system in
/// every iteration; the register turns the loop's critical path into the
/// arithmetic alone. Every store still happens, in the same order, and the
/// register holds exactly the value stored, so results are bit-identical.
///
/// Legal where the model proves it: the loop's counter changes only by its
/// constant step; one store to the array runs in every iteration, at an
/// index that moves with the counter and is otherwise fixed in the loop,
/// and its expression's value is the element stored; a read of the same
/// array at that index one step back is what is carried; nothing in the
/// loop skips the rest of an iteration (continue, goto); no other write in
/// the loop may reach the array (the same array elsewhere, another pointer
/// the launches may pass the same memory, unless __restrict__ or
/// --assume-no-alias, a pointer that escapes the analysis); no barrier or
/// other exchange between threads in the loop. The first iteration reads
/// memory, as the original does, only where the original reads it.
class CarryForward : public Transform {
public:
  llvm::StringRef name() const override { return "carry-forward"; }
  KnobRole role() const override { return KnobRole::ScalarReplacement; }
  void describe(const RewriteContext &Ctx, const KernelInfo &K,
                KnobSink &Out) const override;
  llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                    const llvm::json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const override;
};

} // namespace cro

#endif
