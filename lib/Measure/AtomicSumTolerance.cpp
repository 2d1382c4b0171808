#include "cro/Measure/AtomicSumTolerance.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

using namespace llvm;

namespace cro {

namespace {

/// The parameter of K behind the captured allocation whose every atomic
/// update is an atomicAdd of a floating-point element at one address for
/// the whole launch, and how many terms a launch of C's shape adds into it
/// at most: one per thread, or one per block along the dimensions every
/// such update's enclosing `if` fixes (`if (threadIdx.x == 0)` after a
/// block's tree: one term per block row). Nullopt when there is none.
std::optional<std::pair<std::string, uint64_t>>
uniformAtomicSum(const KernelInfo &K, const CaptureRecord &C) {
  for (int A : C.Args) {
    if (A < 0 || size_t(A) >= K.Params.size())
      continue;
    const ParamInfo &P = K.Params[A];
    if (!P.IsPointer || !P.Atomic)
      continue;
    bool Any = false, All = true;
    std::set<std::string> Fixed = {"x", "y", "z"};
    for (const AtomicUpdateInfo &U : K.Atomics) {
      if (U.TargetParam != P.Name)
        continue;
      Any = true;
      All &= U.Function == "atomicAdd" &&
             (U.ValueType == "float" || U.ValueType == "double") &&
             U.LaunchUniformTargetWhy.empty();
      std::set<std::string> Mine(U.FixedThreadDims.begin(),
                                 U.FixedThreadDims.end());
      std::set<std::string> Both;
      std::set_intersection(Fixed.begin(), Fixed.end(), Mine.begin(),
                            Mine.end(), std::inserter(Both, Both.begin()));
      Fixed = std::move(Both);
    }
    if (!Any || !All)
      continue;
    uint64_t Terms = C.Threads;
    for (const std::string &D : Fixed) {
      unsigned Extent = C.Block[D[0] - 'x'];
      if (Extent > 0)
        Terms /= Extent;
    }
    return std::make_pair(P.Name, std::max<uint64_t>(Terms, 1));
  }
  return std::nullopt;
}

} // namespace

std::optional<AtomicSumTolerance> atomicSumTolerance(const CaptureRecord &C,
                                                     const KernelModel &Model,
                                                     ElementKind Kind,
                                                     double Default) {
  if (Kind == ElementKind::Exact || C.Threads == 0)
    return std::nullopt;
  // Overloads share the launch's name: each must show the pattern; the
  // most terms any of them adds count.
  std::string Param;
  uint64_t Terms = 0;
  bool Named = false;
  for (const KernelInfo &K : Model.Kernels) {
    if (!isKernelNamed(K, C.Kernel))
      continue;
    auto Sum = uniformAtomicSum(K, C);
    if (!Sum || (Named && Sum->first != Param))
      return std::nullopt;
    Param = Sum->first, Named = true;
    Terms = std::max(Terms, Sum->second);
  }
  if (!Named)
    return std::nullopt;
  double Unit = Kind == ElementKind::Float32 ? std::ldexp(1.0, -24)
                                             : std::ldexp(1.0, -53);
  double Tol = std::sqrt(double(Terms)) * Unit;
  if (Tol <= Default)
    return std::nullopt;
  AtomicSumTolerance R;
  R.RelTol = Tol;
  R.Terms = Terms;
  R.Parameter = Param;
  R.Why =
      formatv("'{0}' of {1} is a sum of up to {2} {3} atomicAdd terms "
              "at one address, in the order the GPU serves them: compared "
              "at a relative tolerance of {4:e2} (sqrt(terms) units in the "
              "last place) instead of {5:e2}",
              Param, C.Kernel, Terms,
              Kind == ElementKind::Float32 ? "float" : "double", Tol, Default)
          .str();
  return R;
}

} // namespace cro
