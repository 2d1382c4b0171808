//===- SearchSpace.h - the knobs of a file as one space of points ---------===//
//
// A point chooses one value for every knob (dimension) of the chosen
// kernels, by index into the knob's legal domain; the default point is the
// original source. The space knows three kinds of constraint, checked in
// this order before anything is compiled:
//  1. hardware limits: threads per block, registers per block and thread
//     (HardwareLimits, read from the device);
//  2. knob dependencies the transforms state (via the legality oracle: the
//     rewrite engine applies the configuration and refuses combinations it
//     cannot rewrite, e.g. a tile that does not divide the block shape);
//  3. whatever a recorded space marks invalid (simulation).
// Verdicts are cached per point. Invalid points are never built. When every
// point's verdict is known (a recorded space, or listValidPoints() over a
// space small enough), the valid points form a ValidSet that strategies
// sample from instead of the cartesian product.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SPACE_SEARCHSPACE_H
#define CRO_SPACE_SEARCHSPACE_H

#include "cro/Rewrite/Knob.h"
#include "cro/Space/ValidSet.h"
#include "cro/Support/HardwareLimits.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace cro {

/// One knob as a dimension of the space.
struct Dimension {
  std::string Knob, Kernel, Transform;
  KnobRole Role = KnobRole::Other;
  std::vector<llvm::json::Value> Values;
  unsigned Default = 0; ///< index of the original's value
  /// Numeric description of each value for models: the log2 of every number
  /// the value contains ([16, 8] -> 4, 3; "y4-contiguous" -> 2), padded.
  std::vector<std::vector<double>> Numbers;
  /// Knobs that must leave their original value wherever this one does
  /// (Knob::Requires: a tile sized by a block the launches choose at run
  /// time needs block-size's constant).
  std::vector<std::string> Requires;
};

class SearchSpace {
public:
  SearchSpace() = default;
  SearchSpace(std::vector<Dimension> Dims, HardwareLimits Limits);

  /// The space of Knobs. Restrict (knob id -> list of values, optional)
  /// keeps only the listed knobs, with only the listed values (each must be
  /// legal); the others stay at their defaults.
  static llvm::Expected<SearchSpace>
  fromKnobs(const KnobSet &Knobs, const HardwareLimits &Limits,
            const llvm::json::Object *Restrict = nullptr);

  const std::vector<Dimension> &dimensions() const { return Dims; }
  const HardwareLimits &limits() const { return Limits; }
  /// Number of points (saturates at UINT64_MAX).
  uint64_t size() const;
  /// The number of values of each dimension, in order.
  std::vector<unsigned> radices() const;
  Point defaultPoint() const;

  /// The configuration of P: knob id -> value, only where P differs from
  /// the default (the empty object is the original).
  llvm::json::Object config(const Point &P) const;
  /// Canonical text of config(P): the key of P in databases and records.
  std::string key(const Point &P) const;
  /// The point of a configuration; an error names an unknown knob or value.
  llvm::Expected<Point> pointOf(const llvm::json::Object &Config) const;

  /// Why P may not be built ("" when it may): hardware limits first, then
  /// the legality oracle. Cached.
  std::string violation(const Point &P) const;
  bool valid(const Point &P) const { return violation(P).empty(); }
  /// As far as is known without asking the oracle: the hardware limits and
  /// any verdict already cached. Strategies filter candidates with this
  /// (the oracle rewrites the source, too slow for thousands of candidates);
  /// the search loop checks valid() before building.
  bool plausible(const Point &P) const;
  /// The valid points, when they are all known; null otherwise.
  const ValidSet *validSet() const { return Valid.get(); }
  /// Declares the valid points (a recording lists them).
  void setValidPoints(const std::vector<Point> &Points);
  /// Asks violation() about every point when the space has at most
  /// MaxPoints and the answers all come within Seconds (the oracle rewrites
  /// the source: milliseconds a point); then the valid set is known and
  /// true is returned. Answers are cached either way.
  bool listValidPoints(uint64_t MaxPoints, double Seconds);
  /// The cached verdicts that refuse a point, with their reasons.
  std::vector<std::pair<Point, std::string>> knownInvalid() const;
  /// The rewrite engine's verdict for a point, given its configuration
  /// ("" = legal). The oracle must not refer to the space itself (spaces
  /// are moved).
  using Oracle = std::function<std::string(const llvm::json::Object &Config,
                                           const Point &P)>;
  void setLegalityOracle(Oracle O) {
    Legality = std::move(O);
    Verdicts.clear();
    Valid.reset();
  }

  /// The point's numeric features for surrogate models.
  std::vector<double> features(const Point &P) const;
  unsigned featureCount() const { return FeatureCount; }

  /// A uniformly random point (not necessarily valid).
  Point randomPoint(std::mt19937_64 &Rng) const;
  /// The points that differ from P in one dimension by one step of that
  /// dimension's order (index +-1), and, for dimensions with a few values,
  /// every other value.
  std::vector<Point> neighbours(const Point &P) const;
  /// Every point in enumeration order (mixed radix, first dimension
  /// slowest); only for spaces of at most Limit points, else empty.
  std::vector<Point> enumerate(uint64_t Limit = 1u << 20) const;

  llvm::json::Value toJSON() const;
  static llvm::Expected<SearchSpace> fromJSON(const llvm::json::Value &V);

private:
  /// Why P breaks what is known without the oracle: the GPU's limits, and
  /// a knob set without a knob it requires.
  std::string structuralViolation(const Point &P) const;
  std::string hardwareViolation(const Point &P) const;
  std::string requirementViolation(const Point &P) const;
  std::vector<Dimension> Dims;
  HardwareLimits Limits;
  unsigned FeatureCount = 0;
  Oracle Legality;
  mutable std::map<Point, std::string> Verdicts;
  /// Shared: a space is copied into strategies' contexts and moved.
  std::shared_ptr<const ValidSet> Valid;
};

/// The numbers in a knob value, as described for Dimension::Numbers.
std::vector<double> valueNumbers(const llvm::json::Value &V);

/// Threads per block a block-size value describes (256, [16, 16]); 0 when
/// it is not a block size.
unsigned blockThreads(const llvm::json::Value &V);

} // namespace cro

#endif
