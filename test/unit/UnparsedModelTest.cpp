// The path for programs Clang cannot parse: the failed parse keeps what the
// preprocessor saw (the model's program text holds every user file, so the
// database identity covers them), and nvcc decides whether the file is the
// user's error or the tool's limit.
#include "cro/Analysis/ModelBuilder.h"
#include "cro/Build/CompileCheck.h"
#include "cro/Frontend/Frontend.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cro;
using namespace llvm;

namespace {

const std::string Inputs =
    std::string(CRO_TEST_INPUTS) + "/frontend/Inputs/nvcc-only";

std::unique_ptr<ParsedFile> parseKeepingFailure(StringRef File,
                                                std::string &Diags) {
  FrontendOptions Opts;
  Opts.InputFile = File.str();
  Opts.GpuArch = "sm_90";
  Opts.KeepFailedParse = true;
  raw_string_ostream OS(Diags);
  Expected<std::unique_ptr<ParsedFile>> PF = parseCudaFile(Opts, OS);
  if (!PF) {
    ADD_FAILURE() << toString(PF.takeError());
    return nullptr;
  }
  return std::move(*PF);
}

TEST(UnparsedModel, KeepsTheFilesThePreprocessorEntered) {
  std::string Diags;
  std::unique_ptr<ParsedFile> PF =
      parseKeepingFailure(Inputs + "/main.cu", Diags);
  ASSERT_TRUE(PF);
  EXPECT_FALSE(PF->parsed());
  EXPECT_EQ(PF->NumErrors, 1u);
  EXPECT_NE(PF->FirstError.find("main.cu:4:2: error: \"this project is built "
                                "with nvcc\""),
            std::string::npos)
      << PF->FirstError;
  EXPECT_NE(Diags.find("this project is built with nvcc"), std::string::npos);

  KernelModel M = buildUnparsedModel(*PF, "main.cu");
  EXPECT_TRUE(M.Kernels.empty());
  EXPECT_EQ(M.Unparsed, PF->FirstError);
  ASSERT_EQ(M.Program.files().size(), 2u);
  EXPECT_EQ(M.Program.files()[0].Display, "main.cu");
  EXPECT_EQ(M.Program.files()[1].RelativePath, "scale_kernels.cuh");
  // The identity changes when the included kernels do.
  EXPECT_NE(M.Program.identityText().find("scale_kernels.cuh"),
            std::string::npos);
  EXPECT_NE(M.Program.identityText().find("scale_rows"), std::string::npos);
}

TEST(UnparsedModel, ParsedFilesAreUnchanged) {
  std::string Diags;
  std::unique_ptr<ParsedFile> PF = parseKeepingFailure(
      std::string(CRO_TEST_INPUTS) + "/frontend/nvcc-accepted-diagnostics.cu",
      Diags);
  ASSERT_TRUE(PF);
  EXPECT_TRUE(PF->parsed()) << Diags;
  EXPECT_EQ(PF->NumErrors, 0u);
  EXPECT_TRUE(buildKernelModel(*PF, "x.cu").Unparsed.empty());
}

TEST(CompileCheck, NvccDecides) {
  const std::string Nvcc = "/usr/local/cuda/bin/nvcc";
  if (!sys::fs::can_execute(Nvcc))
    GTEST_SKIP() << "no nvcc at " << Nvcc;
  Expected<std::string> Compiles =
      whyNvccRejects(Nvcc, Inputs + "/main.cu", {"-arch=sm_90"});
  ASSERT_TRUE(bool(Compiles)) << toString(Compiles.takeError());
  EXPECT_EQ(*Compiles, "");

  SmallString<128> Broken;
  int FD;
  ASSERT_FALSE(sys::fs::createTemporaryFile("cro-broken", "cu", FD, Broken));
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << "__global__ void k(float *p) { p[0] = undeclared_value; }\n";
  }
  Expected<std::string> Rejected =
      whyNvccRejects(Nvcc, Broken, {"-arch=sm_90"});
  sys::fs::remove(Broken);
  ASSERT_TRUE(bool(Rejected)) << toString(Rejected.takeError());
  EXPECT_NE(Rejected->find("error"), std::string::npos) << *Rejected;
  EXPECT_NE(Rejected->find("undeclared_value"), std::string::npos) << *Rejected;

  Expected<std::string> NoCompiler =
      whyNvccRejects("/nonexistent/nvcc", Inputs + "/main.cu", {});
  EXPECT_FALSE(bool(NoCompiler));
  consumeError(NoCompiler.takeError());
}

} // namespace
