#include "SharedStage.h"
#include "BlockSize.h"
#include "Coarsen.h"
#include "HaloStage.h"
#include "ReductionNest.h"
#include "ThreadRemap.h"
#include "TransposeStrip.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

namespace {

/// A kernel whose work is one statement `out[f(x, y)] = expr;` where f is
/// not contiguous in threadIdx.x but is in threadIdx.y (transpose-like).
struct TransposePlan {
  std::string Refusal;
  const AccessInfo *Store = nullptr;
  std::string Type;
  SourceSpan Value; ///< the right-hand side
};

TransposePlan planTranspose(const RewriteContext &Ctx, const KernelInfo &K) {
  TransposePlan P;
  const ThreadMapping &M = K.Mapping;
  auto Fail = [&](const std::string &W) {
    P.Refusal = W;
    return P;
  };
  if (std::string Why = remapRefusal(K); !Why.empty())
    return Fail(Why);
  if (std::string Why = guardedWorkRefusal(K); !Why.empty())
    return Fail(Why);
  if (!M.indexVar("x") || !M.indexVar("y") || M.indexVar("z"))
    return Fail("staging a store through a tile needs a 2-D thread index");
  if (std::string Why = keptPrefixRefusal(Ctx, K); !Why.empty())
    return Fail(Why);
  if (M.GuardKind != "none" && !M.GuardIsBox)
    return Fail("the guard '" + M.GuardCondition +
                "' is not a bound on each thread index");
  if (!M.Returns.empty())
    return Fail("the work returns early");
  for (const AccessInfo &A : K.Accesses) {
    if (A.Span.BeginOffset < M.Work.BeginOffset ||
        A.Span.EndOffset > M.Work.EndOffset || A.Mode == "read")
      continue;
    if (P.Store || A.Mode != "write" || !A.Direct || A.Indices.size() != 1 ||
        !A.Indices[0].Affine)
      return Fail("the work is not a single store through an affine index");
    P.Store = &A;
  }
  if (!P.Store)
    return Fail("the work stores nothing to global memory");
  // `STORE = value;` and nothing else.
  std::optional<SourceSpan> Value =
      assignedValue(Ctx.Source, *P.Store, M.Work.BeginOffset, M.Work.EndOffset);
  if (!Value)
    return Fail("the work is not one statement `out[...] = value;`");
  const AffineExpr &F = P.Store->Indices[0].Form;
  if (F.coefficient("threadIdx.x").constantValue() == 1)
    return Fail("the store is already contiguous across a warp");
  if (F.coefficient("threadIdx.y").constantValue() != 1)
    return Fail("the store is not contiguous in threadIdx.y either, so a "
                "transposed tile would not make it contiguous");
  P.Value = *Value;
  P.Type = unqualifiedType(P.Store->ElementType);
  return P;
}

/// The y-coarsening factor the configuration composes with the tile
/// ("y2", "y4", "y8" from the coarsen knob), 1 without; 0 for a form the
/// tile cannot take (x, contiguous).
int64_t tileRows(const KernelInfo &K, const ResolvedConfig &Config) {
  std::optional<Coarsening> C = coarsening(K, Config);
  if (!C)
    return 1;
  return C->Dim == "y" && !C->Contiguous ? C->Factor : 0;
}

Error emitTranspose(const RewriteContext &Ctx, const KernelInfo &K,
                    const TransposePlan &P, const ResolvedConfig &Config,
                    EditSet &Out) {
  auto Bad = [&](const Twine &Why) {
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K.Id + ": " + Why.str());
  };
  int64_t F = tileRows(K, Config);
  if (F == 0)
    return Bad("a transposed tile composes only with strided coarsening in y");
  std::optional<std::array<int64_t, 3>> Block =
      variantBlockShape(Ctx, K, Config);
  if (!Block || (*Block)[0] != (*Block)[1] || (*Block)[2] != 1)
    return Bad("a transposed tile needs a square block known at compile "
               "time");
  int64_t B = (*Block)[0];
  int64_t Pad = 0;
  if (const json::Value *V = Config.value(sharedPadKnob(K)))
    Pad = V->getAsInteger().value_or(0);
  if ((B * F) * (B + Pad) * 8 > Ctx.Target.MaxSharedPerBlock)
    return Bad("the tile needs more than the " +
               std::to_string(Ctx.Target.MaxSharedPerBlock / 1024) +
               " KiB of shared memory a block may declare statically");
  const ThreadMapping &M = K.Mapping;
  StringRef Src = Ctx.Source;
  const ThreadIndexVar *X = M.indexVar("x"), *Y = M.indexVar("y");
  unsigned Begin = indexRegionBegin(K);
  unsigned Close = K.BodySpan.EndOffset - 1;
  std::string I1 = Src.slice(lineStart(Src, Begin), Begin).str();
  std::string I2 = I1 + "  ", I3 = I2 + "  ";
  std::string Tile = freshIdentifier(Src, P.Store->Base + "_tile");
  std::string Row = freshIdentifier(Src, "row");
  std::string Guard = M.GuardKind == "none" ? "" : M.GuardCondition;
  std::string Value = Src.slice(P.Value.BeginOffset, P.Value.EndOffset).str();
  std::string Store = spanText(Ctx, P.Store->Span);
  std::string B_ = std::to_string(B), F_ = std::to_string(F);
  std::string Rows = std::to_string(B * F);

