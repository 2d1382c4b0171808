#include "BlockCoarsen.h"
#include "ThreadRemap.h"
#include "cro/Analysis/ASTHelpers.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/TextLines.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

namespace {

/// The kernel parameter through which launch L passes the host value
/// written `HostText` (a plain argument, or a field of a by-value struct
/// argument), as the kernel names it; "" when L passes no such parameter or
/// the kernel changes it before it could be read.
std::string parameterCarrying(const KernelInfo &K, const LaunchSite &L,
                              StringRef HostText) {
  std::string Want = normalizeSpelling(HostText);
  for (size_t I = 0; I < K.Params.size() && I < L.Args.size(); ++I) {
    const ParamInfo &P = K.Params[I];
    if (P.IsPointer || !P.ModifiedAt.empty() || P.Name.empty())
      continue;
    std::string Arg = normalizeSpelling(L.Args[I].Text);
    if (Arg == Want)
      return P.Name;
    if (StringRef(Want).starts_with(Arg + ".")) {
      StringRef Field = StringRef(Want).drop_front(Arg.size() + 1);
      if (!Field.empty() && Field.find_first_of(".()[]->") == StringRef::npos)
        return P.Name + "." + Field.str();
    }
  }
  return "";
}

/// The number of blocks launch L starts along Dim, as an expression the
/// kernel can evaluate (constants, its parameters, blockDim); nullopt with
/// Why when the kernel cannot know it.
std::optional<std::string> kernelSideGrid(const KernelInfo &K,
                                          const LaunchSite &L, StringRef Dim,
                                          std::string &Why) {
  unsigned D = dimIndex(Dim);
  std::string Where = "the grid at " + L.Location;
  auto OneBlock = [&]() -> std::optional<std::string> {
    Why = "the launch at " + L.Location + " starts one block along " +
          Dim.str();
    return std::nullopt;
  };
  if (D >= L.Grid.Dims.size() || L.Grid.Dims[D].Kind == "default")
    return OneBlock();
  const ValueOrigin &G = L.Grid.Dims[D];
  if (const auto &Dv = G.Derived) {
    // ceil(E / B) or E / B: B is the block's extent along Dim (so the
    // kernel reads it from blockDim, also after block-size changes it).
    if (Dv->BlockDim.empty()) {
      Why = Where + " divides '" + Dv->Extent + "' by '" + Dv->BlockTerm +
            "', which is not the launch's block extent";
      return std::nullopt;
    }
    std::string B = "blockDim." + Dv->BlockDim;
    if (Dv->BlockMultiple != 1)
      B = "(" + std::to_string(Dv->BlockMultiple) + " * " + B + ")";
    std::string E;
    if (Dv->ExtentValue) {
      E = std::to_string(*Dv->ExtentValue);
    } else if (G.StableAtLaunch) {
      E = parameterCarrying(K, L, Dv->Extent);
    }
    if (E.empty()) {
      Why = Where + " is computed from '" + Dv->Extent +
            "', which the launch does not pass the kernel, so the kernel "
            "cannot tell which blocks the original grid has";
      return std::nullopt;
    }
    bool Rounded = Dv->RoundUp.EndOffset > Dv->RoundUp.BeginOffset;
    if (Dv->Form == "ceil-float" &&
        (!Dv->ExtentValue || *Dv->ExtentValue >= (int64_t(1) << 24))) {
      // ceil((float)E / B) is ceil(E / B) only while E is exact in float.
      Why = Where + " rounds '" + Dv->Extent +
            "' in float arithmetic, which the kernel cannot repeat exactly";
      return std::nullopt;
    }
    if (Dv->Form == "ceil-div" || Dv->Form == "ceil-float" || Rounded)
      return "(" + E + " + " + B + " - 1) / " + B;
    if (Dv->Form == "floor-div")
      return E + " / " + B;
    Why = Where + " is computed as '" + Dv->Form + "'";
    return std::nullopt;
  }
  if (G.Value) {
    if (*G.Value <= 1)
      return OneBlock();
    return std::to_string(*G.Value);
  }
  if (G.StableAtLaunch)
    if (std::string P = parameterCarrying(K, L, G.Text); !P.empty())
      return P;
  Why = Where + " ('" + G.Text +
        "') is a run-time value the launch does not pass the kernel, so "
        "the kernel cannot tell which blocks the original grid has";
  return std::nullopt;
}

bool usesSharedMemory(const KernelInfo &K) { return !K.SharedArrays.empty(); }

/// The indentation of the body's first line of code (tabs stay tabs), or
/// two spaces more than the kernel's own line for a body on one line.
std::string bodyIndent(StringRef Src, unsigned Open, unsigned Close,
                       unsigned KernelBegin) {
  for (size_t At = Src.find('\n', Open); At != StringRef::npos && At < Close;
       At = Src.find('\n', At + 1)) {
    StringRef Line =
        Src.slice(At + 1, std::min<size_t>(Src.find('\n', At + 1), Close));
    StringRef Code = Line.ltrim(" \t");
    if (!Code.empty() && !Code.starts_with("\r"))
      return Line.take_front(Line.size() - Code.size()).str();
  }
  return lineIndent(Src, KernelBegin).str() + "  ";
}

} // namespace

