// The rewrite engine: edit conflicts and ordering, configuration checks, and
// that applying the default configuration changes nothing.
#include "TestInputs.h"
#include "cro/Rewrite/EditSet.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/Registry.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <functional>

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

/// A corpus file with the knobs of the transforms in Transforms (all the
/// built-in ones unless the test says otherwise).
struct Described {
  TestInput L;
  TransformRegistry Transforms;
  std::unique_ptr<RewriteContext> Ctx;
};

std::unique_ptr<Described>
describe(StringRef Rel,
         std::function<void(TransformRegistry &)> Register =
             registerBuiltinTransforms,
         std::function<void(HardwareLimits &)> Target = nullptr) {
  auto D = std::make_unique<Described>();
  D->L = loadTestInput(Rel);
  Register(D->Transforms);
  D->Ctx = std::make_unique<RewriteContext>(D->L.Model, D->Transforms,
                                            D->L.Source, Rel);
  if (Target)
    Target(D->Ctx->Target);
  describeKnobs(*D->Ctx);
  return D;
}

TEST(Engine, DefaultConfigurationIsTheIdentity) {
  for (const char *File :
       {"analyze/elementwise-macro.cu", "analyze/matmul-dim3.cu",
        "analyze/reduction-shared.cu", "analyze/stencil-halo.cu",
        "analyze/launch-forms.cu", "transforms/block-size-2d.cu",
        "transforms/unroll.cu", "transforms/launch-bounds.cu"}) {
    std::unique_ptr<Described> D = describe(File);
    const RewriteContext &Ctx = *D->Ctx;
    ASSERT_FALSE(Ctx.Knobs.Knobs.empty()) << File;
    // Nothing set, and every knob set to its default explicitly.
    json::Object Explicit;
    for (const Knob &K : Ctx.Knobs.Knobs)
      Explicit[K.Id] = K.Default;
    for (const json::Object &Config : {json::Object(), Explicit}) {
      Expected<Variant> V = applyConfiguration(Ctx, Config);
      ASSERT_TRUE(bool(V)) << File << ": " << toString(V.takeError());
      EXPECT_EQ(V->Source, D->L.Source) << File;
      EXPECT_TRUE(V->NvccFlags.empty()) << File;
      EXPECT_TRUE(V->Sequence.empty()) << File;
    }
  }
}

TEST(Engine, SequenceListsChangedKnobsInRegistryOrder) {
  std::unique_ptr<Described> D = describe("analyze/matmul-dim3.cu");
  const RewriteContext &Ctx = *D->Ctx;
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

TEST(Engine, KnobsHaveTheirTransformsRoles) {
  std::unique_ptr<Described> D = describe("analyze/matmul-dim3.cu");
  const KnobSet &Knobs = D->Ctx->Knobs;
  ASSERT_TRUE(Knobs.find("matmul.block"));
  EXPECT_EQ(Knobs.find("matmul.block")->Role, KnobRole::BlockShape);
  EXPECT_EQ(Knobs.find("matmul.unroll.L0")->Role, KnobRole::Unroll);
  // A transform's knob may name its own role: the register cap that
  // launch-bounds offers beside its launch bounds.
  EXPECT_EQ(Knobs.find("matmul.launch_bounds")->Role, KnobRole::LaunchBounds);
  EXPECT_EQ(Knobs.find("nvcc.maxrregcount")->Transform, "launch-bounds");
  EXPECT_EQ(Knobs.find("nvcc.maxrregcount")->Role, KnobRole::RegisterCap);
  EXPECT_EQ(Knobs.find("nvcc.dlcm")->Role, KnobRole::CompilerFlag);
  for (const Knob &K : Knobs.Knobs)
    EXPECT_EQ(roleNamed(roleName(K.Role)), K.Role) << K.Id;
}

/// A transform of the test's own, registered without touching lib/Rewrite:
/// a compiler flag knob for every file.
class LineInfoFlag : public Transform {
public:
  StringRef name() const override { return "line-info"; }
  KnobRole role() const override { return KnobRole::CompilerFlag; }
  void describeFile(const RewriteContext &, KnobSink &Out) const override {
    Knob K;
    K.Id = "nvcc.lineinfo";
    K.Values = {false, true};
    K.Default = false;
    Out.offer(std::move(K));
  }
  Error apply(const RewriteContext &, const Knob &, const json::Value &V,
              const ResolvedConfig &, EditSet &Out) const override {
    if (V.getAsBoolean().value_or(false))
      Out.addFlag("-lineinfo");
    return Error::success();
  }
};

TEST(Engine, TheRegistryItIsGivenIsAllItKnows) {
  std::unique_ptr<Described> D =
      describe("analyze/matmul-dim3.cu", [](TransformRegistry &R) {
        R.add(std::make_unique<LineInfoFlag>());
      });
  const RewriteContext &Ctx = *D->Ctx;
  ASSERT_EQ(Ctx.Knobs.Knobs.size(), 1u);
  EXPECT_EQ(Ctx.Knobs.Knobs[0].Id, "nvcc.lineinfo");
  EXPECT_EQ(Ctx.Knobs.Knobs[0].Transform, "line-info");
  Expected<Variant> V =
      applyConfiguration(Ctx, json::Object{{"nvcc.lineinfo", true}});
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  EXPECT_EQ(V->NvccFlags, (std::vector<std::string>{"-lineinfo"}));
  // The built-in transforms' knobs are unknown to this context.
  Expected<Variant> Block =
      applyConfiguration(Ctx, json::Object{{"matmul.block", 256}});
  EXPECT_FALSE(bool(Block));
  consumeError(Block.takeError());
}

TEST(Engine, DomainsFollowTheTarget) {
  auto Largest = [](const RewriteContext &Ctx, StringRef Id) {
    unsigned Max = 0;
    for (const json::Value &V : Ctx.Knobs.find(Id)->Values) {
      std::optional<std::array<int64_t, 3>> S = blockShapeOfValue(V);
      Max = std::max<unsigned>(Max, unsigned((*S)[0] * (*S)[1] * (*S)[2]));
    }
    return Max;
  };
  std::unique_ptr<Described> H200 = describe("analyze/elementwise-macro.cu");
  EXPECT_EQ(Largest(*H200->Ctx, "saxpy.block"), 1024u);
  std::unique_ptr<Described> Small = describe(
      "analyze/elementwise-macro.cu", registerBuiltinTransforms,
      [](HardwareLimits &T) { T.MaxThreadsPerBlock = 512; });
  EXPECT_EQ(Largest(*Small->Ctx, "saxpy.block"), 512u);
}

TEST(Engine, ConfigurationsAreChecked) {
  std::unique_ptr<Described> D = describe("analyze/elementwise-macro.cu");
  auto Code = [&](json::Object C) {
    Error E = validateConfiguration(D->Ctx->Knobs, C);
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
