//===- ModelSummary.cpp - what the tool prints for a file by default ------===//
#include "cro/Commands/ModelSummary.h"

using namespace llvm;

namespace cro {

namespace {

/// A launch dimension as spelled, with where its value comes from.
std::string describeDim3(const LaunchDim3 &D) {
  std::string S;
  for (const ValueOrigin &V : D.Dims) {
    if (V.Kind == "default")
      continue;
    if (!S.empty())
      S += " x ";
    S += V.Text.empty() ? "1" : V.Text;
    if (V.Kind == "macro" || V.Kind == "constant" || V.Kind == "literal" ||
        V.Kind == "constant-expr") {
      if (V.Value && V.Kind != "literal")
        S += " (=" + std::to_string(*V.Value) + ")";
    } else {
      S += " [" + V.Kind + "]";
    }
    if (V.Derived)
      S += " [" + V.Derived->Form + " of " + V.Derived->Extent +
           (V.Derived->BlockDim.empty() ? ""
                                        : " by block." + V.Derived->BlockDim) +
           "]";
  }
  return S;
}

} // namespace

void printModelSummary(const KernelModel &M,
                       const std::optional<LocalGpu> &Gpu, raw_ostream &OS) {
  if (!M.Unparsed.empty())
    OS << M.File << ": not parsed by Clang (" << M.Unparsed
       << "); nvcc compiles it, so its compiler flags can be tuned\n";
  else
    OS << M.File << ": " << M.Kernels.size() << " kernel"
       << (M.Kernels.size() == 1 ? "" : "s") << " (parsed for " << M.GpuArch
       << " with CUDA " << (M.CudaVersion.empty() ? "?" : M.CudaVersion)
       << ")\n";
  for (const KernelInfo &K : M.Kernels) {
    OS << "\n  " << K.Id << "  at " << K.Location << "\n";
    OS << "    launches: " << K.Launches.size() << "\n";
    for (const LaunchSite &L : K.Launches)
      OS << "      " << L.Location << "  grid " << describeDim3(L.Grid)
         << ", block " << describeDim3(L.Block)
         << (L.LoopDepth ? "  (in a loop)" : "") << "\n";
    unsigned Affine = 0;
    for (const AccessInfo &A : K.Accesses) {
      bool All = true;
      for (const IndexInfo &I : A.Indices)
        All &= I.Affine;
      Affine += All;
    }
    OS << "    loops: " << K.Loops.size()
       << ", memory accesses: " << K.Accesses.size() << " (" << Affine
       << " affine)"
       << ", shared arrays: " << K.SharedArrays.size() << "\n";
    OS << "    block size: "
       << (K.BlockDimUses.empty() ? "body does not read blockDim"
                                  : "body reads blockDim")
       << ", " << K.Couplings.size() << " coupled constant use"
       << (K.Couplings.size() == 1 ? "" : "s") << ", " << K.HardcodedSize.size()
       << " hard-coded literal" << (K.HardcodedSize.size() == 1 ? "" : "s")
       << "\n";
  }
  OS << "\n";
  if (Gpu)
    OS << "GPU: " << Gpu->Name << " (" << Gpu->Arch
       << "). Nothing was measured: `cuda-rewrite-opt FILE -o OUT` tunes "
          "the kernels on it (--search only searches; --measure times one "
          "variant).\n";
  else
    OS << "GPU: none found on this machine. Nothing was measured: timing and "
          "verifying variants needs an NVIDIA GPU. The analysis above is "
          "complete.\n";
  OS << "Use --analyze for the full model as JSON.\n";
}

} // namespace cro
