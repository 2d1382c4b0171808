#include "cro/Measure/AtomicSumTolerance.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace llvm;

namespace cro {

namespace {

/// The parameter of K behind the captured allocation whose every atomic
/// update is an atomicAdd of a floating-point element at one address for
/// the whole launch; "" when there is none.
std::string uniformAtomicSum(const KernelInfo &K, const CaptureRecord &C) {
  for (int A : C.Args) {
    if (A < 0 || size_t(A) >= K.Params.size())
      continue;
    const ParamInfo &P = K.Params[A];
    if (!P.IsPointer || !P.Atomic)
      continue;
    bool Any = false, All = true;
    for (const AtomicUpdateInfo &U : K.Atomics) {
      if (U.TargetParam != P.Name)
        continue;
      Any = true;
      All &= U.Function == "atomicAdd" &&
             (U.ValueType == "float" || U.ValueType == "double") &&
             U.LaunchUniformTargetWhy.empty();
    }
    if (Any && All)
      return P.Name;
  }
  return "";
}

} // namespace

std::optional<AtomicSumTolerance> atomicSumTolerance(const CaptureRecord &C,
                                                     const KernelModel &Model,
                                                     ElementKind Kind,
                                                     double Default) {
  if (Kind == ElementKind::Exact || C.Threads == 0)
    return std::nullopt;
  // Overloads share the launch's name: each must show the pattern.
  std::string Param;
  bool Named = false;
  for (const KernelInfo &K : Model.Kernels) {
    if (!isKernelNamed(K, C.Kernel))
      continue;
    std::string P = uniformAtomicSum(K, C);
    if (P.empty() || (Named && P != Param))
      return std::nullopt;
    Param = P, Named = true;
  }
  if (!Named)
    return std::nullopt;
  double Unit = Kind == ElementKind::Float32 ? std::ldexp(1.0, -24)
                                             : std::ldexp(1.0, -53);
  double Tol = std::sqrt(double(C.Threads)) * Unit;
  if (Tol <= Default)
    return std::nullopt;
  AtomicSumTolerance R;
  R.RelTol = Tol;
  R.Terms = C.Threads;
  R.Parameter = Param;
  R.Why =
      formatv("'{0}' of {1} is a sum of up to {2} {3} atomicAdd terms "
              "(one per thread) at one address, in the order the GPU "
              "serves them: compared at a relative tolerance of {4:e2} "
              "(sqrt(terms) units in the last place) instead of {5:e2}",
              Param, C.Kernel, C.Threads,
              Kind == ElementKind::Float32 ? "float" : "double", Tol, Default)
          .str();
  return R;
}

} // namespace cro
