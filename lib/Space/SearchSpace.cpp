#include "cro/Space/SearchSpace.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <cmath>

using namespace llvm;

namespace cro {

std::vector<double> valueNumbers(const json::Value &V) {
  std::vector<double> Out;
  auto AddNumber = [&](double X) { Out.push_back(std::log2(1 + std::abs(X))); };
  if (auto N = V.getAsNumber()) {
    AddNumber(*N);
  } else if (auto B = V.getAsBoolean()) {
    Out.push_back(*B ? 1 : 0);
  } else if (const json::Array *A = V.getAsArray()) {
    for (const json::Value &E : *A)
      if (auto N = E.getAsNumber())
        AddNumber(*N);
  } else if (auto S = V.getAsString()) {
    // "8x4", "y4-contiguous": every run of digits is a number.
    StringRef Rest = *S;
    while (!Rest.empty()) {
      Rest = Rest.drop_until([](char C) { return isDigit(C); });
      StringRef Digits = Rest.take_while([](char C) { return isDigit(C); });
      if (Digits.empty())
        break;
      unsigned X = 0;
      if (!Digits.getAsInteger(10, X))
        AddNumber(X);
      Rest = Rest.drop_front(Digits.size());
    }
  }
  return Out;
}

unsigned blockThreads(const json::Value &V) {
  std::optional<std::array<int64_t, 3>> Shape = blockShapeOfValue(V);
  if (!Shape)
    return 0;
  uint64_t T = 1;
  for (int64_t D : *Shape) {
    if (D <= 0)
      return 0;
    T *= uint64_t(D);
  }
  return unsigned(std::min<uint64_t>(T, UINT32_MAX));
}

SearchSpace::SearchSpace(std::vector<Dimension> D, HardwareLimits L)
    : Dims(std::move(D)), Limits(std::move(L)) {
  // Every dimension contributes its value index (scaled to [0, 1]) and its
  // numbers, padded to the longest value of that dimension.
  FeatureCount = 0;
  for (Dimension &Dim : Dims) {
    size_t Width = 0;
    Dim.Numbers.clear();
    for (const json::Value &V : Dim.Values) {
      Dim.Numbers.push_back(valueNumbers(V));
      Width = std::max(Width, Dim.Numbers.back().size());
    }
    for (std::vector<double> &N : Dim.Numbers)
      N.resize(Width, 0.0);
    FeatureCount += 1 + Width;
  }
}

Expected<SearchSpace> SearchSpace::fromKnobs(const KnobSet &Knobs,
                                             const HardwareLimits &Limits,
                                             const json::Object *Restrict) {
  std::vector<Dimension> Dims;
  for (const Knob &K : Knobs.Knobs) {
    Dimension D{K.Id,     K.Kernel, K.Transform, K.Role,
                K.Values, 0,        {},          K.Requires};
    if (Restrict) {
      const json::Value *R = Restrict->get(K.Id);
      if (!R)
        continue;
      if (const json::Array *A = R->getAsArray()) {
        for (const json::Value &V : *A)
          if (llvm::find(K.Values, V) == K.Values.end())
            return makeToolError(
                ExitCode::BadConfig,
                formatv("--space: {0} is not a legal value of knob '{1}'", V,
                        K.Id)
                    .str());
        // The listed values in the knob's own order (block sizes from small
        // to large: strategies step through it), and the default always:
        // the original is a point of every space.
        std::vector<json::Value> Kept;
        for (const json::Value &V : K.Values)
          if (V == K.Default || llvm::find(*A, V) != A->end())
            Kept.push_back(V);
        D.Values = std::move(Kept);
      } else if (R->kind() != json::Value::Null &&
                 !(R->getAsString() && *R->getAsString() == "all")) {
        return makeToolError(ExitCode::BadConfig,
                             "--space: knob '" + K.Id +
                                 "' must map to a list of values or \"all\"");
      }
    }
    auto It = llvm::find(D.Values, K.Default);
    D.Default = It == D.Values.end() ? 0 : unsigned(It - D.Values.begin());
    Dims.push_back(std::move(D));
  }
  if (Restrict)
    for (const auto &[Id, V] : *Restrict)
      if (llvm::none_of(Dims, [&](const Dimension &D) { return D.Knob == Id; }))
        return makeToolError(ExitCode::BadConfig,
                             "--space: no knob '" + Id.str() +
                                 "' is offered for this file (see --analyze)");
  return SearchSpace(std::move(Dims), Limits);
}

uint64_t SearchSpace::size() const {
  uint64_t N = 1;
  for (const Dimension &D : Dims) {
    if (D.Values.empty())
      return 0;
    if (N > UINT64_MAX / D.Values.size())
      return UINT64_MAX;
    N *= D.Values.size();
  }
  return N;
}

Point SearchSpace::defaultPoint() const {
  Point P;
  for (const Dimension &D : Dims)
    P.push_back(D.Default);
  return P;
}

json::Object SearchSpace::config(const Point &P) const {
  json::Object C;
  for (size_t I = 0; I < Dims.size(); ++I)
    if (P[I] != Dims[I].Default)
      C[Dims[I].Knob] = Dims[I].Values[P[I]];
  return C;
}

std::string SearchSpace::key(const Point &P) const {
  // json::Object is ordered by key, so its text is canonical.
  return formatv("{0}", json::Value(config(P))).str();
}

Expected<Point> SearchSpace::pointOf(const json::Object &Config) const {
  Point P = defaultPoint();
  for (const auto &[Id, V] : Config) {
    auto It = llvm::find_if(
        Dims, [&, Id = Id](const Dimension &D) { return D.Knob == Id; });
    if (It == Dims.end())
      return makeToolError(ExitCode::BadConfig,
                           "unknown knob '" + Id.str() + "' in this space");
    auto VIt = llvm::find(It->Values, V);
    if (VIt == It->Values.end())
      return makeToolError(ExitCode::BadConfig,
                           formatv("{0} is not a value of knob '{1}' in this "
                                   "space",
                                   V, Id)
                               .str());
    P[It - Dims.begin()] = unsigned(VIt - It->Values.begin());
  }
  return P;
}

std::string SearchSpace::hardwareViolation(const Point &P) const {
  // Threads per block of each kernel whose block size is a knob.
  std::map<std::string, unsigned> Threads;
  for (size_t I = 0; I < Dims.size(); ++I) {
    if (Dims[I].Role != KnobRole::BlockShape)
      continue;
    unsigned T = blockThreads(Dims[I].Values[P[I]]);
    if (T > Limits.MaxThreadsPerBlock)
      return formatv("{0} = {1}: {2} threads per block, over the GPU's "
                     "limit of {3}",
                     Dims[I].Knob, Dims[I].Values[P[I]], T,
                     Limits.MaxThreadsPerBlock)
          .str();
    if (T)
      Threads[Dims[I].Kernel] = T;
  }
  for (size_t I = 0; I < Dims.size(); ++I) {
    if (Dims[I].Role != KnobRole::RegisterCap)
      continue;
    auto R = Dims[I].Values[P[I]].getAsInteger();
    if (!R || *R <= 0)
      continue;
    if (unsigned(*R) > Limits.MaxRegistersPerThread)
      return formatv("-maxrregcount={0} is over the GPU's {1} registers per "
                     "thread",
                     *R, Limits.MaxRegistersPerThread)
          .str();
    // Registers are allocated per warp in units the compiler rounds up to;
    // a block that needs more than the register file cannot launch.
    for (const auto &[Kernel, T] : Threads) {
      uint64_t Warps = (T + 31) / 32;
      if (Warps * 32 * uint64_t(*R) > Limits.RegistersPerBlock)
        return formatv("-maxrregcount={0} with {1} threads per block of {2} "
                       "needs more than the {3} registers of a block",
                       *R, T, Kernel, Limits.RegistersPerBlock)
            .str();
    }
  }
  return "";
}

std::string SearchSpace::requirementViolation(const Point &P) const {
  for (size_t I = 0; I < Dims.size(); ++I) {
    if (P[I] == Dims[I].Default)
      continue;
    for (const std::string &R : Dims[I].Requires) {
      auto J =
          llvm::find_if(Dims, [&](const Dimension &D) { return D.Knob == R; });
      // A space restricted without the required knob keeps it at its
      // original value.
      if (J == Dims.end() || P[J - Dims.begin()] == J->Default)
        return formatv("{0} = {1} requires {2} to leave its original value "
                       "({3})",
                       Dims[I].Knob, Dims[I].Values[P[I]], R,
                       J == Dims.end()
                           ? std::string("the space leaves it out")
                           : formatv("{0}", J->Values[J->Default]).str())
            .str();
    }
  }
  return "";
}

std::string SearchSpace::structuralViolation(const Point &P) const {
  if (std::string Why = hardwareViolation(P); !Why.empty())
    return Why;
  return requirementViolation(P);
}

std::string SearchSpace::violation(const Point &P) const {
  auto It = Verdicts.find(P);
  if (It != Verdicts.end())
    return It->second;
  std::string Why = structuralViolation(P);
  if (Why.empty() && Legality)
    Why = Legality(config(P), P);
  Verdicts.emplace(P, Why);
  return Why;
}

bool SearchSpace::plausible(const Point &P) const {
  if (Valid)
    return Valid->contains(P);
  auto It = Verdicts.find(P);
  if (It != Verdicts.end())
    return It->second.empty();
  return structuralViolation(P).empty();
}

std::vector<unsigned> SearchSpace::radices() const {
  std::vector<unsigned> R;
  for (const Dimension &D : Dims)
    R.push_back(unsigned(D.Values.size()));
  return R;
}

void SearchSpace::setValidPoints(const std::vector<Point> &Points) {
  if (size() == 0 || size() == UINT64_MAX)
    return; // ranks would overflow: the set stays unknown
  Valid = std::make_shared<ValidSet>(radices(), Points);
}

bool SearchSpace::listValidPoints(uint64_t MaxPoints, double Seconds) {
  if (Valid)
    return true;
  std::vector<Point> All = enumerate(MaxPoints); // empty when too many
  if (All.empty())
    return false;
  auto Start = std::chrono::steady_clock::now();
  std::vector<Point> Ok;
  for (const Point &P : All) {
    if (violation(P).empty())
      Ok.push_back(P);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count() > Seconds)
      return false;
  }
  setValidPoints(Ok);
  return true;
}

