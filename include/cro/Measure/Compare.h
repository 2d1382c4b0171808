//===- Compare.h - is a variant's output the original's output? -----------===//
//
// Buffers a kernel's pointer arguments reach are captured after each launch,
// in the original program and in the variant, and compared here with a
// tolerance chosen from the element type in the kernel model:
//  - integers (and anything the model cannot type): exact, byte for byte;
//  - float/double: |got - ref| <= RelTol * |ref| + AbsFloor, where AbsFloor
//    is AbsFloorScale * max|ref| over the buffer: scaled to the data, never a
//    fixed absolute tolerance that could swallow small values;
//    A non-deterministic original (float atomics) raises AbsFloorScale to
//    what its own runs differ by (the evaluator's captureNoise).
//  - a NaN or infinity where the original has a finite value fails, and so
//    does a finite value where the original has NaN or infinity.
// Defaults: float RelTol 1e-4, AbsFloorScale 1e-6; double 1e-10 and 1e-12.
// Reordered float sums (another block size, unrolling) land far inside them;
// off-by-one indexing, stale or unwritten elements do not.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_MEASURE_COMPARE_H
#define CRO_MEASURE_COMPARE_H

#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <string>

namespace cro {

enum class ElementKind { Float32, Float64, Exact };

/// The comparison an element type needs ("const float", "double",
/// "unsigned int", "float4", "T"...): vector types compare as their scalar.
ElementKind elementKindOf(llvm::StringRef PointeeType);

struct Tolerance {
  double RelTol;
  double AbsFloorScale;
  static Tolerance defaultFor(ElementKind K);
};

struct CompareResult {
  bool Equal = true;
  size_t Elements = 0;
  size_t Mismatches = 0;
  size_t FirstMismatch = 0; ///< element index
  double MaxRelError = 0;   ///< over finite elements, relative to max|ref|
  std::string Reason;       ///< for the first mismatch, or a size difference
};

CompareResult compareBuffers(llvm::StringRef Reference, llvm::StringRef Got,
                             ElementKind Kind, const Tolerance &Tol);

} // namespace cro

#endif
