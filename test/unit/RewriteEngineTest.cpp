// The rewrite engine: edit conflicts and ordering, configuration checks, and
// that applying the default configuration changes nothing.
#include "TestInputs.h"
#include "cro/Rewrite/EditSet.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cro;
using namespace llvm;

namespace {

TEST(EditSet, InsertionsAtOneOffsetKeepTheirOrder) {
  EditSet E("abcdef", "f.cu");
  E.setOrigin("first");
  ASSERT_FALSE(bool(E.insert(3, "1")));
  E.setOrigin("second");
  ASSERT_FALSE(bool(E.insert(3, "2")));
  ASSERT_FALSE(bool(E.replace(3, 2, "DE")));
  Expected<std::string> Out = E.apply();
  ASSERT_TRUE(bool(Out));
  EXPECT_EQ(*Out, "abc12DEf");
}

TEST(EditSet, OverlappingEditsNameBothKnobs) {
  EditSet E("int x = 256;\n", "f.cu");
  E.setOrigin("k.block");
  ASSERT_FALSE(bool(E.replace(8, 3, "128")));
  E.setOrigin("k.other");
  Error Err = E.replace(9, 1, "9");
  ASSERT_TRUE(bool(Err));
  std::string Msg = toString(std::move(Err));
  EXPECT_NE(Msg.find("'k.block' and 'k.other' both change f.cu:1:"),
            std::string::npos)
      << Msg;
  // An insertion strictly inside a replaced range conflicts too.
  Error Inside = E.insert(10, "x");
  EXPECT_TRUE(bool(Inside));
  consumeError(std::move(Inside));
  // The same edit twice is one edit.
  E.setOrigin("k.block");
  EXPECT_FALSE(bool(E.replace(8, 3, "128")));
  EXPECT_EQ(E.edits().size(), 1u);
}

TEST(EditSet, FlagsAreKeptOnceInOrder) {
  EditSet E("", "f.cu");
  E.addFlag("-maxrregcount=64");
  E.addFlag("-Xptxas");
  E.addFlag("-maxrregcount=64");
  EXPECT_EQ(E.flags(),
            (std::vector<std::string>{"-maxrregcount=64", "-Xptxas"}));
}

TestInput load(StringRef Rel) {
  TestInput L = loadTestInput(Rel);
  describeKnobs(L.Model, L.Source, Rel, {});
  return L;
}

TEST(Engine, DefaultConfigurationIsTheIdentity) {
  for (const char *File :
       {"analyze/elementwise-macro.cu", "analyze/matmul-dim3.cu",
        "analyze/reduction-shared.cu", "analyze/stencil-halo.cu",
        "analyze/launch-forms.cu", "transforms/block-size-2d.cu",
        "transforms/unroll.cu", "transforms/launch-bounds.cu"}) {
    TestInput L = load(File);
    ASSERT_FALSE(L.Model.Knobs.empty()) << File;
    RewriteContext Ctx{L.Model, L.Source, File, {}};
    // Nothing set, and every knob set to its default explicitly.
    json::Object Explicit;
    for (const Knob &K : L.Model.Knobs)
      Explicit[K.Id] = K.Default;
    for (const json::Object &Config : {json::Object(), Explicit}) {
      Expected<Variant> V = applyConfiguration(Ctx, Config);
      ASSERT_TRUE(bool(V)) << File << ": " << toString(V.takeError());
      EXPECT_EQ(V->Source, L.Source) << File;
      EXPECT_TRUE(V->NvccFlags.empty()) << File;
      EXPECT_TRUE(V->Sequence.empty()) << File;
    }
  }
}

TEST(Engine, SequenceListsChangedKnobsInRegistryOrder) {
  TestInput L = load("analyze/matmul-dim3.cu");
  RewriteContext Ctx{L.Model, L.Source, "matmul-dim3.cu", {}};
  json::Object Config{{"matmul.unroll.L0", 4},
                      {"nvcc.maxrregcount", 64},
                      {"matmul.block", json::Array{32, 8}}};
  Expected<Variant> V = applyConfiguration(Ctx, Config);
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  ASSERT_EQ(V->Sequence.size(), 3u);
  EXPECT_EQ(V->Sequence[0].Knob, "matmul.block");
  EXPECT_EQ(V->Sequence[0].Transform, "block-size");
  EXPECT_EQ(V->Sequence[1].Knob, "nvcc.maxrregcount");
  EXPECT_EQ(V->Sequence[2].Knob, "matmul.unroll.L0");
  EXPECT_EQ(V->NvccFlags, (std::vector<std::string>{"-maxrregcount=64"}));
  EXPECT_NE(V->Source.find("dim3 block(32, 8);"), std::string::npos);
  EXPECT_NE(V->Source.find("#pragma unroll 4"), std::string::npos);
  // Applying is a function of the configuration: the same input, the same text.
  Expected<Variant> Again = applyConfiguration(Ctx, Config);
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(Again->Source, V->Source);
}

TEST(Engine, ConfigurationsAreChecked) {
  TestInput L = load("analyze/elementwise-macro.cu");
  auto Code = [&](json::Object C) {
    Error E = validateConfiguration(L.Model, C);
    int Out = 0;
    handleAllErrors(std::move(E),
                    [&](const ToolError &TE) { Out = int(TE.code()); });
    return Out;
  };
  EXPECT_EQ(Code(json::Object{{"saxpy.block", 128}}), 0);
  EXPECT_EQ(Code(json::Object{{"saxpy.block", 100}}), int(ExitCode::BadConfig));
  EXPECT_EQ(Code(json::Object{{"saxpy.block", "128"}}),
            int(ExitCode::BadConfig));
  EXPECT_EQ(Code(json::Object{{"nosuch.block", 128}}),
            int(ExitCode::BadConfig));
}

} // namespace
