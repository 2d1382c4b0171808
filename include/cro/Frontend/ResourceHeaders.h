//===- ResourceHeaders.h - Clang's resource headers, carried in the binary ===//
//
// Clang needs its own headers (stddef.h, the CUDA wrappers
// __clang_cuda_runtime_wrapper.h, cuda_wrappers/...) to parse CUDA. The GPU
// machine has no LLVM installation, so the build packs them into the binary
// (tools/embed-resources) and the frontend serves them from memory under a
// virtual resource directory.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_FRONTEND_RESOURCEHEADERS_H
#define CRO_FRONTEND_RESOURCEHEADERS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <string>
#include <utility>
#include <vector>

namespace cro {

/// The root of every file the frontend serves from memory (Clang's resource
/// headers, the nvcc-parity header): no file of the user's lives under it.
inline constexpr llvm::StringLiteral EmbeddedRoot =
    "/cuda-rewrite-opt-embedded";

class ResourceHeaders {
public:
  /// The embedded headers, decompressed on first use (thread-safe).
  static llvm::Expected<const ResourceHeaders *> get();

  /// The directory passed to Clang as -resource-dir; the headers appear under
  /// resourceDir()/include.
  static llvm::StringRef resourceDir();

  /// Number of embedded files.
  size_t size() const { return Files.size(); }

  /// The directories the headers are served under: resourceDir()/include,
  /// and the builtin include directory Debian's driver hard-codes.
  static std::vector<std::string> includeDirs();

  /// Adds every header to FS under each of includeDirs(). The buffers are
  /// referenced, not copied: they live as long as the process.
  void addTo(llvm::vfs::InMemoryFileSystem &FS) const;

  /// Parses an archive in the format written by cro-embed-resources.
  static llvm::Expected<ResourceHeaders> fromBlob(llvm::StringRef Blob);

private:
  std::string Raw;
  std::vector<std::pair<llvm::StringRef, llvm::StringRef>> Files;
};

} // namespace cro

#endif
