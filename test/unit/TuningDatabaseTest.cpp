#include "cro/Database/TuningDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <atomic>
#include <thread>

using namespace cro;
using namespace llvm;

namespace {

std::string tempDb(StringRef Name) {
  SmallString<128> Dir;
  EXPECT_FALSE(sys::fs::createUniqueDirectory("cro-db", Dir));
  sys::path::append(Dir, Name);
  return std::string(Dir);
}

EvaluationRecord sample(StringRef Config, double Ms, StringRef Verdict) {
  EvaluationRecord R;
  R.SourceHash = "abc123";
  R.File = "matmul.cu";
  R.Config = Config.str();
  R.Sequence = "[]";
  R.Where = {"NVIDIA H200", "9.0", "580.159.04", "13.0.88"};
  R.Flags = "-O3 -arch=sm_90";
  R.Verdict = Verdict.str();
  R.MedianMs = Ms;
  R.SpreadMs = Ms / 100;
  R.OriginalMs = 3.1;
  R.Strategy = "test";
  return R;
}

TEST(TuningDatabase, RoundTripAndResume) {
  std::string Path = tempDb("t.db");
  {
    auto Db = TuningDatabase::open(Path);
    ASSERT_TRUE(bool(Db)) << toString(Db.takeError());
    ASSERT_FALSE(
        bool((*Db)->record(sample(R"({"k.block":[16,16]})", 2.0, "verified"))));
    EvaluationRecord Bad = sample(R"({"k.block":[8,8]})", 1.0, "rejected");
    Bad.MedianMs.reset();
    Bad.Reason = "C differs at element 7";
    ASSERT_FALSE(bool((*Db)->record(Bad)));
  }
  // Reopened, as an interrupted search would: both evaluations are there.
  auto Db = TuningDatabase::open(Path);
  ASSERT_TRUE(bool(Db)) << toString(Db.takeError());
  Platform H200{"NVIDIA H200", "9.0", "580.159.04", "13.0.88"};
  auto Found = (*Db)->find("abc123", R"({"k.block":[8,8]})", H200);
  ASSERT_TRUE(bool(Found));
  ASSERT_TRUE(Found->has_value());
  EXPECT_EQ((*Found)->Verdict, "rejected");
  EXPECT_EQ((*Found)->Reason, "C differs at element 7");
  EXPECT_FALSE((*Found)->MedianMs.has_value());
  // Another driver is another platform: not a hit.
  Platform Other = H200;
  Other.Driver = "575.0";
  auto Miss = (*Db)->find("abc123", R"({"k.block":[8,8]})", Other);
  ASSERT_TRUE(bool(Miss));
  EXPECT_FALSE(Miss->has_value());
  auto All = (*Db)->evaluations("abc123", "NVIDIA H200");
  ASSERT_TRUE(bool(All));
  EXPECT_EQ(All->size(), 2u);
}

TEST(TuningDatabase, BestVerifiedIgnoresRejectedAndRemeasuring) {
  auto Db = TuningDatabase::open(tempDb("b.db"));
  ASSERT_TRUE(bool(Db)) << toString(Db.takeError());
  ASSERT_FALSE(bool((*Db)->record(sample("{\"a\":1}", 2.0, "verified"))));
  ASSERT_FALSE(bool((*Db)->record(sample("{\"a\":2}", 0.5, "rejected"))));
  ASSERT_FALSE(bool((*Db)->record(sample("{\"a\":3}", 1.5, "verified"))));
  auto Best = (*Db)->bestVerified("abc123", "NVIDIA H200");
  ASSERT_TRUE(bool(Best));
  ASSERT_TRUE(Best->has_value());
  EXPECT_EQ((*Best)->Config, "{\"a\":3}");
  // Measuring the same configuration again replaces the row.
  ASSERT_FALSE(bool((*Db)->record(sample("{\"a\":3}", 2.5, "verified"))));
  Best = (*Db)->bestVerified("abc123", "NVIDIA H200");
  ASSERT_TRUE(bool(Best));
  EXPECT_EQ((*Best)->Config, "{\"a\":1}");
  auto All = (*Db)->evaluations("abc123", "NVIDIA H200");
  ASSERT_TRUE(bool(All));
  EXPECT_EQ(All->size(), 3u);
  auto None = (*Db)->bestVerified("abc123", "NVIDIA A100");
  ASSERT_TRUE(bool(None));
  EXPECT_FALSE(None->has_value());
}

TEST(TuningDatabase, ConcurrentWritersLoseNothing) {
  std::string Path = tempDb("c.db");
  { ASSERT_TRUE(bool(TuningDatabase::open(Path))); }
  const int Writers = 4, Each = 50;
  std::vector<std::thread> Threads;
  std::atomic<int> Failures{0};
  for (int W = 0; W < Writers; ++W)
    Threads.emplace_back([&, W] {
      auto Db = TuningDatabase::open(Path); // its own connection
      if (!Db) {
        consumeError(Db.takeError());
        ++Failures;
        return;
      }
      for (int I = 0; I < Each; ++I)
        if (Error E =
                (*Db)->record(sample("{\"w\":" + std::to_string(W) +
                                         ",\"i\":" + std::to_string(I) + "}",
                                     1.0 + I, "verified"))) {
          consumeError(std::move(E));
          ++Failures;
        }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Failures, 0);
  auto Db = TuningDatabase::open(Path);
  ASSERT_TRUE(bool(Db));
  auto All = (*Db)->evaluations("abc123", "NVIDIA H200");
  ASSERT_TRUE(bool(All));
  EXPECT_EQ(All->size(), size_t(Writers * Each));
}

TEST(TuningDatabase, UnwritablePathIsAClearError) {
  // A directory that cannot exist (its parent is a regular file), since
  // open() creates missing directories and tests may run as root.
  SmallString<128> File;
  ASSERT_FALSE(sys::fs::createTemporaryFile("cro-not-a-dir", "", File));
  auto Db = TuningDatabase::open((File + "/sub/t.db").str());
  sys::fs::remove(File);
  ASSERT_FALSE(bool(Db));
  std::string Msg = toString(Db.takeError());
  EXPECT_NE(Msg.find("cannot open the tuning database"), std::string::npos)
      << Msg;
}

} // namespace

TEST(TuningDatabase, TransferFromSimilarSources) {
  std::string Path = tempDb("t.db");
  auto Db = TuningDatabase::open(Path);
  ASSERT_TRUE(bool(Db)) << toString(Db.takeError());
  // Two matmul-like sources were tuned; a third one asks for priors.
  EvaluationRecord A = sample("{\"k.tile\":32}", 1.0, "verified");
  A.SourceHash = "src-a";
  EvaluationRecord A2 = sample("{\"k.tile\":8}", 2.0, "verified");
  A2.SourceHash = "src-a";
  EvaluationRecord B = sample("{\"k.tile\":16}", 0.5, "verified");
  B.SourceHash = "src-b";
  EvaluationRecord Wrong = sample("{\"k.tile\":64}", 0.1, "rejected");
  Wrong.SourceHash = "src-b";
  for (const EvaluationRecord &R : {A, A2, B, Wrong})
    ASSERT_FALSE(bool((*Db)->record(R)));
  ASSERT_FALSE(bool((*Db)->describeSource("src-a", "a.cu", "reduction=1")));
  ASSERT_FALSE(bool((*Db)->describeSource("src-b", "b.cu", "reduction=1")));
  ASSERT_FALSE(bool((*Db)->describeSource("src-c", "c.cu", "reduction=1")));
  ASSERT_FALSE(bool((*Db)->describeSource("src-d", "d.cu", "streaming=1")));

  auto Similar = (*Db)->bestOfSimilar("reduction=1", "NVIDIA H200", "src-c");
  ASSERT_TRUE(bool(Similar)) << toString(Similar.takeError());
  // One per source, its fastest verified variant, largest speedup first.
  ASSERT_EQ(Similar->size(), 2u);
  EXPECT_EQ((*Similar)[0].Config, "{\"k.tile\":16}");
  EXPECT_EQ((*Similar)[1].Config, "{\"k.tile\":32}");
  auto None = (*Db)->bestOfSimilar("streaming=1", "NVIDIA H200", "src-c");
  ASSERT_TRUE(bool(None));
  EXPECT_TRUE(None->empty());
  auto Self = (*Db)->bestOfSimilar("reduction=1", "NVIDIA H200", "src-a");
  ASSERT_TRUE(bool(Self));
  ASSERT_EQ(Self->size(), 1u) << "a source is not its own prior";

  auto Gpus = (*Db)->gpusWithResults("src-a");
  ASSERT_TRUE(bool(Gpus));
  EXPECT_EQ(*Gpus, std::vector<std::string>{"NVIDIA H200"});
}
