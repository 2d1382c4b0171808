#include "cro/Build/CompileCheck.h"
#include "cro/Support/Process.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cro {

namespace {

/// nvcc's first error ("k.cu(3): error: ...", "fatal error: ..."), else its
/// last line.
std::string firstErrorLine(StringRef Log) {
  SmallVector<StringRef, 32> Lines;
  Log.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef L : Lines)
    if (L.contains("error"))
      return L.trim().str();
  return Lines.empty() ? "" : Lines.back().trim().str();
}

} // namespace

Expected<std::string> whyNvccRejects(StringRef Nvcc, StringRef File,
                                     ArrayRef<std::string> Flags,
                                     double TimeoutSeconds) {
  SmallString<128> Dir;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("cro-compile-check", Dir))
    return makeToolError(ExitCode::Internal,
                         "cannot create a temporary directory: " +
                             EC.message());
  SmallString<128> Object(Dir), Log(Dir);
  sys::path::append(Object, "check.o");
  sys::path::append(Log, "nvcc.log");
  std::vector<std::string> Argv{Nvcc.str()};
  Argv.insert(Argv.end(), Flags.begin(), Flags.end());
  Argv.insert(Argv.end(), {"-c", File.str(), "-o", Object.str().str()});
  ProcessOptions P;
  P.StdoutFile = P.StderrFile = Log.str().str();
  P.TimeoutSeconds = TimeoutSeconds;
  ProcessResult R = runProcess(Argv, P);
  std::string Why;
  if (!R.Started) {
    sys::fs::remove_directories(Dir);
    return makeToolError(ExitCode::Internal,
                         "cannot run '" + Nvcc + "': " + R.StartError);
  }
  if (!R.succeeded()) {
    auto Text = MemoryBuffer::getFile(Log);
    Why = Text ? firstErrorLine((*Text)->getBuffer()) : "";
    if (Why.empty() || R.TimedOut || R.Signal)
      Why = "nvcc " + R.describe() + (Why.empty() ? "" : ": " + Why);
  }
  sys::fs::remove_directories(Dir);
  return Why;
}

} // namespace cro
