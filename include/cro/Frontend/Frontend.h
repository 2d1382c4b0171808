//===- Frontend.h - parse a user's .cu file with Clang, host and device ---===//
//
// A CUDA file is two programs: the host side (x86-64, sees the launches) and
// the device side (NVPTX, sees `#ifdef __CUDA_ARCH__` code in kernels). The
// frontend parses both, with the real CUDA headers and Clang's embedded
// resource headers, and keeps both ASTs alive for analyses and rewrites.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_FRONTEND_FRONTEND_H
#define CRO_FRONTEND_FRONTEND_H

#include "cro/Frontend/CudaToolkit.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace cro {

/// The stack of the threads that parse and analyse (the tool's worker and
/// the device-side parse): deep enough for the nesting of valid CUDA that
/// an 8 MB stack is not (a 10,000-term sum, deep macro chains).
constexpr unsigned DeepStackBytes = 1024u << 20;

struct FrontendOptions {
  std::string InputFile;
  std::string BuildPath; ///< -p: directory of compile_commands.json
  std::vector<std::string> ExtraArgs; ///< compiler arguments after `--`
  std::string CudaPath;               ///< --cuda-path
  std::string GpuArch;                ///< --cuda-gpu-arch ("" = choose)
  /// Clang's errors are not ExitCode::ParseError but a ParsedFile whose
  /// Errors says what went wrong (the caller decides what can still be done
  /// without a model: compiler flags, when nvcc compiles the file).
  bool KeepFailedParse = false;
  /// Text the parse sees after the main file's own (a generated harness):
  /// its launches are modelled like the file's, and rewrites reach them.
  std::string MainFileSuffix;
};

struct ParsedFile {
  std::string MainFile; ///< absolute path of the input
  CudaToolkit Cuda;
  std::string GpuArch;       ///< e.g. sm_90
  std::string GpuArchSource; ///< why: "--cuda-gpu-arch", "build flags", "local
                             ///< GPU", "default"
  std::vector<std::string> ClangArgs; ///< the arguments both parses used
  /// nvcc flags from compile_commands.json (empty when not built by nvcc).
  std::vector<std::string> NvccBuildFlags;
  std::unique_ptr<clang::ASTUnit> Host;
  std::unique_ptr<clang::ASTUnit> Device;
  /// With KeepFailedParse: how many errors Clang reported, and the first
  /// ("file:line:col: error: message"). With any, the ASTs are incomplete
  /// (either may be null) and must not be analysed.
  unsigned NumErrors = 0;
  std::string FirstError;
  bool parsed() const { return NumErrors == 0 && Host && Device; }
};

/// Checks that Path names a readable regular file (ExitCode::InputUnreadable).
llvm::Error checkInputReadable(llvm::StringRef Path);

/// Parses the input twice (--cuda-host-only and --cuda-device-only), in
/// parallel. Errors found by Clang are printed to Diags (file:line:col, each
/// once even if both sides report it) and turned into ExitCode::ParseError
/// (or, with Opts.KeepFailedParse, into ParsedFile::NumErrors/FirstError).
/// Warnings are not printed: the user's code is not ours to lint, and Clang's
/// "CUDA version is newer than the latest supported" is expected with CUDA 13.
llvm::Expected<std::unique_ptr<ParsedFile>>
parseCudaFile(const FrontendOptions &Opts, llvm::raw_ostream &Diags);

} // namespace cro

#endif