  std::string S = "// cuda-rewrite-opt: the block's values go through a "
                  "shared tile and are stored transposed, so the store is "
                  "contiguous" +
                  std::string(F > 1 ? " (" + F_ + " rows per thread)" : "") +
                  "\n";
  if (std::string Kept = keptPrefix(Ctx, K); !Kept.empty())
    S += I1 + Kept + "\n";
  S += I1 + "__shared__ " + P.Type + " " + Tile + "[" + Rows + "][" +
       std::to_string(B + Pad) + "];\n";
  // Row i of this thread: y = blockIdx.y * B*F + threadIdx.y + i * B.
  auto Loop = [&](const std::string &Body) {
    if (F == 1)
      return I1 + "{\n" + I2 + "const int " + Row + " = 0;\n" + Body + I1 +
             "}\n";
    return I1 + "#pragma unroll\n" + I1 + "for (int " + Row + " = 0; " + Row +
           " < " + F_ + "; ++" + Row + ") {\n" + Body + I1 + "}\n";
  };
  std::string Fill = I2 + "const " + unqualifiedType(X->Type) + " " + X->Name +
                     " = blockIdx.x * " + B_ + " + threadIdx.x;\n";
  Fill += I2 + "const " + unqualifiedType(Y->Type) + " " + Y->Name +
          " = blockIdx.y * " + Rows + " + threadIdx.y + " + Row + " * " + B_ +
          ";\n";
  std::string Put = Tile + "[threadIdx.y + " + Row + " * " + B_ +
                    "][threadIdx.x] = " + Value + ";\n";
  Fill += Guard.empty() ? I2 + Put : I2 + "if (" + Guard + ")\n" + I3 + Put;
  S += Loop(Fill);
  S += I1 + "__syncthreads();\n";
  S += I1 + "// Each thread now stores elements its transposed neighbours "
            "computed.\n";
  std::string Drain = I2 + "const " + unqualifiedType(X->Type) + " " + X->Name +
                      " = blockIdx.x * " + B_ + " + threadIdx.y;\n";
  Drain += I2 + "const " + unqualifiedType(Y->Type) + " " + Y->Name +
           " = blockIdx.y * " + Rows + " + threadIdx.x + " + Row + " * " + B_ +
           ";\n";
  std::string Get = Store + " = " + Tile + "[threadIdx.x + " + Row + " * " +
                    B_ + "][threadIdx.y];\n";
  Drain += Guard.empty() ? I2 + Get : I2 + "if (" + Guard + ")\n" + I3 + Get;
  S += Loop(Drain);
  if (Error E = Out.replace(Begin, Close - Begin, S))
    return E;
  return F > 1 ? shrinkGrid(Ctx, K, "y", F, Out) : Error::success();
}

} // namespace

