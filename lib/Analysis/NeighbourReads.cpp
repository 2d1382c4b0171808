#include "cro/Analysis/NeighbourReads.h"
#include "cro/Analysis/StmtQueries.h"
#include "cro/Analysis/ThreadMapping.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

/// A value's range: of the value itself (Absolute) or of its distance to
/// the thread index in one dimension (Relative).
struct Range {
  bool Relative = false;
  int64_t Lo = 0, Hi = 0;
};

/// A loop around the read: its variable takes every value of [Lo, Hi].
struct LoopRange {
  const VarDecl *Var = nullptr;
  int64_t Lo = 0, Hi = 0;
};

bool hasJump(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) ||
      isa<GotoStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (hasJump(C))
      return true;
  return false;
}

/// Idx moved by the constant D, as C text: `x`, `x + 1`, `x - 2`.
std::string movedBy(StringRef Idx, int64_t D) {
  return D == 0  ? Idx.str()
         : D > 0 ? Idx.str() + " + " + std::to_string(D)
                 : Idx.str() + " - " + std::to_string(-D);
}

class BoundedReadFinder {
public:
  BoundedReadFinder(const SourceText &Text, AffineBuilder &Affine,
                    const ThreadMapping &M)
      : Text(Text), Affine(Affine), WithLoops(Affine), M(M) {}

  void run(ArrayRef<const Stmt *> Work) {
    bool Certain = true;
    for (const Stmt *S : Work) {
      // A statement that may return makes what follows it uncertain; its
      // own reads are counted uncertain too (the return may come first).
      if (hasJump(S))
        Certain = false;
      walk(S, Certain);
    }
  }

