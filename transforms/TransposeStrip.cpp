#include "TransposeStrip.h"
#include "LaunchAliasing.h"
#include "ThreadRemap.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/TextLines.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace cro {

namespace {

const char *const TX = "threadIdx.x", *const TY = "threadIdx.y",
                  *const BX = "blockIdx.x", *const BY = "blockIdx.y";

} // namespace

StripPlan planTransposeStrip(const RewriteContext &Ctx, const KernelInfo &K) {
  StripPlan P;
  const ThreadMapping &M = K.Mapping;
  auto Fail = [&](const std::string &W) {
    P.Refusal = W;
    return P;
  };
  // Threads trade elements through the tile, each block keeping its own:
  // builtins read outside the thread index keep their meaning.
  if (std::string Why = inPlaceStagingRefusal(K); !Why.empty())
    return Fail(Why);
  if (!M.Returns.empty())
    return Fail("the work returns early, so not every thread would reach "
                "the tile's barrier");
  if (M.GuardKind != "none")
    return Fail("the strip loop is guarded ('" + M.GuardCondition +
                "'): a partial tile is not staged");
  for (const LoopInfo &L : K.Loops)
    if (L.Depth == 0 && L.Span.BeginOffset == M.Work.BeginOffset)
      P.Loop = &L;
  StringRef Src = Ctx.Source;
  if (!P.Loop || !Src.slice(P.Loop->Span.EndOffset, M.Work.EndOffset)
                      .trim()
                      .ltrim(';')
                      .empty())
    return Fail("the work is not one loop");
  const LoopInfo &L = *P.Loop;
  if (L.Kind != "for" || L.InMacro || L.InductionVar.empty())
    return Fail("the strip loop " + L.Id +
                " is not a for loop written in "
                "the kernel with its own variable");
  if (!L.BodyExit.empty() || !L.BodyChanges.empty() || L.ContainsSync)
    return Fail("loop " + L.Id +
                " leaves early, changes its variables or synchronizes");
  std::optional<int64_t> Init = L.InitForm && !L.InitForm->hasVariables()
                                    ? L.InitForm->constantPart().constantValue()
                                    : std::nullopt;
  // The model's trip count is exact for < and <=: with the start 0 and
  // the step R, j takes 0, R, ..., (trips - 1) * R.
  if (Init != 0 || (L.Compare != "<" && L.Compare != "<=") || !L.StepValue ||
      *L.StepValue <= 0 || !L.TripCount)
    return Fail("loop " + L.Id +
                " does not count from 0 by a constant step below a constant");

  // The store: the loop's only write, its whole body.
  for (const AccessInfo &A : K.Accesses) {
    if (A.Span.BeginOffset < M.Work.BeginOffset ||
        A.Span.EndOffset > M.Work.EndOffset || A.Mode == "read")
      continue;
    if (P.Store || A.Mode != "write" || !A.Direct || A.Indices.size() != 1 ||
        A.Space != "global")
      return Fail("the loop's work is not a single store to global memory "
                  "through a subscript of a parameter");
    if (!A.Indices[0].Affine)
      return Fail("the store's " + A.Indices[0].NonAffineReason);
    P.Store = &A;
  }
  if (!P.Store)
    return Fail("the loop stores nothing to global memory");
  // The rewrite replaces the store's text: it must be the array's
  // subscript as written, not a macro's expansion.
  StringRef StoreText =
      Src.slice(P.Store->Span.BeginOffset, P.Store->Span.EndOffset);
  if (!StoreText.consume_front(P.Store->Base) ||
      !StoreText.ltrim().starts_with("["))
    return Fail("the store is written through a macro, whose text the "
                "rewrite cannot replace");
  if (!P.Store->ElementBytes)
    return Fail("the stored element's size is not known");
  if (P.Store->SkippableBy.BeginOffset != L.Span.BeginOffset ||
      P.Store->SkippableBy.EndOffset != L.Span.EndOffset)
    return Fail("the store is skipped by a condition in loop " + L.Id +
                ": a partial tile is not staged");
  // The body, inside its braces if it has them.
  StringRef Body = Src.slice(L.Body.BeginOffset, L.Body.EndOffset).trim();
  if (Body.consume_front("{"))
    Body = Body.drop_back(Body.ends_with("}") ? 1 : 0);
  unsigned BodyAt = unsigned(Body.data() - Src.data());
  if (!assignedValue(Src, *P.Store, BodyAt, BodyAt + unsigned(Body.size())))
    return Fail("the loop's body is not one statement `out[...] = value;`");

  // Which elements a block and a thread store (see the header).
  const AffineExpr &F = P.Store->Indices[0].Form;
  for (const auto &[Var, Coef] : F.coefficients())
    if (Var != TX && Var != TY && Var != BX && Var != BY &&
        Var != L.InductionVar)
      return Fail("the store's index reads '" + Var +
                  "', which the transposed store cannot recompute");
  SymPoly CX = F.coefficient(TX);
  if (CX.isZero())
    return Fail("threads along x store the same element");
  if (CX.constantValue() == 1)
    return Fail("the store is already contiguous across a warp");
  if (F.coefficient(TY).constantValue() != 1 ||
      F.coefficient(L.InductionVar).constantValue() != 1)
    return Fail("the store is not contiguous along threadIdx.y and loop " +
                L.Id +
                " together, so a transposed tile would not make it "
                "contiguous");
  std::optional<int64_t> T = F.coefficient(BY).constantValue();
  if (!T || *T <= 0)
    return Fail("blockIdx.y does not move the store by a constant number of "
                "rows");
  if (!(F.coefficient(BX) == CX * SymPoly::constant(*T)))
    return Fail("blockIdx.x does not move the store by the " +
                std::to_string(*T) + " columns blockIdx.y moves its rows");
  if (*L.StepValue * *L.TripCount != *T)
    return Fail("loop " + L.Id + " does not take each thread over the " +
                std::to_string(*T) +
                " rows of its block's tile in steps of "
                "the block's rows");
  std::vector<const SymPoly *> Polys{&F.constantPart()};
  for (const auto &[Var, Coef] : F.coefficients())
    Polys.push_back(&Coef);
  for (const SymPoly *Poly : Polys)
    if (std::string Why = unwritableSymbol(Ctx, K, *Poly); !Why.empty())
      return Fail("the store's index scales by " + Why);
  // The block's stores move after all its values are computed, so no
  // value may read what a store wrote: the stored array is named only by
  // the store, and every read goes through a pointer parameter the model
  // can tell apart from it (not a global pointer, a struct's member or a
  // local copy).
  const ParamInfo *Stored = nullptr;
  for (const ParamInfo &PI : K.Params)
    if (PI.Name == P.Store->Base && PI.IsPointer)
      Stored = &PI;
  if (!Stored || Stored->Uses != 1)
    return Fail("the kernel names '" + P.Store->Base +
                "' besides its store, and the tile moves a block's stores "
                "after its reads");
  std::string Alias = launchAliasingReason(K);
  for (const AccessInfo &A : K.Accesses) {
    if (&A == P.Store || A.Span.BeginOffset < M.Work.BeginOffset ||
        A.Span.EndOffset > M.Work.EndOffset || A.Space == "local" ||
        A.Space == "shared")
      continue;
    bool Param = A.Direct && llvm::any_of(K.Params, [&](const ParamInfo &PI) {
                   return PI.IsPointer && PI.Name == A.Base;
                 });
    if (!Param)
      return Fail("the value reads '" + A.Base +
                  "', which is not a pointer parameter the analysis can "
                  "tell apart from the stored array");
    if (mayAlias(Ctx, K, A.Base, P.Store->Base, Alias.empty()))
      return Fail("the value reads '" + A.Base +
                  "', which may be the array the store writes" +
                  (Alias.empty() ? "" : " (" + Alias + ")") +
                  ", and the tile moves a block's stores after its reads");
  }
  P.Tile = *T;
  P.Rows = *L.StepValue;
  P.Type = unqualifiedType(P.Store->ElementType);
  return P;
}

