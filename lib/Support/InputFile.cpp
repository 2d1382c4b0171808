#include "cro/Support/InputFile.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include <vector>

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
  // One pass outside the parser: nesting depth, and each object's keys (LLVM's
  // parser keeps one of two equal keys silently, so `{"k.block": 64,
  // "k.block": 128}` would apply a value the user may not have meant).
  struct Open {
    bool IsObject;
    StringSet<> Keys;
  };
  std::vector<Open> Stack;
  unsigned Line = 1;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n') {
      ++Line;
    } else if (C == '"') {
      size_t Begin = I + 1, J = Begin;
      for (; J < Text.size() && Text[J] != '"'; ++J)
        if (Text[J] == '\\')
          ++J;
      I = J; // the closing quote (or the end: the parser reports it)
      if (Stack.empty() || !Stack.back().IsObject)
        continue;
      size_t After = Text.find_first_not_of(" \t\r\n", J + 1);
      if (After == StringRef::npos || Text[After] != ':')
        continue;
      StringRef Key = Text.slice(Begin, std::min(J, Text.size()));
      if (!Stack.back().Keys.insert(Key).second)
        return createStringError(inconvertibleErrorCode(),
                                 "line " + Twine(Line) + ": duplicate key \"" +
                                     Key + "\" in one object");
    } else if (C == '[' || C == '{') {
      if (Stack.size() >= MaxJsonNesting)
        return createStringError(inconvertibleErrorCode(),
                                 "nested deeper than " +
                                     Twine(MaxJsonNesting) + " levels");
      Stack.push_back({C == '{', {}});
    } else if ((C == ']' || C == '}') && !Stack.empty()) {
      Stack.pop_back();
    }
  }
  return json::parse(Text);
}

} // namespace cro
