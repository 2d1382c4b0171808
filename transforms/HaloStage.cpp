#include "HaloStage.h"
#include "Coarsen.h"
#include "ReductionNest.h"
#include "ThreadRemap.h"
#include "cro/Analysis/NeighbourReads.h"
#include "cro/Analysis/ThreadMapping.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
#include <algorithm>
#include <map>

using namespace llvm;

namespace cro {

namespace {

/// The cast that makes an expression computed in Bits bits keep them:
/// `(long long)` for a 64-bit index (a block's first element past 2^32
/// would wrap in unsigned int, and overflow in int), else Narrow.
std::string castFor(unsigned Bits, const char *Narrow) {
  return Bits > 32 ? "(long long)" : Narrow;
}

} // namespace

HaloPlan planHalo(const RewriteContext &Ctx, const KernelInfo &K) {
  HaloPlan P;
  const ThreadMapping &M = K.Mapping;
  auto Fail = [&](const std::string &W) {
    P.Refusal = W;
    return P;
  };
  // The blocks and their threads stay as they are (the tile adds loads and
  // a barrier; it does not compose with coarsening), so blockIdx and
  // threadIdx read outside the thread index (`size_t index = cols * BS * by
  // + BS * bx + cols * ty + tx;`) keep their meaning.
  if (std::string Why = inPlaceStagingRefusal(K); !Why.empty())
    return Fail(Why);
  // A 2-D index (rows and columns) or a 1-D one (a line of elements).
  const ThreadIndexVar *X = M.indexVar("x"), *Y = M.indexVar("y");
  if (!X || M.indexVar("z"))
    return Fail("halo staging needs a 1-D or 2-D thread index along x (and "
                "y)");
  // The guard bounds the region the threads work in: each index below its
  // upper bound, and at or above its lower bound where it has one (`x > 0
  // && x < nx - 1`). The tile holds the block's part of that region; a
  // neighbour outside it is read from global memory as written. A chain of
  // branches (`if (c1) A else if (c2) B`) bounds the reads of its first
  // branch by c1 alone: every thread where c1 holds runs A (a later branch
  // runs only where the conditions before it fail, so its condition alone
  // does not say which threads read).
  const ThreadMapping::Branch *First =
      M.GuardKind == "branches" && !M.Branches.empty() ? &M.Branches.front()
                                                       : nullptr;
  const ThreadMapping::Branch Region =
      First ? *First : ThreadMapping::Branch{M.Work,         M.UpperBounds,
                                             M.LowerBounds,  M.UpperBoundForms,
                                             M.GuardIsRange, M.MustAccesses};
  if (M.GuardKind == "none" || !Region.IsRange ||
      !Region.UpperBounds.count(X->Name) ||
      (Y && !Region.UpperBounds.count(Y->Name)))
    return Fail(
        std::string(First ? "the first branch of the guard" : "the guard") +
        " is not a range on each thread index with an upper bound on each "
        "('" +
        (M.GuardCondition.empty() ? std::string("none") : M.GuardCondition) +
        "')");
  P.UpperBounds = Region.UpperBounds;
  P.LowerBounds = Region.LowerBounds;
  // The reads' conditions are spelled with the index variables and the
  // guard's bounds: each name must mean at the reads what it means there.
  for (const ThreadIndexVar *V : {X, Y})
    if (V && M.AmbiguousNames.count(V->Name))
      return Fail("the thread index '" + V->Name +
                  "' shares its name with another variable of the kernel, "
                  "so the staged reads' conditions could not name it");
  for (const auto *Bounds : {&P.UpperBounds, &P.LowerBounds})
    for (const auto &[Var, Bound] : *Bounds)
      for (const std::string &Name : M.AmbiguousNames)
        if (!findIdentifier(Bound, 0, Bound.size(), Name).empty())
          return Fail("the guard's bound '" + Bound + "' names '" + Name +
                      "', which the kernel declares for two variables: "
                      "spelled again at the reads it could mean the other");
  for (const ThreadIndexVar *V : {X, Y})
    if (std::string Why =
            V ? gridShrinkRefusal(Ctx, K, V->Dim, Region.UpperBounds,
                                  Region.UpperBoundForms)
              : "";
        !Why.empty())
      return Fail("the grid does not provably cover the guarded domain: " +
                  Why);

  // The read-only array with the most neighbour reads.
  std::map<std::string, std::vector<HaloRead>> ByArray;
  std::map<std::string, std::string> Broken;
  for (const AccessInfo &A : K.Accesses) {
    const ParamInfo *Param = nullptr;
    for (const ParamInfo &PI : K.Params)
      if (PI.Name == A.Base && PI.IsPointer && PI.Access == "read")
        Param = &PI;
    if (!Param || A.Space != "global")
      continue;
    auto Bad = [&](const std::string &Why) {
      Broken.emplace(A.Base, "'" + A.Base + "' at " + A.Location + " " + Why);
    };
    StringRef Spelled = Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset);
    if (A.Span.BeginOffset < M.Work.BeginOffset ||
        A.Span.EndOffset > M.Work.EndOffset) {
      Bad("is read outside the work");
      continue;
    }
    if (First && (A.Span.BeginOffset < Region.Body.BeginOffset ||
                  A.Span.EndOffset > Region.Body.EndOffset)) {
      Bad("is read outside the first branch of the guard");
      continue;
    }
    if (!A.Direct || A.Indices.size() != 1 || !Spelled.starts_with(A.Base) ||
        !Spelled.ends_with("]")) {
      Bad("is not read as `p[index]`");
      continue;
    }
    // Affine at a constant offset from the thread's element, or else a
    // read whose row and column stay within constant ranges of the
    // thread's (clamped, chosen, or moved by small loops' variables).
    std::optional<ElementOffset> D;
    if (A.Indices[0].Affine)
      D = elementOffset(A.Indices[0].Form, M, MaxNeighbourReach);
    if (!D) {
      const ThreadMapping::BoundedRead *B = nullptr;
      for (const ThreadMapping::BoundedRead &R : M.BoundedReads)
        if (R.Offset == A.Span.BeginOffset)
          B = &R;
      if (!B && A.Indices[0].Affine) {
        Bad("is not the thread's element or a near neighbour of it");
        continue;
      }
      if (!B || B->Row.empty() != !Y) {
        auto Choice = M.UnboundedChoices.find(A.Span.BeginOffset);
        Bad("is read at an index neither affine nor provably near the "
            "thread's element (" +
            (Choice != M.UnboundedChoices.end()
                 ? Choice->second
                 : A.Indices[0].NonAffineReason) +
            ")");
        continue;
      }
      if (int64_t Reach = std::max({-B->RowLo, B->RowHi, -B->ColLo, B->ColHi});
          Reach > MaxNeighbourReach) {
        Bad("is read up to " + std::to_string(Reach) +
            " elements from the thread's (at most " +
            std::to_string(MaxNeighbourReach) + " are staged)");
        continue;
      }
      ByArray[A.Base].push_back({&A, 0, 0, B});
      continue;
    }
    if (std::abs(D->DY) > MaxNeighbourReach ||
        std::abs(D->DX) > MaxNeighbourReach) {
      Bad("is not the thread's element or a near neighbour of it");
      continue;
    }
    ByArray[A.Base].push_back({&A, D->DX, D->DY});
  }
  std::string Best;
  for (auto &[Name, Reads] : ByArray)
    if (!Broken.count(Name) &&
        (Best.empty() || Reads.size() > ByArray[Best].size()))
      Best = Name;
  if (Best.empty())
    return Fail(Broken.empty() ? "no read-only array is read at neighbouring "
                                 "elements"
                               : Broken.begin()->second);
  P.Array = Best;
  P.Reads = ByArray[Best];
  std::set<std::pair<int64_t, int64_t>> Offsets;
  const ThreadMapping::BoundedRead *BoundedCentre = nullptr;
  std::optional<SymPoly> BoundedStride;
  bool Spread = false, StridesDiffer = false;
  for (const HaloRead &R : P.Reads) {
    if (const ThreadMapping::BoundedRead *B = R.Bounded) {
      P.HX = std::max({P.HX, -B->ColLo, B->ColHi});
      P.HY = std::max({P.HY, -B->RowLo, B->RowHi});
      Spread |= B->ColLo != B->ColHi || B->RowLo != B->RowHi;
      if (B->ReadsCentre && !BoundedCentre)
        BoundedCentre = B;
      StridesDiffer |= BoundedStride && !(*BoundedStride == B->Stride);
      BoundedStride = B->Stride;
      continue;
    }
    Offsets.insert({R.DX, R.DY});
    P.HX = std::max(P.HX, std::abs(R.DX));
    P.HY = std::max(P.HY, std::abs(R.DY));
    if (R.DX == 0 && R.DY == 0 &&
        std::binary_search(
            Region.MustAccesses.begin(), Region.MustAccesses.end(),
            accessKey(R.Access->Base, R.Access->Indices[0].Text)))
      P.Center = &R;
  }
  if (Offsets.size() < 2 && !Spread)
    return Fail("'" + Best +
                "' is read at one element per thread: nothing to share");
  // The tile holds element (r, c) at stride * r + c: every read must count
  // rows alike.
  if (Y && BoundedStride && P.Center &&
      !(P.Center->Access->Indices[0].Form.coefficient("threadIdx.y") ==
        *BoundedStride))
    StridesDiffer = true;
  if (StridesDiffer)
    return Fail("'" + Best + "' is read with different row strides");
  // The loader evaluates the centre index at other positions: it may read
  // no local but the thread indices. An index written through a local
  // (`int idx = j * nx + i; src[idx]`), or only near reads, are evaluated
  // from the row stride instead, stride * y + x, when the stride names only
  // parameters and file-scope names (macros and constants, from headers
  // too, mean the same anywhere) that no local of the kernel shadows
  // (unwritableSymbol).
  // The element at stride * y + x, in the width the reads compute their
  // indices in (`size_t index = ...` does not overflow where an int
  // product would).
  unsigned Bits = 0;
  for (const HaloRead &R : P.Reads)
    Bits = std::max(Bits, R.Access->Indices[0].Bits);
  auto RowMajor = [&](const SymPoly &Stride) {
    return castFor(Bits, "") + "(" + Stride.str() + ") * " + Y->Name + " + " +
           X->Name;
  };
  if (!P.Center && BoundedCentre) {
    // Only near reads: the loader takes the element at stride * y + x.
    P.Type = unqualifiedType(P.Reads.front().Access->ElementType);
    if (!Y) {
      P.CenterIndex = X->Name;
      return P;
    }
    if (std::string Why = unwritableSymbol(Ctx, K, *BoundedStride);
        !Why.empty())
      return Fail("the row stride of '" + Best + "' names " + Why +
                  ": the tile loader cannot write it");
    P.CenterIndex = RowMajor(*BoundedStride);
    return P;
  }
  if (!P.Center)
    return Fail("the thread's own element of '" + Best +
                "' is not read on every path, so loading it is not known to "
                "be safe");
  // A local other than the thread indices may differ there.
  const IndexInfo &CI = P.Center->Access->Indices[0];
  // So may threadIdx and blockIdx read by the index itself (not through the
  // index variables the loader redeclares).
  std::string Local =
      CI.LocalsInMacro ? "a local read inside a macro, which the tile loader "
                         "cannot see"
      : CI.ReadsThreadPosition ? "threadIdx or blockIdx itself (not through "
                                 "the thread indices), which the tile loader "
                                 "cannot move"
                               : "";
  for (const std::string &L : CI.Locals)
    if (L != X->Name && (!Y || L != Y->Name) && Local.empty())
      Local = "'" + L + "', a local the tile loader cannot see";
  P.CenterIndex = P.Center->Access->Indices[0].Text;
  if (!Local.empty() && !Y) {
    // A line's element is its global index.
    P.CenterIndex = X->Name;
  } else if (!Local.empty()) {
    SymPoly Stride =
        P.Center->Access->Indices[0].Form.coefficient("threadIdx.y");
    if (std::string Why = unwritableSymbol(Ctx, K, Stride); !Why.empty())
      return Fail("the index of '" + Best + "' reads " + Local +
                  ", and its row stride names " + Why);
    P.CenterIndex = RowMajor(Stride);
  }
  P.Type = unqualifiedType(P.Center->Access->ElementType);
  return P;
}

