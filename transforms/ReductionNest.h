//===- ReductionNest.h - rewrite a per-thread reduction loop --------------===//
//
// Shared-memory staging and register tiling of a reduction loop
//     out = f(reduce over k of g(A[..row..k..], B[..k..col..]))
// change the same lines of a kernel, so one generator writes both: the
// shared-stage knob sets the tile depth TK (and padding), the register-tile
// knob sets how many outputs (RY x RX) each thread computes, and whichever
// combination the configuration holds is written once. Not a transform
// itself: shared-stage and register-tile call it.
//
// The generated kernel, for TK > 0:
//     row_first/col_first          first output of the thread
//     __shared__ T A_tile[..][..]  one per operand reused across the block
//     accumulators                 per output (arrays when RY*RX > 1)
//     for (kt = begin; kt < end; kt += TK) {
//       cooperative, guarded loads of each tile (zero outside the domain)
//       __syncthreads();
//       for (k = kt; k < kt + TK && k < end; ++k)   per output: body, with
//         staged reads taken from the tiles
//       __syncthreads();
//     }
//     per output: if (guard) { what followed the loop }
// Every thread reaches every barrier: the original guard moves onto the
// loads and the final statements. The last, partial tile is handled by the
// bound on k, never by assuming an identity value of the reduction.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TRANSFORMS_REDUCTIONNEST_H
#define CRO_TRANSFORMS_REDUCTIONNEST_H

#include "cro/Rewrite/Transform.h"

namespace cro {

/// A global array read in the reduction loop that several threads of a block
/// read too (its index lacks threadIdx.x or threadIdx.y), so one shared tile
/// serves them.
struct StagedOperand {
  std::string Base;                ///< the pointer parameter
  std::string Type;                ///< element type, unqualified
  std::string IndexText;           ///< as spelled
  bool DepX = false, DepY = false; ///< varies with the x / y output
  bool KFastest = false;           ///< consecutive k are consecutive elements
  std::vector<const AccessInfo *> Uses;
};

struct NestPlan {
  std::string Refusal; ///< why the loop cannot be rewritten ("": it can)
  /// Why a thread may keep only its one output (a local declared before
  /// the guard that the work changes would be shared between several):
  /// staging alone is fine, register tiling is not. "" when it may have
  /// several.
  std::string OneOutputOnly;
  /// Locals declared before the guard that the work changes and that each
  /// output may start again from their initial value (`float sum = 0.0f;`
  /// before `if (i < n) { for ... sum += ...; }`): with several outputs per
  /// thread, each gets its own, reset by ThreadMapping::LeadingDecl::Reset.
  std::vector<const ThreadMapping::LeadingDecl *> LeadingAccumulators;
  const ReductionLoopInfo *Loop = nullptr;
  const ThreadIndexVar *X = nullptr, *Y = nullptr;
  std::vector<StagedOperand> Staged;
  /// The loop body reads global memory that is not staged, so it must stay
  /// under the guard.
  bool UnstagedReads = false;
  /// The global element the loop adds to (`c[i * n + j] += ...`), held in
  /// a register across the work: loaded before it (unless the work first
  /// assigns it), stored after the loop. Element is one of its accesses;
  /// ElementAccesses are all of them in the statements before the loop and
  /// in the loop, which read and write the register instead.
  const AccessInfo *Element = nullptr;
  std::vector<const AccessInfo *> ElementAccesses;
  /// The work reads the element's value from before it.
  bool ElementLoaded = true;
  /// A statement before the loop accesses the element unconditionally, so
  /// it lies inside its array wherever the guard holds; otherwise the load
  /// and the store also need the loop to run.
  bool ElementAlwaysAccessed = false;
};

NestPlan planReductionNest(const RewriteContext &Ctx, const KernelInfo &K);

/// The values of the knobs that shape K's reduction nest in Config.
struct NestChoice {
  int64_t TileK = 0; ///< 0: no staging
  int64_t Pad = 0;
  int64_t RY = 1, RX = 1;
  bool changesSource() const { return TileK > 0 || RY * RX > 1; }
};
NestChoice nestChoice(const KernelInfo &K, const ResolvedConfig &Config);

/// Bytes of shared memory the tiles of Choice take with a BX x BY block
/// (elements bounded by 8 bytes: the element types are spelled, not sized).
int64_t nestSharedBytes(const NestPlan &Plan, const NestChoice &Choice,
                        int64_t BX, int64_t BY);

/// Writes K's reduction nest as Choice says (nothing when it changes
/// nothing). Called once per kernel, from the shared-stage knob.
llvm::Error emitReductionNest(const RewriteContext &Ctx, const KernelInfo &K,
                              const NestPlan &Plan, const NestChoice &Choice,
                              const ResolvedConfig &Config, EditSet &Out);

/// Knob ids, shared by the transforms that read each other's values.
inline std::string sharedStageKnob(const KernelInfo &K) {
  return K.Id + ".shared_stage";
}
inline std::string sharedPadKnob(const KernelInfo &K) {
  return K.Id + ".shared_pad";
}
inline std::string registerTileKnob(const KernelInfo &K) {
  return K.Id + ".register_tile";
}

/// True when Config rewrites K's reduction loop; the unroll knob of that
/// loop is then written by the nest, not by the unroll transform.
bool reductionNestRewritten(const RewriteContext &Ctx, const KernelInfo &K,
                            const ResolvedConfig &Config);

} // namespace cro

#endif