void SharedStage::describe(const RewriteContext &Ctx, const KernelInfo &K,
                           KnobSink &Out) const {
  Knob Stage, Pad;
  Stage.Id = sharedStageKnob(K);
  Pad.Id = sharedPadKnob(K);
  Stage.Kernel = Pad.Kernel = K.Id;
  Stage.Default = "none";
  Pad.Default = 0;
  Pad.Values = {0, 1};
  // Tiles are sized by the block. A block the launches choose at run time
  // can still be staged when block-size may replace it by a constant: the
  // tile then takes the variant's constant (a configuration that keeps the
  // run-time block is refused when applied), and only the forms that keep
  // one output per thread are offered, since block-size recomputes the grid
  // for one thread per index.
  bool RuntimeBlock = false;
  if (std::string Why = blockShapeRefusal(K);
      !Why.empty() && K.Mapping.Reason.empty()) {
    RuntimeBlock = BlockSize::runtimeBlockReplaceable(Ctx, K);
    if (!RuntimeBlock)
      return Out.refuse(K.Id, Why, K.Location);
    Stage.Requires = {K.Id + ".block"};
  }
  std::vector<Knob> NoKnobs;
  ResolvedConfig Original(NoKnobs);
  NestPlan Nest = planReductionNest(Ctx, K);
  // A strip loop of transposed stores (TransposeStrip.h); the model may see
  // a reduction loop in it too.
  StripPlan Strip = planTransposeStrip(Ctx, K);
  if (Strip.Refusal.empty())
    Strip.Refusal = stripBlockRefusal(Ctx, K, Strip, Original);
  if (Nest.Refusal.empty() && !Nest.Staged.empty()) {
    // The depths whose tiles fit at the kernel's own block shape, with one
    // output per thread (more outputs, or another block, may not fit: the
    // configuration is then rejected).
    std::optional<std::array<int64_t, 3>> Block =
        variantBlockShape(Ctx, K, Original);
    Stage.Values = {"none"};
    for (int64_t Depth : {8, 16, 32, 64}) {
      NestChoice C;
      C.TileK = Depth;
      if (!Block || nestSharedBytes(Nest, C, (*Block)[0], (*Block)[1]) <=
                        Ctx.Target.MaxSharedPerBlock)
        Stage.Values.push_back(Depth);
    }
    if (Stage.Values.size() == 1)
      return Out.refuse(K.Id,
                        "even tiles 8 deep need more shared memory than a "
                        "block may declare statically",
                        K.Location);
  } else if (Strip.Refusal.empty()) {
    Stage.Values = {"none", "tile"};
  } else if (HaloPlan H = K.Mapping.Reduction ? planHalo(Ctx, K) : HaloPlan();
             K.Mapping.Reduction && !H.Refusal.empty()) {
    // A loop that sums neighbours (a blur's dy/dx loops) is a reduction
    // with nothing to tile across k, and may still be a neighbourhood.
    return Out.refuse(
        K.Id,
        (Nest.Refusal.empty() ? "no global operand of the loop is read by "
                                "several threads of a block"
                              : Nest.Refusal) +
            (H.Refusal == Nest.Refusal
                 ? ""
                 : "; nor is it a neighbourhood to stage (" + H.Refusal + ")") +
            (Strip.Loop
                 ? "; nor a strip of transposed stores (" + Strip.Refusal + ")"
                 : ""),
        K.Location);
  } else if (K.Mapping.Reduction) {
    Stage.Values = {"none", "halo"};
  } else if (TransposePlan T = planTranspose(Ctx, K);
             T.Refusal.empty() && !RuntimeBlock) {
    Stage.Values = {"none", "tile"};
  } else if (HaloPlan H = planHalo(Ctx, K); H.Refusal.empty()) {
    Stage.Values = {"none", "halo"};
  } else {
    // A transposed store is one statement, or a strip loop of them.
    std::string TransposeWhy =
        T.Refusal.empty() ? blockShapeRefusal(K) +
                                "; a transposed tile shrinks the grid, which "
                                "block-size recomputes for a constant block"
        : Strip.Loop ? Strip.Refusal
                     : T.Refusal;
    std::string Why =
        K.Mapping.Reason.empty()
            ? "the work has no reduction loop to tile, no store to "
              "transpose (" +
                  TransposeWhy + ") and no neighbourhood to stage (" +
                  H.Refusal + ")"
            : K.Mapping.Reason;
    return Out.refuse(K.Id, Why, K.Location);
  }
  Out.offer(std::move(Stage));
  Out.offer(std::move(Pad));
}

Error SharedStage::apply(const RewriteContext &Ctx, const Knob &Kn,
                         const json::Value &V, const ResolvedConfig &Config,
                         EditSet &Out) const {
  const KernelInfo *K = kernelOf(Ctx, Kn);
  if (!K || Kn.Id != sharedStageKnob(*K))
    return Error::success(); // the padding is read by the stage knob
  if (V == json::Value("halo")) {
    HaloPlan H = planHalo(Ctx, *K);
    if (!H.Refusal.empty())
      return makeToolError(ExitCode::Internal, H.Refusal);
    return emitHalo(Ctx, *K, H, Config, Out);
  }
  if (V == json::Value("tile")) {
    TransposePlan T = planTranspose(Ctx, *K);
    if (T.Refusal.empty())
      return emitTranspose(Ctx, *K, T, Config, Out);
    StripPlan St = planTransposeStrip(Ctx, *K);
    if (!St.Refusal.empty())
      return makeToolError(ExitCode::Internal, T.Refusal);
    if (tileRows(*K, Config) != 1)
      return makeToolError(ExitCode::BadConfig,
                           "kernel " + K->Id +
                               ": a transposed strip tile does not compose "
                               "with coarsening (each thread already "
                               "covers a strip)");
    int64_t Pad = 0;
    if (const json::Value *P = Config.value(sharedPadKnob(*K)))
      Pad = P->getAsInteger().value_or(0);
    return emitTransposeStrip(Ctx, *K, St, Pad, Config, Out);
  }
  return emitReductionNest(Ctx, *K, planReductionNest(Ctx, *K),
                           nestChoice(*K, Config), Config, Out);
}

} // namespace cro
