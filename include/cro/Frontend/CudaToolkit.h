//===- CudaToolkit.h - locate the CUDA toolkit the input is parsed with ---===//
#ifndef CRO_FRONTEND_CUDATOOLKIT_H
#define CRO_FRONTEND_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <string>

namespace cro {

struct CudaToolkit {
  std::string Root;     ///< e.g. /usr/local/cuda
  std::string FoundVia; ///< "--cuda-path", "CUDA_HOME", "CUDA_PATH", "nvcc on
                        ///< PATH", "default"
  std::string Version;  ///< from version.json/version.txt, "" when unknown
};

/// Where the lookup reads the environment from; tests substitute their own.
struct CudaSearchEnvironment {
  std::function<std::optional<std::string>(llvm::StringRef)> GetEnv;
  std::function<std::optional<std::string>(llvm::StringRef)> FindProgram;
  std::string DefaultRoot = "/usr/local/cuda";
  static CudaSearchEnvironment process();
};

/// Finds the toolkit, in this order: ExplicitPath (--cuda-path), $CUDA_HOME,
/// $CUDA_PATH, the toolkit holding `nvcc` on PATH, Env.DefaultRoot
/// (/usr/local/cuda). A
/// directory counts as a toolkit when it has include/cuda_runtime.h. An
/// explicit path that is not a toolkit is an error (it is never skipped
/// silently); so is finding nothing (ExitCode::CudaNotFound).
llvm::Expected<CudaToolkit> findCudaToolkit(
    llvm::StringRef ExplicitPath,
    const CudaSearchEnvironment &Env = CudaSearchEnvironment::process());

/// True when Dir looks like a CUDA toolkit root.
bool isCudaToolkitRoot(llvm::StringRef Dir);

} // namespace cro

#endif
