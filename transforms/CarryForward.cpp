#include "CarryForward.h"
#include "LaunchAliasing.h"
#include "LoopRegisters.h"
#include "ThreadRemap.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

using namespace llvm;

namespace cro {

namespace {

std::string spelled(const RewriteContext &Ctx, const AccessInfo &A) {
  return "'" + spanText(Ctx, A.Span) + "' at " + A.Location;
}

/// One array whose element stored in an iteration is read in the next: the
/// store, and the reads of the element one step back.
struct Carried {
  const AccessInfo *Store = nullptr;
  std::vector<const AccessInfo *> Reads;
  std::string Type;
};

struct LoopPlan {
  std::string Refusal; ///< "" when Elements can be carried
  std::vector<Carried> Elements;
};

class Planner {
public:
  Planner(const RewriteContext &Ctx, const KernelInfo &K)
      : Ctx(Ctx), K(K), Alias(launchAliasingReason(K)) {}

  LoopPlan plan(const LoopInfo &L) const {
    LoopPlan P;
    if (L.Kind != "for" || !L.StepValue || *L.StepValue == 0)
      return P; // no constant step: "one step back" means nothing
    std::vector<const AccessInfo *> In = accessesIn(K, L.Span);
    for (const AccessInfo *W : In) {
      // Only the body's accesses: the header's increment runs after the
      // register has moved on to this iteration's element.
      if (W->Mode == "read" || W->Mode == "atomic" || W->Loop != L.Id ||
          !within(W->Span, L.Body) || !movesWithCounter(*W, L))
        continue;
      AffineExpr Back = stepBack(*W, L);
      Carried C;
      C.Store = W;
      C.Type = unqualifiedType(W->ElementType);
      for (const AccessInfo *R : In)
        if (R->Mode == "read" && R->Base == W->Base && R->Direct &&
            within(R->Span, L.Body) && R->Indices.size() == 1 &&
            R->Indices[0].Affine && R->Indices[0].Form == Back)
          C.Reads.push_back(R);
      if (!C.Reads.empty())
        P.Elements.push_back(std::move(C));
    }
    if (P.Elements.empty())
      return P;
    P.Refusal = refusal(L, P.Elements, In);
    return P;
  }

  /// The index of W one step of L's counter back: the element the previous
  /// iteration stored.
  static AffineExpr stepBack(const AccessInfo &W, const LoopInfo &L) {
    const AffineExpr &F = W.Indices[0].Form;
    return F - AffineExpr::constant(F.coefficient(L.InductionVar) *
                                    SymPoly::constant(*L.StepValue));
  }

private:
  /// `p[index]` written in place, with an affine index that moves with L's
  /// counter and is otherwise fixed while L runs: builtins, counters of the
  /// loops around L, symbols fixed for the launch.
  bool movesWithCounter(const AccessInfo &A, const LoopInfo &L) const {
    if (!A.Direct || A.Space != "global" || A.Indices.size() != 1 ||
        !A.Indices[0].Affine || StringRef(A.ElementType).contains("volatile"))
      return false;
    StringRef Spelled = Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset);
    if (!Spelled.starts_with(A.Base) || !Spelled.ends_with("]"))
      return false;
    const AffineExpr &F = A.Indices[0].Form;
    if (F.coefficient(L.InductionVar).isZero())
      return false;
    for (const auto &[Var, Coef] : F.coefficients()) {
      if (Var != L.InductionVar && !enclosingCounter(K, Var, L) &&
          !StringRef(Var).starts_with("threadIdx.") &&
          !StringRef(Var).starts_with("blockIdx."))
        return false;
      if (!fixedForLaunch(K, Coef))
        return false;
    }
    return fixedForLaunch(K, F.constantPart());
  }

  bool mayAlias(StringRef Array, StringRef Other, bool Known) const {
    return cro::mayAlias(Ctx, K, Array, Other, Known && Alias.empty());
  }

  std::string refusal(const LoopInfo &L, const std::vector<Carried> &Elements,
                      const std::vector<const AccessInfo *> &In) const {
    std::string Loop = "loop " + L.Id + ": ";
    for (const std::string &Change : L.BodyChanges)
      if (StringRef(Change).starts_with("'" + L.InductionVar + "'"))
        return Loop + "the body changes the counter (" + Change +
               "), so the next iteration's element one step back is not the "
               "one this iteration stores";
    if (L.ContainsCommunication)
      return Loop + "threads synchronize or exchange data inside (a barrier, "
                    "a warp intrinsic or inline assembly): another thread may "
                    "write the element between two iterations";
    StringRef Body = Ctx.Source.slice(L.Body.BeginOffset, L.Body.EndOffset);
    for (StringRef Skip : {"continue", "goto"})
      if (!findIdentifier(Body, 0, Body.size(), Skip).empty())
        return Loop + "the body uses '" + Skip.str() +
               "': an iteration may skip the store the next one reads";
    for (const Carried &C : Elements) {
      const AccessInfo &W = *C.Store;
      // The store runs in every iteration, so the next one always reads
      // what it stored.
      if (W.SkippableBy.BeginOffset != L.Span.BeginOffset ||
          W.SkippableBy.EndOffset != L.Span.EndOffset)
        return Loop + "the store " + spelled(Ctx, W) +
               " is skipped by a branch in some iterations, so the next "
               "iteration may read an element stored before the loop";
      // The store's expression starts at the element (`y[k] = v`) or at a
      // prefix `++`/`--` right before it, so wrapping it wraps exactly the
      // store.
      StringRef Before =
          W.StoredFrom <= W.Span.BeginOffset
              ? Ctx.Source.slice(W.StoredFrom, W.Span.BeginOffset).trim()
              : "?";
      if (!W.StoreYieldsElement || W.StoredAt < W.Span.EndOffset ||
          !(Before.empty() || Before == "++" || Before == "--"))
        return Loop + "the store " + spelled(Ctx, W) +
               " is a postfix increment or an overloaded operator: the "
               "expression's value is not the element it stores";
      if (std::string Why = escapedAliasRefusal(Ctx, K, W.Base, "written");
          !Why.empty())
        return Loop + Why;
      for (const AccessInfo *A : In) {
        if (A == &W || A->Mode == "read")
          continue;
        if (A->Base != W.Base &&
            !mayAlias(A->Base, W.Base, A->Space != "unknown"))
          continue;
        return Loop + spelled(Ctx, *A) + " may write the element " +
               spelled(Ctx, *C.Reads.front()) + " reads" +
               (A->Base == W.Base ? "" : " (" + Alias + ")") +
               ", which a register carried from the iteration before would "
               "not see";
      }
    }
    return "";
  }

