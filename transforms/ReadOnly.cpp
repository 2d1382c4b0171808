#include "ReadOnly.h"
#include "LaunchAliasing.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

namespace {

bool wantsEdit(const ParamInfo &P) {
  return P.IsPointer && P.Access == "read" && !(P.PointeeConst && P.IsRestrict);
}

/// Makes the pointee of the declaration Edit belongs to const.
Error makePointeeConst(const PointeeConstEdit &Edit, EditSet &Out) {
  if (Edit.InsertAt)
    return Out.insert(Edit.InsertAt, "const ");
  return Out.replace(Edit.Replace.BeginOffset,
                     Edit.Replace.EndOffset - Edit.Replace.BeginOffset,
                     Edit.With);
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
    if (!P->PointeeConst && !P->ConstEdit.possible()) {
      // The type comes out of a macro that also spells the name, or a
      // typedef of a pointer to a type the kernel cannot name (a local or
      // unnamed class): no edit of this declaration qualifies the pointee.
      Out.refuse(K.Id, "the type of parameter '" + P->Name + "' ('" + P->Type +
                           "') comes from a macro that also declares the "
                           "parameter, or from a typedef of a pointer to "
                           "an unnamed type: no edit of the declaration "
                           "makes the pointee const without changing the "
                           "macro or typedef other code uses");
      return;
    }

    // The locals that copy the parameter become pointers to const with it
    // (they are only read through: the parameter's access counts theirs).
    for (const ParamInfo::NonConstCopy &C : P->NonConstCopies)
      if (!P->PointeeConst && !C.ConstEdit.possible()) {
        Out.refuse(K.Id, "parameter '" + P->Name + "' is copied into '" +
                             C.Name + "' (" + C.Location +
                             "), which shares its declaration with other "
                             "variables (their pointees would become const "
                             "too) or is declared by a macro");
        return;
      }
  }
  if (K.DeclaredInHeader) {
    Out.refuse(K.Id, "the kernel is also declared in a header, whose "
                       "signature would no longer match");
    return;
  }
  for (const std::vector<ParamInfo> &Decl : K.Redeclarations) {
    if (Decl.size() != K.Params.size()) {
      Out.refuse(K.Id, "a prototype of the kernel has a different number "
                         "of parameters");
      return;
    }
    for (const ParamInfo *P : Edited) {
      const ParamInfo &Other = Decl[P - K.Params.data()];
      if (!P->PointeeConst && !Other.PointeeConst &&
          !Other.ConstEdit.possible()) {
        Out.refuse(K.Id, "a prototype of the kernel spells parameter '" +
                             P->Name +
                             "' where no in-place edit can make its "
                             "pointee const");
        return;
      }
    }
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
      if (Error E = makePointeeConst(P.ConstEdit, Out))
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
    if (!P.PointeeConst)
      for (const ParamInfo::NonConstCopy &C : P.NonConstCopies)
        if (Error E = makePointeeConst(C.ConstEdit, Out))
          return E;
    for (const std::vector<ParamInfo> &Decl : KI->Redeclarations)
      if (Error E = EditParam(P, Decl[I]))
        return E;
  }
  return Error::success();
}

} // namespace cro
