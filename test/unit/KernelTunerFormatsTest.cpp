// Kernel Tuner's cache files and T4 results as recorded spaces, and the
// tool's recordings written as T4 (issue 19, item 3). The inputs are small
// files written in those formats by the team: the shapes follow what
// Kernel Tuner 1.0-1.5 writes (docs/search.md).
#include "cro/Search/KernelTunerFormats.h"
#include "cro/Search/RecordedSpace.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"
#include <zlib.h>

using namespace cro;
using namespace llvm;

namespace {

/// A brute-forced 2x3 space: block_size_x in {32, 64}, tile in {1, 2, 4};
/// (64, 4) is absent (a restriction), (32, 4) failed to compile in the old
/// spelling, (64, 2) failed at run time in the new one (Kernel Tuner 1.4).
const char *const Cache = R"({
  "device_name": "NVIDIA RTX A6000", "kernel_name": "conv",
  "tune_params_keys": ["block_size_x", "tile"],
  "tune_params": {"block_size_x": [32, 64], "tile": [1, 2, 4]},
  "objective": "time",
  "cache": {
    "32,1": {"block_size_x": 32, "tile": 1, "time": 3.0},
    "32,2": {"block_size_x": 32, "tile": 2, "time": 2.0},
    "32,4": {"block_size_x": 32, "tile": 4, "time": "CompilationFailedConfig"},
    "64,1": {"block_size_x": 64, "tile": 1, "time": 1.5},
    "64,2": {"block_size_x": 64, "tile": 2, "__error__": "RuntimeFailedConfig"}
  }})";

RecordedSpace load(StringRef Text, StringRef Name) {
  Expected<json::Value> V = json::parse(Text);
  EXPECT_TRUE(bool(V)) << toString(V.takeError());
  std::optional<Expected<json::Value>> Foreign = foreignRecording(*V, Name);
  EXPECT_TRUE(Foreign.has_value()) << "recognized";
  EXPECT_TRUE(bool(*Foreign)) << toString(Foreign->takeError());
  Expected<RecordedSpace> R = RecordedSpace::fromJSON(**Foreign, Name);
  EXPECT_TRUE(bool(R)) << toString(R.takeError());
  return std::move(*R);
}

std::optional<Trial> at(RecordedSpace &R, const json::Object &Config) {
  Expected<Point> P = R.space().pointOf(Config);
  EXPECT_TRUE(bool(P)) << toString(P.takeError());
  return R.result(*P);
}

std::string gzip(StringRef Text) {
  z_stream Z{};
  EXPECT_EQ(
      deflateInit2(&Z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
      Z_OK);
  std::string Out(deflateBound(&Z, uLong(Text.size())) + 64, '\0');
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Text.data()));
  Z.avail_in = uInt(Text.size());
  Z.next_out = reinterpret_cast<Bytef *>(Out.data());
  Z.avail_out = uInt(Out.size());
  EXPECT_EQ(deflate(&Z, Z_FINISH), Z_STREAM_END);
  Out.resize(Z.total_out);
  deflateEnd(&Z);
  return Out;
}

TEST(KernelTunerFormats, ACacheIsARecordedSpace) {
  RecordedSpace R = load(Cache, "conv_A6000");
  EXPECT_EQ(R.name(), "conv_A6000");
  EXPECT_EQ(R.gpu(), "NVIDIA RTX A6000");
  EXPECT_EQ(R.space().size(), 6u);
  EXPECT_EQ(R.points(), 5u) << "every cached configuration";
  EXPECT_DOUBLE_EQ(*R.optimum(), 1.5);
  // The original is the verified configuration of median time (2.0).
  EXPECT_EQ(R.space().key(R.space().defaultPoint()), "{}");
  EXPECT_DOUBLE_EQ(*at(R, json::Object{})->Time, 2.0);
  EXPECT_EQ(at(R, json::Object{{"block_size_x", 32}, {"tile", 4}})->Verdict,
            "build-failed");
  EXPECT_EQ(at(R, json::Object{{"block_size_x", 64}, {"tile", 2}})->Verdict,
            "run-failed");
  EXPECT_NE(at(R, json::Object{{"block_size_x", 64}, {"tile", 2}})
                ->Reason.find("RuntimeFailedConfig"),
            std::string::npos);
  // The restriction: absent, so invalid and never proposed.
  Expected<Point> Absent =
      R.space().pointOf(json::Object{{"block_size_x", 64}, {"tile", 4}});
  ASSERT_TRUE(bool(Absent));
  EXPECT_FALSE(R.space().valid(*Absent));
  ASSERT_NE(R.space().validSet(), nullptr);
  EXPECT_EQ(R.space().validSet()->size(), 5u);
}

