//===- ValidityModel.h - where the invalid points of a space seem to lie --===//
//
// When the valid points cannot be listed (a large space whose legality
// oracle rewrites the source), strategies learn validity from the verdicts
// the search loop tells them, and prefer points this model expects to be
// valid. Constraints of tuning spaces are mostly of two shapes: one knob's
// value is out of bounds (a block over the thread limit), or two knobs'
// values do not fit together (a tile that does not divide the block shape).
// So the model is a naive Bayes classifier over the point's values and
// pairs of values: each value and pair of values is evidence in proportion
// to how much more often it appeared in refused points than in valid ones
// (add-one-half smoothing; the prior is the share of valid points seen).
// Naive Bayes overstates its confidence with correlated features, but it
// ranks well, and ranking is all the strategies ask of it.
//
// The model only orders preferences: a strategy still proposes a point it
// expects invalid when nothing else is left, so a wrong guess costs
// proposals, never valid points.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SEARCH_VALIDITYMODEL_H
#define CRO_SEARCH_VALIDITYMODEL_H

#include "cro/Space/ValidSet.h"
#include <unordered_map>

namespace cro {

class ValidityModel {
public:
  /// Radices: the number of values of each dimension.
  explicit ValidityModel(std::vector<unsigned> Radices = {})
      : Radices(std::move(Radices)) {}

  void observe(const Point &P, bool Valid);
  /// The log-odds of P being valid (0 before there is evidence either way).
  double logOdds(const Point &P) const;
  /// Enough refusals and valid points seen to judge, and P judged more
  /// likely refused than valid.
  bool likelyInvalid(const Point &P) const;
  unsigned refusals() const { return Invalid; }

private:
  /// Refusals and valid points to see before the model judges.
  static constexpr unsigned MinRefusals = 8, MinValid = 2;
  struct Counts {
    unsigned Valid = 0, Invalid = 0;
  };
  /// Keys of one value (I, A) and of a pair of values (I, A, J, B), I < J;
  /// nullopt when the indices do not fit the key (the model then ignores
  /// that feature: it is a preference, never needed for correctness).
  static std::optional<uint64_t> single(size_t I, unsigned A);
  static std::optional<uint64_t> pair(size_t I, unsigned A, size_t J,
                                      unsigned B);
  /// The evidence of one feature that can take Values values.
  double evidence(std::optional<uint64_t> Key, double Values) const;
  std::vector<unsigned> Radices;
  std::unordered_map<uint64_t, Counts> Seen;
  unsigned Valid = 0, Invalid = 0;
};

} // namespace cro

#endif
