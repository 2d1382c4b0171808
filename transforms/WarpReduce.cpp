#include "WarpReduce.h"
#include "Coarsen.h"
#include "LaunchAliasing.h"
#include "ReductionNest.h"
#include "ThreadRemap.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/TextLines.h"
#include "cro/Support/ToolError.h"
#include <algorithm>

using namespace llvm;

namespace cro {

namespace {

/// Whether __shfl_down_sync takes T (a template kernel's sum: each of
/// its instantiated types, ", "-separated).
bool shuffleable(StringRef T) {
  static const char *Types[] = {
      "int",       "unsigned int",       "long",  "unsigned long",
      "long long", "unsigned long long", "float", "double"};
  SmallVector<StringRef, 2> Each;
  T.split(Each, ", ");
  for (StringRef E : Each)
    if (llvm::none_of(Types, [&](const char *X) { return E == X; }))
      return false;
  return !Each.empty();
}

struct Plan {
  std::string Refusal;
  const ThreadIndexVar *X = nullptr;
  /// The loops the lanes share: the work's one loop, or its loops in
  /// sequence (per-row statistics), between which every lane runs the
  /// work's statements with every loop's sum in every lane.
  std::vector<const LoopInfo *> Loops;
  /// Per loop: it sums nothing but writes an element of its own per
  /// iteration (layer normalization's `y[r * cols + c] = ...` after the
  /// mean and variance): the lanes split its iterations, with no sum to add.
  std::vector<bool> Maps;
  /// After each loop, the work's statements up to the next loop; after the
  /// last, what lane 0 alone runs (empty spans when there are none).
  std::vector<SourceSpan> Afters;
  /// The sum is a global element (LoopInfo::AccumulatedElement): its
  /// accesses in the loop, and the statements before the loop that write
  /// it (lane 0 alone runs them).
  const AccessInfo *Element = nullptr;
  std::vector<SourceSpan> ElementWrites;
};

/// Why the lanes of a group may not split loop L, which sums nothing, each
/// taking every G-th iteration ("" when they may): every iteration must
/// write elements of its own (a single index whose coefficient on the loop
/// variable is a nonzero constant) and read what the loop writes only at
/// the element it writes, through no pointer that may point into it.
std::string mapLoopRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                           const LoopInfo &L) {
  for (const LoopInfo &Inner : K.Loops)
    if (&Inner != &L && within(Inner.Span, L.Span))
      return "loop " + L.Id + " writes memory and holds loop " + Inner.Id +
             ", whose iterations could write one element twice";
  std::vector<const AccessInfo *> Writes;
  for (const AccessInfo &A : K.Accesses) {
    if (!within(A.Span, L.Span) || A.Space == "local" || A.Mode == "read")
      continue;
    std::string Text =
        Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset).str();
    if (A.Mode == "atomic")
      return "loop " + L.Id + " updates '" + Text + "' atomically";
    std::optional<int64_t> Step =
        A.Indices.size() == 1 && A.Indices[0].Affine
            ? A.Indices[0].Form.coefficient(L.InductionVar).constantValue()
            : std::nullopt;
    if (!Step || *Step == 0)
      return "'" + Text + "' at " + A.Location + " is written by loop " + L.Id +
             " at an index that does not change by a constant with '" +
             L.InductionVar + "', so two lanes could write one element";
    Writes.push_back(&A);
  }
  if (Writes.empty())
    return "loop " + L.Id + " neither sums nor writes memory";
  std::string Alias = launchAliasingReason(K);
  auto ParamOf = [&](StringRef Name) -> const ParamInfo * {
    for (const ParamInfo &Pm : K.Params)
      if (Pm.Name == Name)
        return &Pm;
    return nullptr;
  };
  for (const AccessInfo &A : K.Accesses) {
    if (!within(A.Span, L.Span) || A.Space == "local" || A.Mode != "read")
      continue;
    for (const AccessInfo *W : Writes) {
      if (A.Base == W->Base) {
        if (!sameElement(A, *W))
          return "loop " + L.Id + " reads '" + A.Base + "' at " + A.Location +
                 " at another element than it writes, which another lane "
                 "may write first";
        continue;
      }
      const ParamInfo *AP = ParamOf(A.Base), *WP = ParamOf(W->Base);
      bool Distinct = Ctx.Options.AssumeNoAlias || Alias.empty() ||
                      (AP && WP && AP->IsRestrict && WP->IsRestrict);
      if (!Distinct)
        return "'" + A.Base + "' may point into '" + W->Base + "' (" + Alias +
               "), which loop " + L.Id +
               " writes while its lanes read; pass --assume-no-alias if "
               "they never overlap";
    }
  }
  return "";
}