TEST(KernelTunerFormats, GzipIsInflatedAndItsDefectsNamed) {
  std::string Packed = gzip(Cache);
  ASSERT_NE(Packed.size(), 0u);
  Expected<std::string> Text = inflateIfGzip(Packed, "conv.json.gz");
  ASSERT_TRUE(bool(Text)) << toString(Text.takeError());
  EXPECT_EQ(*Text, Cache);
  Expected<std::string> Plain = inflateIfGzip(Cache, "conv.json");
  ASSERT_TRUE(bool(Plain));
  EXPECT_EQ(*Plain, Cache) << "plain text passes through";
  Expected<std::string> Cut =
      inflateIfGzip(StringRef(Packed).take_front(Packed.size() / 2), "x.gz");
  ASSERT_FALSE(bool(Cut));
  EXPECT_NE(toString(Cut.takeError()).find("x.gz: "), std::string::npos);
}

TEST(KernelTunerFormats, T4ResultsAreARecordedSpace) {
  // As Kernel Tuner 1.5 writes them (and 1.0-1.3: a failed entry's "time"
  // measurement with the value ""), with times in seconds; the first
  // configuration measured twice keeps its first result.
  const char *T4 = R"({"results": [
    {"timestamp": "2024-01-01 00:00:00.000000+00:00",
     "configuration": {"block_size_x": 128, "mode": "a"},
     "times": {"compilation": 812.4, "runtimes": [0.0257]},
     "invalidity": "correct", "correctness": 1,
     "measurements": [{"name": "time", "value": 0.002, "unit": "s"}],
     "objectives": ["time"]},
    {"configuration": {"block_size_x": 32, "mode": "a"}, "times": {},
     "invalidity": "correct", "correctness": 1,
     "measurements": [{"name": "time", "value": 0.004, "unit": "s"}],
     "objectives": ["time"]},
    {"configuration": {"block_size_x": 128, "mode": "a"}, "times": {},
     "invalidity": "correct", "correctness": 1,
     "measurements": [{"name": "time", "value": 9.0, "unit": "s"}],
     "objectives": ["time"]},
    {"configuration": {"block_size_x": 256, "mode": "b"}, "times": {},
     "invalidity": "compile", "correctness": 1,
     "measurements": [{"name": "__error__", "value": "", "unit": ""}],
     "objectives": ["time"]},
    {"configuration": {"block_size_x": 64, "mode": "b"}, "times": {},
     "invalidity": "runtime", "correctness": 1,
     "measurements": [{"name": "time", "value": "", "unit": "ms"}],
     "objectives": ["time"]},
    {"configuration": {"block_size_x": 64, "mode": "a"}, "times": {},
     "invalidity": "constraints", "correctness": 1, "measurements": [],
     "objectives": ["time"]}
  ], "schema_version": "1.0.0", "metadata": {"timeunit": "seconds"}})";
  RecordedSpace R = load(T4, "t4");
  EXPECT_EQ(R.points(), 4u) << "the constraint-refused one is not a point";
  EXPECT_DOUBLE_EQ(*R.optimum(), 2.0) << "seconds read as ms";
  // Numbers in ascending order.
  const Dimension &Block = R.space().dimensions()[0];
  ASSERT_EQ(Block.Values.size(), 4u);
  EXPECT_EQ(Block.Values[0], json::Value(32));
  EXPECT_EQ(Block.Values[3], json::Value(256));
  EXPECT_EQ(at(R, json::Object{{"block_size_x", 256}, {"mode", "b"}})->Verdict,
            "build-failed");
  EXPECT_EQ(at(R, json::Object{{"block_size_x", 64}, {"mode", "b"}})->Verdict,
            "run-failed");
}

