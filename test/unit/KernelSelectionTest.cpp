#include "cro/Commands/KernelSelection.h"
#include "cro/Support/ToolError.h"
#include "gtest/gtest.h"

using namespace cro;

namespace {

KernelModel twoKernels(KnobSet &Offered) {
  KernelModel M;
  M.File = "k.cu";
  for (const char *Name : {"scale", "add"}) {
    KernelInfo K;
    K.Name = K.Id = Name;
    M.Kernels.push_back(K);
    Knob Kn;
    Kn.Id = std::string(Name) + ".block";
    Kn.Kernel = Name;
    Offered.Knobs.push_back(Kn);
    Offered.Refused.push_back({Name, "tile", "no loop", ""});
  }
  Knob FileWide;
  FileWide.Id = "nvcc.maxrregcount";
  Offered.Knobs.push_back(FileWide);
  return M;
}

} // namespace

TEST(KernelSelection, KeepsTheNamedKernelsAndTheFileWideKnobs) {
  KnobSet Offered;
  KernelModel M = twoKernels(Offered);
  ASSERT_FALSE(bool(selectKernels({"add"}, M, Offered)));
  ASSERT_EQ(M.Kernels.size(), 1u);
  EXPECT_EQ(M.Kernels[0].Id, "add");
  ASSERT_EQ(Offered.Knobs.size(), 2u);
  EXPECT_EQ(Offered.Knobs[0].Id, "add.block");
  EXPECT_EQ(Offered.Knobs[1].Id, "nvcc.maxrregcount");
  ASSERT_EQ(Offered.Refused.size(), 1u);
  EXPECT_EQ(Offered.Refused[0].Kernel, "add");
}

TEST(KernelSelection, NoNamesKeepsEverything) {
  KnobSet Offered;
  KernelModel M = twoKernels(Offered);
  ASSERT_FALSE(bool(selectKernels({}, M, Offered)));
  EXPECT_EQ(M.Kernels.size(), 2u);
  EXPECT_EQ(Offered.Knobs.size(), 3u);
}

TEST(KernelSelection, AnUnknownNameListsTheKernels) {
  KnobSet Offered;
  KernelModel M = twoKernels(Offered);
  llvm::Error E = selectKernels({"mul"}, M, Offered);
  ASSERT_TRUE(bool(E));
  std::string Message = llvm::toString(std::move(E));
  EXPECT_NE(Message.find("no kernel named 'mul'"), std::string::npos);
  EXPECT_NE(Message.find("kernels: scale, add"), std::string::npos);
  EXPECT_EQ(M.Kernels.size(), 2u); // nothing dropped
}

TEST(KernelSelection, AnUnparsedFileHasNoKernelsToName) {
  KnobSet Offered;
  KernelModel M = twoKernels(Offered);
  M.Unparsed = "error: unknown type name";
  llvm::Error E = selectKernels({"add"}, M, Offered);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("could not parse"),
            std::string::npos);
}