Plan plan(const RewriteContext &Ctx, const KernelInfo &K) {
  Plan P;
  const ThreadMapping &M = K.Mapping;
  auto Fail = [&](std::string Why) {
    P.Refusal = std::move(Why);
    return P;
  };
  if (std::string Why = remapRefusalBesidesBuiltins(K); !Why.empty())
    return Fail(Why);
  if (std::string Why = strayBuiltinRefusal(K, "x"); !Why.empty())
    return Fail(Why);
  if (K.UsesAtomics)
    return Fail("the kernel updates memory atomically");
  P.X = M.indexVar("x");
  if (!P.X)
    return Fail("the kernel has no thread index along x, whose threads a "
                "group of lanes would replace");
  if (M.GuardKind != "none" && !M.GuardIsBox && !M.GuardWithoutSideEffects)
    return Fail("the guard '" + M.GuardCondition +
                "' has side effects, and every lane of a group evaluates it");
  // The group's lanes must sit in one warp: the blocks' x extent a
  // multiple of 32 at every launch (apply checks a block-size knob's).
  if (K.Launches.empty())
    return Fail("the kernel is never launched in this file");
  for (const LaunchSite &L : K.Launches) {
    const ValueOrigin *B = L.Block.Dims.empty() ? nullptr : &L.Block.Dims[0];
    if (!B || !B->Value || *B->Value % 32 != 0)
      return Fail("the block's x extent at " + L.Location + " ('" +
                  L.Block.Text +
                  "') is not known to be a multiple of 32, so "
                  "a group of lanes could straddle two warps");
  }
  if (std::string Why = gridStrideShrinkRefusal(Ctx, K, "x", "multiply");
      !Why.empty())
    return Fail(Why);
  if (M.Reduction) {
    P.Loops = {loopNamed(K, M.Reduction->Loop)};
    P.Afters = {M.Reduction->After};
  } else if (!M.SequentialLoops.empty()) {
    for (const std::string &Id : M.SequentialLoops)
      P.Loops.push_back(loopNamed(K, Id));
    P.Afters = M.AfterEachLoop;
  } else {
    return Fail("the guarded work has no loop among its statements for the "
                "lanes to share");
  }
  if (llvm::is_contained(P.Loops, nullptr))
    return Fail("the work's loop is not modelled");
  for (const LoopInfo *Each : P.Loops) {
    const LoopInfo &L = *Each;
    // A loop after the last sum that writes an element per iteration.
    bool SumsBefore = llvm::any_of(P.Loops, [&](const LoopInfo *O) {
      return O->Span.BeginOffset < L.Span.BeginOffset &&
             !O->Accumulator.empty();
    });
    if (SumsBefore && L.Accumulator.empty() && L.AccumulatedElement.empty() &&
        L.BodyChanges.empty()) {
      if (std::string Why = mapLoopRefusal(Ctx, K, L); !Why.empty())
        return Fail(Why);
      P.Maps.push_back(true);
      continue;
    }
    P.Maps.push_back(false);
    if (!L.StripMineRefusal.empty() || L.StartValue.EndOffset == 0)
      return Fail("loop " + L.Id + " at " + L.Location +
                  " cannot give each lane every G-th iteration: " +
                  (L.StripMineRefusal.empty() ? std::string("no start value")
                                              : L.StripMineRefusal));
    if (!L.BodyExit.empty())
      return Fail("loop " + L.Id + " ends an iteration early (" + L.BodyExit +
                  ")");
    if (L.ContainsCommunication)
      return Fail("threads exchange values inside loop " + L.Id);
    if (L.Accumulator.empty() && L.AccumulatedElement.empty())
      return Fail("the body of loop " + L.Id + " at " + L.Location +
                  " does not only add to (or take a maximum or minimum into) "
                  "one variable declared outside it, or add to one global "
                  "element" +
                  (L.BodyChanges.empty()
                       ? std::string("")
                       : " (it changes " + L.BodyChanges.front() + ")"));
    if (L.Accumulator.empty() && P.Loops.size() > 1)
      return Fail("loop " + L.Id + " adds to the global element '" +
                  L.AccumulatedElement +
                  "', and the work has other loops after or before it: "
                  "only sums in registers are shared across several loops");
    if (!L.Accumulator.empty() && !shuffleable(L.AccumulatorType))
      return Fail("the reduction '" + L.Accumulator + "' is a " +
                  L.AccumulatorType + ", which warp shuffles do not carry");
  }
  // Sums first, then the loops that write: the lanes' writes must not be
  // read by a later sum.
  for (size_t I = 1; I < P.Loops.size(); ++I)
    if (P.Maps[I - 1] && !P.Maps[I])
      return Fail("loop " + P.Loops[I]->Id + " sums after loop " +
                  P.Loops[I - 1]->Id +
                  " writes memory, which its lanes could read before another "
                  "lane wrote it");
  const LoopInfo &L = *P.Loops.back();
  if (L.Accumulator.empty() && !L.AccumulatedElement.empty()) {
    for (const AccessInfo &A : K.Accesses)
      if (!L.AccumulatedSites.empty() &&
          A.Span.BeginOffset == L.AccumulatedSites.front().BeginOffset)
        P.Element = &A;
    if (!P.Element || P.Element->Indices.size() != 1 ||
        !P.Element->Indices[0].Affine)
      return Fail("the element '" + L.AccumulatedElement + "' loop " + L.Id +
                  " adds to is not modelled as an affine "
                  "access");
    if (L.Init.empty() || L.Bound.empty() || L.Compare.empty())
      return Fail("loop " + L.Id +
                  "'s start or bound is not known, and "
                  "the element is read before it only where it runs");
    // The other arrays the loop reads must not be the element's: the sum
    // moves to a register, which a read through another pointer would miss.
    std::string Alias = launchAliasingReason(K);
    for (const AccessInfo &A : K.Accesses)
      if (within(A.Span, L.Span) && A.Base != P.Element->Base &&
          mayAlias(Ctx, K, A.Base, P.Element->Base, Alias.empty()))
        return Fail("'" + A.Base + "' may point into '" + P.Element->Base +
                    "' (" + Alias + "), and the sum of '" +
                    L.AccumulatedElement +
                    "' moves to a register; pass "
                    "--assume-no-alias if they never overlap");
  }
  // Memory: the loops only read; every lane runs the work before the last
  // one, so that writes nothing; nothing the model cannot see may be
  // written.
  for (const AccessInfo &A : K.Accesses) {
    if (A.Space == "local")
      continue;
    bool InLoop = llvm::any_of(P.Loops, [&](const LoopInfo *Each) {
      return within(A.Span, Each->Span);
    });
    bool InMap = false;
    for (size_t I = 0; I < P.Loops.size(); ++I)
      InMap |= P.Maps[I] && within(A.Span, P.Loops[I]->Span);
    if (InMap)
      continue; // mapLoopRefusal judged it
    if (P.Element && sameElement(A, *P.Element) &&
        A.Span.BeginOffset < L.Span.BeginOffset) {
      // The element before the loop: only in statements of the work that
      // start by writing it (`x1[i] = 0;`, `x1[i] = beta * x1[i];`), which
      // lane 0 alone runs; any other access would race with that write.
      bool Own = false;
      for (const SourceSpan &S : M.Reduction->BeforeStatements) {
        if (!within(A.Span, S))
          continue;
        for (const AccessInfo &B : K.Accesses)
          if (B.Span.BeginOffset == S.BeginOffset && B.Mode != "read" &&
              sameElement(B, *P.Element)) {
            Own = true;
            if (llvm::find_if(P.ElementWrites, [&](const SourceSpan &W) {
                  return W.BeginOffset == S.BeginOffset;
                }) == P.ElementWrites.end())
              P.ElementWrites.push_back(S);
          }
      }
      if (!Own)
        return Fail("'" + L.AccumulatedElement + "' is accessed before loop " +
                    L.Id + " at " + A.Location +
                    " other than by a statement "
                    "of its own, which every lane of a group would run");
      continue;
    }
    if (A.Mode == "read")
      continue;
    if (P.Element && InLoop &&
        std::any_of(L.AccumulatedSites.begin(), L.AccumulatedSites.end(),
                    [&](const SourceSpan &S) {
                      return S.BeginOffset == A.Span.BeginOffset;
                    }))
      continue;
    if (InLoop || A.Span.BeginOffset < L.Span.BeginOffset)
      return Fail("'" +
                  Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset).str() +
                  "' at " + A.Location + " writes memory " +
                  (InLoop ? "inside the loop, which the lanes would split"
                   : P.Loops.size() > 1
                       ? "before the last of the work's loops, where every "
                         "lane of a group would write it"
                       : "before the loop, where every lane of a group "
                         "would write it"));
  }
  for (const ParamInfo &Pm : K.Params)
    if (Pm.IsPointer && Pm.Access == "unknown" && !Pm.PointeeConst)
      return Fail("'" + Pm.Name + "' escapes the analysis (" + Pm.EscapeReason +
                  "), and what it writes would be written "
                  "by every lane");
  // Each lane ends a loop with its own value of the loop variable: nothing
  // after the loop may read it (a later loop that counts with the same
  // variable sets it first).
  auto Reads = [&](const SourceSpan &S, StringRef Var) {
    StringRef T = Ctx.Source.slice(S.BeginOffset, S.EndOffset);
    return !findIdentifier(T, 0, T.size(), Var).empty();
  };
  for (size_t I = 0; I < P.Loops.size(); ++I) {
    const LoopInfo &Each = *P.Loops[I];
    bool Read = false;
    for (size_t J = I; J < P.Afters.size(); ++J)
      Read |= Reads(P.Afters[J], Each.InductionVar);
    for (size_t J = I + 1; J < P.Loops.size(); ++J)
      Read |= P.Loops[J]->InductionVar != Each.InductionVar &&
              Reads(P.Loops[J]->Span, Each.InductionVar);
    if (Read)
      return Fail("the work after loop " + Each.Id + " reads '" +
                  Each.InductionVar +
                  "', whose final value each lane would have its own of");
  }
  return P;
}

