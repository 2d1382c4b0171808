//===- Knob.h - what transforms offer: knobs, their roles, refusals -------===//
//
// A knob is one decision a transform can change in the source (a kernel's
// block shape, an unroll factor, a compiler flag), with its legal values and
// the value the source has today. Knobs belong to the rewrite layer: the
// kernel model describes the program, the transforms describe what they can
// do with it (describeKnobs), and the search explores the knobs.
//
// Each knob has a role: what kind of decision it is. The search and the
// space reason about roles -- the block shape decides threads per block,
// a register cap is checked against the register file, staging pays on
// reused operands -- never about which transform offers the knob, so a new
// transform that offers a knob of an existing role is searched well from
// the start, and one with a new role gets the generic treatment.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_REWRITE_KNOB_H
#define CRO_REWRITE_KNOB_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace cro {

enum class KnobRole {
  Other,             ///< none of the below (or a recorded space without roles)
  BlockShape,        ///< threads per block in each dimension: 256, [16, 8]
  LaunchBounds,      ///< __launch_bounds__ minimum blocks per SM
  RegisterCap,       ///< registers per thread (-maxrregcount)
  CompilerFlag,      ///< any other compiler flag (-dlcm, -O levels, ...)
  Unroll,            ///< a loop's unroll factor
  ReadOnlyCache,     ///< loads through the read-only path (const __restrict__)
  Coarsening,        ///< work items per thread
  SharedStaging,     ///< operands staged in shared memory (and its padding)
  RegisterTiling,    ///< outputs per thread held in registers
  Vectorization,     ///< elements per load/store instruction
  LoopTiling,        ///< a loop strip-mined into tiles
  Privatization,     ///< per-block private copies of atomically updated data
  ScalarReplacement, ///< global elements held in registers across a loop
  WarpCooperation,   ///< a thread's serial loop split across a warp's lanes
};

/// The role's name in JSON and reports ("block-shape").
llvm::StringRef roleName(KnobRole R);
/// The role of a name roleName gives; Other for anything else.
KnobRole roleNamed(llvm::StringRef Name);

struct Knob {
  std::string Id, Kernel, Transform;
  KnobRole Role = KnobRole::Other;
  std::vector<llvm::json::Value> Values; ///< the legal domain
  llvm::json::Value Default = nullptr;   ///< what the source does today
  /// Knobs that must leave their defaults for this one to leave its own (a
  /// tile sized by a block the launches choose at run time needs
  /// `<kernel>.block` set to a constant); a configuration without them is
  /// refused when applied.
  std::vector<std::string> Requires;
};

/// A transform that offers no knob for a kernel, and why.
struct Refusal {
  std::string Kernel; ///< "" for file-wide transforms
  std::string Transform;
  std::string Reason;
  std::string Location; ///< what the reason is about, when it is one place
};

/// Everything the transforms offer for one file.
struct KnobSet {
  std::vector<Knob> Knobs;
  std::vector<Refusal> Refused;
  const Knob *find(llvm::StringRef Id) const;
};

llvm::json::Value toJSON(const Knob &K);
llvm::json::Value toJSON(const Refusal &R);

/// The block shape a block-shape knob value gives (256 -> {256, 1, 1},
/// [16, 8] -> {16, 8, 1}); nullopt for anything else.
inline std::optional<std::array<int64_t, 3>>
blockShapeOfValue(const llvm::json::Value &V) {
  std::array<int64_t, 3> Shape{1, 1, 1};
  if (std::optional<int64_t> N = V.getAsInteger()) {
    Shape[0] = *N;
    return Shape;
  }
  if (const llvm::json::Array *A = V.getAsArray()) {
    for (size_t I = 0; I < A->size() && I < 3; ++I) {
      std::optional<int64_t> N = (*A)[I].getAsInteger();
      if (!N)
        return std::nullopt;
      Shape[I] = *N;
    }
    return Shape;
  }
  return std::nullopt;
}

} // namespace cro

#endif