  const RewriteContext &Ctx;
  const KernelInfo &K;
  std::string Alias;
};

} // namespace

void CarryForward::describe(const RewriteContext &Ctx, const KernelInfo &K,
                            KnobSink &Out) const {
  Planner P(Ctx, K);
  offerPerLoop(
      K, Out, "carry_forward",
      [&](const LoopInfo &L) {
        LoopPlan Plan = P.plan(L);
        return LoopVerdict{!Plan.Elements.empty(), Plan.Refusal};
      },
      "no loop reads a global element that its previous iteration stores");
}

Error CarryForward::apply(const RewriteContext &Ctx, const Knob &Kn,
                          const json::Value &V, const ResolvedConfig &,
                          EditSet &Out) const {
  if (V != json::Value(true))
    return Error::success();
  const KernelInfo *K = kernelOf(Ctx, Kn);
  const LoopInfo *L = K ? loopOf(*K, Kn) : nullptr;
  if (!L)
    return makeToolError(ExitCode::Internal, "no loop for knob " + Kn.Id);
  LoopPlan P = Planner(Ctx, *K).plan(*L);
  if (!P.Refusal.empty() || P.Elements.empty())
    return makeToolError(ExitCode::Internal,
                         "knob " + Kn.Id + " has no plan: " + P.Refusal);
  StringRef Src = Ctx.Source;
  const std::string &Ind = L->Indent;
  // Whether an iteration has run: the first one reads memory (where the
  // original reads it), every later one the register.
  std::string Ran = freshIdentifier(Src, L->InductionVar + "_carried");
  std::string Pre = Ind + "{ // cuda-rewrite-opt: ";
  for (size_t N = 0; N < P.Elements.size(); ++N)
    Pre += (N ? ", " : "") + spanText(Ctx, P.Elements[N].Reads.front()->Span);
  Pre += " carried in a register from the iteration that stores it\n";
  Pre += Ind + "bool " + Ran + " = false;\n";
  std::string Rotate;
  for (const Carried &C : P.Elements) {
    std::string Prev = freshIdentifier(Src, C.Store->Base + "_prev");
    std::string Next = freshIdentifier(Src, C.Store->Base + "_next");
    Pre += Ind + C.Type + " " + Prev + ", " + Next + ";\n";
    Rotate += Prev + " = " + Next + ";\n";
    // The value stored, as the store's expression yields it.
    if (Error E = Out.insert(C.Store->StoredFrom, "(" + Next + " = ("))
      return E;
    if (Error E = Out.insert(C.Store->StoredAt, "))"))
      return E;
    for (const AccessInfo *R : C.Reads)
      if (Error E = Out.replace(
              R->Span.BeginOffset, R->Span.EndOffset - R->Span.BeginOffset,
              "(" + Ran + " ? " + Prev + " : " + spanText(Ctx, R->Span) + ")"))
        return E;
  }
  Rotate += Ran + " = true;\n";
  if (Error E = insertBeforeLoop(Src, *L, Pre, Out))
    return E;
  // At the end of every iteration (nothing skips to the next one): the
  // element stored becomes the one the next iteration reads.
  std::string Inner = Ind + "  ";
  std::string RotateText;
  for (StringRef Line : split(StringRef(Rotate).rtrim('\n'), '\n'))
    RotateText += Inner + Line.str() + "\n";
  unsigned BodyEnd = L->Body.EndOffset;
  if (Src.slice(L->Body.BeginOffset, BodyEnd).starts_with("{")) {
    unsigned Close = BodyEnd - 1;
    unsigned CloseLine = lineStart(Src, Close);
    if (Src.slice(CloseLine, Close).trim(" \t").empty()) {
      if (Error E = Out.insert(CloseLine, RotateText))
        return E;
    } else if (Error E = Out.insert(Close, "\n" + RotateText + Ind)) {
      return E;
    }
  } else {
    // A body without braces gets them, after the header.
    unsigned BodyLine = lineStart(Src, L->Body.BeginOffset);
    if (Src.slice(BodyLine, L->Body.BeginOffset).trim(" \t").empty()) {
      RotateText.clear();
      std::string Own = Src.slice(BodyLine, L->Body.BeginOffset).str();
      for (StringRef Line : split(StringRef(Rotate).rtrim('\n'), '\n'))
        RotateText += Own + Line.str() + "\n";
    }
    if (Error E = Out.insert(L->Header.EndOffset, " {"))
      return E;
    if (Error E = Out.insert(BodyEnd, "\n" + RotateText + Ind + "}"))
      return E;
  }
  return Out.insert(std::max(L->Span.EndOffset, BodyEnd), "\n" + Ind + "}");
}

} // namespace cro
