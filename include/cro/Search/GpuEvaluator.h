//===- GpuEvaluator.h - build, run, verify and time variants on the GPU ---===//
//
// The real evaluator behind the search: each proposal becomes a rewritten
// source (the rewrite engine), is compiled with nvcc in the background with
// the rest of its batch (Builder, all cores), then run under the
// measurement library and verified against the original's captured outputs
// (Evaluate.h). Every evaluation is written to the tuning database the
// moment it is known, so an interrupted search loses nothing, and points the
// database already has are not measured again.
//
// With an executor of several slots (Eval.Run.Via: GPUs of this host, or
// Slurm jobs), a batch's variants are measured at once, one per slot; the
// original is measured, and the confirmation runs, in slot 0 alone.
//
// The objective is Eval.Goal (objectiveMs in Evaluate.h): by default the
// program's GPU time, every launch of every kernel counted once.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SEARCH_GPUEVALUATOR_H
#define CRO_SEARCH_GPUEVALUATOR_H

#include "cro/Build/Builder.h"
#include "cro/Database/TuningDatabase.h"
#include "cro/Measure/Evaluate.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Search/SearchLoop.h"
#include <atomic>
#include <deque>
#include <future>
#include <mutex>

namespace cro {

struct GpuEvaluatorOptions {
  EvaluateOptions Eval; ///< runs, replays, targets, tolerance, arguments
  BuildOptions Build;   ///< nvcc, flags, template, cache
  unsigned OriginalRuns = 3;
  TuningDatabase *Db = nullptr; ///< nullptr = no database
  std::string SourceHash;       ///< identifies the original in the database
  Platform Where;
  std::string Strategy; ///< recorded with each evaluation
};

class GpuEvaluator : public Evaluator {
public:
  GpuEvaluator(const RewriteContext &Ctx, const SearchSpace &Space,
               GpuEvaluatorOptions Opts);
  ~GpuEvaluator() override;

  /// Builds and runs the original OriginalRuns times; an error when it
  /// does not compile or does not run cleanly (nothing could be trusted).
  llvm::Error measureOriginal();
  const Trial &original() const { return OriginalTrial; }

  bool overlaps() const override { return true; }
  void prepare(llvm::ArrayRef<Proposal> Batch) override;
  std::vector<Trial> evaluate(llvm::ArrayRef<Proposal> Batch) override;
  std::optional<Trial> known(const Point &P) override;

  /// Why recording to the database failed, if it did (the search goes on).
  const std::string &databaseProblem() const { return DbProblem; }
  /// Seconds spent compiling (sum over compiles, which run in parallel and
  /// overlap the measuring), waiting for compiles to finish, and running
  /// programs (the original's runs included).
  double compileSeconds() const { return CompileSeconds; }
  double compileWaitSeconds() const { return CompileWaitSeconds; }
  /// Comparing the variants' captured outputs with the original's (which
  /// overlaps the next variant's run), and the part of it the search
  /// waited for.
  double verifySeconds() const { return VerifySeconds; }
  double verifyWaitSeconds() const { return VerifyWaitSeconds; }
  double measureSeconds() const { return MeasureSeconds; }
  /// Per capture, how much the original's own runs differ (see
  /// EvaluateOptions::OriginalNoise); empty before measureOriginal().
  const OriginalNoiseMap &originalNoise() const {
    return Opts.Eval.OriginalNoise;
  }

private:
  struct Prepared {
    std::vector<Point> Points;
    std::vector<std::string> Problems; ///< rewrite errors, per point
    std::vector<std::vector<RewriteStep>> Sequences;
    std::vector<std::vector<std::string>> Flags;
    std::future<llvm::Expected<std::vector<BuildResult>>> Built;
    std::vector<int> BuildIndex; ///< per point, into the build results
  };
  /// Runs a built variant in the executor's slot Slot; nullopt with T's
  /// verdict when it did not build or run.
  std::optional<ProgramRun> runVariant(Trial &T, const BuildResult &B,
                                       unsigned Slot = 0);
  /// Measures a prepared batch with one variant in flight per slot of the
  /// executor (several GPUs, a cluster's jobs), each verified by the thread
  /// that ran it.
  std::vector<Trial> evaluateOnSlots(Prepared &P,
                                     const std::vector<BuildResult> *Built,
                                     const std::string &BuildProblem);
  /// Compares a run's captures with the original's ("" when they agree)
  /// and deletes them; Seconds is how long that took.
  std::string check(const ProgramRun &R, double &Seconds) const;
  /// T's verdict and time from a run that check() judged.
  void judge(Trial &T, const ProgramRun &R, const std::string &Why) const;
  void record(const Trial &T, const std::vector<RewriteStep> &Sequence,
              const std::vector<std::string> &Flags);

  const RewriteContext &Ctx;
  const SearchSpace &Space;
  GpuEvaluatorOptions Opts;
  Builder Build;
  std::mutex BuildMutex;
  ProgramRun Original;
  Trial OriginalTrial;
  std::deque<std::unique_ptr<Prepared>> Queue;
  std::string DbProblem;
  double CompileSeconds = 0, CompileWaitSeconds = 0, MeasureSeconds = 0,
         VerifySeconds = 0, VerifyWaitSeconds = 0;
  std::mutex SecondsMutex; ///< for the sums above, when slots run at once
  std::atomic<unsigned> Counter{0};
};

} // namespace cro

#endif