std::optional<std::string> originalGrid(const KernelInfo &K, StringRef Dim,
                                        std::string &Why) {
  std::optional<std::string> Common;
  std::string CommonAt;
  for (const LaunchSite &L : K.Launches) {
    std::optional<std::string> G = kernelSideGrid(K, L, Dim, Why);
    if (!G)
      return std::nullopt;
    if (Common && *Common != *G) {
      Why = "the launches at " + CommonAt + " and " + L.Location +
            " size the grid along " + Dim.str() + " differently ('" +
            *Common + "', '" + *G + "') for one kernel body";
      return std::nullopt;
    }
    Common = G;
    CommonAt = L.Location;
  }
  return Common;
}

std::string kernelBodyIndent(const RewriteContext &Ctx, const KernelInfo &K) {
  return bodyIndent(Ctx.Source, K.BodySpan.BeginOffset,
                    K.BodySpan.EndOffset - 1, K.Span.BeginOffset);
}

std::string blockCoarsenRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                                StringRef Dim) {
  if (K.Launches.empty())
    return "the kernel is never launched in this file";
  if (std::string Why = gridChangeRefusal(K); !Why.empty())
    return Why;
  for (const LaunchSite &L : K.Launches)
    if (L.Syntax == "cudaLaunchCooperativeKernel")
      return "the launch at " + L.Location +
             " is cooperative: its blocks may wait for each other";
  auto It = K.BlockReads.Dims.find(Dim.str());
  if (It == K.BlockReads.Dims.end())
    return "the kernel's reads of blockIdx." + Dim.str() + " are unknown";
  const BlockIndexReads::Dim &D = It->second;
  if (!D.Obstacle.empty())
    return D.Obstacle;
  if (D.BlockIdx.empty())
    return "the kernel never reads blockIdx." + Dim.str() +
           ": its blocks along " + Dim.str() + " all do the same work";
  if (!K.Mapping.Conditionals.empty())
    return "the body holds a preprocessor conditional (" +
           K.Mapping.Conditionals.front() +
           "); the analysis sees only the branch this parse took";
  for (const ParamInfo &P : K.Params)
    if (!P.ModifiedAt.empty())
      return "the kernel changes its parameter '" + P.Name + "' at " +
             P.ModifiedAt +
             ": the next block's work would start from the changed value";
  for (const BlockIndexReads::Return &R : K.BlockReads.Returns)
    if (R.InLoop)
      return "the kernel returns from inside a loop or switch at " +
             R.Span.Begin;
  bool Communicate =
      K.UsesSyncthreads || K.UsesWarpIntrinsics || usesSharedMemory(K);
  if (Communicate && !K.BlockReads.Returns.empty())
    return "threads of a block communicate (barriers, warp exchanges or "
           "shared memory) and a thread may return early (at " +
           K.BlockReads.Returns.front().Span.Begin +
           "): it would meet the others at the next block's exchanges "
           "instead of this one's";
  std::string Why;
  if (!originalGrid(K, Dim, Why))
    return Why;
  return gridStrideShrinkRefusal(Ctx, K, Dim);
}