TEST(KernelTunerFormats, DefectsAreNamed) {
  auto Error = [](StringRef Text) {
    Expected<json::Value> V = json::parse(Text);
    EXPECT_TRUE(bool(V));
    std::optional<Expected<json::Value>> F = foreignRecording(*V, "f");
    EXPECT_TRUE(F.has_value());
    return *F ? std::string() : toString(F->takeError());
  };
  EXPECT_NE(Error(R"({"tune_params": {"a": []}, "cache": {}})")
                .find("tune_params['a'] is not a non-empty list"),
            std::string::npos);
  EXPECT_NE(Error(R"({"tune_params": {"a": [1]}, "cache": {"1": {"time": 1}}})")
                .find("has no value for 'a'"),
            std::string::npos);
  EXPECT_NE(Error(R"({"tune_params": {"a": [1]},
                      "cache": {"1": {"a": 1, "time": "InvalidConfig"}}})")
                .find("no configuration with a time"),
            std::string::npos);
  EXPECT_NE(Error(R"({"results": [], "schema_version": "1.0.0",
                      "metadata": {"timeunit": "fortnights"}})")
                .find("unknown metadata.timeunit"),
            std::string::npos);
  // The tool's own format is not foreign.
  Expected<json::Value> Own = json::parse(R"({"knobs": [], "points": []})");
  ASSERT_TRUE(bool(Own));
  EXPECT_FALSE(foreignRecording(*Own, "own").has_value());
}

TEST(KernelTunerFormats, T4WrittenIsReadBackAsTheSameSpace) {
  RecordedSpace R = load(Cache, "conv");
  SearchResult Result;
  for (size_t I = 0; I < R.space().validSet()->size(); ++I) {
    Point P = R.space().validSet()->at(I);
    Trial T = *R.result(P);
    T.P = P;
    Result.Trials.push_back(T);
    Result.Elapsed.push_back(0.5 * I);
  }
  json::Value T4 = recordSpaceT4(R.space(), Result, 1.7e9,
                                 json::Object{{"gpu", "NVIDIA RTX A6000"}});
  const json::Object &O = *T4.getAsObject();
  EXPECT_EQ(O.getString("schema_version"), std::optional<StringRef>("1.0.0"));
  const json::Array &Results = *O.getArray("results");
  ASSERT_EQ(Results.size(), 5u);
  EXPECT_EQ(Results[0].getAsObject()->getString("timestamp"),
            std::optional<StringRef>("2023-11-14 22:13:20.000000+00:00"));
  RecordedSpace Back =
      load(formatv("{0}", T4).str(), "conv-again"); // through the text
  EXPECT_EQ(Back.points(), R.points());
  EXPECT_DOUBLE_EQ(*Back.optimum(), *R.optimum());
  for (size_t I = 0; I < R.space().validSet()->size(); ++I) {
    Point P = R.space().validSet()->at(I);
    json::Object Config;
    for (size_t D = 0; D < P.size(); ++D)
      Config[R.space().dimensions()[D].Knob] =
          R.space().dimensions()[D].Values[P[D]];
    std::optional<Trial> A = R.result(P), B = at(Back, Config);
    ASSERT_TRUE(B.has_value());
    EXPECT_EQ(A->Verdict, B->Verdict);
    EXPECT_EQ(A->Time, B->Time);
  }
}

} // namespace
