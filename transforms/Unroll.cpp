#include "Unroll.h"
#include "ReductionNest.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

namespace {

json::Value currentUnroll(const LoopInfo &L) {
  if (!L.HasUnrollPragma)
    return "none";
  if (L.UnrollValue == "full")
    return "full";
  int64_t N;
  if (!StringRef(L.UnrollValue).getAsInteger(10, N))
    return N;
  return L.UnrollValue; // a symbolic count: kept as written
}

} // namespace

std::string unrollPragma(const json::Value &V) {
  if (V == json::Value("full"))
    return "#pragma unroll";
  if (std::optional<int64_t> N = V.getAsInteger())
    return "#pragma unroll " + std::to_string(*N);
  if (std::optional<StringRef> S = V.getAsString(); S && *S != "none")
    return "#pragma unroll " + S->str();
  return "";
}

void Unroll::describe(const RewriteContext &Ctx, const KernelInfo &K,
                      KnobSink &Out) const {
  for (const LoopInfo &L : K.Loops) {
    if (L.InMacro) {
      Out.refuse(K.Id,
                 "loop " + L.Id +
                     " is written inside a macro; a pragma "
                     "cannot be placed before it",
                 L.Location);
      continue;
    }
    Knob Kn;
    Kn.Id = K.Id + ".unroll." + L.Id;
    Kn.Kernel = K.Id;
    Kn.Default = currentUnroll(L);
    Kn.Values = {"none", 1, 2, 4, 8, 16};
    if (L.TripCount)
      Kn.Values.push_back("full");
    Out.offer(std::move(Kn));
  }
}

Error Unroll::apply(const RewriteContext &Ctx, const Knob &K,
                    const json::Value &V, const ResolvedConfig &Config,
                    EditSet &Out) const {
  if (V == K.Default)
    return Error::success();
  const KernelInfo *KI = kernelOf(Ctx, K);
  const LoopInfo *L = KI ? loopOf(*KI, K) : nullptr;
  if (!L)
    return makeToolError(ExitCode::Internal, "no loop for knob " + K.Id);
  // A reduction loop that shared-stage/register-tile rewrite gets its
  // pragma from them, on the loop they write.
  if (KI->Mapping.Reduction && KI->Mapping.Reduction->Loop == L->Id &&
      reductionNestRewritten(Ctx, *KI, Config))
    return Error::success();
  std::string Pragma = unrollPragma(V);

  StringRef Src = Ctx.Source;
  if (L->HasUnrollPragma) {
    // Replace the existing pragma's line, or remove it for "none".
    unsigned Begin = L->PragmaSpan.BeginOffset, End = L->PragmaSpan.EndOffset;
    if (Pragma.empty())
      return Out.replace(Begin, End - Begin + (End < Src.size() ? 1 : 0), "");
    return Out.replace(Begin, End - Begin,
                       lineIndent(Src, Begin).str() + Pragma);
  }
  if (Pragma.empty())
    return Error::success();
  unsigned Begin = L->Span.BeginOffset;
  unsigned Line = lineStart(Src, Begin);
  if (Src.substr(Line, Begin - Line).trim(" \t").empty())
    return Out.insert(Line, L->Indent + Pragma + "\n");
  // The loop does not start its line (`if (c) for (...)`): break the line.
  return Out.insert(Begin, "\n" + L->Indent + Pragma + "\n" + L->Indent);
}

} // namespace cro
