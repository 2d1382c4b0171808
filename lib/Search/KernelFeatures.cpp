//===- KernelFeatures.cpp - what the agent's priors know of a kernel ------===//
#include "cro/Search/Strategy.h"

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

} // namespace cro
