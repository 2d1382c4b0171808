//===- NvccParity.h - what nvcc adds to every compilation by itself -------===//
//
// A file that nvcc compiles relies on more than its own #includes: nvcc adds
// the toolkit's CCCL headers (libcu++, Thrust, CUB) to the include path,
// pre-includes cuda_runtime.h (which pulls in <time.h>, <stdio.h>, host
// overloads of min/max, ...), and runs the host compiler, whose own include
// directory holds <omp.h>. Clang's CUDA mode does none of this, so without
// help the tool cannot parse a file its user builds every day. This is the
// one place that supplies those pieces, each found from the toolkit or the
// host compiler in use, never written down for one version.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_FRONTEND_NVCCPARITY_H
#define CRO_FRONTEND_NVCCPARITY_H

#include "cro/Frontend/CudaToolkit.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <string>
#include <vector>

namespace cro {

/// The include directories nvcc adds on its own, as Clang arguments: what the
/// toolkit's bin/nvcc.profile lists under INCLUDES and SYSTEM_INCLUDES (in
/// CUDA 13: `-isystem <root>/targets/<arch>/include/cccl`), with nvcc's
/// variables ($(TOP), $(_HERE_), $(_TARGET_DIR_)) substituted. Directories
/// that do not exist, and the toolkit's include/ (which Clang adds itself),
/// are left out. A toolkit without nvcc.profile (a pip wheel, a container
/// that copied only headers) gets `-isystem <root>/include/cccl` when that
/// directory exists.
std::vector<std::string> nvccImplicitIncludeArgs(const CudaToolkit &Cuda);

/// Parses the text of an nvcc.profile into the include arguments above.
/// Separate from the file system for tests; Exists decides which
/// directories are kept.
std::vector<std::string>
includeArgsFromNvccProfile(llvm::StringRef Profile, llvm::StringRef Root,
                           llvm::StringRef TargetDir,
                           llvm::function_ref<bool(llvm::StringRef)> Exists);

/// nvcc's per-host-architecture target directory under the toolkit root
/// (targets/x86_64-linux, targets/sbsa-linux, ...): the one whose include/
/// exists, preferring the host's own architecture.
std::string nvccTargetDir(llvm::StringRef Root);

/// Clang diagnostics that are errors by default where nvcc (its EDG front
/// end and the host compiler) accepts the code: C++17's removal of
/// `register` (old CUDA code declares `register float x;`; nvcc says
/// nothing) and narrowing a non-constant in braces (`int2 v = {f, g}` with
/// floats; nvcc warns). As Clang arguments, after the user's own.
std::vector<std::string> nvccDiagnosticParityArgs();

/// The header the tool pre-includes after Clang's CUDA wrapper: host
/// declarations nvcc's cuda_runtime.h provides and Clang's wrapper does not
/// (the C headers crt/common_functions.h includes, and the __host__
/// __device__ min/max overloads of crt/math_functions.hpp, which Clang
/// declares __device__ only). A program that defines its own host max(int,
/// int) fails with nvcc as well, so declaring them keeps parity.
llvm::StringRef hostCompatHeaderPath();
llvm::StringRef hostCompatHeaderText();

/// Adds the compat header to an in-memory file system at its path.
void addHostCompatHeader(llvm::vfs::InMemoryFileSystem &FS);

/// The host compiler's own include directory (GCC's lib/gcc/<triple>/<v>/
/// include, where <omp.h> lives), as Clang's driver finds the GCC
/// installation for libstdc++; "" when there is none. nvcc's host compiler
/// searches it for every file, so `#include <omp.h>` works there without a
/// flag.
std::string hostCompilerIncludeDir();

} // namespace cro

#endif
