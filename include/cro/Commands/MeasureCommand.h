//===- MeasureCommand.h - `--measure`: build, run, verify, time -----------===//
#ifndef CRO_COMMANDS_MEASURECOMMAND_H
#define CRO_COMMANDS_MEASURECOMMAND_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Build/Builder.h"
#include "cro/Frontend/Frontend.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Measure/Evaluate.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace cro {

struct MeasureRequest {
  std::string ToolPath;     ///< argv[0], to find libcro-inject.so
  std::string InputFile;    ///< the original
  std::string OriginalText; ///< the original as built ("" = the file)
  std::string VariantText;  ///< the variant's source
  std::vector<std::string> VariantFlags; ///< its own nvcc flags
  /// Its rewritten copies of included files (BuildRequest::Files).
  std::vector<std::pair<std::string, std::string>> VariantFiles;
  /// The user's files below the input's directory
  /// (BuildOptions::ProgramFiles).
  std::vector<std::pair<std::string, std::string>> ProgramFiles;
  std::vector<std::string> NvccFlags;    ///< the original's build flags
  std::string BuildTemplate;             ///< --build, "" = nvcc
  std::string CacheDir;
  std::vector<std::string> RunArgs; ///< --run, one string per set
  std::string Check;                ///< --check
  int Replays = 0;
  bool Profile = false; ///< also collect ncu metrics
  unsigned Runs = 5;
  /// What "faster" means (--objective): the program's GPU time by default.
  Objective Goal = Objective::ProgramTime;
  /// The smallest speed-up the main command writes (--min-gain).
  double MinGain = 0.02;
  int MaxLaunches = 3; ///< launches per kernel replayed (timed)
  int MaxCaptures = 8; ///< launches per kernel whose outputs are compared
  bool FlushL2 = false;
  /// --compare-all-captures: EvaluateOptions::CaptureChecksums off.
  bool CompareAllCaptures = false;
  double TimeoutSeconds = 300;
  std::optional<double> RelTol;
  std::string ReportFile; ///< -o: the JSON report
  /// Where builds and runs happen (--executor, --gpus); nullptr = here.
  Executor *Via = nullptr;
};

/// The GPU the request's programs run on: this machine's, or the one a
/// job of a remote executor gets (Req.Via); nullopt with Why when none.
std::optional<LocalGpu> measuringGpu(const MeasureRequest &Req,
                                     std::string &Why);

/// The measurement settings of a request (shared with the search); an
/// error when the measurement library is missing.
llvm::Expected<EvaluateOptions> evaluateOptions(const MeasureRequest &Req,
                                                const ParsedFile &PF,
                                                const KernelModel &Model);
/// How variants of the request's file are compiled for Gpu.
BuildOptions buildOptions(const MeasureRequest &Req, const ParsedFile &PF,
                          const LocalGpu &Gpu);

/// Builds the original and the variant, runs both under the injection
/// library, verifies the variant and prints a JSON report (stdout or
/// ReportFile). Returns the exit code.
int runMeasure(const MeasureRequest &Req, const ParsedFile &PF,
               const KernelModel &Model, llvm::raw_ostream &Err);

} // namespace cro

#endif
