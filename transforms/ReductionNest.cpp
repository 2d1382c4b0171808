#include "ReductionNest.h"
#include "BlockSize.h"
#include "Coarsen.h"
#include "LaunchAliasing.h"
#include "ThreadRemap.h"
#include "Unroll.h"
#include "cro/Analysis/ASTHelpers.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>

using namespace llvm;

namespace cro {

namespace {

bool inside(const SourceSpan &In, const SourceSpan &Out) {
  return In.BeginOffset >= Out.BeginOffset && In.EndOffset <= Out.EndOffset;
}

/// Names for generated variables: unused in the file and among each other.
class Names {
public:
  explicit Names(StringRef Source) : Source(Source) {}
  std::string get(StringRef Want) {
    std::string N = freshIdentifier(Source, Want);
    for (unsigned I = 2; Taken.count(N); ++I)
      N = freshIdentifier(Source, (Want + "_" + Twine(I)).str());
    Taken.insert(N);
    return N;
  }

private:
  StringRef Source;
  StringSet<> Taken;
};

std::string str(int64_t V) { return std::to_string(V); }

/// S, one of the statements before R's loop, is not a declaration.
bool isBeforeEffect(const ReductionLoopInfo &R, const SourceSpan &S) {
  return llvm::any_of(R.BeforeEffects, [&](const SourceSpan &F) {
    return F.BeginOffset == S.BeginOffset;
  });
}

/// Why the global element the loop adds to cannot live in a register for
/// the whole work ("" when it can, or when there is none), filling P's
/// Element fields. The work before the loop may write only that element;
/// nothing in the work may reach it through another pointer.
std::string planHeldElement(const RewriteContext &Ctx, const KernelInfo &K,
                            NestPlan &P) {
  const ReductionLoopInfo &R = *P.Loop;
  auto Spelled = [&](const SourceSpan &S) {
    return "'" + Ctx.Source.slice(S.BeginOffset, S.EndOffset).str() + "'";
  };
  auto AccessAt = [&](unsigned Offset) -> const AccessInfo * {
    for (const AccessInfo &A : K.Accesses)
      if (A.Span.BeginOffset == Offset)
        return &A;
    return nullptr;
  };
  const LoopInfo *L = nullptr;
  for (const LoopInfo &Each : K.Loops)
    L = Each.Id == R.Loop ? &Each : L;
  if (R.Element.empty() || !L || L->AccumulatedSites.empty()) {
    if (!R.BeforeElementWrites.empty())
      return "the statement before the loop writes " +
             Spelled(R.BeforeElementWrites.front()) +
             ", and the loop adds to no global element a register could "
             "hold";
    return "";
  }
  const AccessInfo *E = AccessAt(L->AccumulatedSites.front().BeginOffset);
  if (!E || E->Indices.size() != 1 || !E->Indices[0].Affine)
    return "the element '" + R.Element +
           "' the loop adds to is not modelled as an affine access";
  P.Element = E;
  std::vector<SourceSpan> Declarations;
  for (const SourceSpan &S : R.BeforeStatements)
    if (!isBeforeEffect(R, S))
      Declarations.push_back(S);
  auto In = [](const AccessInfo &A, ArrayRef<SourceSpan> Spans) {
    return llvm::any_of(Spans,
                        [&](const SourceSpan &S) { return inside(A.Span, S); });
  };
  std::string Alias = launchAliasingReason(K);
  auto MayAlias = [&](StringRef Other) {
    return mayAlias(Ctx, K, Other, E->Base, Alias.empty());
  };
  for (const AccessInfo &A : K.Accesses) {
    bool InWork =
        inside(A.Span, R.Span) || In(A, R.BeforeEffects) || In(A, Declarations);
    if (!InWork || A.Space == "local" || A.Space == "shared")
      continue;
    if (A.Base == E->Base) {
      if (In(A, Declarations))
        return "the declaration before the loop reads " + Spelled(A.Span) +
               " at " + A.Location +
               ", the element the loop adds to; it would be read before the "
               "register holds it";
      if (!sameElement(A, *E))
        return Spelled(A.Span) + " at " + A.Location +
               " is another element of '" + E->Base + "' than the " +
               Spelled(E->Span) +
               " the loop adds to, which a register would "
               "hide from it";
      P.ElementAccesses.push_back(&A);
      continue;
    }
    if (MayAlias(A.Base))
      return "'" + A.Base + "' may point into '" + E->Base + "' (" + Alias +
             "), and " + Spelled(E->Span) +
             " moves to a register; pass --assume-no-alias if they never "
             "overlap";
  }
  for (const SourceSpan &W : R.BeforeElementWrites) {
    const AccessInfo *A = AccessAt(W.BeginOffset);
    if (!A || !llvm::is_contained(P.ElementAccesses, A))
      return "the statement before the loop writes " + Spelled(W) +
             ", which is not the element " + Spelled(E->Span) +
             " the loop adds to";
  }
  for (const ParamInfo &Pm : K.Params)
    if (Pm.IsPointer && Pm.Access == "unknown" && MayAlias(Pm.Name))
      return "'" + Pm.Name + "' escapes the analysis (" + Pm.EscapeReason +
             "), so '" + E->Base +
             "' may be accessed where the model does "
             "not see it";
  llvm::sort(P.ElementAccesses, [](const AccessInfo *A, const AccessInfo *B) {
    return A->Span.BeginOffset < B->Span.BeginOffset;
  });
  // Not loaded when the first statement that touches the element assigns
  // it without reading it (`E[i * n + j] = 0;`).
  const AccessInfo *First = P.ElementAccesses.front();
  if (In(*First, R.BeforeEffects) && First->Mode == "write") {
    auto S = llvm::find_if(R.BeforeEffects, [&](const SourceSpan &F) {
      return inside(First->Span, F);
    });
    P.ElementLoaded = llvm::any_of(P.ElementAccesses, [&](const AccessInfo *A) {
      return A != First && inside(A->Span, *S);
    });
  }
  // Unconditional within the work: nothing between the work's start and
  // the access may skip it (the guard around the work is no such thing).
  P.ElementAlwaysAccessed =
      llvm::any_of(P.ElementAccesses, [&](const AccessInfo *A) {
        return In(*A, R.BeforeEffects) &&
               (A->SkippableBy.EndOffset == 0 ||
                !inside(A->SkippableBy, K.Mapping.Work));
      });
  return "";
}

/// The unroll pragma the configuration asks for on the reduction loop.
std::string loopUnrollPragma(const KernelInfo &K, const ReductionLoopInfo &R,
                             const ResolvedConfig &Config) {
  const json::Value *V = Config.value(K.Id + ".unroll." + R.Loop);
  return V ? cro::unrollPragma(*V) : "";
}

} // namespace

NestPlan planReductionNest(const RewriteContext &Ctx, const KernelInfo &K) {
  NestPlan P;
  const ThreadMapping &M = K.Mapping;
  if (std::string Why = remapRefusal(K); !Why.empty())
    P.Refusal = Why;
  else if (std::string Why = keptPrefixRefusal(Ctx, K); !Why.empty())
    P.Refusal = Why;
  else if (!M.Reduction)
    P.Refusal = "the work is not one loop with declarations before it";
  else if (!M.Reduction->Refusal.empty())
    P.Refusal = M.Reduction->Refusal;
  else if (!M.Returns.empty())
    P.Refusal = "the work returns early at " + M.Returns.front().Span.Begin;
  else if (M.indexVar("z"))
    P.Refusal = "3-D thread mappings are not tiled";
  else if (M.GuardKind != "none" && !M.GuardIsBox)
    P.Refusal = "the guard '" + M.GuardCondition +
                "' is not a bound on each thread index, so the tiles' "
                "bounds cannot be derived from it";
  if (!P.Refusal.empty())
    return P;
  P.Loop = &*M.Reduction;
  for (const ThreadMapping::LeadingDecl &D : M.LeadingDecls) {
    if (D.PerOutput.empty() || D.Name == P.Loop->Var)
      continue; // shared by the outputs, or the counter the nest redeclares
    if (!D.Reset.empty())
      P.LeadingAccumulators.push_back(&D);
    else if (P.OneOutputOnly.empty())
      P.OneOutputOnly = sharedLeadingDeclRefusal(D);
  }
  P.X = M.indexVar("x");
  P.Y = M.indexVar("y");
  if (std::string Why = planHeldElement(Ctx, K, P); !Why.empty()) {
    P.Refusal = Why;
    return P;
  }
  for (const AccessInfo &A : K.Accesses) {
    if (!inside(A.Span, P.Loop->Body) ||
        (A.Space != "global" && A.Space != "unknown") ||
        llvm::is_contained(P.ElementAccesses, &A))
      continue;
    // Spelled in place as `Base[...]` (not produced by a macro).
    StringRef Spelled = Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset);
    bool Ok = A.Direct && A.Mode == "read" && A.Indices.size() == 1 &&
              A.Indices[0].Affine && A.Loop == P.Loop->Loop &&
              Spelled.starts_with(A.Base) && Spelled.ends_with("]");
    const ParamInfo *Param = nullptr;
    for (const ParamInfo &PI : K.Params)
      if (PI.Name == A.Base)
        Param = &PI;
    Ok &= Param && Param->Access == "read";
    StagedOperand Op;
    if (Ok) {
      const AffineExpr &F = A.Indices[0].Form;
      Op.DepX = !F.coefficient("threadIdx.x").isZero();
      Op.DepY = !F.coefficient("threadIdx.y").isZero();
      SymPoly KCoef = F.coefficient(P.Loop->Var);
      Ok &= !(Op.DepX && Op.DepY) && !KCoef.isZero();
      Op.KFastest = KCoef.constantValue() == 1;
      // The tile loader evaluates the index outside the loop body, for
      // another thread's row or column: the loop variable and the thread
      // indices it renames; any other local would keep this thread's
      // value, and a parameter the kernel changes may differ there. Macros,
      // constants and unchanged parameters mean the same anywhere.
      const IndexInfo &I = A.Indices[0];
      Ok &= !I.LocalsInMacro;
      for (const std::string &Local : I.Locals)
        Ok &= Local == P.Loop->Var || (P.X && Local == P.X->Name) ||
              (P.Y && Local == P.Y->Name);
      for (const auto &Id : allIdentifiers(I.Text))
        for (const ParamInfo &PI : K.Params)
          Ok &= PI.Name != Id.getKey() || PI.ModifiedAt.empty();
    }
    if (!Ok) {
      P.UnstagedReads = true;
      continue;
    }
    Op.Base = A.Base;
    Op.Type = unqualifiedType(A.ElementType);
    Op.IndexText = A.Indices[0].Text;
    Op.Uses.push_back(&A);
    auto Same = std::find_if(
        P.Staged.begin(), P.Staged.end(), [&](const StagedOperand &S) {
          return S.Base == Op.Base && normalizeSpelling(S.IndexText) ==
                                          normalizeSpelling(Op.IndexText);
        });
    if (Same != P.Staged.end())
      Same->Uses.push_back(&A);
    else
      P.Staged.push_back(std::move(Op));
  }
  return P;
}

