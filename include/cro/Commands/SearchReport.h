//===- SearchReport.h - what a report says about a search's points --------===//
//
// Shared by the main command (a search on the GPU) and --simulate --report
// (a search of a recorded space): the rewrites a point makes, in words, and
// one report row per evaluation.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_COMMANDS_SEARCHREPORT_H
#define CRO_COMMANDS_SEARCHREPORT_H

#include "cro/Report/TuningReport.h"
#include "cro/Search/SearchLoop.h"

namespace cro {

/// "shared-stage k.shared_stage = 32; block-size k.block = [32,8]", or
/// "the original".
std::string rewriteText(const SearchSpace &Space, const Point &P);

/// The same, one line per kernel ("kernel k: ..."; file-wide compiler flags
/// as "all kernels: ...").
std::vector<std::string> rewritesByKernel(const SearchSpace &Space,
                                          const Point &P);

/// One row per evaluation of R, with the best-so-far speedup over
/// OriginalMs.
std::vector<ReportEvaluation> reportEvaluations(const SearchResult &R,
                                                const SearchSpace &Space,
                                                double OriginalMs);

} // namespace cro

#endif
