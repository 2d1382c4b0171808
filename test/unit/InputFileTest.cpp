#include "cro/Support/InputFile.h"
#include "gtest/gtest.h"
#include <string>

using namespace cro;
using namespace llvm;

TEST(InputFile, JsonNestingIsBounded) {
  std::string Ok = std::string(MaxJsonNesting, '[') +
                   std::string(MaxJsonNesting, ']');
  EXPECT_TRUE(bool(parseJsonBounded(Ok)));
  std::string Deep = "[" + Ok + "]";
  Expected<json::Value> V = parseJsonBounded(Deep);
  ASSERT_FALSE(bool(V));
  EXPECT_NE(toString(V.takeError()).find("nested deeper than"),
            std::string::npos);
}

TEST(InputFile, BracketsInStringsDoNotNest) {
  std::string S = "{\"k\": \"" + std::string(10000, '[') + "\\\"{\"}";
  Expected<json::Value> V = parseJsonBounded(S);
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
}

TEST(InputFile, DuplicateKeysAreErrors) {
  Expected<json::Value> V =
      parseJsonBounded("{\"k.block\": 64,\n \"k.block\": 128}");
  ASSERT_FALSE(bool(V));
  EXPECT_EQ(toString(V.takeError()),
            "line 2: duplicate key \"k.block\" in one object");
  // Equal keys in different objects, values equal to keys, and keys with
  // escaped quotes are no duplicates.
  for (const char *Fine :
       {"[{\"a\": 1}, {\"a\": 2}]", "{\"a\": \"a\", \"b\": {\"a\": \"b\"}}",
        "{\"a\\\"\": 1, \"a\": 2}", "{\"x\": [\"x\", \"x\"]}"}) {
    Expected<json::Value> F = parseJsonBounded(Fine);
    EXPECT_TRUE(bool(F)) << Fine << ": " << toString(F.takeError());
  }
  Expected<json::Value> Nested =
      parseJsonBounded("[{\"p\": {\"q\": 1, \"q\" : 2}}]");
  ASSERT_FALSE(bool(Nested));
  consumeError(Nested.takeError());
}

TEST(InputFile, OnlyRegularFilesAreRead) {
  Expected<std::unique_ptr<MemoryBuffer>> Zero =
      readInputFile("/dev/zero", "the test input", ExitCode::BadConfig);
  ASSERT_FALSE(bool(Zero));
  EXPECT_NE(toString(Zero.takeError()).find("not a regular file"),
            std::string::npos);
  Expected<std::unique_ptr<MemoryBuffer>> Dir =
      readInputFile("/", "the test input", ExitCode::BadConfig);
  ASSERT_FALSE(bool(Dir));
  EXPECT_NE(toString(Dir.takeError()).find("it is a directory"),
            std::string::npos);
}
