#include "Coarsen.h"
#include "BlockCoarsen.h"
#include "ReductionNest.h"
#include "ThreadRemap.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace cro {

namespace {

const int64_t Factors[] = {2, 4, 8};

} // namespace

namespace {

std::optional<Coarsening> parse(const json::Value &V) {
  std::optional<StringRef> S = V.getAsString();
  if (!S || *S == "none" || S->size() < 2)
    return std::nullopt;
  Coarsening C;
  C.Dim = S->take_front(1).str();
  StringRef Rest = S->drop_front(1);
  C.Contiguous = Rest.consume_back("-contiguous");
  if (Rest.getAsInteger(10, C.Factor))
    return std::nullopt;
  return C;
}

} // namespace

std::optional<Coarsening> coarsening(const KernelInfo &K,
                                     const ResolvedConfig &Config) {
  const json::Value *V = Config.value(K.Id + ".coarsen");
  return V ? parse(*V) : std::nullopt;
}

namespace {

bool freeDim(const KernelInfo &K, StringRef Dim) {
  return llvm::is_contained(K.GridStride.FreeDims, Dim);
}

/// K's coarsen knob with only its default, "none".
Knob emptyCoarsenKnob(const KernelInfo &K) {
  Knob Kn;
  Kn.Id = K.Id + ".coarsen";
  Kn.Kernel = K.Id;
  Kn.Default = "none";
  Kn.Values = {"none"};
  return Kn;
}

/// A kernel whose work is grid-stride loops is coarsened by launching fewer
/// blocks: the loops hand each thread more indices (GridStride.h says when
/// that computes the same outputs).
void describeGridStride(const RewriteContext &Ctx, const KernelInfo &K,
                        KnobSink &Out) {
  Knob Kn = emptyCoarsenKnob(K);
  std::string Refusals;
  for (const std::string &D : K.GridStride.FreeDims) {
    if (std::string R = gridStrideShrinkRefusal(Ctx, K, D); !R.empty()) {
      Refusals += (Refusals.empty() ? "" : "; ") + R;
      continue;
    }
    for (int64_t F : Factors)
      Kn.Values.push_back(D + std::to_string(F));
  }
  if (Kn.Values.size() == 1)
    return Out.refuse(K.Id, Refusals, K.Location);
  Out.offer(std::move(Kn));
}

/// Why the thread form (the index variable redefined per output, the guard
/// kept on each) cannot coarsen K along Dim; "" when it can.
std::string threadFormRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                              StringRef Dim) {
  if (!K.Mapping.Reason.empty() && !K.GridStride.Reason.empty())
    return K.GridStride.Reason;
  if (std::string Why = remapRefusalBesidesBuiltins(K); !Why.empty())
    return Why;
  if (!K.Mapping.indexVar(Dim))
    return "the kernel has no thread index in dimension " + Dim.str();
  if (std::string Why = strayBuiltinRefusal(K, Dim); !Why.empty())
    return Why;
  return gridShrinkRefusal(Ctx, K, Dim);
}

/// A dimension worth a refusal: the kernel places its threads along it.
bool placesThreadsAlong(const KernelInfo &K, StringRef Dim) {
  return K.Mapping.indexVar(Dim) || llvm::is_contained(K.ThreadDimsUsed, Dim);
}

} // namespace

void Coarsen::describe(const RewriteContext &Ctx, const KernelInfo &K,
                       KnobSink &Out) const {
  if (!K.GridStride.FreeDims.empty())
    return describeGridStride(Ctx, K, Out);
  Knob Kn = emptyCoarsenKnob(K);
  std::vector<std::string> Refusals;
  auto Refused = [&](const std::string &R) {
    if (!R.empty() && !llvm::is_contained(Refusals, R))
      Refusals.push_back(R);
  };
  for (StringRef Dim : {"x", "y"}) {
    std::string Thread = threadFormRefusal(Ctx, K, Dim);
    if (Thread.empty()) {
      for (int64_t F : Factors)
        Kn.Values.push_back(Dim.str() + std::to_string(F));
      for (int64_t F : Factors)
        Kn.Values.push_back(Dim.str() + std::to_string(F) + "-contiguous");
      continue;
    }
    std::string Block = blockCoarsenRefusal(Ctx, K, Dim);
    if (Block.empty()) {
      for (int64_t F : Factors)
        Kn.Values.push_back(Dim.str() + std::to_string(F));
      continue;
    }
    if (!placesThreadsAlong(K, Dim))
      continue;
    // Both forms fail: the thread form's reason is about the index and the
    // guard, the block form's about what a block does; say both.
    Refused(Thread);
    if (Block != Thread)
      Refused("one block doing the work of several: " + Block);
  }
  if (Kn.Values.size() == 1) {
    if (Refusals.empty())
      Refusals.push_back("the kernel reads neither blockIdx nor a thread "
                         "index along x or y");
    return Out.refuse(K.Id, join(Refusals, "; "), K.Location);
  }
  Out.offer(std::move(Kn));
}

