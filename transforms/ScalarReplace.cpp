#include "ScalarReplace.h"
#include "LaunchAliasing.h"
#include "LoopRegisters.h"
#include "ThreadRemap.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
#include <algorithm>

using namespace llvm;

namespace cro {

namespace {

std::string spelled(const RewriteContext &Ctx, const AccessInfo &A) {
  return "'" + Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset).str() +
         "' at " + A.Location;
}

/// One global element the loop reads and writes at an index it does not
/// change: held in a register across the loop.
struct Element {
  std::string Array, Type, Key;
  AffineExpr Index;
  bool Read = false;
  std::vector<const AccessInfo *> Accesses;
};

struct LoopPlan {
  std::string Refusal; ///< "" when Elements can be replaced
  std::vector<Element> Elements;
};

class Planner {
public:
  Planner(const RewriteContext &Ctx, const KernelInfo &K)
      : Ctx(Ctx), K(K), Alias(launchAliasingReason(K)) {}

  LoopPlan plan(const LoopInfo &L) const {
    LoopPlan P;
    std::vector<const AccessInfo *> In = accessesIn(K, L.Span);
    for (const AccessInfo *A : In) {
      if (!candidate(*A, L))
        continue;
      std::string Key = A->Base + "[" + A->Indices[0].Form.str() + "]";
      auto It = std::find_if(P.Elements.begin(), P.Elements.end(),
                             [&](const Element &E) { return E.Key == Key; });
      if (It == P.Elements.end()) {
        Element E;
        E.Array = A->Base;
        E.Type = unqualifiedType(A->ElementType);
        E.Key = Key;
        E.Index = A->Indices[0].Form;
        P.Elements.push_back(E);
        It = P.Elements.end() - 1;
      }
      It->Accesses.push_back(A);
      It->Read |= A->Mode != "write";
    }
    // Only elements the loop writes: a read-only one gains nothing here.
    llvm::erase_if(P.Elements, [](const Element &E) {
      return std::none_of(
          E.Accesses.begin(), E.Accesses.end(),
          [](const AccessInfo *A) { return A->Mode != "read"; });
    });
    if (P.Elements.empty())
      return P;
    P.Refusal = refusal(L, P.Elements, In);
    return P;
  }

private:
  /// `p[index]` on a pointer parameter with an affine index the loop does
  /// not change: every variable of the index is a builtin or the counter of
  /// an enclosing loop, every symbol fixed for the launch.
  bool candidate(const AccessInfo &A, const LoopInfo &L) const {
    if (!A.Direct || A.Space != "global" || A.Indices.size() != 1 ||
        !A.Indices[0].Affine || A.Mode == "atomic" ||
        StringRef(A.ElementType).contains("volatile"))
      return false;
    StringRef Spelled = Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset);
    if (!Spelled.starts_with(A.Base) || !Spelled.ends_with("]"))
      return false;
    const AffineExpr &F = A.Indices[0].Form;
    for (const auto &[Var, Coef] : F.coefficients()) {
      if (!enclosingCounter(K, Var, L) &&
          !StringRef(Var).starts_with("threadIdx.") &&
          !StringRef(Var).starts_with("blockIdx."))
        return false;
      if (!fixedForLaunch(K, Coef))
        return false;
    }
    return fixedForLaunch(K, F.constantPart());
  }

  /// Whether an access to Array (a parameter, or memory the model cannot
  /// name when Known is false) may be an access to Other's memory.
  bool mayAlias(StringRef Array, StringRef Other, bool Known) const {
    return cro::mayAlias(Ctx, K, Array, Other, Known && Alias.empty());
  }

