#include "cro/Frontend/NvccParity.h"
#include "gtest/gtest.h"
#include <set>

using namespace cro;
using namespace llvm;
using Args = std::vector<std::string>;

namespace {

// bin/nvcc.profile as CUDA 13.0 ships it (the lines the parse reads).
const char *Cuda13Profile = R"(
TOP              = $(_HERE_)/..

CICC_PATH        = $(TOP)/nvvm/bin
INCLUDES        +=  "-I$(TOP)/$(_TARGET_DIR_)/include" $(_SPACE_)
SYSTEM_INCLUDES +=  "-isystem" "$(TOP)/$(_TARGET_DIR_)/include/cccl" $(_SPACE_)

LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/$(_TARGET_DIR_)/lib$(_TARGET_SIZE_)/stubs"
)";

} // namespace

TEST(NvccParity, ProfileGivesTheCcclDirectory) {
  std::set<std::string> Dirs = {"/opt/cuda/targets/x86_64-linux/include",
                                "/opt/cuda/targets/x86_64-linux/include/cccl"};
  auto Exists = [&](StringRef D) { return Dirs.count(D.str()) > 0; };
  Args A = includeArgsFromNvccProfile(Cuda13Profile, "/opt/cuda",
                                      "targets/x86_64-linux", Exists);
  // The -I of the toolkit's own include directory is kept here because
  // /opt/cuda/include does not exist on this machine to compare with; the
  // CCCL directory is what matters, as a system directory.
  ASSERT_GE(A.size(), 2u);
  EXPECT_EQ(A[A.size() - 2], "-isystem");
  EXPECT_EQ(A.back(), "/opt/cuda/targets/x86_64-linux/include/cccl");
}

TEST(NvccParity, DirectoriesThatDoNotExistAreLeftOut) {
  auto None = [](StringRef) { return false; };
  EXPECT_EQ(includeArgsFromNvccProfile(Cuda13Profile, "/opt/cuda",
                                       "targets/x86_64-linux", None),
            Args{});
}

TEST(NvccParity, OtherVariablesAndSpellings) {
  // A profile of another layout: -I glued, no target directory, TOP unused.
  auto All = [](StringRef) { return true; };
  Args A = includeArgsFromNvccProfile(
      "INCLUDES += -I$(_HERE_)/../extra \"-idirafter\" \"$(TOP)/late\"\n"
      "LIBRARIES = -L$(TOP)/lib\n",
      "/tk", "", All);
  EXPECT_EQ(A, (Args{"-I", "/tk/extra", "-idirafter", "/tk/late"}));
}

TEST(NvccParity, TheInstalledToolkit) {
  // The toolkit CI and the GPU machine use: CUDA 13 keeps CCCL there, and
  // nvcc adds it on its own.
  CudaToolkit Cuda{"/usr/local/cuda", "default", "13.0"};
  Args A = nvccImplicitIncludeArgs(Cuda);
  bool HasCccl = false;
  for (size_t I = 0; I + 1 < A.size(); ++I)
    HasCccl |= A[I] == "-isystem" && StringRef(A[I + 1]).ends_with("/cccl");
  EXPECT_TRUE(HasCccl) << "no -isystem .../include/cccl from nvcc.profile";
  // The toolkit's include/ is Clang's already: not added twice.
  for (const std::string &Arg : A)
    EXPECT_FALSE(StringRef(Arg).ends_with("targets/x86_64-linux/include"))
        << Arg;
}

TEST(NvccParity, HostCompilerIncludeDirectoryHoldsOmpH) {
  std::string Dir = hostCompilerIncludeDir();
  ASSERT_FALSE(Dir.empty()) << "no GCC installation with include/omp.h found";
  EXPECT_TRUE(StringRef(Dir).contains("/gcc/")) << Dir;
}
