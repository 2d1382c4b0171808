#include "BlockFold.h"
#include "BlockCoarsen.h"
#include "ThreadRemap.h"
#include "WarpAggregate.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/TextLines.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

namespace {

constexpr int64_t Factors[] = {2, 4, 8, 16, 32, 64, 128, 256};

std::string foldRefusal(const RewriteContext &Ctx, const KernelInfo &K) {
  if (!K.BlockSum.Why.empty())
    return K.BlockSum.Why;
  if (std::string Why = blockCoarsenRefusal(Ctx, K, "x"); !Why.empty())
    return Why;
  return "";
}

/// Text of Span with each read of blockIdx.x in it replaced by Block and
/// each read of gridDim.x by Grid: what it computed in the original block
/// the loop stands for.
std::string asInOriginalBlock(const RewriteContext &Ctx, const KernelInfo &K,
                              const SourceSpan &Span, StringRef Block,
                              StringRef Grid) {
  const BlockIndexReads::Dim &R = K.BlockReads.Dims.at("x");
  std::vector<std::pair<SourceSpan, std::string>> Reads;
  for (const SourceSpan &S : R.BlockIdx)
    Reads.push_back({S, Block.str()});
  for (const SourceSpan &S : R.GridDim)
    Reads.push_back({S, Grid.str()});
  return spanTextReplacing(Ctx, Span, std::move(Reads));
}

} // namespace

void BlockFold::describe(const RewriteContext &Ctx, const KernelInfo &K,
                         KnobSink &Out) const {
  if (std::string Why = foldRefusal(Ctx, K); !Why.empty()) {
    Out.refuse(K.Id, Why, K.Location);
    return;
  }
  Knob Kn;
  Kn.Id = K.Id + ".fold";
  Kn.Kernel = K.Id;
  Kn.Default = 1;
  Kn.Values = {1};
  for (int64_t F : Factors)
    Kn.Values.push_back(F);
  Out.offer(std::move(Kn));
}

Error BlockFold::apply(const RewriteContext &Ctx, const Knob &Kn,
                       const json::Value &V, const ResolvedConfig &Config,
                       EditSet &Out) const {
  std::optional<int64_t> Factor = V.getAsInteger();
  if (!Factor || *Factor == 1)
    return Error::success();
  const KernelInfo *K = kernelOf(Ctx, Kn);
  if (!K)
    return makeToolError(ExitCode::Internal, "no kernel for knob " + Kn.Id);
  if (const json::Value *C = Config.value(K->Id + ".coarsen");
      C && *C != json::Value("none"))
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K->Id +
                             ": fold and coarsen both change which original "
                             "blocks a block runs");
  if (std::string Why = foldRefusal(Ctx, *K); !Why.empty())
    return makeToolError(ExitCode::Internal,
                         "knob " + Kn.Id + " has no plan: " + Why);
  const BlockSumInfo &B = K->BlockSum;
  StringRef Src = Ctx.Source;
  std::string F = std::to_string(*Factor);
  std::string In = kernelBodyIndent(Ctx, *K);
  std::string Sum = freshIdentifier(Src, "folded_sum");
  std::string Value = spanText(Ctx, B.Value);

  if (B.Form == "atomic") {
    // The body runs once per original block (coarsen's block form); the
    // atomicAdd becomes an addition to a register, added to the total once
    // after the last block, by a thread that contributed anything.
    std::string Any = freshIdentifier(Src, "folded_any");
    BlockLoopFrame Frame;
    Frame.Before = In + "// cuda-rewrite-opt fold " + F +
                   ": the values this thread adds to '" + B.Target +
                   "' for the original blocks below, added up first\n" + In +
                   B.Type + " " + Sum + " = 0;\n" + In + "bool " + Any +
                   " = false;\n";
    // With warp_aggregate on, the lanes that reach it together combine
    // their sums first (that transform leaves the folded atomic to this one).
    std::string Callee = "atomicAdd";
    if (const json::Value *W = Config.value(K->Id + ".warp_aggregate");
        W && W->getAsBoolean().value_or(false))
      if (std::optional<std::string> Aggregated =
              warpAggregatedCallee(Ctx, *K, "atomicAdd", B.Type, Out))
        Callee = *Aggregated;
    Frame.After = In + "if (" + Any + ")\n" + In + "  " + Callee + "(" +
                  B.Target + ", " + Sum + ");\n";
    if (Error E = Out.replace(B.Statement.BeginOffset,
                              B.Value.BeginOffset - B.Statement.BeginOffset,
                              "(" + Sum + " += ("))
      return E;
    if (Error E = Out.replace(B.Value.EndOffset,
                              B.Statement.EndOffset - B.Value.EndOffset,
                              "), " + Any + " = true)"))
      return E;
    return blockCoarsen(Ctx, *K, "x", *Factor, Config, Out, Frame);
  }

  // "shared-slot": the thread's value for each original block, from the
  // declarations before it evaluated again as that block did, added up
  // before the one store into its slot; what combines the slots is
  // unchanged.
  std::string Why;
  std::optional<std::string> Grid = originalGrid(*K, "x", Why);
  if (!Grid)
    return makeToolError(ExitCode::Internal, K->Id + ": " + Why);
  std::string Block = freshIdentifier(Src, "orig_block_x");
  std::string GridVar = freshIdentifier(Src, "orig_grid_x");
  std::string First = "blockIdx.x * " + F;
  std::string Inner = In + "    ";
  std::string Text = In + "// cuda-rewrite-opt fold " + F +
                     ": this thread's values for the original blocks " + First +
                     " ... " + First + " + " + std::to_string(*Factor - 1) +
                     ", added up before the block combines them\n" + In +
                     B.Type + " " + Sum + " = 0;\n" + In + "{\n" + In +
                     "  const unsigned int " + GridVar + " = " + *Grid + ";\n" +
                     In + "  for (unsigned int " + Block + " = " + First +
                     "; " + Block + " < " + First + " + " + F + " && " + Block +
                     " < " + GridVar + "; ++" + Block + ") {\n";
  for (const SourceSpan &P : B.Prefix)
    Text += Inner + asInOriginalBlock(Ctx, *K, P, Block, GridVar) + "\n";
  Text += Inner + Sum + " += (" +
          asInOriginalBlock(Ctx, *K, B.Value, Block, GridVar) + ");\n" + In +
          "  }\n" + In + "}\n";
  unsigned Line = lineStart(Src, B.Statement.BeginOffset);
  if (!Src.slice(Line, B.Statement.BeginOffset).trim(" \t").empty())
    return makeToolError(ExitCode::Internal,
                         K->Id + ": the thread's value is not stored at the "
                                 "start of a line");
  if (Error E = Out.insert(Line, Text))
    return E;
  if (Error E = Out.replace(B.Value.BeginOffset,
                            B.Value.EndOffset - B.Value.BeginOffset, Sum))
    return E;
  return shrinkGridStride(Ctx, *K, "x", *Factor, Out);
}

} // namespace cro
