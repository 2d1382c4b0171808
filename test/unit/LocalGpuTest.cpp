#include "cro/Frontend/LocalGpu.h"
#include "gtest/gtest.h"

using namespace cro;

TEST(LocalGpu, ParsesNvidiaSmiCsv) {
  std::optional<LocalGpu> G =
      parseNvidiaSmiLine("NVIDIA H200, 9.0, 580.95.05\n");
  ASSERT_TRUE(G.has_value());
  EXPECT_EQ(G->Name, "NVIDIA H200");
  EXPECT_EQ(G->Arch, "sm_90");
  EXPECT_EQ(G->Driver, "580.95.05");
  EXPECT_EQ(parseNvidiaSmiLine("NVIDIA B200, 10.0, 590.1")->Arch, "sm_100");
}

TEST(LocalGpu, RejectsGarbage) {
  EXPECT_FALSE(parseNvidiaSmiLine("").has_value());
  EXPECT_FALSE(parseNvidiaSmiLine("No devices were found").has_value());
  EXPECT_FALSE(parseNvidiaSmiLine("GPU, [N/A], 1").has_value());
}
