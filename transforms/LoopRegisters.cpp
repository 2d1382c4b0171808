#include "LoopRegisters.h"
#include "LaunchAliasing.h"
#include "cro/Support/TextLines.h"

using namespace llvm;

namespace cro {

void offerPerLoop(const KernelInfo &K, KnobSink &Out, StringRef KnobName,
                  const std::function<LoopVerdict(const LoopInfo &)> &Verdict,
                  StringRef NoneReason) {
  bool Any = false;
  for (const LoopInfo &L : K.Loops) {
    if (L.InMacro)
      continue;
    LoopVerdict V = Verdict(L);
    if (!V.Relevant)
      continue;
    Any = true;
    if (!V.Refusal.empty()) {
      Out.refuse(K.Id, V.Refusal, L.Location);
      continue;
    }
    Knob Kn;
    Kn.Id = K.Id + "." + KnobName.str() + "." + L.Id;
    Kn.Kernel = K.Id;
    Kn.Default = false;
    Kn.Values = {false, true};
    Out.offer(std::move(Kn));
  }
  if (!Any)
    Out.refuse(K.Id, NoneReason, K.Location);
}

Error insertBeforeLoop(StringRef Src, const LoopInfo &L,
                       const std::string &Text, EditSet &Out) {
  unsigned Begin =
      L.HasUnrollPragma ? L.PragmaSpan.BeginOffset : L.Span.BeginOffset;
  unsigned Line = lineStart(Src, Begin);
  if (Src.slice(Line, Begin).trim(" \t").empty())
    return Out.insert(Line, Text);
  return Out.insert(Begin, "\n" + Text + L.Indent);
}

std::string escapedAliasRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                                StringRef Array, StringRef Verb) {
  for (const ParamInfo &Pm : K.Params)
    if (Pm.IsPointer && Pm.Access == "unknown" &&
        mayAlias(Ctx, K, Pm.Name, Array, false))
      return "'" + Pm.Name + "' escapes the analysis (" + Pm.EscapeReason +
             "), so '" + Array.str() + "' may be " + Verb.str() +
             " where the model does not see it";
  return "";
}

} // namespace cro
