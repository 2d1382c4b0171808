#include "cro/Support/InputFile.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace cro {

Expected<std::unique_ptr<MemoryBuffer>>
readInputFile(StringRef Path, StringRef What, ExitCode Code,
              uint64_t MaxBytes) {
  auto Fail = [&](const Twine &Why) {
    return makeToolError(Code, "cannot read " +
                                   (What.empty() ? "" : What + " ") + "'" +
                                   Path + "': " + Why);
  };
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return Fail(EC.message());
  if (Status.type() == sys::fs::file_type::directory_file)
    return Fail("it is a directory");
  if (Status.type() != sys::fs::file_type::regular_file)
    return Fail("it is not a regular file (a pipe or a device is not read)");
  if (Status.getSize() > MaxBytes)
    return Fail("it is " + Twine(Status.getSize() >> 20) +
                " MiB, more than the " + Twine(MaxBytes >> 20) +
                " MiB an input may have");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return Fail(Buf.getError().message());
  return std::move(*Buf);
}

Expected<json::Value> parseJsonBounded(StringRef Text) {
  unsigned Depth = 0;
  bool InString = false, Escaped = false;
  for (char C : Text) {
    if (InString) {
      if (Escaped)
        Escaped = false;
      else if (C == '\\')
        Escaped = true;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxJsonNesting)
        return createStringError(inconvertibleErrorCode(),
                                 "nested deeper than " +
                                     Twine(MaxJsonNesting) + " levels");
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return json::parse(Text);
}

} // namespace cro
