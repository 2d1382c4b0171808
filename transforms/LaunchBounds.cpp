#include "LaunchBounds.h"
#include "BlockSize.h"
#include "ParallelScan.h"
#include "ReductionNest.h"
#include "ThreadRemap.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

namespace {

const char *const MaxRegKnob = "nvcc.maxrregcount";

/// The knob value the kernel's current attribute stands for.
json::Value currentBounds(const KernelInfo &K) {
  if (!K.Bounds)
    return "none";
  if (K.Bounds->MinBlocks.Kind == "default")
    return "max";
  if (K.Bounds->MinBlocks.Value)
    return *K.Bounds->MinBlocks.Value;
  return K.Bounds->MinBlocks.Text;
}

} // namespace

void LaunchBounds::describe(const RewriteContext &Ctx, const KernelInfo &K,
                            KnobSink &Out) const {
  if (std::string Why = hiddenLaunchRefusal(K); !Why.empty())
    return Out.refuse(K.Id, Why, K.AddressTaken.front());
  if (!BlockSize::currentShape(K)) {
    Out.refuse(K.Id, K.Launches.empty()
                           ? "no launch in this file gives the block size "
                             "that the bound must match"
                           : "the block size is not a compile-time constant "
                             "common to all launches");
    return;
  }
  if (K.Bounds && !K.Bounds->MaxThreads.Value) {
    Out.refuse(K.Id,
               "the existing __launch_bounds__ is not a compile-time "
               "constant",
               K.Bounds->Span.Begin);
    return;
  }
  Knob Kn;
  Kn.Id = K.Id + ".launch_bounds";
  Kn.Kernel = K.Id;
  Kn.Default = currentBounds(K);
  Kn.Values = {"none", "max", 1, 2, 3, 4, 8};
  Out.offer(std::move(Kn));
}

void LaunchBounds::describeFile(const RewriteContext &Ctx,
                                KnobSink &Out) const {
  Knob Kn;
  Kn.Id = MaxRegKnob;
  Kn.Role = KnobRole::RegisterCap;
  Kn.Default = 0; // the compiler's choice
  Kn.Values = {0};
  for (int64_t R : {32, 40, 48, 64, 80, 96, 128, 168, 255})
    if (R <= Ctx.Target.MaxRegistersPerThread)
      Kn.Values.push_back(R);
  Out.offer(std::move(Kn));
}

Error LaunchBounds::apply(const RewriteContext &Ctx, const Knob &K,
                          const json::Value &V, const ResolvedConfig &Config,
                          EditSet &Out) const {
  if (K.Id == MaxRegKnob) {
    if (std::optional<int64_t> N = V.getAsInteger(); N && *N > 0)
      Out.addFlag("-maxrregcount=" + std::to_string(*N));
    return Error::success();
  }
  const KernelInfo *KI = kernelOf(Ctx, K);
  if (!KI)
    return makeToolError(ExitCode::Internal, "no kernel for " + K.Id);
  std::optional<int64_t> Threads = BlockSize::threadsPerBlock(*KI, Config);
  std::optional<int64_t> Original = BlockSize::currentThreadsPerBlock(*KI);
  // The attribute as written stays unless the variant's block outgrows it,
  // or it is the block itself (`__launch_bounds__(256)` on 256-thread
  // launches) and the block changes: then it follows.
  std::optional<int64_t> Written =
      KI->Bounds ? KI->Bounds->MaxThreads.Value : std::nullopt;
  bool BlockChanged =
      Threads && Written &&
      (*Written < *Threads ||
       (Original && *Written == *Original && *Threads != *Original));
  // Register tiles and staged loops need many more registers than the
  // kernel as written; with more than 512 threads per block the compiler
  // must be told the block size, or the variant may not launch at all.
  // So with parallel-scan's groups past 512 threads (a one-thread kernel's
  // registers were never bounded by its block).
  bool RegistersBounded = Threads && *Threads > 512 && !KI->Bounds &&
                          V == json::Value("none") &&
                          (reductionNestRewritten(Ctx, *KI, Config) ||
                           parallelScanGroup(*KI, Config).value_or(1) > 512);
  if (V == K.Default && !BlockChanged && !RegistersBounded)
    return Error::success();
  if (!Threads)
    return makeToolError(ExitCode::Internal, "no block size for " + K.Id);

  // A cluster limit (the third argument) is kept as written; the minimum
  // before it cannot be left out then, and "none" leaves the attribute.
  if (KI->Bounds && KI->Bounds->MaxBlocksPerCluster.Kind != "default") {
    if (V == json::Value("none") && !BlockChanged)
      return Error::success();
    std::string Min = KI->Bounds->MinBlocks.Text;
    if (std::optional<int64_t> M = V.getAsInteger())
      Min = std::to_string(*M);
    return Out.replace(KI->Bounds->Span.BeginOffset,
                       KI->Bounds->Span.EndOffset -
                           KI->Bounds->Span.BeginOffset,
                       "__launch_bounds__(" + std::to_string(*Threads) + ", " +
                           Min + ", " +
                           KI->Bounds->MaxBlocksPerCluster.Text + ")");
  }
  std::string Attr;
  if (V == json::Value("max") || RegistersBounded)
    Attr = "__launch_bounds__(" + std::to_string(*Threads) + ")";
  else if (std::optional<int64_t> MinBlocks = V.getAsInteger())
    Attr = "__launch_bounds__(" + std::to_string(*Threads) + ", " +
           std::to_string(*MinBlocks) + ")";
  else if (V != json::Value("none")) // a symbolic minimum kept as written
    Attr = "__launch_bounds__(" + std::to_string(*Threads) + ", " +
           KI->Bounds->MinBlocks.Text + ")";

  if (KI->Bounds) {
    unsigned B = KI->Bounds->Span.BeginOffset, E = KI->Bounds->Span.EndOffset;
    if (Attr.empty()) {
      // Remove the attribute and one space after it.
      if (E < Ctx.Source.size() && Ctx.Source[E] == ' ')
        ++E;
      return Out.replace(B, E - B, "");
    }
    return Out.replace(B, E - B, Attr);
  }
  if (Attr.empty())
    return Error::success();
  return Out.insert(KI->NameOffset, Attr + " ");
}

} // namespace cro
