#include "cro/Analysis/AffineExpr.h"
#include <algorithm>

namespace cro {

SymPoly SymPoly::constant(int64_t V) {
  SymPoly P;
  P.addTerm({}, V);
  return P;
}

SymPoly SymPoly::symbol(const std::string &Name) {
  SymPoly P;
  P.addTerm({Name}, 1);
  return P;
}

void SymPoly::addTerm(const Monomial &M, int64_t C) {
  if (C == 0)
    return;
  auto It = Terms.find(M);
  if (It == Terms.end()) {
    Terms.emplace(M, C);
    return;
  }
  It->second += C;
  if (It->second == 0)
    Terms.erase(It);
}

std::optional<int64_t> SymPoly::constantValue() const {
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

SymPoly SymPoly::operator+(const SymPoly &O) const {
  SymPoly R = *this;
  for (const auto &[M, C] : O.Terms)
    R.addTerm(M, C);
  return R;
}

SymPoly SymPoly::negate() const {
  SymPoly R;
  for (const auto &[M, C] : Terms)
    R.addTerm(M, -C);
  return R;
}

SymPoly SymPoly::operator-(const SymPoly &O) const {
  return *this + O.negate();
}

SymPoly SymPoly::operator*(const SymPoly &O) const {
  SymPoly R;
  for (const auto &[MA, CA] : Terms)
    for (const auto &[MB, CB] : O.Terms) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end());
      R.addTerm(M, CA * CB);
    }
  return R;
}

std::string SymPoly::str() const {
  if (Terms.empty())
    return "0";
  std::string S;
  // Symbolic terms first (higher degree first), the plain number last.
  std::vector<std::pair<Monomial, int64_t>> Ordered(Terms.begin(), Terms.end());
  std::stable_sort(Ordered.begin(), Ordered.end(),
                   [](const auto &A, const auto &B) {
                     return A.first.size() > B.first.size();
                   });
  bool First = true;
  for (const auto &[M, C] : Ordered) {
    int64_t Abs = C < 0 ? -C : C;
    if (First)
      S += C < 0 ? "-" : "";
    else
      S += C < 0 ? " - " : " + ";
    First = false;
    if (M.empty()) {
      S += std::to_string(Abs);
      continue;
    }
    if (Abs != 1)
      S += std::to_string(Abs) + "*";
    for (size_t I = 0; I < M.size(); ++I)
      S += (I ? "*" : "") + M[I];
  }
  return S;
}

AffineExpr AffineExpr::constant(const SymPoly &C) {
  AffineExpr E;
  E.Constant = C;
  return E;
}

AffineExpr AffineExpr::variable(const std::string &Var) {
  AffineExpr E;
  E.Coeffs[Var] = SymPoly::constant(1);
  return E;
}

AffineExpr AffineExpr::operator+(const AffineExpr &O) const {
  AffineExpr R = *this;
  R.Constant = R.Constant + O.Constant;
  for (const auto &[V, C] : O.Coeffs) {
    SymPoly Sum = R.coefficient(V) + C;
    if (Sum.isZero())
      R.Coeffs.erase(V);
    else
      R.Coeffs[V] = Sum;
  }
  return R;
}

AffineExpr AffineExpr::operator-(const AffineExpr &O) const {
  return *this + O.scaled(SymPoly::constant(-1));
}

AffineExpr AffineExpr::scaled(const SymPoly &Factor) const {
  AffineExpr R;
  R.Constant = Constant * Factor;
  for (const auto &[V, C] : Coeffs) {
    SymPoly P = C * Factor;
    if (!P.isZero())
      R.Coeffs[V] = P;
  }
  return R;
}

SymPoly AffineExpr::coefficient(const std::string &Var) const {
  auto It = Coeffs.find(Var);
  return It == Coeffs.end() ? SymPoly() : It->second;
}

static int variableRank(const std::string &V) {
  if (V.rfind("threadIdx.", 0) == 0)
    return 0;
  if (V.rfind("blockIdx.", 0) == 0)
    return 1;
  return 2;
}

std::vector<std::string> orderedVariables(const AffineExpr &E) {
  std::vector<std::string> Vars;
  for (const auto &KV : E.coefficients())
    Vars.push_back(KV.first);
  std::stable_sort(Vars.begin(), Vars.end(),
                   [](const std::string &A, const std::string &B) {
                     int RA = variableRank(A), RB = variableRank(B);
                     return RA != RB ? RA < RB : A < B;
                   });
  return Vars;
}

std::string AffineExpr::str() const {
  std::string S;
  for (const std::string &V : orderedVariables(*this)) {
    SymPoly C = coefficient(V);
    std::string Term;
    std::optional<int64_t> K = C.constantValue();
    bool Negative = K && *K < 0;
    if (K && (*K == 1 || *K == -1))
      Term = V;
    else if (K)
      Term = std::to_string(Negative ? -*K : *K) + "*" + V;
    else if (C.terms().size() == 1)
      Term = C.str() + "*" + V;
    else
      Term = "(" + C.str() + ")*" + V;
    if (S.empty())
      S = (Negative ? "-" : "") + Term;
    else
      S += (Negative ? " - " : " + ") + Term;
  }
  if (!Constant.isZero() || S.empty()) {
    std::string C = Constant.str();
    if (S.empty())
      S = C;
    else if (Constant.terms().size() > 1)
      S += " + (" + C + ")";
    else if (C[0] == '-')
      S += " - " + C.substr(1);
    else
      S += " + " + C;
  }
  return S;
}

std::string termCText(const SymPoly &Coef, const std::string &Var) {
  std::string Out;
  for (const auto &[Mono, C] : Coef.terms()) {
    std::vector<std::string> Factors;
    int64_t Mag = C < 0 ? -C : C;
    if (Mag != 1 || (Mono.empty() && Var.empty()))
      Factors.push_back(std::to_string(Mag));
    Factors.insert(Factors.end(), Mono.begin(), Mono.end());
    if (!Var.empty())
      Factors.push_back(Var);
    // A product, or a subtracted variable, is computed in signed 64 bits:
    // `- threadIdx.x` (or an unsigned parameter) in unsigned arithmetic
    // wraps, and a wrapped value widened by a later long long term stays
    // 2^32 too large.
    bool Symbolic = !Mono.empty() || !Var.empty();
    bool Wide = Factors[0].rfind("(long long)", 0) == 0; // cast already
    std::string T =
        (!Wide && (Factors.size() > 1 || (C < 0 && Symbolic)) ? "(long long)"
                                                              : "") +
        Factors[0];
    for (size_t I = 1; I < Factors.size(); ++I)
      T += " * " + Factors[I];
    Out += (C < 0 ? " - " : " + ") + T;
  }
  return Out;
}

std::optional<int64_t> constantDifference(const AffineExpr &A,
                                          const AffineExpr &B) {
  AffineExpr D = A - B;
  if (D.hasVariables())
    return std::nullopt;
  return D.constantPart().constantValue();
}

} // namespace cro