/// Lane l of a group of G takes iterations l, l + G, ... of L.
Error splitIterations(const LoopInfo &L, int64_t G, const std::string &Lane,
                      EditSet &Out) {
  if (Error E = Out.insert(L.StartValue.BeginOffset, "("))
    return E;
  if (Error E = Out.insert(L.StartValue.EndOffset, ") + " + Lane))
    return E;
  return Out.replace(L.Increment.BeginOffset,
                     L.Increment.EndOffset - L.Increment.BeginOffset,
                     L.InductionVar + " += " + std::to_string(G));
}

/// The edits of a loop that writes an element per iteration (Plan::Maps):
/// lane l takes iterations l, l + G, ...; the group's lanes meet after it
/// (__syncwarp, which also orders their writes) before what follows reads
/// what another lane wrote; lane 0 alone runs the work after the last loop.
Error rewriteMapLoop(const RewriteContext &Ctx, const LoopInfo &L,
                     const SourceSpan *After, int64_t G, bool Followed,
                     const std::string &Lane, const std::string &Mask,
                     EditSet &Out) {
  StringRef Src = Ctx.Source;
  std::string LoopInd = lineIndent(Src, L.Span.BeginOffset).str();
  if (Error E = splitIterations(L, G, Lane, Out))
    return E;
  if (!Followed)
    return Error::success();
  std::string Sync = "\n" + LoopInd + "__syncwarp(" + Mask + ");";
  unsigned LoopEnd = std::max(L.Span.EndOffset, L.Body.EndOffset);
  if (After && After->EndOffset > After->BeginOffset) {
    if (Error E = Out.insert(LoopEnd, Sync + "\n" + LoopInd + "if (" + Lane +
                                          " == 0) {"))
      return E;
    return Out.insert(After->EndOffset, "\n" + LoopInd + "}");
  }
  return Out.insert(LoopEnd, Sync);
}