NestChoice nestChoice(const KernelInfo &K, const ResolvedConfig &Config) {
  NestChoice C;
  if (const json::Value *V = Config.value(sharedStageKnob(K)))
    C.TileK = V->getAsInteger().value_or(0);
  if (const json::Value *V = Config.value(sharedPadKnob(K)))
    C.Pad = V->getAsInteger().value_or(0);
  if (const json::Value *V = Config.value(registerTileKnob(K)))
    if (std::optional<StringRef> S = V->getAsString()) {
      auto [Y, X] = S->split('x');
      if (Y.getAsInteger(10, C.RY) || X.getAsInteger(10, C.RX))
        C.RY = C.RX = 1;
    }
  return C;
}

bool reductionNestRewritten(const RewriteContext &, const KernelInfo &K,
                            const ResolvedConfig &Config) {
  return nestChoice(K, Config).changesSource();
}

Error emitReductionNest(const RewriteContext &Ctx, const KernelInfo &K,
                        const NestPlan &P, const NestChoice &C,
                        const ResolvedConfig &Config, EditSet &Out) {
  if (!C.changesSource())
    return Error::success();
  auto Bad = [&](const Twine &Why) {
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K.Id + ": " + Why.str());
  };
  if (!P.Refusal.empty() || !P.Loop)
    return Bad("its reduction loop cannot be rewritten: " + P.Refusal);
  if (coarsening(K, Config))
    return Bad("coarsen and register-tile/shared-stage both remap its "
               "threads; register-tile is the 2-D form of coarsening");
  std::optional<std::array<int64_t, 3>> Block =
      variantBlockShape(Ctx, K, Config);
  if (!Block)
    return Bad("tiling needs the block size at compile time: the launches "
               "choose it at run time, so " +
               K.Id + ".block must set a constant");
  int64_t BX = (*Block)[0], BY = (*Block)[1];
  if ((*Block)[2] != 1 || (!P.Y && BY != 1) || (!P.X && BX != 1))
    return Bad("the block has threads in a dimension the kernel does not "
               "index");
  if ((C.RY > 1 && !P.Y) || (C.RX > 1 && !P.X))
    return Bad("register tiling in a dimension the kernel does not index");
  if (C.RY * C.RX > 1 && !P.OneOutputOnly.empty())
    return Bad("register tiling: " + P.OneOutputOnly);
  if (C.TileK > 0 && P.Staged.empty())
    return Bad("no operand of the loop is reused across threads");

  const ThreadMapping &M = K.Mapping;
  const ReductionLoopInfo &R = *P.Loop;
  StringRef Src = Ctx.Source;
  Names N(Src);
  bool Simple = C.RY * C.RX == 1;
  bool Staging = C.TileK > 0;
  std::string TK = str(C.TileK);
  std::string Guard = M.GuardKind == "none" ? "" : M.GuardCondition;
  unsigned RegionBegin = indexRegionBegin(K);
  unsigned Close = K.BodySpan.EndOffset - 1;
  if (Src[Close] != '}')
    return makeToolError(ExitCode::Internal, "kernel body end not found");
  std::string I1 =
      Src.slice(lineStart(Src, RegionBegin), RegionBegin).str(); // indent
  std::string I2 = I1 + "  ", I3 = I2 + "  ", I4 = I3 + "  ";

  // Shared memory, within the 48 KiB a block may declare statically.
  int64_t SharedBytes = 0;
  std::vector<std::string> TileNames;
  std::vector<int64_t> Extent; // threads' extent of each operand's tile
  for (const StagedOperand &Op : P.Staged) {
    TileNames.push_back(N.get(Op.Base + "_tile"));
    Extent.push_back(Op.DepY ? BY * C.RY : Op.DepX ? BX * C.RX : 1);
  }
  std::string OY = N.get("oy"), OX = N.get("ox"), KT = N.get(R.Var + "_tile"),
              E = N.get("e"), TP = N.get("tp"), TKK = N.get("tk");
  std::string YF = P.Y ? N.get(P.Y->Name + "_first") : "";
  std::string XF = P.X ? N.get(P.X->Name + "_first") : "";

  // The element the loop adds to, in a register (ElementText: where it
  // lives in memory, as the loop spells it).
  std::string Reg, ElementText, ElementType;
  if (P.Element) {
    Reg = N.get(P.Element->Base + "_reg");
    ElementText = spanText(Ctx, P.Element->Span);
    ElementType = unqualifiedType(P.Element->ElementType);
  }
  // The element is in its array wherever the guard holds (a statement
  // before the loop accesses it) or, otherwise, where the loop runs.
  std::string ElementCond = P.Element && !P.ElementAlwaysAccessed
                                ? "(" + R.Begin + ") < (" + R.End + ")"
                                : "";
  // Text with the element's accesses replaced by its register.
  auto HeldText = [&](const SourceSpan &S) {
    std::string T;
    unsigned At = S.BeginOffset;
    for (const AccessInfo *A : P.ElementAccesses)
      if (inside(A->Span, S)) {
        T += Src.slice(At, A->Span.BeginOffset).str() + Reg;
        At = A->Span.EndOffset;
      }
    return T + Src.slice(At, S.EndOffset).str();
  };
  // The statements before the loop, in order, that must run where the
  // guard holds: initializers that read memory (or follow a statement that
  // may change what they read), the statements that are not declarations
  // (with the element read into its register before the first of them).
  // Pure: initializers run by every thread.
  bool Effects = !R.BeforeEffects.empty() || P.Element;
  std::string BeforePure, BeforeGuarded;
  if (Effects) {
    bool Loaded = false, AfterEffect = false;
    auto Load = [&] {
      if (Loaded || !P.Element || !P.ElementLoaded)
        return;
      BeforeGuarded +=
          (ElementCond.empty() ? "" : "if (" + ElementCond + ") ") + Reg +
          " = " + ElementText + ";\n";
      Loaded = true;
    };
    for (const SourceSpan &St : R.BeforeStatements) {
      if (isBeforeEffect(R, St)) {
        Load();
        BeforeGuarded += HeldText(St) + "\n";
        AfterEffect = true;
        continue;
      }
      for (const LocalDeclInfo &D : R.Before)
        if (D.Span.BeginOffset == St.BeginOffset && !D.Init.empty())
          ((D.Pure && !AfterEffect) ? BeforePure : BeforeGuarded) +=
              D.Name + " = " + D.Init + ";\n";
    }
    Load();
    if (P.Element)
      BeforePure = Reg + " = " + ElementType + "();\n" + BeforePure;
  }

  // Accumulators become arrays indexed by the output when a thread has
  // several outputs.
  std::map<std::string, std::string> Acc;
  // Locals from before the guard, reset per output (in registers too).
  std::string LeadingResets;
  if (!Simple) {
    for (const ThreadMapping::LeadingDecl *D : P.LeadingAccumulators) {
      Acc[D->Name] = D->Name + "_r[" + OY + "][" + OX + "]";
      LeadingResets += D->Reset + "\n";
    }
    for (const LocalDeclInfo &D : R.Before)
      Acc[D.Name] = D.Name + "_r[" + OY + "][" + OX + "]";
    if (P.Element)
      Acc[Reg] = Reg + "_r[" + OY + "][" + OX + "]";
  }

  // The output's row and column, declared only where Inner uses them.
  auto PerOutputVars = [&](const std::string &Ind, StringRef Inner) {
    std::string S;
    for (const ThreadIndexVar *V : {P.Y, P.X})
      if (V && !findIdentifier(Inner, 0, Inner.size(), V->Name).empty())
        S += Ind + "const " + unqualifiedType(V->Type) + " " + V->Name + " = " +
             (V == P.Y ? YF + " + " + OY + " * " + str(BY)
                       : XF + " + " + OX + " * " + str(BX)) +
             ";\n";
    return S;
  };
  // `for oy, ox { per-output vars; Inner }` (or just Inner for one output).
  auto PerOutput = [&](const std::string &Ind, const std::string &Inner) {
    if (Simple)
      return Inner;
    return Ind + "#pragma unroll\n" + Ind + "for (int " + OY + " = 0; " + OY +
           " < " + str(C.RY) + "; ++" + OY + ")\n" + Ind + "#pragma unroll\n" +
           Ind + "for (int " + OX + " = 0; " + OX + " < " + str(C.RX) + "; ++" +
           OX + ") {\n" + PerOutputVars(Ind + "  ", Inner) + Inner + Ind +
           "}\n";
  };
  // Text re-indented to Ind: Base (the indentation of its first line in the
  // source) is removed from the following lines, so nesting is kept.
  auto Indented = [](StringRef Text, const std::string &Ind, StringRef Base) {
    std::string S;
    bool First = true;
    for (StringRef Line : llvm::split(Text.rtrim(), '\n')) {
      if (!First && !Line.consume_front(Base))
        Line = Line.ltrim(" \t");
      First = false;
      S += Line.trim().empty() ? "\n" : Ind + Line.rtrim().str() + "\n";
    }
    return S;
  };

  std::string S;
  S += "// cuda-rewrite-opt: ";
  if (Staging)
    S += "loop '" + R.Var + "' tiled by " + TK + " through shared memory" +
         (C.Pad ? " (padded)" : "");
  if (Staging && !Simple)
    S += ", ";
  if (!Simple)
    S += str(C.RY) + "x" + str(C.RX) + " outputs per thread";
  S += "\n";
  // Locals between the indices and the guard, once per thread.
  if (std::string Kept = keptPrefix(Ctx, K); !Kept.empty())
    S += I1 + Kept + "\n";
  // Thread index.
  for (const ThreadIndexVar &V : M.IndexVars) {
    if (Simple) {
      S += I1 + spanText(Ctx, V.Decl) + "\n";
      continue;
    }
    bool IsY = &V == P.Y;
    int64_t Span = IsY ? BY * C.RY : BX * C.RX;
    S += I1 + "const " + unqualifiedType(V.Type) + " " + (IsY ? YF : XF) +
         " = blockIdx." + V.Dim + " * " + str(Span) + " + threadIdx." + V.Dim +
         ";\n";
  }
  // Tiles.
  for (size_t I = 0; Staging && I < P.Staged.size(); ++I) {
    const StagedOperand &Op = P.Staged[I];
    std::string Dims;
    if (!Op.DepX && !Op.DepY)
      Dims = "[" + TK + "]";
    else if (Op.KFastest)
      Dims = "[" + str(Extent[I]) + "][" + str(C.TileK + C.Pad) + "]";
    else
      Dims = "[" + TK + "][" + str(Extent[I] + C.Pad) + "]";
    S += I1 + "__shared__ " + Op.Type + " " + TileNames[I] + Dims + ";\n";
  }
  SharedBytes = nestSharedBytes(P, C, BX, BY);
  if (SharedBytes > Ctx.Target.MaxSharedPerBlock)
    return Bad("the tiles need up to " + str(SharedBytes) +
               " bytes of shared memory, more than the " +
               str(Ctx.Target.MaxSharedPerBlock / 1024) +
               " KiB a block may declare statically");
  // Accumulators and the other declarations before the loop.
  if (Effects) {
    // Declared first (initialized where every thread may), then the
    // statements before the loop in order, where the guard holds.
    std::string Pre;
    for (const ThreadMapping::LeadingDecl *D : P.LeadingAccumulators)
      if (!Simple)
        Pre += D->Type + " " + D->Name + "_r[" + str(C.RY) + "][" + str(C.RX) +
               "];\n";
    BeforePure = LeadingResets + BeforePure;
    for (const LocalDeclInfo &D : R.Before)
      Pre += D.Type + " " + D.Name +
             (Simple ? "" : "_r[" + str(C.RY) + "][" + str(C.RX) + "]") + ";\n";
    if (P.Element)
      Pre += ElementType + " " + Reg +
             (Simple ? "" : "_r[" + str(C.RY) + "][" + str(C.RX) + "]") + ";\n";
    S += Indented(Pre, I1, "");
    std::string Ind = Simple ? I1 : I2;
    std::string Inner = Indented(renameIdentifiers(BeforePure, Acc), Ind, "");
    std::string Guarded = renameIdentifiers(BeforeGuarded, Acc);
    if (!Guarded.empty())
      Inner += Guard.empty()
                   ? Indented(Guarded, Ind, "")
                   : Ind + "if (" + Guard + ") {\n" +
                         Indented(Guarded, Ind + "  ", "") + Ind + "}\n";
    S += Simple ? Inner : PerOutput(I1, Inner);
  } else if (Simple) {
    bool AllPure = std::all_of(R.Before.begin(), R.Before.end(),
                               [](const LocalDeclInfo &D) { return D.Pure; });
    if (Guard.empty() || AllPure) {
      unsigned Last = ~0u;
      for (const LocalDeclInfo &D : R.Before)
        if (D.Span.BeginOffset != Last) {
          S += I1 + spanText(Ctx, D.Span) + "\n";
          Last = D.Span.BeginOffset;
        }
    } else {
      std::string Init;
      for (const LocalDeclInfo &D : R.Before) {
        S += I1 + D.Type + " " + D.Name +
             (D.Pure && !D.Init.empty() ? " = " + D.Init : "") + ";\n";
        if (!D.Pure)
          Init += I2 + D.Name + " = " + D.Init + ";\n";
      }
      S += I1 + "if (" + Guard + ") {\n" + Init + I1 + "}\n";
    }
  } else {
    // Values already in registers initialize every output's accumulator;
    // memory is read only for outputs inside the domain.
    std::string Pure = renameIdentifiers(LeadingResets, Acc), Impure;
    for (const ThreadMapping::LeadingDecl *D : P.LeadingAccumulators)
      S += I1 + D->Type + " " + D->Name + "_r[" + str(C.RY) + "][" + str(C.RX) +
           "];\n";
    for (const LocalDeclInfo &D : R.Before) {
      S += I1 + D.Type + " " + D.Name + "_r[" + str(C.RY) + "][" + str(C.RX) +
           "];\n";
      if (D.Init.empty())
        continue;
      std::string Set =
          Acc[D.Name] + " = " + renameIdentifiers(D.Init, Acc) + ";\n";
      (D.Pure || Guard.empty() ? Pure : Impure) += Set;
    }
    std::string Inner = Indented(Pure, I2, "");
    if (!Impure.empty())
      Inner +=
          I2 + "if (" + Guard + ") {\n" + Indented(Impure, I3, "") + I2 + "}\n";
    if (!Pure.empty() || !Impure.empty())
      S += PerOutput(I1, Inner);
  }

  // The loop body, with staged reads from the tiles.
  std::string Body;
  {
    std::vector<std::pair<const AccessInfo *, std::string>> Repl;
    for (size_t I = 0; Staging && I < P.Staged.size(); ++I) {
      const StagedOperand &Op = P.Staged[I];
      std::string Pos =
          Op.DepY ? "threadIdx.y" + (Simple ? "" : " + " + OY + " * " + str(BY))
          : Op.DepX
              ? "threadIdx.x" + (Simple ? "" : " + " + OX + " * " + str(BX))
              : "";
      std::string KK = R.Var + " - " + KT;
      std::string Read =
          TileNames[I] + (Pos.empty()   ? "[" + KK + "]"
                          : Op.KFastest ? "[" + Pos + "][" + KK + "]"
                                        : "[" + KK + "][" + Pos + "]");
      for (const AccessInfo *A : Op.Uses)
        Repl.push_back({A, Read});
    }
    for (const AccessInfo *A : P.ElementAccesses)
      if (inside(A->Span, R.Body))
        Repl.push_back({A, Reg});
    std::sort(Repl.begin(), Repl.end(), [](const auto &A, const auto &B) {
      return A.first->Span.BeginOffset < B.first->Span.BeginOffset;
    });
    unsigned At = R.Body.BeginOffset;
    for (const auto &[A, Text] : Repl) {
      Body += Src.slice(At, A->Span.BeginOffset).str() + Text;
      At = A->Span.EndOffset;
    }
    Body += Src.slice(At, R.Body.EndOffset).str();
    Body = renameIdentifiers(Body, Acc);
  }
  // Threads outside the domain run the body too (every thread must reach
  // the barriers) unless it reads memory the tiles do not hold.
  bool GuardBody = !Guard.empty() && (P.UnstagedReads || !Staging);
  std::string Pragma = loopUnrollPragma(K, R, Config);
  std::string KDecl = R.VarType + " " + R.Var;
  auto ComputeLoop = [&](const std::string &Ind, const std::string &Header,
                         const std::string &Pragma) {
    StringRef Base = lineIndent(Src, R.Span.BeginOffset);
    std::string In = Ind + (Simple ? "  " : "    ");
    std::string Inner = GuardBody ? In + "if (" + Guard + ")\n" +
                                        Indented(Body, In + "  ", Base)
                                  : Indented(Body, In, Base);
    std::string L = Pragma.empty() ? "" : Ind + Pragma + "\n";
    L += Ind + Header + " {\n";
    L += Simple ? Inner : PerOutput(Ind + "  ", Inner);
    return L + Ind + "}\n";
  };
  if (Staging) {
    S += I1 + "for (" + R.VarType + " " + KT + " = " + R.Begin + "; " + KT +
         " < " + R.End + "; " + KT + " += " + TK + ") {\n";
    std::string Tid =
        BY == 1 ? "threadIdx.x" : "threadIdx.y * " + str(BX) + " + threadIdx.x";
    std::string NT = str(BX * BY);
    for (size_t I = 0; I < P.Staged.size(); ++I) {
      const StagedOperand &Op = P.Staged[I];
      std::string Ext = str(Extent[I]);
      std::string Total =
          (!Op.DepX && !Op.DepY) ? TK : str(Extent[I] * C.TileK);
      S += I2 + "for (int " + E + " = " + Tid + "; " + E + " < " + Total +
           "; " + E + " += " + NT + ") {\n";
      std::string Slot;
      if (!Op.DepX && !Op.DepY) {
        S += I3 + "const int " + TKK + " = " + E + ";\n";
        Slot = "[" + TKK + "]";
      } else if (Op.KFastest) {
        S += I3 + "const int " + TP + " = " + E + " / " + TK + ", " + TKK +
             " = " + E + " % " + TK + ";\n";
        Slot = "[" + TP + "][" + TKK + "]";
      } else {
        S += I3 + "const int " + TKK + " = " + E + " / " + Ext + ", " + TP +
             " = " + E + " % " + Ext + ";\n";
        Slot = "[" + TKK + "][" + TP + "]";
      }
      std::map<std::string, std::string> At{
          {R.Var, "(" + KT + " + " + TKK + ")"}};
      std::vector<std::string> Cond{KT + " + " + TKK + " < " + R.End};
      for (const ThreadIndexVar *V : {P.Y, P.X}) {
        if (!V)
          continue;
        bool Dep = V == P.Y ? Op.DepY : Op.DepX;
        auto Bound = M.UpperBounds.find(V->Name);
        std::string First = "blockIdx." + V->Dim + " * " +
                            str(V == P.Y ? BY * C.RY : BX * C.RX) + " + " + TP;
        if (Dep)
          At[V->Name] = "(" + First + ")";
        if (Bound == M.UpperBounds.end())
          continue;
        // A row is read when it is in the domain; a tile every output
        // shares is read when the domain is not empty.
        Cond.push_back(Dep ? First + " < " + Bound->second
                           : "0 < " + Bound->second);
      }
      std::string CondText;
      for (const std::string &Cnd : Cond)
        CondText += (CondText.empty() ? "" : " && ") + Cnd;
      S += I3 + TileNames[I] + Slot + " = (" + CondText + ") ? " + Op.Base +
           "[" + renameIdentifiers(Op.IndexText, At) + "] : " + Op.Type +
           "();\n";
      S += I2 + "}\n";
    }
    S += I2 + "__syncthreads();\n";
    // A full tile runs a loop of constant trip count the compiler unrolls;
    // only the last, partial tile checks the bound.
    S += I2 + "if (" + KT + " + " + TK + " <= " + R.End + ") {\n";
    S += ComputeLoop(I3,
                     "for (" + KDecl + " = " + KT + "; " + R.Var + " < " + KT +
                         " + " + TK + "; ++" + R.Var + ")",
                     Pragma.empty() ? "#pragma unroll" : Pragma);
    S += I2 + "} else {\n";
    S += ComputeLoop(I3,
                     "for (" + KDecl + " = " + KT + "; " + R.Var + " < " +
                         R.End + "; ++" + R.Var + ")",
                     "");
    S += I2 + "}\n";
    S += I2 + "__syncthreads();\n";
    S += I1 + "}\n";
  } else {
    S += ComputeLoop(I1,
                     "for (" + KDecl + " = " + R.Begin + "; " + R.Var + " < " +
                         R.End + "; ++" + R.Var + ")",
                     Pragma);
  }

  // What followed the loop, per output, under the guard; first the element
  // goes back to memory.
  StringRef AfterText = Src.slice(R.After.BeginOffset, R.After.EndOffset);
  if (!AfterText.trim().empty() || P.Element) {
    StringRef Base = lineIndent(Src, R.After.BeginOffset);
    std::string Text = AfterText.str();
    if (P.Element)
      Text = (ElementCond.empty() ? "" : "if (" + ElementCond + ") ") +
             ElementText + " = " + Reg + ";\n" +
             (AfterText.trim().empty() ? "" : Base.str() + Text);
    std::string After = renameIdentifiers(Text, Acc);
    std::string Ind = Simple ? I1 : I2;
    std::string Inner = Guard.empty() ? Indented(After, Ind, Base)
                                      : Ind + "if (" + Guard + ") {\n" +
                                            Indented(After, Ind + "  ", Base) +
                                            Ind + "}\n";
    S += Simple ? Inner : PerOutput(I1, Inner);
  }

  if (Error Err = Out.replace(RegionBegin, Close - RegionBegin, S))
    return Err;
  // A block chosen at run time and replaced by a constant: block-size
  // writes the launch's grid, for this many outputs per thread.
  if (BlockSize::replacesRuntimeBlock(Ctx, K, Config))
    return Error::success();
  return shrinkGrid(Ctx, K, {{"x", C.RX}, {"y", C.RY}}, Out);
}

int64_t nestSharedBytes(const NestPlan &P, const NestChoice &C, int64_t BX,
                        int64_t BY) {
  if (C.TileK <= 0)
    return 0;
  int64_t Bytes = 0;
  for (const StagedOperand &Op : P.Staged) {
    int64_t Extent = Op.DepY ? BY * C.RY : Op.DepX ? BX * C.RX : 1;
    int64_t Elems = !Op.DepX && !Op.DepY ? C.TileK
                    : Op.KFastest        ? Extent * (C.TileK + C.Pad)
                                         : C.TileK * (Extent + C.Pad);
    Bytes += Elems * 8; // element size unknown here: bound by 8 bytes
  }
  return Bytes;
}

} // namespace cro
