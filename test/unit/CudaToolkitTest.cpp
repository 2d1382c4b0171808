#include "cro/Frontend/CudaToolkit.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <map>

using namespace cro;
using namespace llvm;

namespace {

/// A fake toolkit tree: Root/include/cuda_runtime.h, Root/bin/nvcc.
class FakeToolkits : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("cro-cuda", Base));
  }
  void TearDown() override { sys::fs::remove_directories(Base); }

  std::string makeToolkit(StringRef Name, StringRef Version = "") {
    SmallString<256> Root(Base);
    sys::path::append(Root, Name);
    SmallString<256> Inc(Root), Bin(Root);
    sys::path::append(Inc, "include");
    sys::path::append(Bin, "bin");
    EXPECT_FALSE(sys::fs::create_directories(Inc));
    EXPECT_FALSE(sys::fs::create_directories(Bin));
    write(Inc, "cuda_runtime.h", "");
    write(Bin, "nvcc", "");
    if (!Version.empty())
      write(Root, "version.json",
            ("{\"cuda\": {\"version\": \"" + Version + "\"}}").str());
    return Root.str().str();
  }
  void write(StringRef Dir, StringRef Name, StringRef Text) {
    SmallString<256> P(Dir);
    sys::path::append(P, Name);
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  CudaSearchEnvironment env() {
    CudaSearchEnvironment E;
    E.GetEnv = [this](StringRef N) -> std::optional<std::string> {
      auto It = Vars.find(N.str());
      return It == Vars.end() ? std::nullopt
                              : std::optional<std::string>(It->second);
    };
    E.FindProgram = [this](StringRef) { return Nvcc; };
    E.DefaultRoot = Default;
    return E;
  }

  SmallString<256> Base;
  std::map<std::string, std::string> Vars;
  std::optional<std::string> Nvcc;
  std::string Default = "/nonexistent-default-cuda";
};

std::string real(StringRef P) {
  SmallString<256> R;
  EXPECT_FALSE(sys::fs::real_path(P, R));
  return R.str().str();
}

TEST_F(FakeToolkits, ExplicitPathWins) {
  std::string A = makeToolkit("a", "12.4.1"), B = makeToolkit("b");
  Vars["CUDA_HOME"] = B;
  Expected<CudaToolkit> T = findCudaToolkit(A, env());
  ASSERT_TRUE(bool(T)) << toString(T.takeError());
  EXPECT_EQ(T->Root, real(A));
  EXPECT_EQ(T->FoundVia, "--cuda-path");
  EXPECT_EQ(T->Version, "12.4.1");
}

TEST_F(FakeToolkits, InvalidExplicitPathIsAnError) {
  makeToolkit("a");
  Expected<CudaToolkit> T = findCudaToolkit(Base.str().str() + "/nope", env());
  ASSERT_FALSE(bool(T));
  bool Seen = false;
  handleAllErrors(T.takeError(), [&](const ToolError &E) {
    Seen = true;
    EXPECT_EQ(E.code(), ExitCode::CudaNotFound);
    EXPECT_NE(E.message().find("is not a CUDA toolkit"), std::string::npos);
  });
  EXPECT_TRUE(Seen);
}

TEST_F(FakeToolkits, SearchOrder) {
  std::string Home = makeToolkit("home"), Path = makeToolkit("path"),
              FromNvcc = makeToolkit("nvcc"), Def = makeToolkit("default");
  Default = Def;
  Nvcc = FromNvcc + "/bin/nvcc";
  Vars["CUDA_HOME"] = Home;
  Vars["CUDA_PATH"] = Path;
  EXPECT_EQ(findCudaToolkit("", env())->FoundVia, "CUDA_HOME");
  Vars["CUDA_HOME"] = Base.str().str() + "/not-a-toolkit";
  EXPECT_EQ(findCudaToolkit("", env())->FoundVia, "CUDA_PATH");
  Vars.clear();
  Expected<CudaToolkit> T = findCudaToolkit("", env());
  EXPECT_EQ(T->FoundVia, "nvcc on PATH");
  EXPECT_EQ(T->Root, real(FromNvcc));
  Nvcc.reset();
  EXPECT_EQ(findCudaToolkit("", env())->FoundVia, "default");
}

TEST_F(FakeToolkits, NothingFoundListsWhatWasTried) {
  Vars["CUDA_HOME"] = "/no/such/cuda";
  Expected<CudaToolkit> T = findCudaToolkit("", env());
  ASSERT_FALSE(bool(T));
  std::string Msg = toString(T.takeError());
  EXPECT_NE(Msg.find("CUDA toolkit not found"), std::string::npos);
  EXPECT_NE(Msg.find("$CUDA_HOME=/no/such/cuda"), std::string::npos);
  EXPECT_NE(Msg.find("/nonexistent-default-cuda"), std::string::npos);
}

} // namespace
