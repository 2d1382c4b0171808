#include "cro/Space/ValidSet.h"
#include <algorithm>

namespace cro {

ValidSet::ValidSet(std::vector<unsigned> R, const std::vector<Point> &Points)
    : Radices(std::move(R)) {
  Ranks.reserve(Points.size());
  for (const Point &P : Points)
    if (std::optional<uint64_t> K = rankOf(P))
      Ranks.push_back(*K);
  std::sort(Ranks.begin(), Ranks.end());
  Ranks.erase(std::unique(Ranks.begin(), Ranks.end()), Ranks.end());
}

std::optional<uint64_t> ValidSet::rankOf(const Point &P) const {
  if (P.size() != Radices.size())
    return std::nullopt;
  uint64_t K = 0;
  for (size_t I = 0; I < P.size(); ++I) {
    if (P[I] >= Radices[I])
      return std::nullopt;
    K = K * Radices[I] + P[I];
  }
  return K;
}

Point ValidSet::pointOf(uint64_t Rank) const {
  Point P(Radices.size());
  for (size_t I = Radices.size(); I-- > 0;) {
    P[I] = unsigned(Rank % Radices[I]);
    Rank /= Radices[I];
  }
  return P;
}

bool ValidSet::contains(const Point &P) const {
  std::optional<uint64_t> K = rankOf(P);
  return K && std::binary_search(Ranks.begin(), Ranks.end(), *K);
}

Point ValidSet::sample(std::mt19937_64 &Rng) const {
  return at(std::uniform_int_distribution<size_t>(0, Ranks.size() - 1)(Rng));
}

} // namespace cro
