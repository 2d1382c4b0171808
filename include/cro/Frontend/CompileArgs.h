//===- CompileArgs.h - the user's build flags, made fit for Clang ---------===//
//
// Users build CUDA with nvcc (or clang, or g++ for the host side). The flags
// that change what a parse sees -- include paths, macros, the language
// standard, forced includes -- are kept and spelled the way Clang's driver
// understands them; everything else (optimization, code generation, linking)
// is dropped, because an unknown nvcc flag would make Clang reject the file.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_FRONTEND_COMPILEARGS_H
#define CRO_FRONTEND_COMPILEARGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace cro {

struct TranslatedArgs {
  std::vector<std::string> Args;      ///< flags for Clang
  std::optional<std::string> GpuArch; ///< first real GPU arch named (sm_XX)
  std::vector<std::string> Dropped;   ///< flags that do not affect parsing
  /// From a compile_commands.json entry compiled with nvcc: its flags as
  /// they are, less the source file, -c and -o FILE (to build variants with).
  std::vector<std::string> NvccBuildFlags;
};

/// Translates a compiler command line (without argv[0]). With IsNvcc the
/// nvcc spellings (--include-path, -arch, -gencode, -Xcompiler, ...) are
/// understood; otherwise GCC/Clang spellings.
TranslatedArgs translateCompilerArgs(llvm::ArrayRef<std::string> Args,
                                     bool IsNvcc);

/// An argument of a command line (nvcc, or Clang's spelling of what it
/// keeps) that holds a path: an include directory (-I dir, -Idir,
/// -isystem, -iquote, -idirafter, --include-path[=]dir,
/// --system-include[=]dir) or a pre-included file (-include,
/// --pre-include). The path is Args[ValueIndex] from ValueOffset on; the
/// flag is Args[FlagIndex] (the same argument when the path is glued on).
struct PathArgument {
  size_t FlagIndex;
  size_t ValueIndex;
  size_t ValueOffset;
  bool Directory; ///< an include directory, not a file
};
std::vector<PathArgument> pathArguments(llvm::ArrayRef<std::string> Args);

/// Normalises an nvcc or clang architecture name to Clang's "sm_XX" form:
/// "sm_90", "compute_90", "90" -> "sm_90"; "sm_90a" stays. Returns nullopt
/// for virtual selectors such as "native" or "all".
std::optional<std::string> normalizeGpuArch(llvm::StringRef Arch);

/// Reads the compile command of File from BuildDir/compile_commands.json and
/// translates it. Errors are ToolErrors with ExitCode::BadBuildConfig.
llvm::Expected<TranslatedArgs>
argsFromCompilationDatabase(llvm::StringRef BuildDir, llvm::StringRef File);

} // namespace cro

#endif
