//===- Evaluate.h - measure a variant against the original, and verify it -===//
//
// One evaluation runs the original program and the variant under the
// injection library on every argument set, captures the buffers each target
// kernel launch can reach, and accepts the variant only when
//  - the original itself runs cleanly (exit 0) -- otherwise nothing is
//    trusted;
//  - the variant exits 0, is not killed, does not time out;
//  - every captured buffer matches the original's capture of the same
//    launch, with the tolerance of its element type (Compare.h), and the
//    variant made exactly the same captures;
//  - the optional user check command succeeds.
// Times are the replays' GPU times (CUDA events, median and spread).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_MEASURE_EVALUATE_H
#define CRO_MEASURE_EVALUATE_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Measure/Compare.h"
#include "cro/Measure/Runner.h"
#include "cro/Measure/Statistics.h"
#include "llvm/ADT/ArrayRef.h"
#include <map>
#include <optional>
#include <tuple>

namespace cro {

/// A capture's place in a program run: kernel, launch (the argument set in
/// the bits above 20) and allocation slot.
using CaptureKey = std::tuple<std::string, int, int>;

/// The original's own run-to-run variation per capture that has one, as a
/// fraction of the capture's largest value (captureNoise). Keyed, not
/// positional: the confirmation compares against a fresh run of the
/// original, and an allowance must not land on another capture.
using OriginalNoiseMap = std::map<CaptureKey, double>;

/// What "faster" means for a program.
///   ProgramTime: the program's GPU time -- every launch of every kernel in
///     a run, each counted once: a launch the measurement library replayed
///     counts as its replays' median (the replays reduce its noise), every
///     other launch as its own CUPTI activity record (its GPU start to end).
///     A kernel launched 500 times weighs 500 launches; a time loop's
///     shrinking launches count at their own sizes.
///   PerLaunch: the sum over the replayed kernels of each one's median time
///     per launch (the tool's objective before 2026-12; --objective
///     per-launch).
enum class Objective { ProgramTime, PerLaunch };
llvm::StringRef objectiveName(Objective O);
std::optional<Objective> parseObjective(llvm::StringRef Name);

struct EvaluateOptions {
  Objective Goal = Objective::ProgramTime;
  RunOptions Run; ///< injection library, targets, replays, L2 flush, timeout
  /// Program argument sets; each is run, so a variant tuned to one input is
  /// caught on another. Empty = one run without arguments.
  std::vector<std::vector<std::string>> ArgSets;
  std::vector<std::string> CheckCommand; ///< run after the variant; 0 = pass
  std::string WorkDir;                   ///< scratch space (must exist)
  std::optional<double> RelTol;          ///< overrides the per-type default
  /// Program runs per executable, interleaved original/variant. Replays
  /// within one process agree to ~0.3%, but separate processes of the same
  /// executable differed by up to 2% on the H200 (memory placement, clocks),
  /// so times are medians over several processes.
  unsigned Runs = 5;
  /// For each capture of the original, how much the original's own runs
  /// differ from it, as a fraction of the capture's largest value (float
  /// captures; captureNoise): its non-determinism, e.g. from float atomics.
  /// A variant may differ from it by OriginalNoiseFactor times that, since
  /// it cannot be held to more than the original reproduces. Empty: not
  /// measured, or none varies (the type's tolerance alone applies).
  OriginalNoiseMap OriginalNoise;
  /// Extra capturing runs of the original evaluate() makes to measure
  /// OriginalNoise itself when it is empty (--measure; the search measures
  /// it once, when it begins).
  unsigned NoiseRuns = 0;
  /// Captures bit-identical to the original's are recognized by checksum:
  /// not written by the variant's run, not read back, and (in a search) the
  /// comparison overlaps the next variant's run. Off: every capture is
  /// written, read and compared before the next run starts, as before the
  /// checksums -- only to measure what they save (--compare-all-captures).
  bool CaptureChecksums = true;
};

/// The variant's own runs vary as much as the original's, and it is
/// compared with one run of the original: twice the original's spread.
constexpr double OriginalNoiseFactor = 2.0;

/// Run-to-run differences beyond this fraction of a buffer's largest value
/// are not rounding (summation order) but different data -- inputs drawn
/// anew each run, say. Such a buffer gets no allowance: widening the
/// tolerance to them would let any variant pass.
constexpr double MaxOriginalNoiseFraction = 1e-2;

struct KernelTiming {
  std::string Kernel;
  /// ms. Median: the median of the per-run medians; the spread (P25..P75,
  /// Min..Max) is over all replays of all runs.
  Summary Time;
  std::vector<double> Samples;    ///< every replay, ms
  std::vector<double> RunMedians; ///< one per program run
  unsigned Registers = 0;
  double Occupancy = -1;
  /// The program's own launches of the kernel in one run (all argument
  /// sets), and their GPU time in each run (Objective::ProgramTime), ms.
  unsigned Launches = 0;
  std::vector<double> RunProgramMs;
  double ProgramMs = 0; ///< the median of RunProgramMs
  /// Replays timed it (a target kernel); Time then summarizes the replays,
  /// else the kernel's own launches' records.
  bool Replayed = false;
};

/// The kernel's part of the objective (ms): its program time, or its
/// median per launch when replayed (0 otherwise) for PerLaunch.
double kernelObjectiveMs(const KernelTiming &T, Objective O);

/// True when A is faster than B beyond the run-to-run noise: every run
/// median of A is below every run median of B.
bool fasterAcrossRuns(const KernelTiming &A, const KernelTiming &B);

struct ProgramRun {
  Objective Goal = Objective::ProgramTime;
  bool Ok = false;
  std::string Problem; ///< why not Ok
  std::map<std::string, KernelTiming> Timings;
  std::vector<CaptureRecord> Captures;
  /// One per argument set: the program's working directory, which holds
  /// its captures (up to gigabytes a run).
  std::vector<std::string> RunDirs;
  std::string Output;
  /// Program runs merged into the timings (each KernelTiming's RunMedians
  /// and RunProgramMs have one entry per run).
  unsigned RunCount = 1;
};

/// Deletes a run's directories, captures included, once they are compared.
void removeRunDirectories(const ProgramRun &R);

struct Evaluation {
  ProgramRun Original, Variant;
  bool Verified = false;
  std::string Rejection; ///< the first reason the variant was rejected
};

/// A program's time, as the search compares programs: its objective (R.Goal)
/// over its kernels, the median over its runs (ms); nullopt when no kernel
/// was timed.
std::optional<double> objectiveMs(const ProgramRun &R);
/// The objective of each program run (one entry per run), for deciding
/// whether one program is faster than another beyond the noise.
std::vector<double> runObjectivesMs(const ProgramRun &R);
/// The sum of the timed kernels' interquartile ranges (ms).
double totalSpreadMs(const ProgramRun &R);
/// The largest registers per thread and smallest achieved occupancy over
/// the timed kernels (occupancy nullopt when not measured).
void kernelResources(const ProgramRun &R, std::optional<double> &Registers,
                     std::optional<double> &Occupancy);

/// A kernel's launches by the program in a run and their GPU time
/// (Objective::ProgramTime).
struct KernelProgramTime {
  unsigned Launches = 0;
  double Ms = 0;
  std::vector<double> RecordMs; ///< each launch's own activity record
  unsigned Registers = 0;
};

/// Adds a run's launches, per kernel, to Into: the program's own launches
/// only (the measurement library's replays are not the program's), a
/// replayed launch counted as its replays' median, any other as its own
/// activity record.
void addProgramTime(const RunResult &Res,
                    std::map<std::string, KernelProgramTime> &Into);

/// Runs Exe once on every argument set, into WorkDir/Tag.N; captures
/// outputs when Capture. With a Reference run (the original's), captures
/// bit-identical to the reference's are checked by checksum in the program
/// and not written: most variants reproduce the original's outputs exactly,
/// and those run to gigabytes per run.
ProgramRun runProgram(const std::string &Exe, const EvaluateOptions &Opts,
                      llvm::StringRef Tag, bool Capture = true,
                      const ProgramRun *Reference = nullptr);

/// For each capture of Reference, how much other runs of the same program
/// differ from it, as a fraction of the capture's largest value: the
/// largest over Others (runs that did not make the same captures are
/// skipped) and over every captured launch of the same kernel, parameters
/// and argument set. Only captures that vary: not exact (integer) ones,
/// identical bytes, nor captures whose runs differ beyond
/// MaxOriginalNoiseFraction (other data, not rounding).
OriginalNoiseMap captureNoise(const ProgramRun &Reference,
                              llvm::ArrayRef<ProgramRun> Others,
                              const KernelModel &Model);

/// Where a capture was taken, as OriginalNoiseMap keys it.
CaptureKey captureKey(const CaptureRecord &C);

/// Compares a variant's run with the original's; "" when they agree.
std::string verify(const ProgramRun &Original, const ProgramRun &Variant,
                   const KernelModel &Model, const EvaluateOptions &Opts);

/// The tolerances verify() widens for the original's captures beyond the
/// element type's default (AtomicSumTolerance.h), one sentence each,
/// without repeats: what a report says about how outputs were compared.
std::vector<std::string> widenedTolerances(const ProgramRun &Original,
                                           const KernelModel &Model,
                                           const EvaluateOptions &Opts);

Evaluation evaluate(const std::string &OriginalExe,
                    const std::string &VariantExe, const KernelModel &Model,
                    const EvaluateOptions &Opts);

} // namespace cro

#endif