/// The edits of one loop the G lanes share (see apply). After is what
/// follows the last loop, which lane 0 alone runs; nullptr for a loop
/// other loops follow, after which every lane gets the whole sum.
Error rewriteLoop(const RewriteContext &Ctx, const Plan &P, const LoopInfo &L,
                  const SourceSpan *After, int64_t G, const std::string &Lane,
                  const std::string &Mask, const std::string &Off,
                  EditSet &Out) {
  StringRef Src = Ctx.Source;
  std::string G_ = std::to_string(G);
  // At the loop's first line (its pragma's, if any), where unroll's pragma
  // goes after it (the registry orders the two).
  std::string LoopInd = lineIndent(Src, L.Span.BeginOffset).str();
  unsigned First = lineStart(Src, L.HasUnrollPragma ? L.PragmaSpan.BeginOffset
                                                    : L.Span.BeginOffset);
  // A global element's sum goes through a register: lane 0 loads it where
  // the loop runs (the original touches it only then), the others start
  // from zero; the loop's additions to it become additions to the register;
  // lane 0 alone runs the statements that write it before the loop.
  std::string Sum = L.Accumulator, Runs;
  // What goes before the loop, the loop and what follows it are one block:
  // the loop may be the sole statement of an `if` or another loop.
  std::string Open = L.InBlock ? "" : LoopInd + "{\n";
  std::string Close = L.InBlock ? "" : "\n" + LoopInd + "}";
  if (P.Element) {
    Sum = freshIdentifier(Src, P.Element->Base + "_sum");
    Runs = freshIdentifier(Src, L.InductionVar + "_loop_runs");
    std::string T = unqualifiedType(P.Element->ElementType);
    for (const SourceSpan &S : P.ElementWrites) {
      if (Error E = Out.insert(S.BeginOffset, "if (" + Lane + " == 0) { "))
        return E;
      if (Error E = Out.insert(S.EndOffset, " }"))
        return E;
    }
    if (Error E = Out.insert(
            First, Open + LoopInd + T + " " + Sum + " = 0;\n" + LoopInd +
                       "const bool " + Runs + " = (" + L.Init + ") " +
                       L.Compare + " (" + L.Bound + ");\n" + LoopInd + "if (" +
                       Lane + " == 0 && " + Runs + ")\n" + LoopInd + "  " +
                       Sum + " = " + L.AccumulatedElement + ";\n"))
      return E;
    for (const SourceSpan &S : L.AccumulatedSites)
      if (Error E =
              Out.replace(S.BeginOffset, S.EndOffset - S.BeginOffset, Sum))
        return E;
  } else if (!L.AccumulatorCombine.empty()) {
    // A maximum or minimum needs no reset: every lane of the group ran the
    // same statements before the loop, so each starts from the value the
    // original thread had, and taking it again changes nothing.
    if (!Open.empty())
      if (Error E = Out.insert(First, Open))
        return E;
  } else if (Error E =
                 Out.insert(First, Open + LoopInd + "if (" + Lane + " != 0)\n" +
                                       LoopInd + "  " + Sum + " = 0;\n")) {
    return E;
  }
  if (Error E = splitIterations(L, G, Lane, Out))
    return E;
  std::string Shuffle = After ? "__shfl_down_sync" : "__shfl_xor_sync";
  std::string Other =
      Shuffle + "(" + Mask + ", " + Sum + ", " + Off + ", " + G_ + ")";
  std::string Step = L.AccumulatorCombine.empty()
                         ? Sum + " += " + Other + ";"
                         : Sum + " = " + L.AccumulatorCombine + "(" + Sum +
                               ", " + Other + ");";
  std::string Tree = "\n" + LoopInd + "for (int " + Off + " = " +
                     std::to_string(G / 2) + "; " + Off + " > 0; " + Off +
                     " /= 2)\n" + LoopInd + "  " + Step;
  if (P.Element)
    Tree += "\n" + LoopInd + "if (" + Lane + " == 0 && " + Runs + ")\n" +
            LoopInd + "  " + L.AccumulatedElement + " = " + Sum + ";";
  // The loop ends with its body's statement (`;` included).
  unsigned LoopEnd = std::max(L.Span.EndOffset, L.Body.EndOffset);
  if (After && After->EndOffset > After->BeginOffset) {
    Tree += "\n" + LoopInd + "if (" + Lane + " == 0) {";
    if (Error E = Out.insert(LoopEnd, Tree))
      return E;
    return Out.insert(After->EndOffset, "\n" + LoopInd + "}" + Close);
  }
  return Out.insert(LoopEnd, Tree + Close);
}

} // namespace

