#include "cro/Support/AtomicFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cro {

Error writeFileAtomically(StringRef Path, StringRef Contents) {
  SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%%%";
  int FD;
  SmallString<256> TempPath;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, TempPath))
    return makeToolError(ExitCode::OutputError,
                         "cannot write '" + Path + "': " + EC.message());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      std::string Msg = OS.error().message();
      OS.clear_error();
      sys::fs::remove(TempPath);
      return makeToolError(ExitCode::OutputError,
                           "cannot write '" + Path + "': " + Msg);
    }
  }
  if (std::error_code EC = sys::fs::rename(TempPath, Path)) {
    sys::fs::remove(TempPath);
    return makeToolError(ExitCode::OutputError,
                         "cannot write '" + Path + "': " + EC.message());
  }
  return Error::success();
}

Error writeOutput(StringRef Path, StringRef Contents) {
  if (Path.empty() || Path == "-") {
    outs() << Contents;
    return Error::success();
  }
  return writeFileAtomically(Path, Contents);
}

} // namespace cro
