//===- AffineExpr.h - index expressions as sums of coefficient * variable -===//
//
// The analysis describes an index as
//     sum_v coef_v * v + const
// where the variables v are the ones that differ between threads or loop
// iterations (threadIdx.*, blockIdx.*, loop induction variables) and the
// coefficients and the constant are polynomials over symbols that are fixed
// for a launch (blockDim.*, gridDim.*, unmodified scalar parameters, template
// parameters) with integer factors. Legality questions for the transforms
// become questions about which coefficients are zero: a load whose index has
// no threadIdx.x term is shared by a warp row; a stencil's neighbours differ
// only in the constant.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_ANALYSIS_AFFINEEXPR_H
#define CRO_ANALYSIS_AFFINEEXPR_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cro {

/// A polynomial with integer coefficients over named symbols.
class SymPoly {
public:
  using Monomial = std::vector<std::string>; ///< sorted symbol names

  SymPoly() = default;
  static SymPoly constant(int64_t V);
  static SymPoly symbol(const std::string &Name);

  bool isZero() const { return Terms.empty(); }
  /// The value when the polynomial has no symbols.
  std::optional<int64_t> constantValue() const;

  SymPoly operator+(const SymPoly &O) const;
  SymPoly operator-(const SymPoly &O) const;
  SymPoly operator*(const SymPoly &O) const;
  SymPoly negate() const;
  bool operator==(const SymPoly &O) const { return Terms == O.Terms; }

  /// Deterministic text, e.g. "2*blockDim.x*K + 3" or "0".
  std::string str() const;

  const std::map<Monomial, int64_t> &terms() const { return Terms; }

private:
  void addTerm(const Monomial &M, int64_t C);
  std::map<Monomial, int64_t> Terms; // no zero coefficients
};

class AffineExpr {
public:
  AffineExpr() = default;
  static AffineExpr constant(const SymPoly &C);
  static AffineExpr variable(const std::string &Var);

  AffineExpr operator+(const AffineExpr &O) const;
  AffineExpr operator-(const AffineExpr &O) const;
  /// Multiplies every coefficient and the constant by a symbol polynomial.
  AffineExpr scaled(const SymPoly &Factor) const;

  bool hasVariables() const { return !Coeffs.empty(); }
  /// The coefficient of Var (zero when absent).
  SymPoly coefficient(const std::string &Var) const;
  const SymPoly &constantPart() const { return Constant; }
  const std::map<std::string, SymPoly> &coefficients() const { return Coeffs; }
  bool operator==(const AffineExpr &O) const {
    return Coeffs == O.Coeffs && Constant == O.Constant;
  }

  /// Deterministic text: variables in a fixed order (threadIdx, blockIdx,
  /// then others alphabetically), then the constant.
  std::string str() const;

private:
  std::map<std::string, SymPoly> Coeffs; // no zero coefficients
  SymPoly Constant;
};

/// The order in which variables are printed: thread, block, others.
std::vector<std::string> orderedVariables(const AffineExpr &E);

/// A - B when it is a plain number (the two indices a constant apart,
/// whatever the variables), else nullopt.
std::optional<int64_t> constantDifference(const AffineExpr &A,
                                          const AffineExpr &B);

/// C text of Coef * Var (Var "" for the constant) as terms to append, each
/// product and each subtracted variable computed in 64 bits: " + (long
/// long)ny * i", " - (long long)threadIdx.x", " - 1". A rewrite
/// writes an index the model computed this way, in the variables in scope
/// where it goes, without the original's narrower intermediate types.
std::string termCText(const SymPoly &Coef, const std::string &Var);

} // namespace cro

#endif
