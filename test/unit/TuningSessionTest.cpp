// The tuning policy of lib/Tune on recorded spaces, without a GPU: what is
// written and why, the confirmation against the original, resuming an
// interrupted session from the database, and replaying what was decided.
#include "cro/Tune/TuningSession.h"
#include "TestInputs.h"
#include "cro/Rewrite/Registry.h"
#include "cro/Support/ToolError.h"
#include "cro/Tune/Replay.h"
#include "cro/Tune/SessionEvaluators.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <map>

using namespace cro;
using namespace llvm;

namespace {

std::string tempDb() {
  SmallString<128> Dir;
  EXPECT_FALSE(sys::fs::createUniqueDirectory("cro-session", Dir));
  sys::path::append(Dir, "tuning.db");
  return std::string(Dir);
}

/// One kernel's block size (default 256) with a recorded time per value;
/// a value without a time failed to build.
RecordedSpace blockSpace(const std::map<int, double> &Ms) {
  json::Array Points;
  for (int B : {32, 64, 128, 256, 512, 1024}) {
    json::Object C;
    if (B != 256)
      C["k.block"] = B;
    json::Object P{{"config", std::move(C)}};
    auto It = Ms.find(B);
    if (It == Ms.end()) {
      P["verdict"] = "build-failed";
      P["reason"] = "too many resources requested for launch";
    } else {
      P["verdict"] = "verified";
      P["time_ms"] = It->second;
    }
    Points.push_back(std::move(P));
  }
  json::Value V = json::Object{
      {"name", "blocks"},
      {"knobs", json::Array{json::Object{
                    {"id", "k.block"},
                    {"transform", "block-size"},
                    {"role", "block-shape"},
                    {"values", json::Array{32, 64, 128, 256, 512, 1024}},
                    {"default", 256}}}},
      {"points", std::move(Points)}};
  Expected<RecordedSpace> R = RecordedSpace::fromJSON(V, "blocks");
  EXPECT_TRUE(bool(R)) << (R ? "" : toString(R.takeError()));
  return std::move(*R);
}

const Platform Where{"NVIDIA H200", "9.0", "580.159.04", "13.0.88"};

struct SessionRun {
  SearchResult Result;
  SessionOutcome Outcome;
  unsigned Measured = 0;
};

/// A whole session: start, search exhaustively, decide, record.
SessionRun tune(RecordedSpace &S, TuningDatabase *Db, double Noise,
                uint64_t Seed, unsigned Budget = 20,
                StringRef Hash = "workload-1") {
  RecordedTuningEvaluator Eval(S, Db, Hash.str(), Where, {Noise, Seed});
  SearchControl Control;
  Control.Strategy = "exhaustive";
  Control.Budget = Budget;
  Control.Seed = Seed;
  Control.Batch = 2;
  Control.Patience = 0;
  TuningSession Session(S.space(), Eval, Db,
                        {Hash.str(), "blocks.cu", Where.Gpu}, S.features(),
                        Control, GainRule(), 5);
  SessionRun R;
  Error E = Session.start();
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  R.Result = Session.search();
  R.Outcome = Session.decide(R.Result);
  Error Rec = Session.record(R.Outcome);
  EXPECT_FALSE(bool(Rec)) << toString(std::move(Rec));
  R.Measured = Eval.measured();
  return R;
}

TEST(TuningSession, WritesAWinnerFasterBeyondTheMinimumGain) {
  RecordedSpace S = blockSpace({{64, 1.2}, {128, 0.7}, {256, 1.0}, {512, 1.1}});
  std::string Path = tempDb();
  auto Db = cantFail(TuningDatabase::open(Path));
  SessionRun R = tune(S, Db.get(), 0.01, 7);
  ASSERT_EQ(R.Outcome.What, SessionOutcome::Kind::Written)
      << R.Outcome.Decision;
  EXPECT_EQ(S.space().key(*R.Outcome.Candidate), "{\"k.block\":128}");
  EXPECT_TRUE(R.Outcome.Gain.Faster);
  ASSERT_TRUE(R.Outcome.Gain.LowerBound);
  EXPECT_GT(*R.Outcome.Gain.LowerBound, 1.3);
  EXPECT_EQ(R.Outcome.Runs, 5u);
  EXPECT_EQ(R.Outcome.Confirmed.OriginalMs.size(), 5u);
  EXPECT_NE(R.Outcome.Decision.find("Wrote the fastest verified variant"),
            std::string::npos);

  // The decision, with the times that decided it, is what a replay writes.
  auto D = cantFail(Db->latestDecision("workload-1", Where.Gpu));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Config, "{\"k.block\":128}");
  ASSERT_TRUE(D->OriginalMs && D->VariantMs);
  EXPECT_NEAR(*D->OriginalMs, 1.0, 0.05);
  EXPECT_NEAR(*D->VariantMs, 0.7, 0.05);
  EXPECT_NEAR(D->Speedup, *D->OriginalMs / *D->VariantMs, 1e-9);
  ReplayChoice C = cantFail(chooseReplay(*Db, "workload-1", ""));
  EXPECT_TRUE(C.Confirmed);
  EXPECT_EQ(C.Gpu, Where.Gpu);
  ASSERT_TRUE(C.Best);
  EXPECT_EQ(C.Best->Config, D->Config);
  EXPECT_EQ(C.Best->MedianMs, D->VariantMs);
  EXPECT_EQ(C.Best->OriginalMs, D->OriginalMs);
}

