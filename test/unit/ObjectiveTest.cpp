// The objective: the program's GPU time counts every launch of every kernel
// once (a kernel launched 500 times weighs 500 launches, replays of the
// measurement library are not the program's launches, launches it did not
// replay count by their own records); --objective per-launch keeps the old
// sum of medians. The "programs" here are shell scripts that write the
// records the measurement library would, so runProgram and evaluate run
// for real without a GPU.
#include "ScriptedRuns.h"
#include "cro/Measure/Decision.h"
#include "cro/Measure/Evaluate.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <string>

using namespace cro;

namespace {

/// Kernel records of N launches of Kernel, each Ms long, from Start (ns).
std::string launches(const std::string &Kernel, int N, double Ms,
                     uint64_t &Start, bool Replay = false) {
  std::string S;
  for (int I = 0; I < N; ++I) {
    uint64_t End = Start + uint64_t(Ms * 1e6);
    S += "{\"event\":\"kernel\",\"kernel\":\"" + Kernel +
         "\",\"start_ns\":" + std::to_string(Start) +
         ",\"end_ns\":" + std::to_string(End) +
         ",\"grid\":[1,1,1],\"block\":[32,1,1],\"registers\":20,"
         "\"replay\":" +
         (Replay ? "true" : "false") + "}\n";
    Start = End + 1000;
  }
  return S;
}

std::string replay(const std::string &Kernel, int Launch, double Ms) {
  return "{\"event\":\"replay\",\"kernel\":\"" + Kernel +
         "\",\"launch\":" + std::to_string(Launch) +
         ",\"grid\":[1,1,1],\"block\":[32,1,1],\"registers\":20,"
         "\"occupancy\":1.0,\"times_ms\":[" +
         std::to_string(Ms) + "," + std::to_string(Ms) + "," +
         std::to_string(Ms) + "]}\n";
}

/// What a run of the test program records: kernel "step" launched 500
/// times (StepMs each; its first launch replayed at 0.4 ms, with 20 replay
/// launches of its own), kernel "init" once (3 ms, replayed at 2.9 ms), and
/// a library kernel "cublas_gemm" the tool does not target, twice 0.25 ms.
std::string records(double StepMs) {
  uint64_t T = 1000000;
  std::string S = "{\"event\":\"start\",\"version\":1}\n";
  S += launches("init", 1, 3.0, T);
  S += replay("init", 0, 2.9);
  S += launches("step", 1, StepMs, T);
  S += launches("step", 20, 0.4, T, /*Replay=*/true);
  S += replay("step", 0, 0.4);
  S += launches("step", 499, StepMs, T);
  S += launches("cublas_gemm", 2, 0.25, T);
  return S + "{\"event\":\"exit\"}\n";
}

class ScriptedPrograms : public ScriptedRuns {
protected:
  void SetUp() override {
    ScriptedRuns::SetUp();
    Opts.Run.TargetKernels = {"init", "step"};
  }

  /// An executable that writes Records to $CRO_OUT.
  std::string program(const std::string &Name, const std::string &Records) {
    llvm::SmallString<128> Data(Dir), Exe(Dir);
    llvm::sys::path::append(Data, Name + ".jsonl");
    llvm::sys::path::append(Exe, Name + ".sh");
    std::error_code EC;
    {
      llvm::raw_fd_ostream OS(Data, EC);
      OS << Records;
    }
    {
      llvm::raw_fd_ostream OS(Exe, EC);
      OS << "#!/bin/sh\ncat '" << Data << "' > \"$CRO_OUT\"\n";
    }
    llvm::sys::fs::setPermissions(Exe, llvm::sys::fs::all_exe |
                                           llvm::sys::fs::owner_all);
    return Exe.str().str();
  }
};

} // namespace

TEST_F(ScriptedPrograms, EveryLaunchCountsOnceAndReplaysDoNot) {
  ProgramRun R = runProgram(program("p", records(1.0)), Opts, "p", false);
  ASSERT_TRUE(R.Ok) << R.Problem;
  const KernelTiming &Step = R.Timings.at("step");
  EXPECT_EQ(Step.Launches, 500u); // not 520: the replays are the tool's
  // Launch 0 by its replays' median, the 499 others by their records.
  EXPECT_NEAR(Step.ProgramMs, 0.4 + 499 * 1.0, 1e-6);
  EXPECT_TRUE(Step.Replayed);
  EXPECT_NEAR(Step.Time.Median, 0.4, 1e-9); // per launch: the replays
  EXPECT_NEAR(R.Timings.at("init").ProgramMs, 2.9, 1e-9);
  // A kernel the tool does not target still takes the program's GPU time.
  const KernelTiming &Lib = R.Timings.at("cublas_gemm");
  EXPECT_FALSE(Lib.Replayed);
  EXPECT_EQ(Lib.Launches, 2u);
  EXPECT_NEAR(Lib.ProgramMs, 0.5, 1e-6);
  ASSERT_TRUE(objectiveMs(R));
  EXPECT_NEAR(*objectiveMs(R), 2.9 + 0.4 + 499 + 0.5, 1e-5);

  // The old objective: one median per launch of each replayed kernel.
  Opts.Goal = Objective::PerLaunch;
  ProgramRun Old = runProgram(program("p", records(1.0)), Opts, "p", false);
  ASSERT_TRUE(objectiveMs(Old));
  EXPECT_NEAR(*objectiveMs(Old), 2.9 + 0.4, 1e-9);
}

TEST_F(ScriptedPrograms, ALaunchTheReplaysMissIsWhatDecides) {
  // The variant's first launch of "step" (the replayed one) is as fast as
  // the original's, the 499 others 10% faster: per launch the two are the
  // same, for the program's GPU time the variant is 1.1x.
  Opts.Runs = 5;
  KernelModel Model;
  Evaluation E = evaluate(program("orig", records(1.0)),
                          program("var", records(1.0 / 1.1)), Model, Opts);
  ASSERT_TRUE(E.Verified) << E.Rejection;
  std::vector<double> O = runObjectivesMs(E.Original),
                      V = runObjectivesMs(E.Variant);
  ASSERT_EQ(O.size(), 5u);
  ASSERT_EQ(V.size(), 5u);
  EXPECT_NEAR(O[3], 2.9 + 0.4 + 499 + 0.5, 1e-5);
  EXPECT_NEAR(V[3], 2.9 + 0.4 + 499 / 1.1 + 0.5, 1e-3);
  EXPECT_EQ(E.Variant.Timings.at("step").RunProgramMs.size(), 5u);
  GainDecision G = decideGain(O, V, GainRule());
  EXPECT_TRUE(G.Faster) << G.Why;
  EXPECT_NEAR(G.Ratio, O[0] / V[0], 1e-9);

  Opts.Goal = Objective::PerLaunch;
  E = evaluate(program("orig", records(1.0)),
               program("var", records(1.0 / 1.1)), Model, Opts);
  G = decideGain(runObjectivesMs(E.Original), runObjectivesMs(E.Variant),
                 GainRule());
  EXPECT_FALSE(G.Faster) << G.Why;
  EXPECT_NEAR(G.Ratio, 1.0, 1e-9);
}
