// The builder, with a fake compiler (a shell script) so the tests need no
// GPU toolchain and can count invocations.
#include "cro/Build/Builder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <atomic>
#include <chrono>

using namespace cro;
using namespace llvm;

namespace {

class BuilderTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("cro-builder-test", Dir));
    Compiler = (Dir + "/fakecc").str();
    Count = (Dir + "/count").str();
    std::error_code EC;
    {
      raw_fd_ostream OS(Compiler, EC);
      // Usage: fakecc [flags] SRC -o EXE. Logs each call, takes 0.4 s, fails
      // on sources containing ERROR, else writes a program printing FLAGS.
      OS << "#!/bin/sh\n"
            "if [ \"$1\" = --version ]; then echo fakecc 1.0; exit 0; fi\n"
            "echo call >> "
         << Count
         << "\n"
            "sleep 0.4\n"
            "for a in \"$@\"; do case \"$a\" in *.cu) src=\"$a\";; esac; done\n"
            "while [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then exe=\"$2\"; fi; "
            "shift; done\n"
            "if grep -q ERROR \"$src\"; then echo \"$src:1:1: error: boom\" "
            ">&2; exit 1; fi\n"
            "printf '#!/bin/sh\\necho built\\n' > \"$exe\"; chmod +x "
            "\"$exe\"\n";
    }
    sys::fs::setPermissions(Compiler, sys::fs::all_exe | sys::fs::owner_all);
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  BuildOptions options() {
    BuildOptions O;
    O.Compiler = Compiler;
    O.CacheDir = (Dir + "/cache").str();
    O.OriginalPath = (Dir + "/kernel.cu").str();
    O.Flags = {"-O3", "-arch=sm_90"};
    O.Jobs = 4;
    return O;
  }
  int calls() {
    auto B = MemoryBuffer::getFile(Count);
    return B ? (*B)->getBuffer().count('\n') : 0;
  }

  SmallString<128> Dir;
  std::string Compiler, Count;
};

TEST_F(BuilderTest, BuildsInParallelAndCachesResults) {
  std::vector<BuildRequest> Rs = {{"int a;", {}},
                                  {"int b;", {}},
                                  {"int c;", {}},
                                  {"int d;", {"-lineinfo"}}};
  Builder B(options());
  auto Start = std::chrono::steady_clock::now();
  Expected<std::vector<BuildResult>> R = B.build(Rs);
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  ASSERT_EQ(R->size(), 4u);
  for (const BuildResult &X : *R) {
    EXPECT_TRUE(X.Ok) << X.Log;
    EXPECT_FALSE(X.Cached);
    EXPECT_TRUE(sys::fs::exists(X.Executable));
  }
  EXPECT_EQ(calls(), 4);
  EXPECT_LT(Seconds, 1.4) << "four 0.4 s compiles with 4 jobs ran serially";

  // A second builder (a later run) finds them all in the cache.
  Builder Again(options());
  Expected<std::vector<BuildResult>> R2 = Again.build(Rs);
  ASSERT_TRUE(bool(R2));
  for (size_t I = 0; I < 4; ++I) {
    EXPECT_TRUE((*R2)[I].Cached);
    EXPECT_EQ((*R2)[I].Executable, (*R)[I].Executable);
  }
  EXPECT_EQ(calls(), 4);
}

TEST_F(BuilderTest, IdenticalVariantsAreCompiledOnce) {
  Builder B(options());
  Expected<std::vector<BuildResult>> R =
      B.build({{"same", {}}, {"same", {}}, {"same", {"-DX"}}});
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(calls(), 2); // the flags make the third one different
  EXPECT_EQ((*R)[0].Key, (*R)[1].Key);
  EXPECT_NE((*R)[0].Key, (*R)[2].Key);
  EXPECT_TRUE((*R)[1].Cached);
}

TEST_F(BuilderTest, CompileFailuresAreResultsWithTheMessage) {
  Builder B(options());
  Expected<std::vector<BuildResult>> R =
      B.build({{"ERROR here", {}}, {"fine", {}}});
  ASSERT_TRUE(bool(R));
  EXPECT_FALSE((*R)[0].Ok);
  EXPECT_NE((*R)[0].Log.find("error: boom"), std::string::npos) << (*R)[0].Log;
  EXPECT_TRUE((*R)[1].Ok);
  // The failure is remembered too.
  Expected<std::vector<BuildResult>> R2 =
      Builder(options()).build({{"ERROR here", {}}});
  ASSERT_TRUE(bool(R2));
  EXPECT_TRUE((*R2)[0].Cached);
  EXPECT_FALSE((*R2)[0].Ok);
  EXPECT_NE((*R2)[0].Log.find("error: boom"), std::string::npos);
  EXPECT_EQ(calls(), 2);
}

TEST_F(BuilderTest, TemplatesAreArgumentVectors) {
  BuildOptions O = options();
  O.Template =
      splitBuildTemplate(Compiler + "  {flags} {src} extra.cu -o {exe}");
  ASSERT_EQ(O.Template.size(), 6u);
  Builder B(O);
  std::vector<std::string> Cmd =
      B.command({"x", {"-DV=1"}}, "/t/k.cu", "/t/a.out");
  std::vector<std::string> Want = {
      Compiler, "-I",      Dir.str().str(), "-O3", "-arch=sm_90",
      "-DV=1",  "/t/k.cu", "extra.cu",      "-o",  "/t/a.out"};
  EXPECT_EQ(Cmd, Want);
}

TEST_F(BuilderTest, MissingCompilerIsAnError) {
  BuildOptions O = options();
  O.Compiler = "/nonexistent/nvcc";
  Expected<std::vector<BuildResult>> R = Builder(O).build({{"x", {}}});
  EXPECT_FALSE(bool(R));
  consumeError(R.takeError());
}

} // namespace

namespace {

/// This host, counting the jobs it is given and their kinds.
class CountingExecutor : public LocalExecutor {
public:
  ProcessResult run(ArrayRef<std::string> Argv, const ProcessOptions &Opts,
                    JobKind Kind, unsigned Slot) override {
    (Kind == JobKind::Build ? Builds : Runs)++;
    return LocalExecutor::run(Argv, Opts, Kind, Slot);
  }
  std::atomic<int> Builds{0}, Runs{0};
};

TEST_F(BuilderTest, CompilesAreJobsOfTheExecutor) {
  CountingExecutor Via;
  BuildOptions O = options();
  O.Via = &Via;
  Builder B(O);
  Expected<std::vector<BuildResult>> R =
      B.build({{"int a;", {}}, {"int b;", {}}, {"ERROR", {}}});
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_TRUE((*R)[0].Ok);
  EXPECT_TRUE((*R)[1].Ok);
  EXPECT_FALSE((*R)[2].Ok);
  EXPECT_EQ(Via.Builds.load(), 3);
  EXPECT_EQ(Via.Runs.load(), 0);
  EXPECT_EQ(calls(), 3);
}

} // namespace
