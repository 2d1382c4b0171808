//===- TuningReport.h - what a tuning run did, for people and programs ----===//
//
// The record of one run of the main command: where it ran, every evaluated
// variant (its configuration, rewrite sequence, time or why it was rejected,
// and the strategy's reason for trying it), the winner confirmed against the
// original, and the profiler's facts about both. Written as JSON, Markdown,
// or one self-contained HTML page (inline CSS and SVG plots: no script, no
// network) of best-so-far speedup against evaluations and against time.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_REPORT_TUNINGREPORT_H
#define CRO_REPORT_TUNINGREPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>
#include <vector>

namespace cro {

struct ReportEvaluation {
  double ElapsedSeconds = 0;
  std::string Config;   ///< canonical JSON
  std::string Sequence; ///< "block-size: k.block [16,16] -> [32,8]; ..."
  std::string Verdict, Reason, Why, Move;
  std::optional<double> TimeMs, SpreadMs;
  bool Resumed = false;
  double BestSpeedup = 0; ///< best-so-far speedup after this evaluation
};

struct ReportMetric {
  std::string Kernel, Name;
  std::optional<double> Original, Best;
};

struct TuningReport {
  std::string Tool, File, Gpu, Arch, Driver, Nvcc, Date, Strategy;
  unsigned Budget = 0;
  uint64_t Seed = 0;
  std::string StopReason;
  /// Confirmation: the original and the winner, interleaved runs.
  double OriginalMs = 0;
  std::optional<double> BestMs;
  double OriginalSpreadMs = 0, BestSpreadMs = 0;
  unsigned ConfirmRuns = 0;
  /// The gain rule's verdict (Decision.h): faster by at least MinGain at
  /// Confidence, the speed-up being at least SpeedupLowerBound.
  bool FasterBeyondNoise = false;
  std::optional<double> SpeedupLowerBound;
  double Confidence = 0, MinGain = 0;
  /// What the times measure: "program" or "per-launch" (Evaluate.h).
  std::string Objective = "program";
  std::string Decision; ///< one sentence: what was written, and why
  /// Outputs compared at a tolerance other than their type's default, one
  /// sentence each (Evaluate.h's widenedTolerances).
  std::vector<std::string> Tolerances;
  std::string BestConfig;
  std::vector<std::string> BestSequence; ///< one line per kernel
  std::vector<ReportEvaluation> Evaluations;
  std::vector<ReportMetric> Metrics;
  /// Where the time went. Compiling runs on other threads while the GPU
  /// measures, so CompileSeconds (CPU time summed over the parallel nvcc
  /// runs) overlaps the rest; CompileWaitSeconds is the part of it the search
  /// waited for. VerifySeconds: comparing captured outputs (and deleting
  /// them), which overlaps the next variant's run; VerifyWaitSeconds is the
  /// part of it the search waited for. WallSeconds is the whole command,
  /// confirmation included.
  double TotalSeconds = 0, CompileSeconds = 0, CompileWaitSeconds = 0,
         MeasureSeconds = 0, VerifySeconds = 0, VerifyWaitSeconds = 0,
         StrategySeconds = 0, ConfirmSeconds = 0, WallSeconds = 0;
};

/// "the program's GPU time" for "program", and so on: the objective's
/// name said for a reader.
std::string objectiveDescription(llvm::StringRef Objective);

llvm::json::Value toJSON(const TuningReport &R);
std::string toMarkdown(const TuningReport &R);
std::string toHTML(const TuningReport &R);

/// An error naming Path's extension when it is not .json, .md or .html:
/// checked before a search, so a typo does not waste it.
llvm::Error checkReportPath(llvm::StringRef Path);

/// The report in the format its file name asks for (.json, .md, .html);
/// an error names the unknown extension.
llvm::Expected<std::string> renderReport(const TuningReport &R,
                                         llvm::StringRef Path);

/// renderReport, written atomically to Path.
llvm::Error writeReport(const TuningReport &R, llvm::StringRef Path);

} // namespace cro

#endif
