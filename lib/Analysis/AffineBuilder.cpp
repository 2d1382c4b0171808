#include "cro/Analysis/AffineBuilder.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace llvm;

namespace cro {

AffineBuilder::AffineBuilder(const SourceText &Text, const FunctionDecl *Kernel)
    : Text(Text), Modified(modifiedVariables(Kernel->getBody())) {}

AffineBuilder::Result AffineBuilder::build(const Expr *E) {
  FailReason.clear();
  Result R;
  R.Form = visit(E, 0);
  if (!R.Form)
    R.Reason =
        FailReason.empty() ? "index not affine: " + Text.text(E) : FailReason;
  return R;
}

std::optional<AffineExpr> AffineBuilder::fail(const Expr *E, StringRef Why) {
  if (FailReason.empty()) {
    FailReason = "index not affine: " + Text.text(E);
    if (!Why.empty())
      FailReason += " (" + Why.str() + ")";
  }
  return std::nullopt;
}

std::optional<AffineExpr> AffineBuilder::visit(const Expr *E, unsigned Depth) {
  if (!E)
    return std::nullopt;
  if (Depth > 64)
    return fail(E, "too deeply nested");
  const ASTContext &Ctx = Text.context();
  E = stripCasts(E);

  if (std::optional<int64_t> V = evaluateInt(E, Ctx))
    return AffineExpr::constant(SymPoly::constant(*V));

  if (std::optional<std::string> B = cudaBuiltinName(E)) {
    StringRef Name = *B;
    if (Name.starts_with("threadIdx.") || Name.starts_with("blockIdx."))
      return AffineExpr::variable(*B);
    return AffineExpr::constant(SymPoly::symbol(*B)); // blockDim, gridDim
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Shl) {
      std::optional<AffineExpr> L = visit(BO->getLHS(), Depth + 1);
      if (!L)
        return std::nullopt;
      std::optional<AffineExpr> R = visit(BO->getRHS(), Depth + 1);
      if (!R)
        return std::nullopt;
      if (Op == BO_Add)
        return *L + *R;
      if (Op == BO_Sub)
        return *L - *R;
      if (Op == BO_Shl) {
        std::optional<int64_t> Sh = R->hasVariables()
                                        ? std::nullopt
                                        : R->constantPart().constantValue();
        if (!Sh || *Sh < 0 || *Sh > 62)
          return fail(E, "shift by a non-constant amount");
        return L->scaled(SymPoly::constant(int64_t(1) << *Sh));
      }
      // Products stay affine while one side has no variables.
      if (!L->hasVariables())
        return R->scaled(L->constantPart());
      if (!R->hasVariables())
        return L->scaled(R->constantPart());
      return fail(E, "product of two thread- or loop-dependent values");
    }
    if (Op == BO_Comma)
      return visit(BO->getRHS(), Depth + 1);
    return fail(E, ("operator '" + BO->getOpcodeStr() + "'").str());
  }

  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus) {
      std::optional<AffineExpr> S = visit(UO->getSubExpr(), Depth + 1);
      if (!S)
        return std::nullopt;
      return S->scaled(SymPoly::constant(-1));
    }
    if (UO->getOpcode() == UO_Plus)
      return visit(UO->getSubExpr(), Depth + 1);
    return fail(E);
  }

  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<NonTypeTemplateParmDecl>(D))
      return AffineExpr::constant(SymPoly::symbol(D->getNameAsString()));
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (LoopVars.count(VD))
        return AffineExpr::variable(VD->getNameAsString());
      if (!VD->getType()->isIntegralOrEnumerationType())
        return fail(E, "not an integer");
      if (isa<ParmVarDecl>(VD)) {
        if (Modified.count(VD))
          return fail(E, "parameter modified in the kernel");
        return AffineExpr::constant(SymPoly::symbol(VD->getNameAsString()));
      }
      if (VD->hasLocalStorage() && !Modified.count(VD) && VD->getInit())
        return visit(VD->getInit(), Depth + 1);
      if (Modified.count(VD))
        return fail(E, "variable '" + VD->getNameAsString() +
                           "' is modified in the kernel");
      return fail(E);
    }
    return fail(E);
  }

  if (isa<ArraySubscriptExpr>(E) || isa<UnaryOperator>(E))
    return fail(E, "value loaded from memory");
  if (isa<CallExpr>(E))
    return fail(E, "function call");
  return fail(E);
}

} // namespace cro
