#include "Tile.h"
#include "ReductionNest.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

namespace {

const int64_t Sizes[] = {4, 8, 16, 32, 64};

bool interchangeable(const RewriteContext &Ctx, const LoopInfo &L) {
  return !L.InnerLoop.empty() && L.InterchangeRefusal.empty() &&
         (L.InterchangeAliasing.empty() || Ctx.Options.AssumeNoAlias);
}

} // namespace

void Tile::describe(const RewriteContext &Ctx, const KernelInfo &K,
                    KnobSink &Out) const {
  for (const LoopInfo &L : K.Loops) {
    if (L.Kind != "for")
      continue;
    if (!L.StripMineRefusal.empty()) {
      Out.refuse(K.Id, "loop " + L.Id + ": " + L.StripMineRefusal,
                 L.Location);
      continue;
    }
    Knob Kn;
    Kn.Id = K.Id + ".tile." + L.Id;
    Kn.Kernel = K.Id;
    Kn.Default = "none";
    Kn.Values = {"none"};
    for (int64_t T : Sizes)
      Kn.Values.push_back(T);
    if (interchangeable(Ctx, L))
      for (int64_t T : Sizes)
        Kn.Values.push_back(std::to_string(T) + "-inner");
    else if (!L.InnerLoop.empty())
      Out.refuse(K.Id,
                 "loop " + L.Id + " cannot move inside loop " + L.InnerLoop +
                     ": " +
                     (L.InterchangeRefusal.empty() ? L.InterchangeAliasing
                                                   : L.InterchangeRefusal),
                 L.Location);
    Out.offer(std::move(Kn));
  }
}

Error Tile::apply(const RewriteContext &Ctx, const Knob &Kn,
                  const json::Value &V, const ResolvedConfig &Config,
                  EditSet &Out) const {
  if (V == json::Value("none"))
    return Error::success();
  const KernelInfo *K = kernelOf(Ctx, Kn);
  const LoopInfo *L = K ? loopOf(*K, Kn) : nullptr;
  if (!L)
    return makeToolError(ExitCode::Internal, "no loop for knob " + Kn.Id);
  if (K->Mapping.Reduction && K->Mapping.Reduction->Loop == L->Id &&
      reductionNestRewritten(Ctx, *K, Config))
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K->Id + ": loop " + L->Id +
                             " is rewritten by shared-stage/register-tile, "
                             "which tile it themselves");
  int64_t T = 0;
  bool Inner = false;
  if (std::optional<int64_t> N = V.getAsInteger())
    T = *N;
  else if (std::optional<StringRef> S = V.getAsString()) {
    Inner = S->consume_back("-inner");
    if (S->getAsInteger(10, T))
      T = 0;
  }
  if (T <= 0)
    return makeToolError(ExitCode::Internal, "bad tile value for " + Kn.Id);
  StringRef Src = Ctx.Source;
  std::string Var = L->InductionVar, Tile = freshIdentifier(Src, Var + "_tile");
  std::string T_ = std::to_string(T);
  // The loop's own comparison (`<` or `<=`, as the model normalized it);
  // a variable declared before the loop gets one of its own here, which
  // the model allows only where nothing reads the outer one afterwards.
  const std::string &Cmp = L->Compare;
  std::string Outer = "for (" + L->VarType + " " + Tile + " = " + L->Init +
                      "; " + Tile + " " + Cmp + " " + L->Bound + "; " + Tile +
                      " += " + T_ + ")";
  std::string Point = "for (" + L->VarType + " " + Var + " = " + Tile + "; " +
                      Var + " < " + Tile + " + " + T_ + " && " + Var + " " +
                      Cmp + " " + L->Bound + "; ++" + Var + ")";
  unsigned HB = L->Header.BeginOffset, HE = L->Header.EndOffset;
  if (!Inner)
    return Out.replace(HB, HE - HB, Outer + "\n" + L->Indent + "  " + Point);
  // Tiling: the tile loop outside, the inner loop next, the tile's
  // iterations innermost.
  const LoopInfo *G = loopNamed(*K, L->InnerLoop);
  if (!G || !interchangeable(Ctx, *L))
    return makeToolError(ExitCode::Internal, "no interchange for " + Kn.Id);
  if (Error E = Out.replace(HB, HE - HB, Outer))
    return E;
  StringRef Body = Src.slice(G->Body.BeginOffset, G->Body.EndOffset);
  unsigned From = G->Header.EndOffset; // just after the inner loop's `)`
  return Out.replace(From, G->Body.EndOffset - From,
                     " {\n" + G->Indent + "  " + Point + "\n" + G->Indent +
                         "    " + Body.str() + "\n" + G->Indent + "}");
}

} // namespace cro