  std::vector<ThreadMapping::BoundedRead> Found;
  std::map<unsigned, std::string> Unbounded;

private:
  void walk(const Stmt *S, bool Certain) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S))
      return walkExpr(E, Certain);
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit(), Certain);
      walk(F->getCond(), Certain);
      std::optional<LoopRange> L = rangeOf(F);
      if (L) {
        Loops.push_back(*L);
        WithLoops.addLoopVariable(L->Var);
      }
      bool BodyCertain =
          Certain && L && L->Lo <= L->Hi && !hasJump(F->getBody());
      walk(F->getBody(), BodyCertain);
      walk(F->getInc(), false);
      if (L)
        Loops.pop_back();
      return;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body()) {
        if (hasJump(C))
          Certain = false;
        walk(C, Certain);
      }
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getCond(), Certain);
      // "Certain" is about the iteration where every loop variable is 0:
      // a bounds check of the neighbour's coordinates (`xx >= 0 && xx < w`)
      // passes there for a thread inside the guard.
      walk(If->getThen(), Certain && !If->getConditionVariable() &&
                              holdsAtCentre(If->getCond()));
      walk(If->getElse(), false);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          walk(V->getInit(), Certain);
      return;
    }
    // while, do, switch, ...: no range for their variables, no certainty.
    for (const Stmt *C : S->children())
      walk(C, false);
  }

  void walkExpr(const Expr *E, bool Certain) {
    if (const auto *B = dyn_cast<BinaryOperator>(E);
        B && (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr)) {
      walkExpr(B->getLHS(), Certain);
      walkExpr(B->getRHS(), false);
      return;
    }
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(E)) {
      walkExpr(C->getCond(), Certain);
      walkExpr(C->getTrueExpr(), false);
      walkExpr(C->getFalseExpr(), false);
      return;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      consider(A, Certain);
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        walkExpr(CE, Certain);
  }

  /// [b, e - 1] (or [b, e] for `<=`) of a counted loop with constant bounds
  /// whose body leaves its variable alone.
  std::optional<LoopRange> rangeOf(const ForStmt *F) const {
    std::optional<CanonicalFor> C = canonicalFor(F, Text.context());
    if (!C)
      return std::nullopt;
    std::optional<int64_t> B = evaluateInt(C->Begin, Text.context());
    std::optional<int64_t> End = evaluateInt(C->End, Text.context());
    if (!B || !End)
      return std::nullopt;
    for (const VarDecl *V : modifiedVariables(F->getBody()))
      if (V == C->Var)
        return std::nullopt;
    return LoopRange{C->Var, *B, C->Inclusive ? *End : *End - 1};
  }

  void consider(const ArraySubscriptExpr *A, bool Certain) {
    const auto *Base = dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
    const auto *P = Base ? dyn_cast<ParmVarDecl>(Base->getDecl()) : nullptr;
    if (!P || !P->getType()->isPointerType())
      return;
    const Expr *Index = A->getIdx();
    // Affine indices are the halo planner's own (the thread's element moved
    // by constants); moved by small loops' variables (`in[(y + dy) * w + x
    // + dx]`, `in[y * w + x + dx]`), which are not affine variables, an
    // index is a range like any other here.
    if (Affine.build(Index).Form)
      return;
    if (std::optional<AffineExpr> F = WithLoops.build(Index).Form)
      if (movedByLoops(*F, Text.span(A->getSourceRange()).BeginOffset, Certain))
        return;
    const ThreadIndexVar *X = M.indexVar("x"), *Y = M.indexVar("y");
    if (!X || M.indexVar("z"))
      return;
    ThreadMapping::BoundedRead R;
    R.Offset = Text.span(A->getSourceRange()).BeginOffset;
    if (!Y) {
      std::optional<Range> C = offsetOf(Index, X->Name, false);
      if (!C)
        return considerChoice(A, Index);
      std::optional<Range> C0 = offsetOf(Index, X->Name, true);
      R.Col = Text.text(Index);
      R.ColLo = C->Lo;
      R.ColHi = C->Hi;
      R.ReadsCentre = Certain && C0 && C0->Lo == 0 && C0->Hi == 0;
      Found.push_back(std::move(R));
      return;
    }
    // S * R + C, in any operand order.
    const auto *Add = dyn_cast<BinaryOperator>(stripCasts(Index));
    if (!Add || Add->getOpcode() != BO_Add)
      return considerChoice(A, Index);
    for (auto [Prod, Col] : {std::pair(Add->getLHS(), Add->getRHS()),
                             std::pair(Add->getRHS(), Add->getLHS())}) {
      const auto *Mul = dyn_cast<BinaryOperator>(stripCasts(Prod));
      if (!Mul || Mul->getOpcode() != BO_Mul)
        continue;
      for (auto [S, Row] : {std::pair(Mul->getLHS(), Mul->getRHS()),
                            std::pair(Mul->getRHS(), Mul->getLHS())}) {
        std::optional<AffineExpr> Stride = Affine.build(S).Form;
        if (!Stride || Stride->hasVariables())
          continue;
        std::optional<Range> RR = offsetOf(Row, Y->Name, false);
        std::optional<Range> CR = offsetOf(Col, X->Name, false);
        if (!RR || !CR)
          continue;
        std::optional<Range> R0 = offsetOf(Row, Y->Name, true);
        std::optional<Range> C0 = offsetOf(Col, X->Name, true);
        R.Row = Text.text(Row);
        R.Col = Text.text(Col);
        R.Stride = Stride->constantPart();
        R.RowLo = RR->Lo;
        R.RowHi = RR->Hi;
        R.ColLo = CR->Lo;
        R.ColHi = CR->Hi;
        R.ReadsCentre = Certain && R0 && C0 && R0->Lo == 0 && R0->Hi == 0 &&
                        C0->Lo == 0 && C0->Hi == 0;
        Found.push_back(std::move(R));
        return;
      }
    }
    considerChoice(A, Index);
  }

  /// F, an affine index, as the thread's element moved by constants and
  /// by variables of the loops around the read, each scaling a column (1,
  /// -1) or a row (the row stride, negated): the read's row and column are
  /// spelled with the index variables and those loop variables. False when
  /// F is not that.
  bool movedByLoops(const AffineExpr &F, unsigned ReadAt, bool Certain) {
    const ThreadIndexVar *X = M.indexVar("x"), *Y = M.indexVar("y");
    if (!X || M.indexVar("z"))
      return false;
    AffineExpr Thread = AffineExpr::constant(F.constantPart());
    std::vector<std::pair<const LoopRange *, SymPoly>> Moves;
    for (const auto &[Var, Coef] : F.coefficients()) {
      const LoopRange *L = nullptr;
      for (const LoopRange &R : Loops)
        if (R.Var->getName() == Var)
          L = &R;
      if (!L) {
        Thread = Thread + AffineExpr::variable(Var).scaled(Coef);
        continue;
      }
      if (M.AmbiguousNames.count(Var))
        return false;
      Moves.push_back({L, Coef});
    }
    std::optional<ElementOffset> At =
        Moves.empty() ? std::nullopt
                      : elementOffset(Thread, M, MaxNeighbourReach);
    if (!At)
      return false;
    ThreadMapping::BoundedRead R;
    R.Offset = ReadAt;
    R.Stride = At->Stride;
    R.RowLo = R.RowHi = At->DY;
    R.ColLo = R.ColHi = At->DX;
    R.Col = movedBy(X->Name, At->DX);
    if (Y)
      R.Row = movedBy(Y->Name, At->DY);
    bool ZeroRuns = true;
    for (const auto &[L, Coef] : Moves) {
      std::optional<int64_t> C = Coef.constantValue();
      bool Col = C && (*C == 1 || *C == -1);
      bool Row =
          !Col && Y && (Coef == At->Stride || Coef == At->Stride.negate());
      if (!Col && !Row)
        return false;
      bool Up = Col ? *C == 1 : Coef == At->Stride;
      int64_t Lo = Up ? L->Lo : -L->Hi, Hi = Up ? L->Hi : -L->Lo;
      (Col ? R.ColLo : R.RowLo) += Lo;
      (Col ? R.ColHi : R.RowHi) += Hi;
      (Col ? R.Col : R.Row) += (Up ? " + " : " - ") + L->Var->getNameAsString();
      ZeroRuns &= L->Lo <= 0 && 0 <= L->Hi;
    }
    R.ReadsCentre = Certain && ZeroRuns && At->DX == 0 && At->DY == 0;
    Found.push_back(std::move(R));
    return true;
  }

  /// One alternative of a chosen index, or a choice between two.
  struct Choice {
    const Expr *Cond = nullptr;
    std::unique_ptr<Choice> Then, Else;
    ElementOffset At; ///< a leaf's offset from the thread's element
  };

  /// A read whose index chooses, with `?:` (through locals that keep their
  /// initial value), among flattened indices of the thread's element and
  /// its neighbours: `index_s = (row == h - 1) ? index : index + w;
  /// in[index_s]`. Every alternative is affine, the thread's element moved
  /// by dy rows and dx columns. The read's row and column are then the same
  /// choice over `y + dy` and `x + dx`: the conditions read nothing the
  /// kernel changes, so evaluated at the read they choose as they did.
  /// The thread's own element is not counted as read (a condition picks it).
  void considerChoice(const ArraySubscriptExpr *A, const Expr *Index) {
    const unsigned ReadAt = Text.span(A->getSourceRange()).BeginOffset;
    unsigned Leaves = 0;
    ChoiceWhy.clear();
    std::unique_ptr<Choice> C = choice(Index, Leaves, 0);
    if (!C && !ChoiceWhy.empty())
      Unbounded[ReadAt] = ChoiceWhy;
    if (!C || !C->Cond)
      return; // one alternative is an affine index, not a choice
    const ThreadIndexVar *X = M.indexVar("x"), *Y = M.indexVar("y");
    // The read's row and column are spelled with the index variables.
    for (const ThreadIndexVar *V : {X, Y})
      if (V && M.AmbiguousNames.count(V->Name)) {
        Unbounded[ReadAt] = "its choice would be spelled with '" + V->Name +
                            "', a name the kernel declares for two variables";
        return;
      }
    ThreadMapping::BoundedRead R;
    R.Offset = ReadAt;
    R.RowLo = R.ColLo = INT64_MAX;
    R.RowHi = R.ColHi = INT64_MIN;
    bool StrideKnown = false;
    std::function<bool(const Choice &)> Hull = [&](const Choice &N) {
      if (N.Cond)
        return Hull(*N.Then) && Hull(*N.Else);
      if (StrideKnown && !(R.Stride == N.At.Stride))
        return false;
      R.Stride = N.At.Stride;
      StrideKnown = true;
      R.RowLo = std::min(R.RowLo, N.At.DY);
      R.RowHi = std::max(R.RowHi, N.At.DY);
      R.ColLo = std::min(R.ColLo, N.At.DX);
      R.ColHi = std::max(R.ColHi, N.At.DX);
      return true;
    };
    if (!Hull(*C))
      return;
    R.Col = spell(*C, X->Name, false, true);
    if (Y)
      R.Row = spell(*C, Y->Name, true, true);
    Found.push_back(std::move(R));
  }

  std::unique_ptr<Choice> choice(const Expr *E, unsigned &Leaves,
                                 unsigned Depth) {
    if (Depth > 16 || !E)
      return nullptr;
    if (std::optional<AffineExpr> F = Affine.build(E).Form) {
      std::optional<ElementOffset> At = elementOffset(*F, M, MaxNeighbourReach);
      if (!At)
        return choiceFails("the alternative", E,
                           "is not the thread's element moved by a constant "
                           "row and column");
      if (++Leaves > 8)
        return choiceFails("the alternative", E,
                           "is one of more than 8 alternatives");
      auto N = std::make_unique<Choice>();
      N->At = *At;
      return N;
    }
    E = stripCasts(E);
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
          Affine.isModified(V))
        return nullptr;
      return choice(V->getInit(), Leaves, Depth + 1);
    }
    const auto *C = dyn_cast<ConditionalOperator>(E);
    if (!C)
      return nullptr;
    if (C->getBeginLoc().isMacroID())
      return choiceFails("", C,
                         "is written in a macro, whose text the read's row "
                         "and column cannot reuse");
    if (!isPure(C->getCond()))
      return choiceFails("the condition", C->getCond(),
                         "reads memory, calls a function or changes a "
                         "variable: evaluated again at the read it may not "
                         "choose alike");
    for (const VarDecl *V : referencedVars(C->getCond())) {
      std::string Name = V->getNameAsString();
      if (Affine.isModified(V))
        return choiceFails("the condition", C->getCond(),
                           "reads '" + Name +
                               "', which the kernel changes: at the read it "
                               "may choose otherwise");
      if (M.AmbiguousNames.count(Name))
        return choiceFails("the condition", C->getCond(),
                           "reads '" + Name +
                               "', a name the kernel declares for two "
                               "variables");
    }
    auto N = std::make_unique<Choice>();
    N->Cond = C->getCond();
    N->Then = choice(C->getTrueExpr(), Leaves, Depth + 1);
    N->Else = choice(C->getFalseExpr(), Leaves, Depth + 1);
    if (!N->Then || !N->Else)
      return nullptr;
    return N;
  }

  /// Notes why the choice is not a bounded read (the first obstacle).
  std::nullptr_t choiceFails(StringRef Role, const Expr *E,
                             const std::string &Why) {
    if (ChoiceWhy.empty())
      ChoiceWhy =
          Role.empty()
              ? "its choice '" + Text.text(E->IgnoreParens()) + "' " + Why
              : Role.str() + " '" + Text.text(E->IgnoreParens()) +
                    "' of its choice " + Why;
    return nullptr;
  }

  /// The choice over `Idx + offset` (rows when Row, else columns), written
  /// as one `?:` per condition whose alternatives differ (parenthesized
  /// unless Outer).
  std::string spell(const Choice &N, StringRef Idx, bool Row, bool Outer) {
    if (!N.Cond)
      return movedBy(Idx, Row ? N.At.DY : N.At.DX);
    std::string T = spell(*N.Then, Idx, Row, false),
                F = spell(*N.Else, Idx, Row, false);
    if (T == F)
      return T;
    // A condition that is itself a choice (or a comma) keeps parentheses.
    const Expr *Cond = N.Cond->IgnoreParens();
    const auto *B = dyn_cast<BinaryOperator>(Cond);
    bool Low = isa<AbstractConditionalOperator>(Cond) ||
               (B && (B->isAssignmentOp() || B->isCommaOp()));
    std::string C = (Low ? "(" + Text.text(Cond) + ")" : Text.text(Cond)) +
                    " ? " + T + " : " + F;
    return Outer ? C : "(" + C + ")";
  }

  /// E's distance to the index variable Idx, when it is a constant range.
  /// AtZero: with every loop variable at 0 instead of its range.
  std::optional<Range> offsetOf(const Expr *E, StringRef Idx, bool AtZero) {
    std::optional<Range> R = range(E, Idx, AtZero, 0);
    if (!R || !R->Relative)
      return std::nullopt;
    return R;
  }

  std::optional<Range> range(const Expr *E, StringRef Idx, bool AtZero,
                             unsigned Depth) {
    if (Depth > 16 || !E)
      return std::nullopt;
    E = stripCasts(E);
    if (!E->getType()->isIntegerType())
      return std::nullopt;
    if (std::optional<int64_t> V = evaluateInt(E, Text.context()))
      return Range{false, *V, *V};
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      if (!V)
        return std::nullopt;
      for (const LoopRange &L : Loops)
        if (L.Var == V) {
          if (AtZero && (L.Lo > 0 || L.Hi < 0))
            return std::nullopt;
          return AtZero ? Range{false, 0, 0} : Range{false, L.Lo, L.Hi};
        }
      if (V->getName() == Idx && !Affine.isModified(V))
        return Range{true, 0, 0};
      // A local that keeps its initial value stands for it.
      if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
          !Affine.isModified(V))
        return range(V->getInit(), Idx, AtZero, Depth + 1);
      return std::nullopt;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      std::optional<Range> A = range(U->getSubExpr(), Idx, AtZero, Depth + 1);
      if (!A || A->Relative)
        return std::nullopt;
      if (U->getOpcode() == UO_Plus)
        return A;
      if (U->getOpcode() == UO_Minus)
        return Range{false, -A->Hi, -A->Lo};
      return std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub)
        return std::nullopt;
      std::optional<Range> L = range(B->getLHS(), Idx, AtZero, Depth + 1);
      std::optional<Range> R = range(B->getRHS(), Idx, AtZero, Depth + 1);
      if (!L || !R || (L->Relative && R->Relative))
        return std::nullopt;
      if (B->getOpcode() == BO_Add)
        return Range{L->Relative || R->Relative, L->Lo + R->Lo, L->Hi + R->Hi};
      if (R->Relative) // c - y moves against the index
        return std::nullopt;
      return Range{L->Relative, L->Lo - R->Hi, L->Hi - R->Lo};
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      if (!isPure(C->getCond()))
        return std::nullopt;
      std::optional<Range> T = range(C->getTrueExpr(), Idx, AtZero, Depth + 1);
      std::optional<Range> F =
          range(C->getFalseExpr(), Idx, AtZero, Depth + 1);
      if (!T || !F || T->Relative != F->Relative)
        return std::nullopt;
      return Range{T->Relative, std::min(T->Lo, F->Lo), std::max(T->Hi, F->Hi)};
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return minMax(Call, Idx, AtZero, Depth);
    return std::nullopt;
  }

  /// min(a, b) and max(a, b) (CUDA's, std::'s) of integers.
  std::optional<Range> minMax(const CallExpr *Call, StringRef Idx, bool AtZero,
                              unsigned Depth) {
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F || Call->getNumArgs() != 2 || !F->getIdentifier())
      return std::nullopt;
    StringRef Name = F->getName();
    if (Name != "min" && Name != "max")
      return std::nullopt;
    bool Min = Name == "min";
    const Expr *A = Call->getArg(0), *B = Call->getArg(1);
    std::optional<Range> RA = range(A, Idx, AtZero, Depth + 1);
    std::optional<Range> RB = range(B, Idx, AtZero, Depth + 1);
    if (RA && RB && RA->Relative == RB->Relative)
      return Min ? Range{RA->Relative, std::min(RA->Lo, RB->Lo),
                         std::min(RA->Hi, RB->Hi)}
                 : Range{RA->Relative, std::max(RA->Lo, RB->Lo),
                         std::max(RA->Hi, RB->Hi)};
    // One argument near the thread index, the other a bound on its side of
    // it: the result lies between the two, so at most the distance of the
    // near one, and on the bound's side at most 0.
    if (!RA || !RA->Relative) {
      std::swap(A, B);
      std::swap(RA, RB);
    }
    if (!RA || !RA->Relative)
      return std::nullopt;
    if (Min && atOrAbove(B, Idx))
      return Range{true, std::min<int64_t>(RA->Lo, 0), RA->Hi};
    if (!Min && atOrBelow(B, RB))
      return Range{true, RA->Lo, std::max<int64_t>(RA->Hi, 0)};
    return std::nullopt;
  }

  /// B >= the index wherever the guard holds: B is the guard's exclusive
  /// upper bound minus at most one (`h - 1` for `y < h`). Above: B > the
  /// index, B at least the bound itself.
  bool atOrAbove(const Expr *B, StringRef Idx, bool Above = false) {
    auto It = M.UpperBoundForms.find(Idx.str());
    if (It == M.UpperBoundForms.end())
      return false;
    std::optional<AffineExpr> F = Affine.build(B).Form;
    std::optional<ThreadMapping::BoundForm> Form =
        F ? boundFormOf(*F) : std::nullopt;
    return Form && Form->Symbol == It->second.Symbol &&
           Form->Offset >= It->second.Offset - (Above ? 0 : 1);
  }

  /// Cond holds, for a thread inside the guard, in the iteration where
  /// every loop variable is 0: a conjunction of comparisons of a coordinate
  /// that is then the thread's own index (`xx` = x + dx, `y + dy`) with a
  /// bound that index satisfies -- at most 0 below (a thread index is never
  /// negative), the guard's upper bound above (`xx < w` where the guard
  /// gives x < w).
  bool holdsAtCentre(const Expr *Cond) {
    const auto *B = dyn_cast<BinaryOperator>(stripCasts(Cond));
    if (!B)
      return false;
    if (B->getOpcode() == BO_LAnd)
      return holdsAtCentre(B->getLHS()) && holdsAtCentre(B->getRHS());
    if (!B->isRelationalOp())
      return false;
    for (const ThreadIndexVar &V : M.IndexVars) {
      // Coordinate on the left: c < b, c <= b, c > b, c >= b; on the
      // right the same with the comparison reversed.
      for (bool Left : {true, false}) {
        const Expr *C = Left ? B->getLHS() : B->getRHS();
        const Expr *Other = Left ? B->getRHS() : B->getLHS();
        std::optional<Range> At = offsetOf(C, V.Name, true);
        if (!At || At->Lo != 0 || At->Hi != 0)
          continue;
        BinaryOperatorKind Op =
            Left ? B->getOpcode()
                 : BinaryOperator::reverseComparisonOp(B->getOpcode());
        std::optional<Range> R = range(Other, V.Name, true, 0);
        switch (Op) {
        case BO_LT:
          return atOrAbove(Other, V.Name, /*Above=*/true);
        case BO_LE:
          return atOrAbove(Other, V.Name);
        case BO_GE:
          return atOrBelow(Other, R);
        case BO_GT:
          return R && !R->Relative && R->Hi <= -1;
        default:
          return false;
        }
      }
    }
    return false;
  }

  /// B <= the index: a constant at most 0 (a thread index is never
  /// negative).
  bool atOrBelow(const Expr *B, const std::optional<Range> &RB) {
    return RB && !RB->Relative && RB->Hi <= 0;
  }

  const SourceText &Text;
  AffineBuilder &Affine;
  /// Affine, with the variables of the counted loops seen so far as
  /// variables of the forms (movedByLoops takes only those of the loops
  /// around the read).
  AffineBuilder WithLoops;
  const ThreadMapping &M;
  std::vector<LoopRange> Loops;
  std::string ChoiceWhy;
};

} // namespace

