//===- Progress.h - what a running search tells the person waiting --------===//
//
// On a terminal: one live line, rewritten after each evaluation
// (evaluations done / budget, best speedup so far, ETA, the candidate).
// Otherwise: one plain line per evaluation. --quiet: nothing. --log-json
// FILE: one JSON object per event (start, evaluation, done), whatever the
// rest.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_COMMANDS_PROGRESS_H
#define CRO_COMMANDS_PROGRESS_H

#include "cro/Search/SearchLoop.h"
#include "cro/Support/Clock.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace cro {

class Progress {
public:
  enum class Mode { Live, Lines, Quiet };
  /// Live when Err is a terminal (and not Quiet).
  static Mode chooseMode(bool Quiet);

  Progress(Mode M, llvm::raw_ostream &Err,
           std::unique_ptr<llvm::raw_fd_ostream> JsonLog)
      : M(M), Err(Err), JsonLog(std::move(JsonLog)), Start(Clock::now()) {}

  void start(llvm::StringRef File, llvm::StringRef Gpu, double OriginalMs,
             uint64_t SpaceSize, llvm::StringRef Strategy, unsigned Budget);
  void trial(const Trial &T, const SearchResult &SoFar);
  /// A message on its own line (a live line is cleared first).
  void say(llvm::StringRef Line);
  void done(const llvm::json::Object &Summary);

private:
  void event(llvm::json::Object E);
  Mode M;
  llvm::raw_ostream &Err;
  std::unique_ptr<llvm::raw_fd_ostream> JsonLog;
  Clock::time_point Start;
  double OriginalMs = 0;
  unsigned Budget = 0;
  bool LineOpen = false;
};

} // namespace cro

#endif
