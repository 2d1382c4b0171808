//===- Knob.cpp - knob roles and the JSON of knobs and refusals -----------===//
#include "cro/Rewrite/Knob.h"

using namespace llvm;

namespace cro {

namespace {

struct RoleEntry {
  KnobRole Role;
  StringRef Name;
};

constexpr RoleEntry Roles[] = {
    {KnobRole::Other, "other"},
    {KnobRole::BlockShape, "block-shape"},
    {KnobRole::LaunchBounds, "launch-bounds"},
    {KnobRole::RegisterCap, "register-cap"},
    {KnobRole::CompilerFlag, "compiler-flag"},
    {KnobRole::Unroll, "unroll"},
    {KnobRole::ReadOnlyCache, "read-only-cache"},
    {KnobRole::Coarsening, "coarsening"},
    {KnobRole::SharedStaging, "shared-staging"},
    {KnobRole::RegisterTiling, "register-tiling"},
    {KnobRole::Vectorization, "vectorization"},
    {KnobRole::LoopTiling, "loop-tiling"},
    {KnobRole::Privatization, "privatization"},
    {KnobRole::ScalarReplacement, "scalar-replacement"},
    {KnobRole::WarpCooperation, "warp-cooperation"},
};

json::Value strOrNull(StringRef S) {
  return S.empty() ? json::Value(nullptr) : json::Value(S.str());
}

} // namespace

StringRef roleName(KnobRole R) {
  for (const RoleEntry &E : Roles)
    if (E.Role == R)
      return E.Name;
  return "other";
}

KnobRole roleNamed(StringRef Name) {
  for (const RoleEntry &E : Roles)
    if (E.Name == Name)
      return E.Role;
  return KnobRole::Other;
}

const Knob *KnobSet::find(StringRef Id) const {
  for (const Knob &K : Knobs)
    if (K.Id == Id)
      return &K;
  return nullptr;
}

json::Value toJSON(const Knob &K) {
  json::Object O{{"id", K.Id},
                 {"kernel", K.Kernel},
                 {"transform", K.Transform},
                 {"role", roleName(K.Role)},
                 {"values", json::Array(K.Values)},
                 {"default", K.Default}};
  if (!K.Requires.empty())
    O["requires"] = json::Array(K.Requires);
  return O;
}

json::Value toJSON(const Refusal &R) {
  return json::Object{{"kernel", strOrNull(R.Kernel)},
                      {"transform", R.Transform},
                      {"reason", R.Reason},
                      {"location", strOrNull(R.Location)}};
}

} // namespace cro
