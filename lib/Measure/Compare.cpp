#include "cro/Measure/Compare.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace cro {

ElementKind elementKindOf(llvm::StringRef T) {
  T = T.trim();
  for (llvm::StringRef Q : {"const ", "volatile "})
    while (T.consume_front(Q))
      T = T.trim();
  T.consume_back(" const");
  if (T == "float" || (T.starts_with("float") && T.size() == 6 &&
                       T.back() >= '1' && T.back() <= '4'))
    return ElementKind::Float32;
  if (T == "double" || (T.starts_with("double") && T.size() == 7 &&
                        T.back() >= '1' && T.back() <= '4'))
    return ElementKind::Float64;
  return ElementKind::Exact;
}

Tolerance Tolerance::defaultFor(ElementKind K) {
  switch (K) {
  case ElementKind::Float32:
    return {1e-4, 1e-6};
  case ElementKind::Float64:
    return {1e-10, 1e-12};
  case ElementKind::Exact:
    return {0, 0};
  }
  return {0, 0};
}

namespace {

template <typename T>
CompareResult compareFloats(const char *Ref, const char *Got, size_t N,
                            const Tolerance &Tol) {
  CompareResult R;
  R.Elements = N;
  auto At = [](const char *P, size_t I) {
    T V;
    std::memcpy(&V, P + I * sizeof(T), sizeof(T));
    return V;
  };
  double MaxRef = 0;
  for (size_t I = 0; I < N; ++I) {
    double V = At(Ref, I);
    if (std::isfinite(V))
      MaxRef = std::max(MaxRef, std::fabs(V));
  }
  double Floor = Tol.AbsFloorScale * MaxRef;
  // The common case -- both finite, within the tolerance -- is one test per
  // element with no division (the largest error is divided by max|ref|
  // once, at the end): this loop runs over gigabytes of captures per
  // evaluation and was most of the tool's own time in the corpus benchmark.
  double MaxErr = 0;
  for (size_t I = 0; I < N; ++I) {
    double A = At(Ref, I), B = At(Got, I);
    std::string Why;
    if (!std::isfinite(A) || !std::isfinite(B)) {
      bool Same = (std::isnan(A) && std::isnan(B)) || A == B;
      if (!Same)
        Why = std::isnan(B) && !std::isnan(A)
                  ? "NaN where the original has none"
                  : "non-finite value differs";
    } else {
      double Err = std::fabs(B - A);
      MaxErr = std::max(MaxErr, Err);
      if (Err > Tol.RelTol * std::fabs(A) + Floor)
        Why = "outside the tolerance";
    }
    if (!Why.empty()) {
      if (R.Mismatches++ == 0) {
        R.FirstMismatch = I;
        std::ostringstream OS;
        OS.precision(9);
        OS << "element " << I << ": expected " << A << ", got " << B << " ("
           << Why << ")";
        R.Reason = OS.str();
      }
    }
  }
  if (MaxRef > 0)
    R.MaxRelError = MaxErr / MaxRef;
  R.Equal = R.Mismatches == 0;
  return R;
}

} // namespace

CompareResult compareBuffers(llvm::StringRef Ref, llvm::StringRef Got,
                             ElementKind Kind, const Tolerance &Tol) {
  CompareResult R;
  if (Ref.size() != Got.size()) {
    R.Equal = false;
    R.Reason = "sizes differ: " + std::to_string(Ref.size()) + " vs " +
               std::to_string(Got.size()) + " bytes";
    return R;
  }
  size_t Width = Kind == ElementKind::Float32   ? 4
                 : Kind == ElementKind::Float64 ? 8
                                                : 1;
  if (Kind != ElementKind::Exact && Ref.size() % Width != 0)
    Kind = ElementKind::Exact, Width = 1;
  // Identical bytes are equal at every tolerance (NaNs included, which the
  // element loops accept only where the original has them too); memcmp
  // settles the common case at memory speed, since most variants reproduce
  // the original's outputs exactly and the buffers run to gigabytes.
  if (Ref.empty() || std::memcmp(Ref.data(), Got.data(), Ref.size()) == 0) {
    R.Equal = true;
    R.Elements = Ref.size() / Width;
    return R;
  }
  if (Kind == ElementKind::Float32)
    return compareFloats<float>(Ref.data(), Got.data(), Ref.size() / 4, Tol);
  if (Kind == ElementKind::Float64)
    return compareFloats<double>(Ref.data(), Got.data(), Ref.size() / 8, Tol);
  R.Elements = Ref.size();
  for (size_t I = 0; I < Ref.size(); ++I)
    if (Ref[I] != Got[I]) {
      if (R.Mismatches++ == 0) {
        R.FirstMismatch = I;
        R.Reason = "byte " + std::to_string(I) + " differs";
      }
    }
  R.Equal = R.Mismatches == 0;
  return R;
}

} // namespace cro
