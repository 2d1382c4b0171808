#include "cro/Support/AtomicFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cro {

namespace {

Error cannotWrite(StringRef Path, const Twine &Why) {
  return makeToolError(ExitCode::OutputError,
                       "cannot write '" + Path + "': " + Why);
}

/// The message of a failed write or close on OS (then cleared, so that LLVM
/// does not report it again at exit), or "".
std::string streamFailure(raw_fd_ostream &OS) {
  if (!OS.has_error())
    return "";
  std::string Msg = OS.error().message();
  OS.clear_error();
  return Msg;
}

/// Writes straight into Path, which exists and is not a regular file (a
/// device such as /dev/null, a FIFO): renaming a file over it would replace
/// the node itself.
Error writeInPlace(StringRef Path, StringRef Contents) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return cannotWrite(Path, EC.message());
  OS << Contents;
  OS.close();
  if (std::string Msg = streamFailure(OS); !Msg.empty())
    return cannotWrite(Path, Msg);
  return Error::success();
}

} // namespace

Error writeFileAtomically(StringRef PathAsGiven, StringRef Contents) {
  // Through a symbolic link to what it names: the link stays a link.
  SmallString<256> Path(PathAsGiven);
  sys::fs::file_status Link;
  if (!sys::fs::status(PathAsGiven, Link, /*follow=*/false) &&
      Link.type() == sys::fs::file_type::symlink_file) {
    SmallString<256> Target;
    if (std::error_code EC = sys::fs::real_path(PathAsGiven, Target))
      return cannotWrite(PathAsGiven,
                         "it is a symbolic link to a file that cannot be "
                         "reached (" +
                             EC.message() + ")");
    Path = Target;
  }
  sys::fs::file_status Existing;
  bool Exists = !sys::fs::status(Path, Existing);
  if (Exists && Existing.type() == sys::fs::file_type::directory_file)
    return cannotWrite(PathAsGiven, "it is a directory");
  if (Exists && Existing.type() != sys::fs::file_type::regular_file)
    return writeInPlace(Path, Contents);

  SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%%%";
  int FD;
  SmallString<256> TempPath;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, TempPath))
    return cannotWrite(PathAsGiven, EC.message());
  // An existing file keeps its permissions (a script stays executable, a
  // private file private).
  if (Exists)
    (void)sys::fs::setPermissions(TempPath, Existing.permissions());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (std::string Msg = streamFailure(OS); !Msg.empty()) {
      sys::fs::remove(TempPath);
      return cannotWrite(PathAsGiven, Msg);
    }
  }
  if (std::error_code EC = sys::fs::rename(TempPath, Path)) {
    sys::fs::remove(TempPath);
    return cannotWrite(PathAsGiven, EC.message());
  }
  return Error::success();
}

Error writeOutput(StringRef Path, StringRef Contents) {
  if (Path.empty() || Path == "-") {
    outs() << Contents;
    outs().flush();
    if (std::string Msg = streamFailure(outs()); !Msg.empty())
      return makeToolError(ExitCode::OutputError,
                           "cannot write to standard output: " + Msg);
    return Error::success();
  }
  return writeFileAtomically(Path, Contents);
}

} // namespace cro