std::vector<std::pair<Point, std::string>> SearchSpace::knownInvalid() const {
  std::vector<std::pair<Point, std::string>> Out;
  for (const auto &[P, Why] : Verdicts)
    if (!Why.empty())
      Out.push_back({P, Why});
  return Out;
}

std::vector<double> SearchSpace::features(const Point &P) const {
  std::vector<double> F;
  F.reserve(FeatureCount);
  for (size_t I = 0; I < Dims.size(); ++I) {
    const Dimension &D = Dims[I];
    F.push_back(D.Values.size() > 1 ? double(P[I]) / (D.Values.size() - 1)
                                    : 0.0);
    for (double X : D.Numbers[P[I]])
      F.push_back(X);
  }
  return F;
}

Point SearchSpace::randomPoint(std::mt19937_64 &Rng) const {
  Point P;
  for (const Dimension &D : Dims)
    P.push_back(std::uniform_int_distribution<unsigned>(
        0, unsigned(D.Values.size()) - 1)(Rng));
  return P;
}

std::vector<Point> SearchSpace::neighbours(const Point &P) const {
  std::vector<Point> Out;
  for (size_t I = 0; I < Dims.size(); ++I) {
    unsigned N = unsigned(Dims[I].Values.size());
    for (unsigned V = 0; V < N; ++V) {
      if (V == P[I])
        continue;
      bool Adjacent = V + 1 == P[I] || V == P[I] + 1;
      if (!Adjacent && N > 8)
        continue;
      Point Q = P;
      Q[I] = V;
      Out.push_back(std::move(Q));
    }
  }
  return Out;
}

