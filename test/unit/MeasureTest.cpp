// Output comparison, statistics, and the injection library's record format.
#include "cro/Measure/Compare.h"
#include "cro/Measure/Runner.h"
#include "cro/Measure/Statistics.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace cro;

namespace {

template <typename T> std::string bytes(const std::vector<T> &V) {
  return std::string(reinterpret_cast<const char *>(V.data()),
                     V.size() * sizeof(T));
}

CompareResult cmpF(const std::vector<float> &A, const std::vector<float> &B) {
  return compareBuffers(bytes(A), bytes(B), ElementKind::Float32,
                        Tolerance::defaultFor(ElementKind::Float32));
}

TEST(Compare, ElementKinds) {
  EXPECT_EQ(elementKindOf("const float"), ElementKind::Float32);
  EXPECT_EQ(elementKindOf("float4"), ElementKind::Float32);
  EXPECT_EQ(elementKindOf("double"), ElementKind::Float64);
  EXPECT_EQ(elementKindOf("unsigned int"), ElementKind::Exact);
  EXPECT_EQ(elementKindOf("T"), ElementKind::Exact);
  EXPECT_EQ(elementKindOf("__half"), ElementKind::Exact);
}

TEST(Compare, ReorderedSumsPassWrongValuesFail) {
  std::vector<float> Ref = {1.0f, 2.0f, 3.0f, 1000.0f};
  std::vector<float> Reordered = Ref;
  Reordered[3] = std::nextafter(1000.0f, 2000.0f); // one ulp
  EXPECT_TRUE(cmpF(Ref, Reordered).Equal);
  std::vector<float> Wrong = Ref;
  Wrong[1] = 2.01f;
  CompareResult R = cmpF(Ref, Wrong);
  EXPECT_FALSE(R.Equal);
  EXPECT_EQ(R.FirstMismatch, 1u);
  EXPECT_EQ(R.Mismatches, 1u);
}

TEST(Compare, TheAbsoluteFloorScalesWithTheData) {
  // The floor is 1e-6 * max|ref|: an error of 5e-3 on a zero passes next
  // to a 1e4 (floor 1e-2), but the same error fails when the data is all
  // around 1 (floor 1e-6). Never a fixed absolute tolerance.
  EXPECT_TRUE(cmpF({1e4f, 0.0f}, {1e4f, 5e-3f}).Equal);
  EXPECT_FALSE(cmpF({1.0f, 0.0f}, {1.0f, 5e-3f}).Equal);
}

TEST(Compare, NaNsAndSizes) {
  float NaN = std::numeric_limits<float>::quiet_NaN();
  CompareResult R = cmpF({1.0f, 2.0f}, {1.0f, NaN});
  EXPECT_FALSE(R.Equal);
  EXPECT_NE(R.Reason.find("NaN where the original has none"),
            std::string::npos);
  EXPECT_TRUE(cmpF({1.0f, NaN}, {1.0f, NaN}).Equal);
  EXPECT_FALSE(compareBuffers("abcd", "abc", ElementKind::Exact, {0, 0}).Equal);
  CompareResult Ints = compareBuffers(bytes(std::vector<int>{1, 2, 3}),
                                      bytes(std::vector<int>{1, 2, 4}),
                                      ElementKind::Exact, {0, 0});
  EXPECT_FALSE(Ints.Equal);
}

TEST(Statistics, MedianSpreadAndNoise) {
  Summary S = summarize({5, 1, 3, 2, 4});
  EXPECT_EQ(S.Median, 3);
  EXPECT_EQ(S.Min, 1);
  EXPECT_EQ(S.Max, 5);
  EXPECT_EQ(S.P25, 2);
  EXPECT_EQ(S.P75, 4);
  std::vector<double> A, B, C;
  for (int I = 0; I < 30; ++I) {
    A.push_back(1.00 + 0.001 * (I % 5));
    B.push_back(1.20 + 0.001 * (I % 7));
    C.push_back(1.001 + 0.001 * (I % 4));
  }
  EXPECT_TRUE(fasterBeyondNoise(A, B));
  EXPECT_FALSE(fasterBeyondNoise(B, A));
  EXPECT_FALSE(fasterBeyondNoise(A, C));     // within the noise
  EXPECT_FALSE(fasterBeyondNoise({1}, {2})); // too few samples to say
}

TEST(Runner, ParsesInjectionRecords) {
  RunResult R;
  parseInjectionOutput(
      "{\"event\":\"start\",\"version\":1}\n"
      "{\"event\":\"replay\",\"kernel\":\"saxpy\",\"launch\":0,\"grid\":[4,1,1]"
      ","
      "\"block\":[256,1,1],\"dynamic_smem\":0,\"registers\":16,"
      "\"flush_l2\":false,\"times_ms\":[0.5,0.25]}\n"
      "{\"event\":\"capture\",\"kernel\":\"saxpy\",\"launch\":0,"
      "\"allocation\":1,\"args\":[3],\"bytes\":1024,\"file\":\"/t/x.bin\"}\n"
      "{\"event\":\"kernel\",\"kernel\":\"saxpy\",\"start_ns\":100,"
      "\"end_ns\":600,\"grid\":[4,1,1],\"block\":[256,1,1],\"registers\":16}\n"
      "{\"event\":\"error\",\"message\":\"boom\"}\n"
      "not json\n",
      R);
  EXPECT_TRUE(R.InjectionStarted);
  ASSERT_EQ(R.Replays.size(), 1u);
  EXPECT_EQ(R.Replays[0].TimesMs, (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(R.Replays[0].Block[0], 256u);
  ASSERT_EQ(R.Captures.size(), 1u);
  EXPECT_EQ(R.Captures[0].Args, std::vector<int>{3});
  EXPECT_EQ(R.Captures[0].File, "/t/x.bin");
  ASSERT_EQ(R.Kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(R.Kernels[0].ms(), 0.0005);
  ASSERT_EQ(R.Errors.size(), 2u);
  EXPECT_EQ(R.Errors[0], "boom");
}

} // namespace