void findBoundedReads(const SourceText &Text, AffineBuilder &Affine,
                      ThreadMapping &M, ArrayRef<const Stmt *> Work) {
  BoundedReadFinder F(Text, Affine, M);
  F.run(Work);
  M.BoundedReads = std::move(F.Found);
  M.UnboundedChoices = std::move(F.Unbounded);
}

std::optional<ElementOffset>
elementOffset(const AffineExpr &F, const ThreadMapping &M, int64_t MaxReach) {
  const ThreadIndexVar *X = M.indexVar("x"), *Y = M.indexVar("y");
  if (!X || M.indexVar("z"))
    return std::nullopt;
  // The index variables scale blockIdx.d by the block's extent (blockDim.d,
  // or the number every launch fixes it to).
  auto BlockScale = [&](const char *D) {
    auto It = M.IndexBlockScale.find(D);
    return It != M.IndexBlockScale.end()
               ? It->second
               : SymPoly::symbol(std::string("blockDim.") + D);
  };
  if (F.coefficient("threadIdx.x").constantValue() != 1 ||
      !(F.coefficient("blockIdx.x") == BlockScale("x")))
    return std::nullopt;
  const SymPoly &C = F.constantPart();
  if (!Y) {
    std::optional<int64_t> DX = C.constantValue();
    if (F.coefficients().size() != 2 || !DX)
      return std::nullopt;
    return ElementOffset{0, *DX, SymPoly()};
  }
  SymPoly S = F.coefficient("threadIdx.y");
  if (S.isZero() || !(F.coefficient("blockIdx.y") == S * BlockScale("y")) ||
      F.coefficients().size() != 4)
    return std::nullopt;
  if (std::optional<int64_t> SV = S.constantValue()) {
    std::optional<int64_t> V = C.constantValue();
    if (!V || *SV <= 2 * MaxReach)
      return std::nullopt;
    int64_t DY = (*V >= 0 ? *V + *SV / 2 : *V - *SV / 2) / *SV;
    return ElementOffset{DY, *V - DY * *SV, S};
  }
  // A symbolic stride (the row length parameter): C = dy*stride + dx.
  if (S.terms().size() != 1 || S.terms().begin()->second != 1)
    return std::nullopt;
  const SymPoly::Monomial &Row = S.terms().begin()->first;
  ElementOffset O{0, 0, S};
  for (const auto &[Mono, Coef] : C.terms()) {
    if (Mono.empty())
      O.DX = Coef;
    else if (Mono == Row)
      O.DY = Coef;
    else
      return std::nullopt;
  }
  return O;
}

} // namespace cro
