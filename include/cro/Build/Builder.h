//===- Builder.h - compile variants with nvcc, many at once, never twice --===//
//
// Each variant is compiled with the original's flags plus its own, by a
// command given as an argument vector (never through a shell), in parallel.
// Results -- executables and compile failures with nvcc's message -- are kept
// in a content-addressed cache keyed by the source, the command and the
// compiler's identity, so an identical variant is never compiled twice, in
// this run or a later one.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_BUILD_BUILDER_H
#define CRO_BUILD_BUILDER_H

#include "cro/Execute/Executor.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cro {

struct BuildOptions {
  std::string Compiler = "nvcc"; ///< path, or a name looked up on PATH
  /// The command, one argument per element, with placeholders {flags} (the
  /// original's flags, then the variant's), {src} and {exe}. Empty means
  /// `<Compiler> {flags} {src} -o {exe}`. From --build "nvcc {flags} {src}
  /// other.cu -o {exe}" for multi-file programs.
  std::vector<std::string> Template;
  std::vector<std::string> Flags; ///< the original's build flags
  /// Where the original lives: its directory is added as -I so relative
  /// includes still resolve from the variant's temporary copy.
  std::string OriginalPath;
  /// The user's files the original includes from its directory or below
  /// (path from that directory, text): written beside the variant's copy,
  /// so that a rewritten copy of an included file finds its neighbours as
  /// the original does (-I finds only what sits beside the main file).
  std::vector<std::pair<std::string, std::string>> ProgramFiles;
  std::string CacheDir; ///< "" = ~/.cache/cuda-rewrite-opt/build
  unsigned Jobs = 0;    ///< 0 = one per hardware thread
  double TimeoutSeconds = 900;
  /// Where the compiles run (nullptr = this host). The work and cache
  /// directories must be visible where they run.
  Executor *Via = nullptr;
};

struct BuildRequest {
  std::string Source;             ///< the variant's full text
  std::vector<std::string> Flags; ///< the variant's own nvcc flags
  /// The variant's rewritten copies of included files (path from the main
  /// file's directory, text), which its `#include` lines name.
  std::vector<std::pair<std::string, std::string>> Files = {};
};

struct BuildResult {
  bool Ok = false;
  bool Cached = false;    ///< taken from the cache, not compiled now
  std::string Executable; ///< in the cache; valid while the cache is
  std::string Log;        ///< the compiler's output (the error, on failure)
  std::string Key;        ///< content address
  double Seconds = 0;     ///< compile time (0 when cached)
};

/// Splits a --build template into arguments at whitespace; no shell quoting
/// or expansion happens, so paths cannot inject commands.
std::vector<std::string> splitBuildTemplate(llvm::StringRef Template);

class Builder {
public:
  explicit Builder(BuildOptions Opts);

  /// Builds every request (identical ones once), up to Jobs at a time.
  /// Results are in request order. Errors only for a broken cache directory
  /// or compiler: a variant that fails to compile is a result, not an error.
  llvm::Expected<std::vector<BuildResult>>
  build(llvm::ArrayRef<BuildRequest> Requests);

  /// The full command a request is compiled with ({src}/{exe} filled in).
  std::vector<std::string> command(const BuildRequest &R, llvm::StringRef Src,
                                   llvm::StringRef Exe) const;
  /// `<compiler> --version`, part of every cache key.
  llvm::Expected<std::string> compilerIdentity();

private:
  BuildResult buildOne(const BuildRequest &R, const std::string &Key);
  std::string keyOf(const BuildRequest &R) const;

  BuildOptions Opts;
  std::string Identity;
};

} // namespace cro

#endif