  std::string refusal(const LoopInfo &L, const std::vector<Element> &Elements,
                      const std::vector<const AccessInfo *> &In) const {
    std::string Loop = "loop " + L.Id + ": ";
    // Loaded before the loop and stored after it only when the loop runs,
    // which its start and bound, evaluated once more, must tell.
    if (L.Kind != "for")
      return Loop + "a " + L.Kind +
             " loop: whether it runs at all is not known before it starts";
    if (!L.StripMineRefusal.empty())
      return Loop + L.StripMineRefusal;
    if (!L.InitForm || L.Bound.empty() ||
        !findIdentifier(L.Bound, 0, L.Bound.size(), L.InductionVar).empty())
      return Loop + "its start '" + L.Init + "' or bound '" + L.Bound +
             "' cannot be evaluated again before the loop";
    if (L.ContainsCommunication)
      return Loop + "threads synchronize or exchange data inside (a barrier, "
                    "a warp intrinsic or inline assembly): another thread may "
                    "read the element between two iterations";
    StringRef Body = Ctx.Source.slice(L.Body.BeginOffset, L.Body.EndOffset);
    for (StringRef Leave : {"return", "continue"})
      if (!findIdentifier(Body, 0, Body.size(), Leave).empty())
        return Loop + "the body uses '" + Leave.str() +
               "': an iteration may skip the element, or the loop end before "
               "the store after it";
    for (const Element &E : Elements) {
      // Some access of the element runs in every iteration: it lies inside
      // its array whenever the loop runs.
      bool EveryIteration = std::any_of(
          E.Accesses.begin(), E.Accesses.end(), [&](const AccessInfo *A) {
            return A->SkippableBy.BeginOffset == L.Span.BeginOffset &&
                   A->SkippableBy.EndOffset == L.Span.EndOffset;
          });
      if (!EveryIteration)
        return Loop + spelled(Ctx, *E.Accesses.front()) +
               " is skipped by a branch in some iterations, so the element "
               "is not known to lie inside its array";
      if (std::string Why = escapedAliasRefusal(Ctx, K, E.Array); !Why.empty())
        return Loop + Why;
      for (const AccessInfo *A : In) {
        if (llvm::is_contained(E.Accesses, A))
          continue;
        if (A->Base == E.Array && A->Indices.size() == 1 &&
            A->Indices[0].Affine) {
          std::optional<int64_t> By =
              constantDifference(A->Indices[0].Form, E.Index);
          if (By && *By != 0)
            continue; // another element, in every iteration
        }
        if (A->Base != E.Array &&
            !mayAlias(A->Base, E.Array, A->Space != "unknown"))
          continue;
        return Loop + spelled(Ctx, *A) + " may access the element " +
               spelled(Ctx, *E.Accesses.front()) + " accesses" +
               (A->Base == E.Array ? "" : " (" + Alias + ")") +
               ", which a register would hide from it";
      }
    }
    return "";
  }

  const RewriteContext &Ctx;
  const KernelInfo &K;
  std::string Alias;
};

} // namespace

void ScalarReplace::describe(const RewriteContext &Ctx, const KernelInfo &K,
                             KnobSink &Out) const {
  Planner P(Ctx, K);
  offerPerLoop(
      K, Out, "scalar_replace",
      [&](const LoopInfo &L) {
        LoopPlan Plan = P.plan(L);
        return LoopVerdict{!Plan.Elements.empty(), Plan.Refusal};
      },
      "no loop reads and writes a global element at an index the loop does "
      "not change");
}

Error ScalarReplace::apply(const RewriteContext &Ctx, const Knob &Kn,
                           const json::Value &V, const ResolvedConfig &Config,
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
  std::string Runs = freshIdentifier(Src, L->InductionVar + "_loop_runs");
  // The loop as a block: the elements in registers for the whole loop,
  // loaded before it and stored after it only when it runs (then some
  // access of each element runs, so it lies inside its array).
  std::string Pre = Ind + "{ // cuda-rewrite-opt: ";
  for (size_t N = 0; N < P.Elements.size(); ++N)
    Pre += (N ? ", " : "") + P.Elements[N].Array + "[" +
           indexText(P.Elements[N].Index, K->Mapping) + "]";
  Pre += " held in a register across the loop\n";
  Pre += Ind + "const bool " + Runs + " = (" + L->Init + ") " + L->Compare +
         " (" + L->Bound + ");\n";
  std::vector<std::string> Reg;
  std::string Post;
  for (const Element &E : P.Elements) {
    Reg.push_back(freshIdentifier(Src, E.Array + "_reg"));
    std::string At = E.Array + "[" + indexText(E.Index, K->Mapping) + "]";
    Pre += Ind + E.Type + " " + Reg.back() + ";\n";
    if (E.Read)
      Pre += Ind + "if (" + Runs + ")\n" + Ind + "  " + Reg.back() + " = " +
             At + ";\n";
    Post += Ind + "if (" + Runs + ")\n" + Ind + "  " + At + " = " + Reg.back() +
            ";\n";
  }
  if (Error E = insertBeforeLoop(Src, *L, Pre, Out))
    return E;
  for (size_t N = 0; N < P.Elements.size(); ++N)
    for (const AccessInfo *A : P.Elements[N].Accesses)
      if (Error E =
              Out.replace(A->Span.BeginOffset,
                          A->Span.EndOffset - A->Span.BeginOffset, Reg[N]))
        return E;
  return Out.insert(L->Body.EndOffset, "\n" + Post + Ind + "}");
}

} // namespace cro
