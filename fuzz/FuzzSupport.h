//===- FuzzSupport.h - what the JSON-reader fuzzers share -----------------===//
//
// The readers judge what they read against the knobs a file offers; the
// fuzzers give them one of each kind (a block shape in two dimensions, a
// choice of words, booleans, integers, a compiler flag), as --analyze lists
// them, so that valid-looking inputs reach the deeper checks.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_FUZZ_FUZZSUPPORT_H
#define CRO_FUZZ_FUZZSUPPORT_H

#include "cro/Rewrite/Knob.h"
#include "cro/Support/InputFile.h"
#include "llvm/Support/JSON.h"
#include <optional>

namespace cro {

/// The input as the tool's JSON reader takes it; nothing when it refuses it
/// (an error is an expected outcome, not a finding).
inline std::optional<llvm::json::Value> fuzzJson(const uint8_t *Data,
                                                 size_t Size) {
  llvm::Expected<llvm::json::Value> V = parseJsonBounded(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size));
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  return std::move(*V);
}

inline KnobSet fuzzKnobs() {
  using llvm::json::Array;
  using llvm::json::Value;
  KnobSet S;
  auto Add = [&](const char *Id, const char *Kernel, const char *Transform,
                 KnobRole Role, std::vector<Value> Values, Value Default) {
    Knob K;
    K.Id = Id;
    K.Kernel = Kernel;
    K.Transform = Transform;
    K.Role = Role;
    K.Values = std::move(Values);
    K.Default = std::move(Default);
    S.Knobs.push_back(std::move(K));
  };
  Add("k.block", "k", "block-size", KnobRole::BlockShape,
      {Value(Array{16, 16}), Value(Array{32, 8}), Value(Array{64, 4}),
       Value(Array{32, 32})},
      Value(Array{16, 16}));
  Add("k.shared_stage", "k", "shared-stage", KnobRole::SharedStaging,
      {"none", 8, 16, 32}, "none");
  Add("k.unroll.L0", "k", "unroll", KnobRole::Unroll, {1, 2, 4, 8}, 1);
  Add("k.read_only", "k", "read-only", KnobRole::ReadOnlyCache, {false, true},
      false);
  Add("k.coarsen", "k", "coarsen", KnobRole::Coarsening, {1, 2, 4}, 1);
  Add("nvcc.dlcm", "", "nvcc-flags", KnobRole::CompilerFlag,
      {"default", "ca", "cg"}, "default");
  Add("nvcc.maxrregcount", "", "launch-bounds", KnobRole::RegisterCap,
      {0, 32, 64, 128, 255}, 0);
  return S;
}

} // namespace cro

#endif // CRO_FUZZ_FUZZSUPPORT_H