TEST(TuningSession, KeepsTheOriginalForASmallEffect) {
  // 1% faster, 1% noise: real, but below the 2% a rewrite must pay.
  RecordedSpace S = blockSpace({{64, 1.05}, {128, 0.99}, {256, 1.0}});
  std::string Path = tempDb();
  auto Db = cantFail(TuningDatabase::open(Path));
  SessionRun R = tune(S, Db.get(), 0.01, 3);
  ASSERT_TRUE(R.Outcome.Candidate) << R.Outcome.Decision;
  EXPECT_EQ(R.Outcome.What, SessionOutcome::Kind::NotFaster);
  EXPECT_NE(R.Outcome.Decision.find("not written"), std::string::npos);
  auto D = cantFail(Db->latestDecision("workload-1", Where.Gpu));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Config, "{}");
  EXPECT_EQ(D->Speedup, 1.0);
  EXPECT_EQ(D->OriginalMs, D->VariantMs);
  ReplayChoice C = cantFail(chooseReplay(*Db, "workload-1", Where.Gpu));
  ASSERT_TRUE(C.Best);
  EXPECT_EQ(C.Best->Config, "{}");
}

TEST(TuningSession, WritesAFivePercentEffect) {
  RecordedSpace S = blockSpace({{128, 0.95}, {256, 1.0}, {512, 1.02}});
  SessionRun R = tune(S, nullptr, 0.005, 11);
  EXPECT_EQ(R.Outcome.What, SessionOutcome::Kind::Written)
      << R.Outcome.Decision;
}

TEST(TuningSession, NoEffectUnderHeavyNoiseIsRarelyWritten) {
  // Every block size takes the same time; 10% noise makes some look
  // faster in the search. The rule's false positives stay near its 5%.
  RecordedSpace S =
      blockSpace({{32, 1.0}, {64, 1.0}, {128, 1.0}, {256, 1.0}, {512, 1.0}});
  unsigned Written = 0, Candidates = 0;
  for (uint64_t Seed = 1; Seed <= 40; ++Seed) {
    SessionRun R = tune(S, nullptr, 0.10, Seed);
    Candidates += R.Outcome.Candidate.has_value();
    Written += R.Outcome.written();
  }
  EXPECT_GT(Candidates, 20u); // the search is fooled often...
  EXPECT_LE(Written, 4u);     // ...the decision seldom
}