Error blockCoarsen(const RewriteContext &Ctx, const KernelInfo &K,
                   StringRef Dim, int64_t Factor, const ResolvedConfig &Config,
                   EditSet &Out, const BlockLoopFrame &Frame) {
  auto Bad = [&](const Twine &Why) {
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K.Id + ": " + Why.str());
  };
  if (const json::Value *P = Config.value(K.Id + ".privatize");
      P && *P == json::Value(true))
    return Bad("coarsen's block form and privatize both wrap the kernel's "
               "body");
  std::string Why;
  std::optional<std::string> Grid = originalGrid(K, Dim, Why);
  if (!Grid)
    return makeToolError(ExitCode::Internal, K.Id + ": " + Why);
  StringRef Src = Ctx.Source;
  unsigned Open = K.BodySpan.BeginOffset, Close = K.BodySpan.EndOffset - 1;
  if (Src[Open] != '{' || Src[Close] != '}')
    return makeToolError(ExitCode::Internal, "kernel body not found");
  std::string D = Dim.str(), F = std::to_string(Factor);
  std::string Block = freshIdentifier(Src, "orig_block_" + D);
  std::string GridVar = freshIdentifier(Src, "orig_grid_" + D);
  std::string In = bodyIndent(Src, Open, Close, K.Span.BeginOffset);
  std::string First = "blockIdx." + D + " * " + F;
  std::string Head =
      "\n" + Frame.Before + In + "// cuda-rewrite-opt coarsen " + D + F +
      ": this block does the work of the original grid's blocks\n" + In +
      "// " + First + " ... " + First + " + " + std::to_string(Factor - 1) +
      " along " + D + ", one after another.\n" + In + "const unsigned int " +
      GridVar + " = " + *Grid + ";\n" + In + "for (unsigned int " + Block +
      " = " + First + "; " + Block + " < " + First + " + " + F + " && " +
      Block + " < " + GridVar + "; ++" + Block + ") {";
  if (Error E = Out.insert(Open + 1, Head))
    return E;
  std::string Tail;
  if (usesSharedMemory(K))
    Tail += In + "__syncthreads(); // the next block's work reuses shared "
                 "memory\n";
  Tail += In + "}\n" + Frame.After;
  unsigned At = lineStart(Src, Close);
  if (!StringRef(Src.slice(At, Close)).trim().empty())
    At = Close, Tail = "\n" + Tail;
  if (Error E = Out.insert(At, Tail))
    return E;
  const BlockIndexReads::Dim &R = K.BlockReads.Dims.at(D);
  for (const SourceSpan &S : R.BlockIdx)
    if (Error E = Out.replace(S.BeginOffset, S.EndOffset - S.BeginOffset,
                              Block))
      return E;
  for (const SourceSpan &S : R.GridDim)
    if (Error E = Out.replace(S.BeginOffset, S.EndOffset - S.BeginOffset,
                              GridVar))
      return E;
  // Leaving one original block's work goes on with the next one.
  std::vector<SourceSpan> Returns;
  for (const BlockIndexReads::Return &Ret : K.BlockReads.Returns)
    Returns.push_back(Ret.Span);
  if (Error E = returnsBecomeContinue(Src, Returns, Out))
    return E;
  return shrinkGridStride(Ctx, K, Dim, Factor, Out);
}

} // namespace cro
