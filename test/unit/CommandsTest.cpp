// The CLI's commands are library calls (lib/Commands): the command line is
// parsed into a request and handed over. These run --simulate's command on
// a small Kernel Tuner cache without the tool's binary or a GPU: the
// search, its report and its errors.
#include "cro/Commands/SearchCommand.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cro;
using namespace llvm;

namespace {

/// block_size_x in {32, 64, 128} x tile in {1, 2}: (128, 2) is fastest,
/// (64, 2) failed to compile.
const char *const Cache = R"({
  "device_name": "NVIDIA RTX A6000", "kernel_name": "conv",
  "tune_params_keys": ["block_size_x", "tile"],
  "tune_params": {"block_size_x": [32, 64, 128], "tile": [1, 2]},
  "objective": "time",
  "cache": {
    "32,1": {"block_size_x": 32, "tile": 1, "time": 4.0},
    "32,2": {"block_size_x": 32, "tile": 2, "time": 3.0},
    "64,1": {"block_size_x": 64, "tile": 1, "time": 2.5},
    "64,2": {"block_size_x": 64, "tile": 2, "time": "CompilationFailedConfig"},
    "128,1": {"block_size_x": 128, "tile": 1, "time": 2.0},
    "128,2": {"block_size_x": 128, "tile": 2, "time": 1.0}
  }})";

struct TempFile {
  SmallString<128> Path;
  explicit TempFile(StringRef Suffix, StringRef Text = "") {
    int FD;
    EXPECT_FALSE(
        sys::fs::createTemporaryFile("cro-commands", Suffix, FD, Path));
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
  }
  ~TempFile() { sys::fs::remove(Path); }
};

TEST(Commands, SimulateSearchesTheCacheAndReportsItsBest) {
  TempFile Space(".json", Cache), Report(".json");
  SimulateRequest Req;
  Req.SpaceFile = Space.Path.str().str();
  Req.ReportFile = Report.Path.str().str();
  Req.ToolVersion = "cuda-rewrite-opt test";
  Req.Control.Strategy = "exhaustive";
  Req.Control.Budget = 100;
  Req.Control.Patience = 0;
  std::string Err;
  raw_string_ostream ErrOS(Err);
  EXPECT_EQ(runSimulate(Req, ErrOS), 0) << Err;
  auto Buf = MemoryBuffer::getFile(Req.ReportFile);
  ASSERT_TRUE(bool(Buf));
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  const json::Object *R = V->getAsObject();
  ASSERT_NE(R, nullptr);
  // Every configuration of the cache was evaluated, the failed one as a
  // failure, and the fastest is the best.
  const json::Array *Evals = R->getArray("evaluations");
  ASSERT_NE(Evals, nullptr);
  EXPECT_EQ(Evals->size(), 6u);
  ASSERT_TRUE(R->getNumber("best_ms").has_value());
  EXPECT_DOUBLE_EQ(*R->getNumber("best_ms"), 1.0);
}

TEST(Commands, SimulateNamesAMissingOrBadSpace) {
  SimulateRequest Req;
  Req.SpaceFile = "/nonexistent/cro-space.json";
  std::string Err;
  raw_string_ostream ErrOS(Err);
  int Code = runSimulate(Req, ErrOS);
  EXPECT_NE(Code, 0);
  EXPECT_NE(Err.find("cro-space.json"), std::string::npos) << Err;

  TempFile Bad(".json", R"({"tune_params": {"a": []}, "cache": {}})");
  Req.SpaceFile = Bad.Path.str().str();
  Err.clear();
  EXPECT_NE(runSimulate(Req, ErrOS), 0);
  EXPECT_NE(Err.find("tune_params['a'] is not a non-empty list"),
            std::string::npos)
      << Err;
}

TEST(Commands, SimulateRefusesAnUnknownStrategyBeforeSearching) {
  TempFile Space(".json", Cache);
  SimulateRequest Req;
  Req.SpaceFile = Space.Path.str().str();
  Req.Control.Strategy = "no-such-strategy";
  std::string Err;
  raw_string_ostream ErrOS(Err);
  EXPECT_NE(runSimulate(Req, ErrOS), 0);
  EXPECT_NE(Err.find("no-such-strategy"), std::string::npos) << Err;
}

} // namespace
