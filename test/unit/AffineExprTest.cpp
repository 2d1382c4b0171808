#include "cro/Analysis/AffineExpr.h"
#include "gtest/gtest.h"

using namespace cro;

TEST(SymPoly, ArithmeticAndPrinting) {
  SymPoly K = SymPoly::symbol("K");
  SymPoly B = SymPoly::symbol("blockDim.y");
  EXPECT_EQ((K * B).str(), "K*blockDim.y");
  EXPECT_EQ((K + SymPoly::constant(3)).str(), "K + 3");
  EXPECT_EQ((SymPoly::constant(2) * K - K - K).str(), "0");
  EXPECT_TRUE((K - K).isZero());
  EXPECT_EQ(SymPoly::constant(-4).constantValue(), -4);
  EXPECT_FALSE(K.constantValue().has_value());
  EXPECT_EQ((K.negate() - SymPoly::constant(1)).str(), "-K - 1");
}

TEST(AffineExpr, MatmulRowIndex) {
  // row * K + k, with row = blockIdx.y * blockDim.y + threadIdx.y
  SymPoly K = SymPoly::symbol("K");
  AffineExpr Row =
      AffineExpr::variable("blockIdx.y").scaled(SymPoly::symbol("blockDim.y")) +
      AffineExpr::variable("threadIdx.y");
  AffineExpr Idx = Row.scaled(K) + AffineExpr::variable("k");
  EXPECT_EQ(Idx.coefficient("threadIdx.y").str(), "K");
  EXPECT_EQ(Idx.coefficient("blockIdx.y").str(), "K*blockDim.y");
  EXPECT_EQ(Idx.coefficient("k").str(), "1");
  EXPECT_TRUE(Idx.coefficient("threadIdx.x").isZero());
  EXPECT_EQ(Idx.str(), "K*threadIdx.y + K*blockDim.y*blockIdx.y + k");
}

TEST(AffineExpr, CancellationRemovesVariables) {
  AffineExpr A = AffineExpr::variable("threadIdx.x") +
                 AffineExpr::constant(SymPoly::constant(5));
  AffineExpr D = A - AffineExpr::variable("threadIdx.x");
  EXPECT_FALSE(D.hasVariables());
  EXPECT_EQ(D.str(), "5");
  EXPECT_EQ((A - A).str(), "0");
}

TEST(AffineExpr, StencilOffsetsDifferOnlyInConstant) {
  SymPoly Nx = SymPoly::symbol("nx");
  AffineExpr Centre =
      AffineExpr::variable("y").scaled(Nx) + AffineExpr::variable("x");
  AffineExpr North = Centre - AffineExpr::constant(Nx);
  AffineExpr Diff = North - Centre;
  EXPECT_FALSE(Diff.hasVariables());
  EXPECT_EQ(Diff.constantPart().str(), "-nx");
  EXPECT_EQ(North.str(), "x + nx*y - nx");
}

TEST(AffineExpr, SymbolicConstantsArePrintedInParentheses) {
  AffineExpr E = AffineExpr::variable("threadIdx.x") +
                 AffineExpr::constant(SymPoly::symbol("a").negate() +
                                      SymPoly::constant(3));
  EXPECT_EQ(E.str(), "threadIdx.x + (-a + 3)");
}

TEST(AffineExpr, SubtractedVariablesAreWrittenSigned) {
  // `- threadIdx.x` in unsigned arithmetic wraps; widened by a later long
  // long term the index would be 2^32 too large. Subtracted variables and
  // products are cast to long long, constants and added single variables
  // are left as they are, and a factor that is already a long long cast is
  // not cast twice.
  EXPECT_EQ(termCText(SymPoly::constant(-1), "threadIdx.x"),
            " - (long long)threadIdx.x");
  EXPECT_EQ(termCText(SymPoly::constant(1), "threadIdx.x"), " + threadIdx.x");
  EXPECT_EQ(termCText(SymPoly::symbol("n").negate(), ""), " - (long long)n");
  EXPECT_EQ(termCText(SymPoly::constant(-3), ""), " - 3");
  EXPECT_EQ(termCText(SymPoly::constant(-2), "i"), " - (long long)2 * i");
  EXPECT_EQ(termCText(SymPoly::constant(-1), "(long long)(threadIdx.y + r)"),
            " - (long long)(threadIdx.y + r)");
}