Error Coarsen::apply(const RewriteContext &Ctx, const Knob &Kn,
                     const json::Value &V, const ResolvedConfig &Config,
                     EditSet &Out) const {
  std::optional<Coarsening> C = parse(V);
  if (!C)
    return Error::success();
  const KernelInfo *K = kernelOf(Ctx, Kn);
  if (K && freeDim(*K, C->Dim) && !C->Contiguous)
    return shrinkGridStride(Ctx, *K, C->Dim, C->Factor, Out);
  // A transposed shared tile takes its rows per thread from this knob and
  // writes the kernel itself.
  if (const json::Value *Stage =
          K ? Config.value(sharedStageKnob(*K)) : nullptr;
      Stage && *Stage == json::Value("tile"))
    return Error::success();
  if (!K)
    return makeToolError(ExitCode::Internal, "no kernel for knob " + Kn.Id);
  // The form describe() offered this value for.
  if (!threadFormRefusal(Ctx, *K, C->Dim).empty()) {
    if (C->Contiguous)
      return makeToolError(ExitCode::BadConfig,
                           "kernel " + K->Id + ": '" + C->Dim +
                               std::to_string(C->Factor) +
                               "-contiguous' needs the thread form");
    return blockCoarsen(Ctx, *K, C->Dim, C->Factor, Config, Out);
  }
  const ThreadIndexVar *IV = K->Mapping.indexVar(C->Dim);
  if (!IV)
    return makeToolError(ExitCode::Internal, "no index for knob " + Kn.Id);
  const ThreadMapping &M = K->Mapping;
  StringRef Src = Ctx.Source;
  std::string F = std::to_string(C->Factor);
  std::string Base = freshIdentifier(Src, IV->Name + "_first");
  std::string Step = freshIdentifier(Src, IV->Name + "_step");
  std::string D = C->Dim;
  std::string Type = unqualifiedType(IV->Type); // `const` is added below

  // The index becomes the first of the thread's outputs ...
  std::string Indent =
      Src.slice(lineStart(Src, IV->Decl.BeginOffset), IV->Decl.BeginOffset)
          .str();
  std::string First = C->Contiguous ? "(blockIdx." + D + " * blockDim." + D +
                                          " + threadIdx." + D + ") * " + F
                                    : "blockIdx." + D + " * blockDim." + D +
                                          " * " + F + " + threadIdx." + D;
  if (Error E = Out.replace(
          IV->Decl.BeginOffset, IV->Decl.EndOffset - IV->Decl.BeginOffset,
          "const " + Type + " " + Base + " = " + First + ";"))
    return E;
  // ... and the rest of the body runs once per output.
  unsigned After = 0;
  for (const ThreadIndexVar &Other : M.IndexVars)
    After = std::max(After, Other.Decl.EndOffset);
  std::string Next = C->Contiguous ? Base + " + " + Step
                                   : Base + " + " + Step + " * blockDim." + D;
  if (Error E = Out.insert(After, "\n" + Indent + "#pragma unroll\n" + Indent +
                                      "for (int " + Step + " = 0; " + Step +
                                      " < " + F + "; ++" + Step + ") {\n" +
                                      Indent + "const " + Type + " " +
                                      IV->Name + " = " + Next + ";"))
    return E;
  unsigned Close = K->BodySpan.EndOffset - 1; // the body's `}`
  if (Src[Close] != '}')
    return makeToolError(ExitCode::Internal, "kernel body end not found");
  if (Error E = Out.insert(lineStart(Src, Close) == Close ? Close : Close,
                           Indent + "}\n"))
    return E;
  // Leaving one output must not skip the others.
  std::vector<SourceSpan> Returns;
  for (const ThreadMapping::Return &R : M.Returns)
    Returns.push_back(R.Span);
  if (M.GuardKind == "early-return")
    for (TokenRange T :
         findIdentifier(Src, M.Guard.BeginOffset, M.Guard.EndOffset, "return"))
      Returns.push_back({"", "", T.Offset, T.Offset + T.Length});
  if (Error E = returnsBecomeContinue(Src, Returns, Out))
    return E;
  return shrinkGrid(Ctx, *K, C->Dim, C->Factor, Out);
}

} // namespace cro
