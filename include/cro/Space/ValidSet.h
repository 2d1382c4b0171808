//===- ValidSet.h - the valid points of a space, when they can be listed --===//
//
// Constraints often leave a small part of a space's cartesian product
// valid (a tile that must divide the block shape, a block under the
// thread limit): 5-50% in public tuning spaces. A strategy that proposes
// from the product and learns validity from refusals wastes most of its
// proposals and can give up while valid points remain. When the valid
// points are known -- a recorded space lists them; the legality oracle can
// be asked about every point of a space small enough -- strategies sample
// and enumerate from this set instead.
//
// Points are stored as their ranks in the space's enumeration order (mixed
// radix, first dimension slowest), sorted: 8 bytes a point, membership by
// binary search, the I-th valid point in O(dimensions).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SPACE_VALIDSET_H
#define CRO_SPACE_VALIDSET_H

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace cro {

using Point = std::vector<unsigned>;

class ValidSet {
public:
  /// Radices: the number of values of each dimension (product < 2^64).
  /// Points outside the radices are ignored; duplicates are kept once.
  ValidSet(std::vector<unsigned> Radices, const std::vector<Point> &Points);

  size_t size() const { return Ranks.size(); }
  bool empty() const { return Ranks.empty(); }
  bool contains(const Point &P) const;
  /// The I-th valid point in enumeration order (I < size()).
  Point at(size_t I) const { return pointOf(Ranks[I]); }
  /// A uniformly random valid point (the set must not be empty).
  Point sample(std::mt19937_64 &Rng) const;

  /// P's position in the enumeration of the whole product; nullopt when P
  /// is outside the radices.
  std::optional<uint64_t> rankOf(const Point &P) const;
  Point pointOf(uint64_t Rank) const;

private:
  std::vector<unsigned> Radices;
  std::vector<uint64_t> Ranks; ///< sorted, unique
};

} // namespace cro

#endif