std::vector<Point> SearchSpace::enumerate(uint64_t Limit) const {
  std::vector<Point> Out;
  uint64_t N = size();
  if (N == 0 || N > Limit)
    return Out;
  Out.reserve(N);
  Point P(Dims.size(), 0);
  for (uint64_t K = 0; K < N; ++K) {
    Out.push_back(P);
    for (size_t I = Dims.size(); I-- > 0;) {
      if (++P[I] < Dims[I].Values.size())
        break;
      P[I] = 0;
    }
  }
  return Out;
}

json::Value SearchSpace::toJSON() const {
  json::Array Knobs;
  for (const Dimension &D : Dims) {
    json::Object K{{"id", D.Knob},
                   {"kernel", D.Kernel},
                   {"transform", D.Transform},
                   {"role", roleName(D.Role)},
                   {"values", json::Array(D.Values)},
                   {"default", D.Values[D.Default]}};
    if (!D.Requires.empty())
      K["requires"] = json::Array(D.Requires);
    Knobs.push_back(std::move(K));
  }
  return json::Object{{"knobs", std::move(Knobs)},
                      {"size", int64_t(std::min<uint64_t>(size(), INT64_MAX))},
                      {"hardware", cro::toJSON(Limits)}};
}

Expected<SearchSpace> SearchSpace::fromJSON(const json::Value &V) {
  auto Bad = [](const Twine &Why) {
    return makeToolError(ExitCode::BadConfig, "search space: " + Why.str());
  };
  const json::Object *O = V.getAsObject();
  const json::Array *Knobs = O ? O->getArray("knobs") : nullptr;
  if (!Knobs)
    return Bad("expected an object with a \"knobs\" array");
  std::vector<Dimension> Dims;
  for (const json::Value &KV : *Knobs) {
    const json::Object *K = KV.getAsObject();
    const json::Array *Values = K ? K->getArray("values") : nullptr;
    auto Id = K ? K->getString("id") : std::nullopt;
    if (!Id || !Values || Values->empty())
      return Bad("every knob needs an \"id\" and a non-empty \"values\"");
    Dimension D;
    D.Knob = Id->str();
    D.Kernel = K->getString("kernel").value_or("").str();
    D.Transform = K->getString("transform").value_or("").str();
    // A space recorded without roles is searched without what they tell.
    D.Role = roleNamed(K->getString("role").value_or("other"));
    D.Values.assign(Values->begin(), Values->end());
    if (const json::Value *Def = K->get("default")) {
      auto It = llvm::find(D.Values, *Def);
      if (It == D.Values.end())
        return Bad("the default of knob '" + D.Knob +
                   "' is not one of its "
                   "values");
      D.Default = unsigned(It - D.Values.begin());
    }
    if (const json::Array *R = K->getArray("requires"))
      for (const json::Value &Id : *R)
        if (auto S = Id.getAsString())
          D.Requires.push_back(S->str());
    Dims.push_back(std::move(D));
  }
  HardwareLimits L = tableLimits("sm_90");
  if (const json::Value *H = O->get("hardware")) {
    json::Path::Root Root;
    if (!cro::fromJSON(*H, L, Root))
      return Bad("malformed \"hardware\" object");
  }
  return SearchSpace(std::move(Dims), L);
}

} // namespace cro
