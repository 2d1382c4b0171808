//===- SearchCommand.h - `--search`, `--simulate`, `--replay` -------------===//
#ifndef CRO_COMMANDS_SEARCHCOMMAND_H
#define CRO_COMMANDS_SEARCHCOMMAND_H

#include "cro/Commands/MeasureCommand.h"
#include "cro/Rewrite/Transform.h"
#include "cro/Search/SearchLoop.h"
#include "cro/Tune/TuningSession.h"

namespace cro {

struct SearchRequest {
  MeasureRequest Measure; ///< how to build, run and verify
  SearchControl Control;
  std::string DbPath;      ///< "" = the default; "none" = no database
  std::string SpaceFile;   ///< --space: knob id -> values to search
  std::string RecordSpace; ///< --record-space: write every point here
  bool RecordT4 = false;   ///< --record-format t4
  std::string OutputFile;  ///< -o: the fastest verified variant
  bool Quiet = false;
};

/// Searches the file's knobs on the local GPU; prints a JSON summary.
int runSearchCommand(const SearchRequest &Req, const ParsedFile &PF,
                     const KernelModel &Model, const RewriteContext &Ctx,
                     llvm::raw_ostream &Err);

/// Prints the search space (--space applied) as JSON: knobs, size, the
/// hardware limits, and how many points are valid, with the reasons the
/// others are not. Needs no GPU.
int runPrintSpace(llvm::StringRef SpaceFile, const RewriteContext &Ctx,
                  llvm::raw_ostream &Err);

/// Runs a strategy against a recorded space; prints a JSON result, and
/// writes a report of the simulated run when ReportFile is set.
struct SimulateRequest {
  std::string SpaceFile;
  SearchControl Control;
  std::string ReportFile;
  std::string ToolVersion;
  /// Where the evaluations run (nullptr = in this process): each is a
  /// process of the tool itself (--evaluate-point), found at ToolPath.
  Executor *Via = nullptr;
  std::string ToolPath;
};
int runSimulate(const SimulateRequest &Req, llvm::raw_ostream &Err);

/// Prints the recorded result of one point (a JSON configuration, as the
/// database keys it) of a recorded space: the job of a simulated
/// evaluation run through an executor.
int runEvaluatePoint(llvm::StringRef SpaceFile, llvm::StringRef Config,
                     llvm::raw_ostream &Err);

struct ReplayRequest {
  MeasureRequest Measure; ///< for the source hash (flags, arguments)
  std::string DbPath, Gpu, OutputFile;
  /// --diff: print the diff of what is written against the input (without
  /// -o, the diff alone, as --apply --diff does).
  bool Diff = false;
  /// --depfile/--depfile-target: a Make-style dependency file naming what
  /// the output depends on (the program's files, the database).
  std::string DepFile, DepFileTarget;
};

/// Writes the best verified variant the database knows for this source
/// and GPU, without measuring (the build-machine path).
int runReplay(const ReplayRequest &Req, const KernelModel &Model,
              const RewriteContext &Ctx, llvm::raw_ostream &Err);

/// The Make rule a --depfile holds: Target depends on every file of the
/// program and on the database (its nearest existing directory while it
/// does not exist).
std::string replayDependencies(llvm::StringRef Target,
                               const ProgramText &Program,
                               llvm::StringRef DbPath);

/// The identity of a search's subject in the database: the program text
/// and everything that changes what its times mean (build flags and
/// command, program arguments, the objective); lib/Tune's workloadHash.
std::string sourceHash(llvm::StringRef Source, const MeasureRequest &Req);

} // namespace cro

#endif