TEST(TuningSession, NothingFasterKeepsTheOriginalWithoutConfirming) {
  RecordedSpace S = blockSpace({{64, 1.3}, {128, 1.1}, {256, 1.0}});
  std::string Path = tempDb();
  auto Db = cantFail(TuningDatabase::open(Path));
  SessionRun R = tune(S, Db.get(), 0.0, 1);
  EXPECT_EQ(R.Outcome.What, SessionOutcome::Kind::NoCandidate);
  EXPECT_FALSE(R.Outcome.Candidate);
  EXPECT_TRUE(R.Outcome.Confirmed.OriginalMs.empty());
  auto D = cantFail(Db->latestDecision("workload-1", Where.Gpu));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Config, "{}");
  EXPECT_EQ(D->OriginalMs, std::optional<double>(1.0));
}

TEST(TuningSession, ResumesFromTheDatabase) {
  RecordedSpace S = blockSpace({{64, 1.2}, {128, 0.7}, {256, 1.0}, {512, 1.1}});
  std::string Path = tempDb();
  auto Db = cantFail(TuningDatabase::open(Path));
  // Interrupted after three evaluations (the original and two variants).
  SessionRun First = tune(S, Db.get(), 0.0, 5, /*Budget=*/3);
  EXPECT_EQ(First.Result.Trials.size(), 3u);
  EXPECT_EQ(First.Measured, 2u);
  // Every evaluation is in the database, with the original's time.
  for (const Trial &T : First.Result.Trials) {
    auto Rec = cantFail(Db->find("workload-1", T.Key, Where));
    ASSERT_TRUE(Rec) << T.Key;
    EXPECT_EQ(Rec->Verdict, T.Verdict);
    EXPECT_EQ(Rec->OriginalMs, std::optional<double>(1.0));
  }
  // The same workload again: what was measured is not measured again.
  SessionRun Second = tune(S, Db.get(), 0.0, 5, /*Budget=*/20);
  EXPECT_EQ(Second.Result.Resumed, 2u);
  EXPECT_EQ(Second.Measured + Second.Result.Resumed + 1,
            Second.Result.Trials.size());
  EXPECT_EQ(Second.Outcome.What, SessionOutcome::Kind::Written);
  // Another workload (other flags, arguments or source) starts afresh.
  SessionRun Other = tune(S, Db.get(), 0.0, 5, /*Budget=*/20, "workload-2");
  EXPECT_EQ(Other.Result.Resumed, 0u);
}

TEST(TuningSession, ReplayReadsDecisionsWithoutTimes) {
  // Databases from before 2026-12-05 kept the speed-up alone.
  std::string Path = tempDb();
  auto Db = cantFail(TuningDatabase::open(Path));
  DecisionRecord Old;
  Old.Config = "{\"k.block\":128}";
  Old.Speedup = 1.25;
  cantFail(Db->recordDecision("w", "NVIDIA H200", Old));
  ReplayChoice C = cantFail(chooseReplay(*Db, "w", "NVIDIA H200"));
  ASSERT_TRUE(C.Best);
  EXPECT_TRUE(C.Confirmed);
  EXPECT_DOUBLE_EQ(*C.Best->OriginalMs / *C.Best->MedianMs, 1.25);
}

TEST(TuningSession, ReplayWithoutAGpuNeedsOneGpuInTheDatabase) {
  RecordedSpace S = blockSpace({{128, 0.7}, {256, 1.0}});
  std::string Path = tempDb();
  auto Db = cantFail(TuningDatabase::open(Path));
  tune(S, Db.get(), 0.0, 1);
  EvaluationRecord Elsewhere;
  Elsewhere.SourceHash = "workload-1";
  Elsewhere.File = "blocks.cu";
  Elsewhere.Config = "{}";
  Elsewhere.Sequence = "[]";
  Elsewhere.Where = {"NVIDIA A100", "8.0", "570.0", "13.0.88"};
  Elsewhere.Verdict = "verified";
  Elsewhere.MedianMs = Elsewhere.OriginalMs = 2.0;
  cantFail(Db->record(Elsewhere));
  Expected<ReplayChoice> C = chooseReplay(*Db, "workload-1", "");
  ASSERT_FALSE(bool(C));
  std::string Message = toString(C.takeError());
  EXPECT_NE(Message.find("several GPUs"), std::string::npos) << Message;
  // Naming one serves it; a GPU without results has nothing to replay.
  EXPECT_TRUE(cantFail(chooseReplay(*Db, "workload-1", "NVIDIA A100")).Best);
  EXPECT_FALSE(cantFail(chooseReplay(*Db, "workload-1", "NVIDIA L4")).Best);
}