Error emitHalo(const RewriteContext &Ctx, const KernelInfo &K,
               const HaloPlan &P, const ResolvedConfig &Config, EditSet &Out) {
  auto Bad = [&](const Twine &Why) {
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K.Id + ": " + Why.str());
  };
  if (coarsening(K, Config))
    return Bad("coarsen and shared-stage both remap its threads");
  std::optional<std::array<int64_t, 3>> Block =
      variantBlockShape(Ctx, K, Config);
  if (!Block || (*Block)[2] != 1)
    return Bad("a halo tile needs the block size at compile time: the "
               "launches choose it at run time, so " +
               K.Id + ".block must set a constant");
  int64_t BX = (*Block)[0], BY = (*Block)[1];
  int64_t Pad = 0;
  if (const json::Value *V = Config.value(sharedPadKnob(K)))
    Pad = V->getAsInteger().value_or(0);
  if (!K.Mapping.indexVar("y") && BY != 1)
    return Bad("a halo line needs a block of one row (the kernel indexes x "
               "only)");
  int64_t W = BX + 2 * P.HX, H = BY + 2 * P.HY;
  if (H * (W + Pad) * 8 > Ctx.Target.MaxSharedPerBlock)
    return Bad("the tile needs more than the " +
               std::to_string(Ctx.Target.MaxSharedPerBlock / 1024) +
               " KiB of shared memory a block may declare statically");
  const ThreadMapping &M = K.Mapping;
  StringRef Src = Ctx.Source;
  const ThreadIndexVar *X = M.indexVar("x"), *Y = M.indexVar("y");
  std::string BoundX = P.UpperBounds.at(X->Name);
  std::string BoundY = Y ? P.UpperBounds.at(Y->Name) : "";
  unsigned After = std::max(X->Decl.EndOffset, Y ? Y->Decl.EndOffset : 0);
  std::string I1 =
      Src.slice(lineStart(Src, X->Decl.BeginOffset), X->Decl.BeginOffset).str();
  std::string I2 = I1 + "  ", I3 = I2 + "  ";
  std::string Tile = freshIdentifier(Src, P.Array + "_tile");
  std::string E = freshIdentifier(Src, "e");
  std::string TR = freshIdentifier(Src, "tr"), TC = freshIdentifier(Src, "tc");
  auto S_ = [](int64_t V) { return std::to_string(V); };
  // A block's first element in the index's width: `long i` indexes past
  // 2^32, where blockIdx.x * B in unsigned int would wrap (and in int,
  // overflow).
  auto Wide = [](const ThreadIndexVar *V) { return castFor(V->Bits, ""); };
  auto Signed = [](const ThreadIndexVar *V) {
    return castFor(V->Bits, "(int)");
  };

  std::string S = "\n" + I1 + "// cuda-rewrite-opt: '" + P.Array +
                  "' and a halo of " +
                  (Y ? S_(P.HY) + " row(s), " + S_(P.HX) + " column(s)"
                     : S_(P.HX) + " element(s) each side") +
                  " staged in shared memory\n";
  if (Y) {
    S += I1 + "__shared__ " + P.Type + " " + Tile + "[" + S_(H) + "][" +
         S_(W + Pad) + "];\n";
    S += I1 + "for (int " + E + " = threadIdx.y * " + S_(BX) +
         " + threadIdx.x; " + E + " < " + S_(H * W) + "; " + E +
         " += " + S_(BX * BY) + ") {\n";
    S += I2 + "const int " + TR + " = " + E + " / " + S_(W) + ", " + TC +
         " = " + E + " % " + S_(W) + ";\n";
  } else {
    // A line has no bank conflicts to pad against.
    S += I1 + "__shared__ " + P.Type + " " + Tile + "[" + S_(W) + "];\n";
    S += I1 + "for (int " + TC + " = threadIdx.x; " + TC + " < " + S_(W) +
         "; " + TC + " += " + S_(BX) + ") {\n";
  }
  S += I2 + "const " + unqualifiedType(X->Type) + " " + X->Name + " = " +
       Wide(X) + "blockIdx.x * " + S_(BX) + " + " + TC + " - " + S_(P.HX) +
       ";\n";
  if (Y)
    S += I2 + "const " + unqualifiedType(Y->Type) + " " + Y->Name + " = " +
         Wide(Y) + "blockIdx.y * " + S_(BY) + " + " + TR + " - " + S_(P.HY) +
         ";\n";
  // Loaded: the positions of the guarded region (the centre is read there
  // on every path, so reading it is safe).
  auto Lower = [&](const ThreadIndexVar *V) {
    auto It = P.LowerBounds.find(V->Name);
    return It == P.LowerBounds.end() ? std::string() : It->second;
  };
  std::string LowX = Lower(X), LowY = Y ? Lower(Y) : "";
  if (Y)
    S += I2 + "if (" + X->Name + " >= 0 && " + Y->Name + " >= 0 && " +
         (LowX.empty() ? "" : X->Name + " >= " + LowX + " && ") +
         (LowY.empty() ? "" : Y->Name + " >= " + LowY + " && ") + X->Name +
         " < " + BoundX + " && " + Y->Name + " < " + BoundY + ")\n";
  else
    S += I2 + "if (" + X->Name + " >= 0 && " +
         (LowX.empty() ? "" : X->Name + " >= " + LowX + " && ") + X->Name +
         " < " + BoundX + ")\n";
  S += I3 + Tile + (Y ? "[" + TR + "]" : "") + "[" + TC + "] = " + P.Array +
       "[" + P.CenterIndex + "];\n";
  S += I1 + "}\n" + I1 + "__syncthreads();";
  if (Error Err = Out.insert(After, S))
    return Err;

  for (const HaloRead &R : P.Reads) {
    if (const ThreadMapping::BoundedRead *B = R.Bounded) {
      // The cell of (row, col): the tile starts halo rows and columns
      // before the block's first element. The element was loaded where the
      // loader's condition holds for it.
      std::string Row = "(" + B->Row + ")", Col = "(" + B->Col + ")";
      std::string Cell = Tile +
                         (Y ? "[" + Row + " - " + Signed(Y) + "blockIdx.y * " +
                                  S_(BY) + " + " + S_(P.HY) + "]"
                            : "") +
                         "[" + Col + " - " + Signed(X) + "blockIdx.x * " +
                         S_(BX) + " + " + S_(P.HX) + "]";
      // As the loader's condition: at or above 0 and any lower bound, below
      // the upper bound.
      auto Inside = [&](const std::string &V, const std::string &Low,
                        const std::string &Bound) {
        return V + " >= 0 && " +
               (Low.empty() ? "" : V + " >= " + Low + " && ") + V + " < " +
               Bound;
      };
      std::string C = Inside(Col, LowX, BoundX);
      if (Y)
        C += " && " + Inside(Row, LowY, BoundY);
      std::string Text =
          "(" + C + " ? " + Cell + " : " + spanText(Ctx, R.Access->Span) + ")";
      if (Error Err = Out.replace(
              R.Access->Span.BeginOffset,
              R.Access->Span.EndOffset - R.Access->Span.BeginOffset, Text))
        return Err;
      continue;
    }
    std::string Cell = Tile +
                       (Y ? "[threadIdx.y + " + S_(P.HY + R.DY) + "]" : "") +
                       "[threadIdx.x + " + S_(P.HX + R.DX) + "]";
    std::vector<std::string> Cond;
    // The neighbour is in the loaded region (the thread's own position is).
    auto Above = [&](const ThreadIndexVar *V, const std::string &Low,
                     int64_t D) {
      return V->Name + " >= " + (Low.empty() ? "" : "(" + Low + ") + ") + S_(D);
    };
    if (R.DX < 0)
      Cond.push_back(Above(X, LowX, -R.DX));
    if (R.DX > 0)
      Cond.push_back(X->Name + " + " + S_(R.DX) + " < " + BoundX);
    if (R.DY < 0)
      Cond.push_back(Above(Y, LowY, -R.DY));
    if (R.DY > 0)
      Cond.push_back(Y->Name + " + " + S_(R.DY) + " < " + BoundY);
    std::string Text = Cell;
    if (!Cond.empty()) {
      std::string C;
      for (const std::string &X : Cond)
        C += (C.empty() ? "" : " && ") + X;
      // Outside the loaded region the original read is kept.
      Text =
          "(" + C + " ? " + Cell + " : " + spanText(Ctx, R.Access->Span) + ")";
    }
    if (Error Err = Out.replace(
            R.Access->Span.BeginOffset,
            R.Access->Span.EndOffset - R.Access->Span.BeginOffset, Text))
      return Err;
  }
  return Error::success();
}

} // namespace cro
