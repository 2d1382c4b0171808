#include "cro/Search/ValidityModel.h"
#include <cmath>

namespace cro {

// Layout: bit 63 tells pairs from singles; 8 bits a dimension index, 20 bits
// a value index.
std::optional<uint64_t> ValidityModel::single(size_t I, unsigned A) {
  if (I >= (1u << 8) || A >= (1u << 20))
    return std::nullopt;
  return uint64_t(I) << 20 | A;
}

std::optional<uint64_t> ValidityModel::pair(size_t I, unsigned A, size_t J,
                                            unsigned B) {
  std::optional<uint64_t> L = single(I, A), R = single(J, B);
  if (!L || !R)
    return std::nullopt;
  return uint64_t(1) << 63 | *L << 28 | *R;
}

void ValidityModel::observe(const Point &P, bool IsValid) {
  (IsValid ? Valid : Invalid) += 1;
  auto Count = [&](std::optional<uint64_t> Key) {
    if (!Key)
      return;
    Counts &C = Seen[*Key];
    (IsValid ? C.Valid : C.Invalid) += 1;
  };
  for (size_t I = 0; I < P.size(); ++I) {
    Count(single(I, P[I]));
    for (size_t J = I + 1; J < P.size(); ++J)
      Count(pair(I, P[I], J, P[J]));
  }
}

double ValidityModel::evidence(std::optional<uint64_t> Key,
                               double Values) const {
  if (!Key)
    return 0;
  Counts C;
  if (auto It = Seen.find(*Key); It != Seen.end())
    C = It->second;
  // log P(feature | valid) - log P(feature | refused), smoothed.
  return std::log((C.Valid + 0.5) / (Valid + 0.5 * Values)) -
         std::log((C.Invalid + 0.5) / (Invalid + 0.5 * Values));
}

double ValidityModel::logOdds(const Point &P) const {
  if (Valid + Invalid == 0)
    return 0;
  double L = std::log((Valid + 0.5) / (Invalid + 0.5));
  auto Radix = [&](size_t I) {
    return I < Radices.size() ? double(Radices[I]) : 1.0;
  };
  for (size_t I = 0; I < P.size(); ++I) {
    L += evidence(single(I, P[I]), Radix(I));
    for (size_t J = I + 1; J < P.size(); ++J)
      L += evidence(pair(I, P[I], J, P[J]), Radix(I) * Radix(J));
  }
  return L;
}

bool ValidityModel::likelyInvalid(const Point &P) const {
  return Invalid >= MinRefusals && Valid >= MinValid && logOdds(P) < 0;
}

} // namespace cro