/// A parsed file with its knobs, for replaying database rows onto it.
struct Replayable {
  TestInput L;
  TransformRegistry Transforms;
  std::unique_ptr<RewriteContext> Ctx;
};

std::unique_ptr<Replayable> replayable(StringRef Rel) {
  auto R = std::make_unique<Replayable>();
  R->L = loadTestInput(Rel);
  registerBuiltinTransforms(R->Transforms);
  R->Ctx = std::make_unique<RewriteContext>(R->L.Model, R->Transforms,
                                            R->L.Source, Rel);
  describeKnobs(*R->Ctx);
  return R;
}

TEST(Replay, WritesWhatTheSessionDecided) {
  std::unique_ptr<Replayable> F = replayable("analyze/elementwise-macro.cu");
  std::string Path = tempDb();
  {
    auto Db = cantFail(TuningDatabase::open(Path));
    DecisionRecord D;
    D.Config = "{\"saxpy.block\":128}";
    D.OriginalMs = 0.40;
    D.VariantMs = 0.32;
    D.Speedup = 1.25;
    cantFail(Db->recordDecision("w", "NVIDIA H200", D));
  }
  ReplayOutcome R =
      cantFail(replayFromDatabase(*F->Ctx, Path, "w", "NVIDIA H200"));
  EXPECT_TRUE(R.Tuned);
  EXPECT_NE(R.Text, F->L.Source);
  json::Object C{{"saxpy.block", 128}};
  Variant V = cantFail(applyConfiguration(*F->Ctx, C));
  EXPECT_EQ(R.Text, variantFileText(V));
  EXPECT_NE(R.Note.find("confirmed choice of the last tuning run on NVIDIA "
                        "H200: 1.25x"),
            std::string::npos)
      << R.Note;
}

TEST(Replay, TheOriginalWhenTheDatabaseCannotServe) {
  std::unique_ptr<Replayable> F = replayable("analyze/elementwise-macro.cu");
  // No database yet: the ordinary state of a fresh build machine.
  std::string Path = tempDb();
  ReplayOutcome None = cantFail(replayFromDatabase(*F->Ctx, Path, "w", ""));
  EXPECT_FALSE(None.Tuned);
  EXPECT_EQ(None.Text, F->L.Source);
  EXPECT_NE(None.Note.find("does not exist (yet)"), std::string::npos);
  // A row today's knobs refuse (tuned by a version with other knobs): a
  // warning and the original, never a guess.
  {
    auto Db = cantFail(TuningDatabase::open(Path));
    DecisionRecord D;
    D.Config = "{\"saxpy.block\":96}";
    cantFail(Db->recordDecision("w", "NVIDIA H200", D));
  }
  ReplayOutcome Refused =
      cantFail(replayFromDatabase(*F->Ctx, Path, "w", "NVIDIA H200"));
  EXPECT_FALSE(Refused.Tuned);
  EXPECT_EQ(Refused.Text, F->L.Source);
  EXPECT_NE(Refused.Note.find("cannot be replayed"), std::string::npos)
      << Refused.Note;
  // Another workload, or a GPU without results: nothing to replay.
  ReplayOutcome Other =
      cantFail(replayFromDatabase(*F->Ctx, Path, "other", "NVIDIA H200"));
  EXPECT_FALSE(Other.Tuned);
  EXPECT_NE(Other.Note.find("no tuned result"), std::string::npos);
  // A file that is not a database: a warning, the original.
  std::string Junk = tempDb();
  {
    std::error_code EC;
    raw_fd_ostream OS(Junk, EC);
    OS << "not a database";
  }
  ReplayOutcome Bad = cantFail(replayFromDatabase(*F->Ctx, Junk, "w", ""));
  EXPECT_FALSE(Bad.Tuned);
  EXPECT_NE(Bad.Note.find("warning: "), std::string::npos) << Bad.Note;
}

} // namespace
