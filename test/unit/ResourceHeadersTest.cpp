#include "cro/Frontend/ResourceHeaders.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace cro;
using namespace llvm;

TEST(ResourceHeaders, EmbeddedHeadersAreServedFromMemory) {
  Expected<const ResourceHeaders *> H = ResourceHeaders::get();
  ASSERT_TRUE(bool(H)) << toString(H.takeError());
  EXPECT_GT((*H)->size(), 100u);
  auto FS = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  (*H)->addTo(*FS);
  std::vector<std::string> Dirs = ResourceHeaders::includeDirs();
  ASSERT_EQ(Dirs.size(), 2u);
  for (const std::string &Dir : Dirs)
    for (const char *Name :
         {"__clang_cuda_runtime_wrapper.h", "stddef.h", "cuda_wrappers/new",
          "__clang_cuda_builtin_vars.h"}) {
      std::string Path = Dir + "/" + Name;
      auto Buf = FS->getBufferForFile(Path);
      ASSERT_TRUE(bool(Buf)) << Path;
      StringRef Text = (*Buf)->getBuffer();
      EXPECT_FALSE(Text.empty()) << Path;
      // Clang's lexer reads one past the end: it must be a NUL.
      EXPECT_EQ(Text.data()[Text.size()], '\0') << Path;
    }
}

TEST(ResourceHeaders, CorruptBlobsAreRejected) {
  Expected<ResourceHeaders> Empty = ResourceHeaders::fromBlob("");
  EXPECT_FALSE(bool(Empty));
  consumeError(Empty.takeError());
  Expected<ResourceHeaders> Bad =
      ResourceHeaders::fromBlob("CRORES01garbage!garbage");
  EXPECT_FALSE(bool(Bad));
  consumeError(Bad.takeError());
}