void WarpReduce::describe(const RewriteContext &Ctx, const KernelInfo &K,
                          KnobSink &Out) const {
  Plan P = plan(Ctx, K);
  if (!P.Refusal.empty())
    return Out.refuse(K.Id, P.Refusal, K.Location);
  Knob Kn;
  Kn.Id = K.Id + ".warp_reduce";
  Kn.Kernel = K.Id;
  Kn.Default = 1;
  Kn.Values = {1, 4, 8, 16, 32};
  Out.offer(std::move(Kn));
}

Error WarpReduce::apply(const RewriteContext &Ctx, const Knob &Kn,
                        const json::Value &V, const ResolvedConfig &Config,
                        EditSet &Out) const {
  int64_t G = V.getAsInteger().value_or(1);
  if (G == 1)
    return Error::success();
  const KernelInfo *K = kernelOf(Ctx, Kn);
  if (!K)
    return makeToolError(ExitCode::Internal, "no kernel for " + Kn.Id);
  Plan P = plan(Ctx, *K);
  if (!P.Refusal.empty())
    return makeToolError(ExitCode::Internal, P.Refusal);
  if (coarsening(*K, Config))
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K->Id +
                             ": coarsen and warp-reduce both remap its "
                             "threads; choose one");
  // The others that rewrite the thread mapping or this loop.
  std::string Other;
  if (const json::Value *W = Config.value(K->Id + ".vectorize");
      W && W->getAsInteger().value_or(1) != 1)
    Other = "vectorize";
  else if (reductionNestRewritten(Ctx, *K, Config))
    Other = "shared-stage or register-tile";
  else
    for (const LoopInfo *L : P.Loops)
      if (const json::Value *T = Config.value(K->Id + ".tile." + L->Id);
          T && T->getAsString().value_or("none") != "none")
        Other = "tile";
  if (!Other.empty())
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K->Id + ": " + Other +
                             " and warp-reduce both rewrite its threads' "
                             "loop; choose one");
  // A new block size gives a launch whose block or grid other kernels (or
  // other host code) read a grid of its own, recomputed from the source's
  // extent: multiplying the shared value would not reach it.
  for (const Knob &BK : Ctx.Knobs.Knobs)
    if (BK.Kernel == K->Id && BK.Role == KnobRole::BlockShape &&
        !Config.isDefault(BK))
      for (const LaunchSite &L : K->Launches)
        for (const LaunchDim3 *D : {&L.Grid, &L.Block})
          for (const ValueOrigin &O : D->Dims)
            if (O.Kind != "default" && !O.ResolvedSpan.Begin.empty() &&
                (sharedWithOtherKernel(Ctx, *K, O.ResolvedSpan) ||
                 !O.ReadElsewhere.empty()))
              return makeToolError(
                  ExitCode::BadConfig,
                  "kernel " + K->Id + ": " + BK.Id + " gives the launch at " +
                      L.Location +
                      " a grid of its own (its shape is shared with other "
                      "code), which warp-reduce cannot multiply; choose one");
  if (std::optional<std::array<int64_t, 3>> B =
          variantBlockShape(Ctx, *K, Config);
      B && (*B)[0] % 32 != 0)
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K->Id +
                             ": warp-reduce needs a block x "
                             "extent that is a multiple of 32, not " +
                             std::to_string((*B)[0]));
  StringRef Src = Ctx.Source;
  const ThreadIndexVar &X = *P.X;
  std::string G_ = std::to_string(G);
  std::string Lane = freshIdentifier(Src, "lane");
  std::string Mask = freshIdentifier(Src, "group_mask");
  std::string Off = freshIdentifier(Src, "offset");
  std::string Ind = lineIndent(Src, X.Decl.BeginOffset).str();
  // Group g takes the place of the original's thread g: the index is the
  // thread's global index divided by G (blockDim.x is a multiple of G).
  std::string Type = X.Type;
  std::string Decl =
      "// cuda-rewrite-opt: " + G_ + " lanes share each thread's loop\n" + Ind +
      "const unsigned " + Lane + " = threadIdx.x % " + G_ + ";\n" + Ind +
      "const unsigned " + Mask + " = " +
      (G == 32 ? std::string("0xffffffffu")
               : "(0xffffffffu >> " + std::to_string(32 - G) +
                     ") << ((threadIdx.x % 32) / " + G_ + " * " + G_ + ")") +
      ";\n" + Ind + Type + " " + X.Name + " = (blockIdx.x * blockDim.x + " +
      "threadIdx.x) / " + G_ + ";";
  if (Error E = Out.replace(X.Decl.BeginOffset,
                            X.Decl.EndOffset - X.Decl.BeginOffset, Decl))
    return E;
  // Each loop: lane 0 keeps the sum's value from before the loop, the
  // others start from zero; lane l takes iterations l, l + G, ...; after
  // it, the lanes' sums are added: into every lane (a butterfly, whose
  // additions are the same in every lane, so every lane holds the same
  // bits) where more of the work follows for every lane, into lane 0 after
  // the last loop, where lane 0 alone runs the rest.
  // A loop that writes an element per iteration only splits its
  // iterations (rewriteMapLoop).
  for (size_t I = 0; I < P.Loops.size(); ++I) {
    bool Last = I + 1 == P.Loops.size();
    if (P.Maps[I]) {
      bool Followed = !Last || P.Afters[I].EndOffset > P.Afters[I].BeginOffset;
      if (Error E =
              rewriteMapLoop(Ctx, *P.Loops[I], Last ? &P.Afters[I] : nullptr, G,
                             Followed, Lane, Mask, Out))
        return E;
      continue;
    }
    if (Error E =
            rewriteLoop(Ctx, P, *P.Loops[I], Last ? &P.Afters[I] : nullptr, G,
                        Lane, Mask, Off, Out))
      return E;
  }
  return growGrid(Ctx, *K, "x", G, Out);
}

} // namespace cro
