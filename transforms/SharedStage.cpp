#include "SharedStage.h"
#include "ReductionNest.h"
#include "ThreadRemap.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"

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
  if (K.UsesSyncthreads || !K.SharedArrays.empty() || K.UsesWarpIntrinsics)
    return Fail("the kernel already uses shared memory, barriers or warp "
                "intrinsics");
  if (!M.indexVar("x") || !M.indexVar("y") || M.indexVar("z"))
    return Fail("staging a store through a tile needs a 2-D thread index");
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
  StringRef Src = Ctx.Source;
  StringRef Rest = Src.slice(P.Store->Span.EndOffset, M.Work.EndOffset).ltrim();
  if (P.Store->Span.BeginOffset != M.Work.BeginOffset ||
      !Rest.starts_with("=") || Rest.starts_with("==") ||
      !Rest.rtrim().ends_with(";") ||
      Rest.drop_front(1).drop_back(1).contains(';'))
    return Fail("the work is not one statement `out[...] = value;`");
  const AffineExpr &F = P.Store->Indices[0].Form;
  if (F.coefficient("threadIdx.x").constantValue() == 1)
    return Fail("the store is already contiguous across a warp");
  if (F.coefficient("threadIdx.y").constantValue() != 1)
    return Fail("the store is not contiguous in threadIdx.y either, so a "
                "transposed tile would not make it contiguous");
  unsigned ValueBegin = Rest.data() - Src.data() + 1;
  while (ValueBegin < Src.size() && isSpace(Src[ValueBegin]))
    ++ValueBegin;
  unsigned ValueEnd = Src.rfind(';', M.Work.EndOffset);
  P.Value = {"", "", ValueBegin, ValueEnd};
  P.Type = P.Store->ElementType;
  for (StringRef Q : {"const ", "volatile "})
    if (StringRef(P.Type).starts_with(Q))
      P.Type = P.Type.substr(Q.size());
  return P;
}

Error emitTranspose(const RewriteContext &Ctx, const KernelInfo &K,
                    const TransposePlan &P, const ResolvedConfig &Config,
                    EditSet &Out) {
  auto Bad = [&](const Twine &Why) {
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K.Name + ": " + Why.str());
  };
  if (const json::Value *V = Config.value(K.Name + ".coarsen");
      V && *V != json::Value("none"))
    return Bad("coarsen and shared-stage both remap its threads");
  std::optional<std::array<int64_t, 3>> Block =
      variantBlockShape(Ctx, K, Config);
  if (!Block || (*Block)[0] != (*Block)[1] || (*Block)[2] != 1)
    return Bad("a transposed tile needs a square block known at compile "
               "time");
  int64_t B = (*Block)[0];
  int64_t Pad = 0;
  if (const json::Value *V = Config.value(sharedPadKnob(K)))
    Pad = V->getAsInteger().value_or(0);
  const ThreadMapping &M = K.Mapping;
  StringRef Src = Ctx.Source;
  const ThreadIndexVar *X = M.indexVar("x"), *Y = M.indexVar("y");
  unsigned Begin = std::max(X->Decl.EndOffset, Y->Decl.EndOffset);
  unsigned Close = K.BodySpan.EndOffset - 1;
  std::string I1 =
      Src.slice(lineStart(Src, X->Decl.BeginOffset), X->Decl.BeginOffset).str();
  std::string Tile = freshIdentifier(Src, P.Store->Base + "_tile");
  std::string Guard = M.GuardKind == "none" ? "" : M.GuardCondition;
  std::string Value = Src.slice(P.Value.BeginOffset, P.Value.EndOffset).str();
  std::string Store = spanText(Ctx, P.Store->Span);
  std::string B_ = std::to_string(B);

  std::string S = "\n" + I1 +
                  "// cuda-rewrite-opt: the block's values go through a "
                  "shared tile and are stored transposed, so the store is "
                  "contiguous\n";
  S += I1 + "__shared__ " + P.Type + " " + Tile + "[" + B_ + "][" +
       std::to_string(B + Pad) + "];\n";
  std::string Fill = Tile + "[threadIdx.y][threadIdx.x] = " + Value + ";\n";
  S += Guard.empty() ? I1 + Fill
                     : I1 + "if (" + Guard + ")\n" + I1 + "  " + Fill;
  S += I1 + "__syncthreads();\n";
  S += I1 + "{\n";
  S += I1 + "  // This thread now stores the element its transposed "
            "neighbour computed.\n";
  S += I1 + "  const " + X->Type + " " + X->Name + " = blockIdx.x * " + B_ +
       " + threadIdx.y;\n";
  S += I1 + "  const " + Y->Type + " " + Y->Name + " = blockIdx.y * " + B_ +
       " + threadIdx.x;\n";
  std::string Put = Store + " = " + Tile + "[threadIdx.x][threadIdx.y];\n";
  S += Guard.empty() ? I1 + "  " + Put
                     : I1 + "  if (" + Guard + ")\n" + I1 + "    " + Put;
  S += I1 + "}\n";
  return Out.replace(Begin, Close - Begin, S);
}

} // namespace

void SharedStage::describe(const RewriteContext &Ctx, const KernelInfo &K,
                           KnobSink &Out) const {
  Knob Stage, Pad;
  Stage.Id = sharedStageKnob(K);
  Pad.Id = sharedPadKnob(K);
  Stage.Kernel = Pad.Kernel = K.Name;
  Stage.Default = "none";
  Pad.Default = 0;
  Pad.Values = {0, 1};
  NestPlan Nest = planReductionNest(Ctx, K);
  if (Nest.Refusal.empty() && !Nest.Staged.empty()) {
    Stage.Values = {"none", 8, 16, 32, 64};
  } else {
    TransposePlan T = planTranspose(Ctx, K);
    if (!T.Refusal.empty()) {
      std::string Why =
          K.Mapping.Reduction
              ? (Nest.Refusal.empty() ? "no global operand of the loop is "
                                        "read by several threads of a block"
                                      : Nest.Refusal)
          : K.Mapping.Reason.empty()
              ? "the work has no reduction loop to tile, and no store to "
                "transpose: " +
                    T.Refusal
              : T.Refusal;
      return Out.refuse(K.Name, Why, K.Location);
    }
    Stage.Values = {"none", "tile"};
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
  if (V == json::Value("tile")) {
    TransposePlan T = planTranspose(Ctx, *K);
    if (!T.Refusal.empty())
      return makeToolError(ExitCode::Internal, T.Refusal);
    return emitTranspose(Ctx, *K, T, Config, Out);
  }
  return emitReductionNest(Ctx, *K, planReductionNest(Ctx, *K),
                           nestChoice(*K, Config), Config, Out);
}

} // namespace cro
