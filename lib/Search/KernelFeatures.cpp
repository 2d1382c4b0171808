//===- KernelFeatures.cpp - what the agent's priors know of a kernel ------===//
#include "cro/Search/Strategy.h"

using namespace llvm;

namespace cro {

KernelFeatures kernelFeatures(const KernelModel &Model) {
  KernelFeatures F;
  F.Kernels = unsigned(Model.Kernels.size());
  bool AllStreaming = !Model.Kernels.empty();
  for (const KernelInfo &K : Model.Kernels) {
    const ThreadMapping &M = K.Mapping;
    if (M.Reduction && M.Reduction->Refusal.empty())
      F.HasReductionLoop = true;
    F.HasLoops |= !K.Loops.empty();
    AllStreaming &= K.Loops.empty() && M.Reason.empty();
    for (const AccessInfo &A : K.Accesses) {
      if (A.Space != "global")
        continue;
      ++F.Accesses;
      // A read inside a loop is read again by other iterations or threads:
      // the reuse that staging and tiling exploit.
      if (A.Mode == "read" && !A.Loop.empty())
        ++F.ReusedLoads;
    }
  }
  F.Streaming = AllStreaming;
  return F;
}

json::Value toJSON(const KernelFeatures &F) {
  return json::Object{{"kernels", F.Kernels},
                      {"has_reduction_loop", F.HasReductionLoop},
                      {"has_loops", F.HasLoops},
                      {"streaming", F.Streaming},
                      {"reused_loads", F.ReusedLoads},
                      {"accesses", F.Accesses}};
}

bool fromJSON(const json::Value &V, KernelFeatures &F, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.mapOptional("kernels", F.Kernels) &&
         O.mapOptional("has_reduction_loop", F.HasReductionLoop) &&
         O.mapOptional("has_loops", F.HasLoops) &&
         O.mapOptional("streaming", F.Streaming) &&
         O.mapOptional("reused_loads", F.ReusedLoads) &&
         O.mapOptional("accesses", F.Accesses);
}

} // namespace cro
