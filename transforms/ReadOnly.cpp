#include "ReadOnly.h"
#include "LaunchAliasing.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

namespace {

bool wantsEdit(const ParamInfo &P) {
  return P.IsPointer && P.Access == "read" && !(P.PointeeConst && P.IsRestrict);
}

} // namespace

void ReadOnly::describe(const RewriteContext &Ctx, const KernelInfo &K,
                        KnobSink &Out) const {
  std::vector<const ParamInfo *> Edited;
  for (const ParamInfo &P : K.Params)
    if (wantsEdit(P))
      Edited.push_back(&P);
  if (Edited.empty()) {
    bool AnyReadOnly = false;
    for (const ParamInfo &P : K.Params)
      AnyReadOnly |= P.IsPointer && P.Access == "read";
    Out.refuse(K.Id, AnyReadOnly ? "its read-only pointers are already "
                                     "const __restrict__"
                                   : "no pointer parameter is only read");
    return;
  }
  for (const ParamInfo *P : Edited) {
    if (!P->PlainPointerDeclarator) {
      Out.refuse(K.Id, "parameter '" + P->Name +
                             "' is not written as `T *name` (a typedef or "
                             "macro type), so const cannot be added in place");
      return;
    }
    if (P->AliasedByNonConst && !P->PointeeConst) {
      Out.refuse(K.Id, "parameter '" + P->Name +
                             "' is copied into a pointer to non-const, which "
                             "would no longer compile");
      return;
    }
  }
  if (K.DeclaredInHeader) {
    Out.refuse(K.Id, "the kernel is also declared in a header, whose "
                       "signature would no longer match");
    return;
  }
  for (const std::vector<ParamInfo> &Decl : K.Redeclarations)
    if (Decl.size() != K.Params.size()) {
      Out.refuse(K.Id, "a prototype of the kernel has a different number "
                         "of parameters");
      return;
    }
  std::string Alias = launchAliasingReason(K);
  if (!Alias.empty() && !Ctx.Options.AssumeNoAlias) {
    Out.refuse(K.Id, Alias + "; pass --assume-no-alias to allow "
                               "__restrict__ anyway");
    return;
  }
  Knob Kn;
  Kn.Id = K.Id + ".read_only";
  Kn.Kernel = K.Id;
  Kn.Default = false;
  Kn.Values = {false, true};
  Out.offer(std::move(Kn));
}

Error ReadOnly::apply(const RewriteContext &Ctx, const Knob &K,
                      const json::Value &V, const ResolvedConfig &,
                      EditSet &Out) const {
  if (V == K.Default || V != json::Value(true))
    return Error::success();
  const KernelInfo *KI = kernelOf(Ctx, K);
  if (!KI)
    return makeToolError(ExitCode::Internal, "no kernel for " + K.Id);
  auto EditParam = [&](const ParamInfo &Target, const ParamInfo &P) -> Error {
    if (!Target.PointeeConst)
      if (Error E = Out.insert(P.Span.BeginOffset, "const "))
        return E;
    if (Target.IsRestrict)
      return Error::success();
    if (P.NameOffset)
      return Out.insert(P.NameOffset, "__restrict__ ");
    return Out.insert(P.Span.EndOffset, " __restrict__"); // unnamed
  };
  for (size_t I = 0; I < KI->Params.size(); ++I) {
    const ParamInfo &P = KI->Params[I];
    if (!wantsEdit(P))
      continue;
    if (Error E = EditParam(P, P))
      return E;
    for (const std::vector<ParamInfo> &Decl : KI->Redeclarations)
      if (Error E = EditParam(P, Decl[I]))
        return E;
  }
  return Error::success();
}

} // namespace cro
