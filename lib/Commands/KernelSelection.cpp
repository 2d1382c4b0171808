//===- KernelSelection.cpp - `--kernel`: tune only the kernels named ------===//
#include "cro/Commands/KernelSelection.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

Error selectKernels(ArrayRef<std::string> Kernels, KernelModel &M,
                    KnobSet &Offered) {
  if (Kernels.empty())
    return Error::success();
  if (!M.Unparsed.empty())
    return makeToolError(
        ExitCode::UnknownKernel,
        "--kernel names a kernel, but Clang could not parse '" + M.File +
            "', so its kernels are not known; without "
            "--kernel the compiler flags of the whole "
            "program are offered");
  auto Matches = [&](const KernelInfo &K) {
    return llvm::any_of(
        Kernels, [&](const std::string &W) { return isKernelNamed(K, W); });
  };
  for (const std::string &W : Kernels) {
    if (llvm::none_of(M.Kernels, [&](const KernelInfo &K) {
          return isKernelNamed(K, W);
        })) {
      std::string Names;
      for (const KernelInfo &K : M.Kernels)
        Names += (Names.empty() ? "" : ", ") + K.Id;
      return makeToolError(ExitCode::UnknownKernel,
                           "no kernel named '" + W + "' in '" + M.File +
                               "' (kernels: " + Names + ")");
    }
  }
  std::vector<KernelInfo> Kept;
  for (KernelInfo &K : M.Kernels)
    if (Matches(K))
      Kept.push_back(std::move(K));
  M.Kernels = std::move(Kept);
  auto Dropped = [&](const std::string &Kernel) {
    if (Kernel.empty())
      return false; // file-wide knobs stay
    for (const KernelInfo &K : M.Kernels)
      if (K.Id == Kernel)
        return false;
    return true;
  };
  llvm::erase_if(Offered.Knobs,
                 [&](const Knob &K) { return Dropped(K.Kernel); });
  llvm::erase_if(Offered.Refused,
                 [&](const Refusal &R) { return Dropped(R.Kernel); });
  return Error::success();
}

} // namespace cro
