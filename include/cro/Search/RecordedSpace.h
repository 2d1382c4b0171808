//===- RecordedSpace.h - a space measured once, searched many times -------===//
//
// A recorded space is every valid point of a search space with what it
// measured on a GPU (or why it failed), written by an exhaustive search
// with --record-space and committed under bench/spaces/. --simulate runs a
// strategy against one instead of the GPU: the same loop, the same
// constraints (a point the recording does not list is invalid), answers in
// microseconds. This is how strategies are compared and tested in CI.
//
// Format (JSON): {"format": "cuda-rewrite-opt space 1", "name", "file",
// "gpu", "driver", "nvcc", "date", "commit", "features": {...}, "knobs":
// [...as SearchSpace::toJSON], "hardware": {...}, "points": [{"config":
// {...}, "verdict", "time_ms"?, "spread_ms"?, "reason"?, "registers"?,
// "occupancy"?}, ...]}.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SEARCH_RECORDEDSPACE_H
#define CRO_SEARCH_RECORDEDSPACE_H

#include "cro/Search/SearchLoop.h"

namespace cro {

/// The "format" tag of the files recordSpace writes.
inline constexpr char RecordedSpaceFormat[] = "cuda-rewrite-opt space 1";

class RecordedSpace {
public:
  static llvm::Expected<RecordedSpace> load(llvm::StringRef Path);
  static llvm::Expected<RecordedSpace> fromJSON(const llvm::json::Value &V,
                                                llvm::StringRef Where);

  /// The space, with every point the recording does not list invalid.
  SearchSpace &space() { return *Space; }
  const KernelFeatures &features() const { return Features; }
  const std::string &name() const { return Name; }
  /// Where it was recorded ("" when the file does not say).
  const std::string &gpu() const { return Gpu; }
  /// The fastest verified time of all points (ms).
  std::optional<double> optimum() const;
  size_t points() const { return Results->size(); }
  /// The recorded result of P (nullopt: not recorded = invalid).
  std::optional<Trial> result(const Point &P) const;

private:
  std::unique_ptr<SearchSpace> Space;
  KernelFeatures Features;
  std::string Name, Gpu;
  std::shared_ptr<std::map<Point, Trial>> Results =
      std::make_shared<std::map<Point, Trial>>();
};

/// Answers from a recording.
class SimulatedEvaluator : public Evaluator {
public:
  explicit SimulatedEvaluator(const RecordedSpace &S) : S(S) {}
  std::vector<Trial> evaluate(llvm::ArrayRef<Proposal> Batch) override;

private:
  const RecordedSpace &S;
};

/// The points a search refused, for its recording: its invalid proposals,
/// then the refused points it never proposed because the valid set was
/// listed before it (SearchSpace::listValidPoints), with their reasons.
std::vector<Trial> refusedPoints(const SearchSpace &Space,
                                 const SearchResult &Result);

/// The JSON a recording is written as (the header fields come from Meta).
llvm::json::Value recordSpace(const SearchSpace &Space,
                              const SearchResult &Result,
                              const KernelFeatures &Features,
                              llvm::json::Object Meta);

} // namespace cro

#endif
