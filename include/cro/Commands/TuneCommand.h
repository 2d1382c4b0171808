//===- TuneCommand.h - `cuda-rewrite-opt kernel.cu -o kernel.opt.cu` ------===//
#ifndef CRO_COMMANDS_TUNECOMMAND_H
#define CRO_COMMANDS_TUNECOMMAND_H

#include "cro/Commands/SearchCommand.h"

namespace cro {

struct TuneRequest {
  SearchRequest Search;    ///< how to search, build, run and verify; -o
  std::string ReportFile;  ///< --report: .json, .md or .html
  std::string LogJson;     ///< --log-json: events, one JSON object a line
  std::string GpuName;     ///< --gpu: for replaying without a GPU
  bool Diff = false;       ///< --diff: print the chosen variant's diff
  bool RequireGpu = false; ///< --require-gpu: no GPU is an error (11)
  std::string ToolVersion;
};

/// The main command: search on the local GPU and write the fastest verified
/// variant with a header saying what was done and measured -- or the
/// original, unchanged, when nothing beat it beyond the noise. Without a
/// GPU: replay the tuning database's result, else the original, unchanged.
int runTuneCommand(const TuneRequest &Req, const ParsedFile &PF,
                   const KernelModel &Model, const RewriteContext &Ctx,
                   llvm::raw_ostream &Err);

} // namespace cro

#endif
