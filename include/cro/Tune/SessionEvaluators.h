//===- SessionEvaluators.h - what measures for a tuning session -----------===//
//
// Two TuningEvaluators: the GPU (builds, runs and verifies through the
// measurement library; lib/Search's GpuEvaluator for the search, one build
// of the winner and the original for the confirmation), and a recorded
// space with a noise model, on which the whole tuning policy runs without a
// GPU (the CPU tests of the session, and what-if studies of the rule).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TUNE_SESSIONEVALUATORS_H
#define CRO_TUNE_SESSIONEVALUATORS_H

#include "cro/Search/GpuEvaluator.h"
#include "cro/Search/RecordedSpace.h"
#include "cro/Tune/TuningSession.h"
#include <random>

namespace cro {

class GpuTuningEvaluator : public TuningEvaluator {
public:
  GpuTuningEvaluator(const RewriteContext &Ctx, const SearchSpace &Space,
                     GpuEvaluatorOptions Opts);

  bool overlaps() const override { return Gpu.overlaps(); }
  void prepare(llvm::ArrayRef<Proposal> Batch) override { Gpu.prepare(Batch); }
  std::vector<Trial> evaluate(llvm::ArrayRef<Proposal> Batch) override {
    return Gpu.evaluate(Batch);
  }
  std::optional<Trial> known(const Point &P) override { return Gpu.known(P); }
  llvm::Error measureOriginal() override { return Gpu.measureOriginal(); }
  const Trial &original() const override { return Gpu.original(); }
  /// Builds the original and P (from the build cache), runs them Runs times
  /// each, interleaved, and verifies P's outputs again, held to the noise
  /// the original showed when the search began.
  Confirmation confirm(const Point &P, unsigned Runs) override;
  std::string databaseProblem() const override { return Gpu.databaseProblem(); }

  const GpuEvaluator &gpu() const { return Gpu; }
  const GpuEvaluatorOptions &options() const { return Opts; }
  /// The executables of the last confirmation (for a profiler).
  const std::string &originalExecutable() const { return OriginalExe; }
  const std::string &variantExecutable() const { return VariantExe; }

private:
  const RewriteContext &Ctx;
  const SearchSpace &Space;
  GpuEvaluatorOptions Opts;
  GpuEvaluator Gpu;
  std::string OriginalExe, VariantExe;
};

/// A recorded space's results, remeasured with noise: each run of a point
/// takes its recorded time times exp(N(0, Relative)), drawn from a seeded
/// generator, so confirmations differ from run to run as on a GPU and the
/// decision rule meets the same questions. Every evaluation is recorded in
/// the database (when there is one) under the workload's hash, and what it
/// holds is known without measuring: an interrupted session resumes.
class RecordedTuningEvaluator : public TuningEvaluator {
public:
  struct Noise {
    double Relative = 0.0; ///< standard deviation of the log of a time
    uint64_t Seed = 1;
  };
  RecordedTuningEvaluator(RecordedSpace &Recording, TuningDatabase *Db,
                          std::string Hash, Platform Where, Noise N);

  std::vector<Trial> evaluate(llvm::ArrayRef<Proposal> Batch) override;
  std::optional<Trial> known(const Point &P) override;
  /// The recorded time of the space's default point; an error when the
  /// recording has no verified result for it.
  llvm::Error measureOriginal() override;
  const Trial &original() const override { return Original; }
  /// Runs draws of each, interleaved; verified when P's recorded result is.
  Confirmation confirm(const Point &P, unsigned Runs) override;
  std::string databaseProblem() const override { return DbProblem; }

  /// Points evaluated from the recording (not taken from the database).
  unsigned measured() const { return Measured; }

  /// Evaluates each point as a process run through E, as a GPU search runs
  /// its variants (several slots at once; a cluster's jobs): the process is
  /// Worker plus "--evaluate-point=<key>" and prints the point's recorded
  /// result (recordedPointJSON). A process that fails is a "run-failed"
  /// evaluation with the executor's reason. The noise is drawn here, in
  /// proposal order, so that the search is the same on every executor.
  /// The work directory is where the processes write their answers; the
  /// executor's processes must see it.
  void evaluateThrough(Executor &E, std::vector<std::string> Worker,
                       std::string WorkDir);

private:
  /// The recorded results of Batch, from processes run through Via.
  std::vector<Trial> evaluateRemotely(llvm::ArrayRef<Proposal> Batch);

  double draw(double Ms);
  void record(const Trial &T);

  RecordedSpace &Recording;
  TuningDatabase *Db;
  std::string Hash;
  Platform Where;
  Noise N;
  std::mt19937_64 Rng;
  Trial Original;
  unsigned Measured = 0;
  std::string DbProblem;
  Executor *Via = nullptr;
  std::vector<std::string> Worker;
  std::string WorkDir;
  unsigned Jobs = 0;
};

/// What --evaluate-point prints for a point of a recording: its recorded
/// result (toJSON(Trial)), or "invalid" when the recording does not list
/// it.
llvm::json::Value recordedPointJSON(RecordedSpace &Recording, const Point &P);

} // namespace cro

#endif
