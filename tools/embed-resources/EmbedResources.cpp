//===- EmbedResources.cpp - pack Clang resource headers into a blob -------===//
//
// Usage: cro-embed-resources <resource-include-dir> <output-blob>
//
// Writes the archive format read by cro::ResourceHeaders:
//   "CRORES01" | u64 raw size (little endian) | zstd(raw)
// where raw is a sequence of records
//   u32 path length | path (relative to the include dir, '/' separated)
//   u64 data length | data | NUL (not counted in the length)
// Records are sorted by path so the blob is reproducible.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <string>
#include <vector>

using namespace llvm;

static void appendLE(std::string &Out, uint64_t V, unsigned Bytes) {
  for (unsigned I = 0; I < Bytes; ++I)
    Out.push_back(static_cast<char>((V >> (8 * I)) & 0xff));
}

int main(int argc, char **argv) {
  if (argc != 3) {
    errs() << "usage: cro-embed-resources <include-dir> <output>\n";
    return 2;
  }
  StringRef Root = argv[1];
  if (!compression::zstd::isAvailable()) {
    errs() << "cro-embed-resources: LLVM was built without zstd\n";
    return 1;
  }
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Root, EC), End;
       It != End && !EC; It.increment(EC)) {
    if (It->type() == sys::fs::file_type::regular_file)
      Files.push_back(It->path());
  }
  if (EC) {
    errs() << "cro-embed-resources: " << Root << ": " << EC.message() << "\n";
    return 1;
  }
  std::sort(Files.begin(), Files.end());

  std::string Raw;
  for (const std::string &File : Files) {
    auto Buf = MemoryBuffer::getFile(File);
    if (!Buf) {
      errs() << "cro-embed-resources: " << File << ": "
             << Buf.getError().message() << "\n";
      return 1;
    }
    std::string Rel = File.substr(Root.size());
    while (!Rel.empty() && Rel.front() == '/')
      Rel.erase(0, 1);
    appendLE(Raw, Rel.size(), 4);
    Raw += Rel;
    appendLE(Raw, (*Buf)->getBufferSize(), 8);
    Raw += (*Buf)->getBuffer();
    Raw.push_back('\0'); // Clang's lexer needs NUL-terminated buffers
  }

  SmallVector<uint8_t, 0> Compressed;
  compression::zstd::compress(arrayRefFromStringRef(Raw), Compressed,
                              /*Level=*/12);
  std::string Header = "CRORES01";
  appendLE(Header, Raw.size(), 8);

  raw_fd_ostream OS(argv[2], EC, sys::fs::OF_None);
  if (EC) {
    errs() << "cro-embed-resources: " << argv[2] << ": " << EC.message()
           << "\n";
    return 1;
  }
  OS << Header;
  OS.write(reinterpret_cast<const char *>(Compressed.data()),
           Compressed.size());
  outs() << "packed " << Files.size() << " headers, " << Raw.size()
         << " bytes -> " << Compressed.size() << " bytes\n";
  return 0;
}