std::string stripBlockRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                              const StripPlan &P,
                              const ResolvedConfig &Config) {
  std::optional<std::array<int64_t, 3>> Block =
      variantBlockShape(Ctx, K, Config);
  if (!Block || (*Block)[0] != P.Tile || (*Block)[1] != P.Rows ||
      (*Block)[2] != 1)
    return "the transposed tile needs blocks of " + std::to_string(P.Tile) +
           " x " + std::to_string(P.Rows) +
           " threads (the tile's side by the loop's step)";
  return "";
}

Error emitTransposeStrip(const RewriteContext &Ctx, const KernelInfo &K,
                         const StripPlan &P, int64_t Pad,
                         const ResolvedConfig &Config, EditSet &Out) {
  auto Bad = [&](const Twine &Why) {
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K.Id + ": " + Why.str());
  };
  if (std::string Why = stripBlockRefusal(Ctx, K, P, Config); !Why.empty())
    return Bad(Why);
  if (P.Tile * (P.Tile + Pad) * int64_t(P.Store->ElementBytes) >
      Ctx.Target.MaxSharedPerBlock)
    return Bad("the tile needs more than the " +
               std::to_string(Ctx.Target.MaxSharedPerBlock / 1024) +
               " KiB of shared memory a block may declare statically");
  StringRef Src = Ctx.Source;
  const LoopInfo &L = *P.Loop;
  const AffineExpr &F = P.Store->Indices[0].Form;
  const std::string &J = L.InductionVar;
  const std::string &I1 = L.Indent;
  std::string Tile = freshIdentifier(Src, P.Store->Base + "_tile");
  std::string R = freshIdentifier(Src, "r");
  std::string T_ = std::to_string(P.Tile), Rows_ = std::to_string(P.Rows);

  // The tile, where the body begins: the loop and what other transforms
  // put before it (an unroll pragma) stay together.
  if (Error E = Out.insert(
          K.BodySpan.BeginOffset + 1,
          "\n" + I1 +
              "// cuda-rewrite-opt: a tile for the transposed store "
              "of loop " +
              L.Id + "\n" + I1 + "__shared__ " + P.Type + " " + Tile + "[" +
              T_ + "][" + std::to_string(P.Tile + Pad) + "];"))
    return E;
  // The loop as written stores into the tile: row ty + j, column tx.
  if (Error E = Out.replace(P.Store->Span.BeginOffset,
                            P.Store->Span.EndOffset - P.Store->Span.BeginOffset,
                            Tile + "[threadIdx.y + " + J + "][threadIdx.x]"))
    return E;
  // Thread (tx, ty) in step r stores column ty + r, row tx of the tile:
  // the store's index with threadIdx.x -> threadIdx.y + r and
  // threadIdx.y + j -> threadIdx.x.
  // Every term in 64 signed bits: a term of coefficient -1 (a stride
  // `n - 1`) would otherwise negate an unsigned builtin.
  auto Wide = [](const std::string &V) { return "(long long)" + V; };
  std::string Index =
      termCText(F.coefficient(TX), Wide("(threadIdx.y + " + R + ")")) +
      termCText(SymPoly::constant(1), Wide(TX)) +
      termCText(F.coefficient(BX), Wide(BX)) +
      termCText(F.coefficient(BY), Wide(BY)) + termCText(F.constantPart(), "");
  Index = (Index[1] == '+' ? "" : "-") + Index.substr(3);
  std::string S = "\n" + I1 + "__syncthreads();\n";
  S += I1 + "// cuda-rewrite-opt: the block's values went through the tile; "
            "each thread stores the elements its transposed neighbours "
            "computed, so the store is contiguous\n";
  S += I1 + "#pragma unroll\n";
  S += I1 + "for (int " + R + " = 0; " + R + " < " + T_ + "; " + R +
       " += " + Rows_ + ")\n";
  S += I1 + "  " + P.Store->Base + "[" + Index + "] = " + Tile +
       "[threadIdx.x][threadIdx.y + " + R + "];";
  return Out.insert(K.Mapping.Work.EndOffset, S); // after the loop's `;`
}

} // namespace cro
