#include "cro/Frontend/ResourceHeaders.h"
#include "clang/Basic/Version.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <mutex>

using namespace llvm;

// Defined in the generated ResourceHeadersBlob.S.
extern "C" const char cro_resource_blob_begin[];
extern "C" const char cro_resource_blob_end[];

namespace cro {

static uint64_t readLE(StringRef Data, size_t Offset, unsigned Bytes) {
  uint64_t V = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    V |= uint64_t(uint8_t(Data[Offset + I])) << (8 * I);
  return V;
}

static Error corrupt(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "embedded resource headers are corrupt: " + Why);
}

Expected<ResourceHeaders> ResourceHeaders::fromBlob(StringRef Blob) {
  if (Blob.size() < 16 || !Blob.starts_with("CRORES01"))
    return corrupt("bad header");
  uint64_t RawSize = readLE(Blob, 8, 8);
  // Clang's headers are ~16 MB; never trust a size field enough to allocate
  // gigabytes for it.
  if (RawSize > (uint64_t(256) << 20))
    return corrupt("implausible size " + Twine(RawSize));
  SmallVector<uint8_t, 0> Out;
  if (Error E = compression::zstd::decompress(
          arrayRefFromStringRef(Blob.drop_front(16)), Out, RawSize))
    return std::move(E);
  ResourceHeaders R;
  R.Raw.assign(reinterpret_cast<const char *>(Out.data()), Out.size());
  StringRef Data = R.Raw;
  size_t Pos = 0;
  while (Pos < Data.size()) {
    if (Pos + 4 > Data.size())
      return corrupt("truncated path length");
    uint64_t PathLen = readLE(Data, Pos, 4);
    Pos += 4;
    if (Pos + PathLen + 8 > Data.size())
      return corrupt("truncated path");
    StringRef Path = Data.substr(Pos, PathLen);
    Pos += PathLen;
    uint64_t Len = readLE(Data, Pos, 8);
    Pos += 8;
    if (Pos + Len + 1 > Data.size() || Data[Pos + Len] != '\0')
      return corrupt("truncated file " + Path);
    R.Files.emplace_back(Path, Data.substr(Pos, Len));
    Pos += Len + 1; // each file is followed by a NUL the lexer relies on
  }
  return std::move(R);
}

Expected<const ResourceHeaders *> ResourceHeaders::get() {
  static std::once_flag Once;
  static ResourceHeaders *Instance = nullptr;
  static std::string FailureMessage;
  std::call_once(Once, [] {
    StringRef Blob(cro_resource_blob_begin,
                   cro_resource_blob_end - cro_resource_blob_begin);
    Expected<ResourceHeaders> R = fromBlob(Blob);
    if (!R) {
      FailureMessage = toString(R.takeError());
      return;
    }
    Instance = new ResourceHeaders(std::move(*R)); // lives for the process
  });
  if (!Instance)
    return createStringError(inconvertibleErrorCode(), FailureMessage);
  return Instance;
}

StringRef ResourceHeaders::resourceDir() {
  static const std::string Dir = (EmbeddedRoot + "/lib/clang/22").str();
  return Dir;
}

std::vector<std::string> ResourceHeaders::includeDirs() {
  return {(resourceDir() + "/include").str(),
          // Debian's Clang driver ignores -resource-dir for the builtin
          // include directory and always adds this path (a symlink into
          // /usr/lib/llvm-22 on a machine with Clang installed, absent on the
          // GPU machine). Serving the headers there too makes the parse use
          // the embedded copies everywhere.
          "/usr/include/clang/" CLANG_VERSION_STRING "/include"};
}

void ResourceHeaders::addTo(vfs::InMemoryFileSystem &FS) const {
  for (const std::string &Dir : includeDirs())
    for (const auto &[Path, Contents] : Files) {
      SmallString<256> Full(Dir);
      sys::path::append(Full, Path);
      FS.addFile(Full, /*ModificationTime=*/0,
                 MemoryBuffer::getMemBuffer(Contents, Full,
                                            /*RequiresNullTerminator=*/true));
    }
}

} // namespace cro
