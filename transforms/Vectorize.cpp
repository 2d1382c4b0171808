#include "Vectorize.h"
#include "Coarsen.h"
#include "LaunchAliasing.h"
#include "ThreadRemap.h"
#include "cro/Analysis/ASTHelpers.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace cro {

namespace {

/// The vector type of V elements of Scalar, or "" when there is none.
std::string vectorType(StringRef Scalar, int64_t V) {
  static const std::map<std::string, std::string> Base = {
      {"float", "float"},
      {"int", "int"},
      {"unsigned int", "uint"},
      {"double", "double"},
      {"long long", "longlong"}};
  auto It = Base.find(Scalar.str());
  if (It == Base.end())
    return "";
  int64_t Size = Scalar == "double" || Scalar == "long long" ? 8 : 4;
  if (V * Size > 16)
    return "";
  return It->second + std::to_string(V);
}

/// Elements a vector of W can be an aligned struct of (`struct alignas(W *
/// sizeof(T)) { T e[W]; }`) where CUDA has no vector type of them: the
/// other arithmetic types, and a template's type parameter (each
/// instantiation gets its own size and alignment).
bool genericElement(StringRef Canonical) {
  static const std::set<std::string> Arithmetic = {
      "char",           "signed char",
      "unsigned char",  "short",
      "unsigned short", "long",
      "unsigned long",  "unsigned long long",
      "struct __half",  "struct __nv_bfloat16"};
  return Arithmetic.count(Canonical.str()) ||
         Canonical.starts_with("type-parameter-");
}

/// One distinct contiguous access of the work, `p[x + R]` with R the same
/// for every element a thread covers: loaded (or stored) as one vector.
struct Stream {
  std::string Array;
  std::string Type;      ///< the element type as the program spells it
  std::string Canonical; ///< after typedefs and macros: picks the vector
  std::string Key;       ///< the index, normalized: equal accesses merge
  /// The index of the thread's first element, as C text over the program's
  /// index variables, the parameters and (where no index variable stands
  /// for them) the builtins, with "@FIRST@" where that element's x goes.
  std::string FirstIndex;
  /// The index's constant term when it is a number (-1 for `u[x - 1]`).
  std::optional<int64_t> Offset;
  bool Read = false, Written = false;
  std::vector<const AccessInfo *> Accesses;
};

struct VectorPlan {
  std::string Refusal;
  const ThreadIndexVar *X = nullptr;
  std::vector<Stream> Streams;
};

bool isParam(const KernelInfo &K, StringRef Name) {
  StringRef Base = Name.split('.').first;
  for (const ParamInfo &P : K.Params)
    if (P.Name == Base && P.ModifiedAt.empty() && (Base == Name || !P.IsPointer))
      return true;
  return false;
}

/// A symbol of an affine form that every thread can evaluate anywhere in
/// the kernel: blockDim/gridDim, a non-type template parameter, or a
/// parameter (a field of a by-value struct parameter) the kernel never
/// changes.
bool launchInvariant(const KernelInfo &K, StringRef Sym) {
  for (const TemplateParamInfo &T : K.TemplateParams)
    if (T.Kind == "non-type" && T.Name == Sym)
      return true; // a constant of each instantiation
  return Sym.starts_with("blockDim.") || Sym.starts_with("gridDim.") ||
         isParam(K, Sym);
}

/// The first symbol of F's coefficients and constant that is not
/// launchInvariant, or "".
std::string variantSymbol(const KernelInfo &K, const AffineExpr &F) {
  std::vector<const SymPoly *> Polys{&F.constantPart()};
  for (const auto &[Var, Coef] : F.coefficients())
    Polys.push_back(&Coef);
  for (const SymPoly *P : Polys)
    for (const auto &[Mono, C] : P->terms())
      for (const std::string &Sym : Mono)
        if (!launchInvariant(K, Sym))
          return Sym;
  return "";
}

bool inside(const SourceSpan &Inner, const SourceSpan &Outer) {
  return Inner.BeginOffset < Inner.EndOffset &&
         Inner.BeginOffset >= Outer.BeginOffset &&
         Inner.EndOffset <= Outer.EndOffset;
}

/// Where the work may stop early for one output: its first `return` (the
/// guard's own returns lie outside the work), or ~0u.
unsigned firstReturnInWork(const ThreadMapping &M) {
  unsigned First = ~0u;
  for (const ThreadMapping::Return &R : M.Returns)
    if (inside(R.Span, M.Work))
      First = std::min(First, R.Span.BeginOffset);
  return First;
}

/// Why A cannot be one vector's lane for each of a thread's elements
/// (a contiguous `p[x + R]` with R fixed before the work runs), or "".
std::string streamRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                          const AccessInfo &A) {
  StringRef Spelled = Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset);
  if (!A.Direct || A.Indices.size() != 1 || !Spelled.starts_with(A.Base) ||
      !Spelled.ends_with("]"))
    return "'" + Spelled.str() + "' at " + A.Location +
           " is not a subscript of the parameter '" + A.Base + "'";
  const IndexInfo &I = A.Indices[0];
  if (!I.Affine)
    return "the index of '" + Spelled.str() + "' at " + A.Location +
           " is not affine (" + I.NonAffineReason + ")";
  std::optional<int64_t> Lane =
      I.Form.coefficient("threadIdx.x").constantValue();
  if (!Lane || *Lane != 1)
    return "'" + Spelled.str() + "' at " + A.Location +
           " is not contiguous along x (" +
           (Lane ? std::to_string(*Lane)
                 : I.Form.coefficient("threadIdx.x").str()) +
           " elements apart)";
  for (const auto &[Var, Coef] : I.Form.coefficients())
    if (!StringRef(Var).starts_with("threadIdx.") &&
        !StringRef(Var).starts_with("blockIdx."))
      return "the index of '" + Spelled.str() + "' at " + A.Location +
             " depends on '" + Var + "'";
  if (std::string Sym = variantSymbol(K, I.Form); !Sym.empty())
    return "the index of '" + Spelled.str() + "' at " + A.Location + " uses '" +
           Sym + "', which is not known before the work runs";
  std::string Canonical = A.CanonicalElementType.empty()
                              ? unqualifiedType(A.ElementType)
                              : A.CanonicalElementType;
  if (vectorType(Canonical, 2).empty() && !genericElement(Canonical))
    return "no vector type holds elements of type '" +
           unqualifiedType(A.ElementType) + "' ('" + Spelled.str() + "' at " +
           A.Location + ")";
  return "";
}

VectorPlan plan(const RewriteContext &Ctx, const KernelInfo &K) {
  VectorPlan P;
  const ThreadMapping &M = K.Mapping;
  auto Fail = [&](const std::string &W) {
    P.Refusal = W;
    return P;
  };
  // Only x is remapped: builtins of y and z read anywhere keep their meaning.
  if (std::string Why = remapRefusalBesidesBuiltins(K); !Why.empty())
    return Fail(Why);
  if (std::string Why = strayBuiltinRefusal(K, "x"); !Why.empty())
    return Fail(Why);
  // A template kernel is remapped in its pattern, the same text for every
  // instantiation: its element types stay as spelled, and vectors of a
  // type parameter are aligned structs sized by each instantiation.
  if (std::string Why = guardedWorkRefusal(K); !Why.empty())
    return Fail(Why);
  if (K.UsesAtomics)
    return Fail("the kernel updates memory atomically");
  P.X = M.indexVar("x");
  if (!P.X)
    return Fail("the kernel has no thread index along x, the dimension a "
                "vector's elements would follow");
  // Threads past the guard's bound on x do nothing, which is what lets the
  // grid shrink; a vector is taken when every element passes the guard,
  // which a box of upper bounds says at once and any other guard says when
  // evaluated for each element (so it must change nothing).
  if (M.GuardKind == "none" || !M.UpperBounds.count(P.X->Name))
    return Fail("the guard gives '" + P.X->Name +
                "' no upper bound, so threads beyond the data are not known "
                "to do nothing");
  if (!M.GuardIsBox && !M.GuardWithoutSideEffects)
    return Fail("the guard '" + M.GuardCondition +
                "' has side effects, and deciding whether a whole vector "
                "passes it would evaluate it once more per element");
  if (std::string Why = gridShrinkRefusal(Ctx, K, "x"); !Why.empty())
    return Fail(Why);
  // What comes between the index and the guard (locals of the prefix,
  // declarations before a wrapping guard) stays, once per thread.
  if (std::string Why = keptPrefixRefusal(Ctx, K); !Why.empty())
    return Fail(Why);
  // The work runs once per element, in a loop: a return ends one element's
  // work (it becomes `continue`), a goto could leave the loop.
  StringRef Work = Ctx.Source.slice(M.Work.BeginOffset, M.Work.EndOffset);
  if (!findIdentifier(Work, 0, Work.size(), "goto").empty())
    return Fail("the work jumps with goto, out of the loop over a thread's "
                "elements");

  // The work's global accesses, and which of them every element performs
  // (nothing in the work may skip them: no branch, no loop, no return
  // before them). Only those are known to be inside their arrays for all
  // the elements of a vector, so only they may become vector loads and
  // stores; the rest run per element as written.
  std::vector<const AccessInfo *> InWork;
  for (const AccessInfo &A : K.Accesses)
    if (A.Span.BeginOffset >= M.Work.BeginOffset &&
        A.Span.EndOffset <= M.Work.EndOffset &&
        (A.Space == "global" || A.Space == "unknown"))
      InWork.push_back(&A);
  unsigned Return = firstReturnInWork(M);
  auto EveryElement = [&](const AccessInfo &A) {
    return !inside(A.SkippableBy, M.Work) && A.Span.BeginOffset < Return;
  };
  auto KeyOf = [](const AccessInfo &A) {
    return A.Base + "[" +
           (A.Indices.size() == 1 && A.Indices[0].Affine
                ? A.Indices[0].Form.str()
                : "?") +
           "]";
  };
  std::string Why;
  for (const AccessInfo *A : InWork) {
    if (!EveryElement(*A) || !streamRefusal(Ctx, K, *A).empty())
      continue;
    std::string Key = KeyOf(*A);
    if (std::any_of(P.Streams.begin(), P.Streams.end(),
                    [&](const Stream &S) { return S.Key == Key; }))
      continue;
    Stream S;
    S.Array = A->Base;
    S.Type = unqualifiedType(A->ElementType);
    S.Canonical =
        A->CanonicalElementType.empty() ? S.Type : A->CanonicalElementType;
    S.Key = Key;
    std::string Rest = indexTerms(A->Indices[0].Form, M, "x");
    S.FirstIndex = Rest.empty() ? "@FIRST@" : "(long long)@FIRST@" + Rest;
    S.Offset = A->Indices[0].Form.constantPart().constantValue();
    P.Streams.push_back(S);
  }
  // Every access of a stream's element goes through its registers: loaded
  // when any reads it, stored when any writes it. A store writes all the
  // vector's elements, so some write must be one every element performs.
  for (auto It = P.Streams.begin(); It != P.Streams.end();) {
    bool WrittenByAll = false;
    for (const AccessInfo *A : InWork) {
      if (KeyOf(*A) != It->Key)
        continue;
      It->Accesses.push_back(A);
      bool Writes = A->Mode == "write" || A->Mode == "readwrite";
      It->Read |= A->Mode == "read" || A->Mode == "readwrite";
      It->Written |= Writes;
      WrittenByAll |= Writes && EveryElement(*A);
    }
    if (It->Written && !WrittenByAll) {
      if (Why.empty())
        Why = "'" + It->Key + "' is written only on some paths of the work";
      It = P.Streams.erase(It);
    } else {
      ++It;
    }
  }
  if (P.Streams.empty()) {
    for (const AccessInfo *A : InWork) {
      if (!Why.empty())
        break;
      if (!EveryElement(*A))
        continue;
      Why = streamRefusal(Ctx, K, *A);
    }
    if (Why.empty())
      Why = "every access is skipped by a branch, a loop or a return on "
            "some path";
    return Fail("no global access of the work is both contiguous along '" +
                P.X->Name + "' and performed for every element: " + Why);
  }

  // Loads move before the elements' work and stores after it, past the
  // accesses that stay in place and past the other streams' loads and
  // stores. Where one of those may touch a stream's element, the thread's
  // order of the two must survive: no stream read after a write by the
  // other, no write of the other after a stream write, no read by the other
  // after a stream write. Within one array, indices a nonzero constant
  // apart are other elements, the original's other threads', which no
  // race-free kernel touches; different parameters are other arrays unless
  // the launches may pass the same one.
  std::string Alias = launchAliasingReason(K);
  auto OtherArray = [&](StringRef A, const Stream &S, bool Known) {
    if (Ctx.Options.AssumeNoAlias || (Known && Alias.empty()))
      return true;
    const ParamInfo *PA = nullptr, *PS = nullptr;
    for (const ParamInfo &Pm : K.Params) {
      PA = Pm.Name == A ? &Pm : PA;
      PS = Pm.Name == S.Array ? &Pm : PS;
    }
    return PA && PS && PA->IsRestrict && PS->IsRestrict;
  };
  // A pointer the kernel passes on (to a helper, into memory) is accessed
  // where the model does not see it (written, unless it points to const).
  for (const ParamInfo &Pm : K.Params)
    if (Pm.IsPointer && Pm.Access == "unknown")
      for (const Stream &S : P.Streams)
        if ((S.Written || !Pm.PointeeConst) &&
            (Pm.Name == S.Array || !OtherArray(Pm.Name, S, false)))
          return Fail("'" + Pm.Name + "' escapes the analysis (" +
                      Pm.EscapeReason + "), so accesses to '" + S.Array +
                      "' the model does not see may be reordered with its "
                      "vector loads and stores");
  auto Distinct = [&](const AccessInfo &A, const Stream &S) {
    if (A.Base != S.Array)
      return OtherArray(A.Base, S, A.Space != "unknown");
    if (A.Indices.size() != 1 || !A.Indices[0].Affine)
      return false;
    std::optional<int64_t> By = constantDifference(
        A.Indices[0].Form, S.Accesses.front()->Indices[0].Form);
    return By && *By != 0;
  };
  auto Where = [&](const AccessInfo &A) {
    return "'" + Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset).str() +
           "' at " + A.Location;
  };
  // When in a thread's order an access reads and writes (a compound
  // assignment does both when it stores; StoredAt is 0 for a read).
  auto ReadAt = [](const AccessInfo &A) -> std::optional<unsigned> {
    if (A.Mode == "write")
      return std::nullopt;
    return A.Mode == "read" ? A.Span.BeginOffset : A.StoredAt;
  };
  auto WrittenAt = [](const AccessInfo &A) -> std::optional<unsigned> {
    if (A.Mode == "read")
      return std::nullopt;
    return A.StoredAt;
  };
  for (const Stream &S : P.Streams) {
    std::optional<unsigned> FirstWrite, LastRead;
    for (const AccessInfo *SA : S.Accesses) {
      if (std::optional<unsigned> W = WrittenAt(*SA))
        FirstWrite = std::min(FirstWrite.value_or(~0u), *W);
      if (std::optional<unsigned> R = ReadAt(*SA))
        LastRead = std::max(LastRead.value_or(0u), *R);
    }
    for (const AccessInfo *A : InWork) {
      if (llvm::is_contained(S.Accesses, A) || Distinct(*A, S))
        continue;
      bool OtherStream =
          std::any_of(P.Streams.begin(), P.Streams.end(), [&](const Stream &T) {
            return llvm::is_contained(T.Accesses, A);
          });
      std::optional<unsigned> AR = ReadAt(*A), AW = WrittenAt(*A);
      std::string Broken;
      if (AW && OtherStream && S.Written)
        Broken = "both are stored as vectors, in an order of their own";
      else if (AW && LastRead && *LastRead > *AW)
        Broken = "the stream's vector load would move before that write";
      else if (AW && FirstWrite && *AW > *FirstWrite)
        Broken = "the stream's vector store would move after that write";
      else if (AR && FirstWrite && *AR > *FirstWrite)
        Broken = OtherStream
                     ? "its vector load would move before the stream's write"
                     : "the stream's vector store would move after that "
                       "read";
      if (!Broken.empty())
        return Fail(Where(*A) + " may access the element " +
                    Where(*S.Accesses.front()) + " accesses" +
                    (A->Base == S.Array ? "" : " (" + Alias + ")") + ": " +
                    Broken);
    }
  }
  return P;
}

} // namespace

void Vectorize::describe(const RewriteContext &Ctx, const KernelInfo &K,
                         KnobSink &Out) const {
  VectorPlan P = plan(Ctx, K);
  if (!P.Refusal.empty())
    return Out.refuse(K.Id, P.Refusal, K.Location);
  Knob Kn;
  Kn.Id = K.Id + ".vectorize";
  Kn.Kernel = K.Id;
  Kn.Default = 1;
  Kn.Values = {1, 2};
  bool Four =
      std::all_of(P.Streams.begin(), P.Streams.end(), [](const Stream &S) {
        return !vectorType(S.Canonical, 4).empty() ||
               genericElement(S.Canonical);
      });
  if (Four)
    Kn.Values.push_back(4);
  Out.offer(std::move(Kn));
}

Error Vectorize::apply(const RewriteContext &Ctx, const Knob &Kn,
                       const json::Value &V, const ResolvedConfig &Config,
                       EditSet &Out) const {
  int64_t W = V.getAsInteger().value_or(1);
  if (W == 1)
    return Error::success();
  const KernelInfo *K = kernelOf(Ctx, Kn);
  if (!K)
    return makeToolError(ExitCode::Internal, "no kernel for " + Kn.Id);
  if (coarsening(*K, Config))
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K->Id +
                             ": coarsen and vectorize both remap its threads; "
                             "vectorize is contiguous coarsening with wide "
                             "loads");
  VectorPlan P = plan(Ctx, *K);
  if (!P.Refusal.empty())
    return makeToolError(ExitCode::Internal, P.Refusal);
  // Neighbours of one array (`u[x - 1]`, `u[x]`, `u[x + 1]`) cannot all be
  // aligned: a vector is taken only when all its loads are, so the reads
  // whose offset is not a multiple of the width stay per element where a
  // read of the same array at such a multiple is a vector. Leaving a read
  // in place keeps the thread's order of accesses, so it stays legal.
  auto AlignedWith = [&](const Stream &S) {
    return S.Offset && *S.Offset % W == 0;
  };
  std::set<std::string> HasAligned;
  for (const Stream &S : P.Streams)
    if (AlignedWith(S))
      HasAligned.insert(S.Array);
  P.Streams.erase(std::remove_if(P.Streams.begin(), P.Streams.end(),
                                 [&](const Stream &S) {
                                   return !S.Written && !AlignedWith(S) &&
                                          HasAligned.count(S.Array);
                                 }),
                  P.Streams.end());
  const ThreadMapping &M = K->Mapping;
  StringRef Src = Ctx.Source;
  const ThreadIndexVar &X = *P.X;
  std::string W_ = std::to_string(W);
  std::string First = freshIdentifier(Src, X.Name + "_first");
  std::string Lane = freshIdentifier(Src, "lane");
  unsigned Begin = indexRegionBegin(*K);
  unsigned Close = K->BodySpan.EndOffset - 1;
  std::string I1 = Src.slice(lineStart(Src, Begin), Begin).str();
  std::string I2 = I1 + "  ", I3 = I2 + "  ";
  std::vector<std::string> Local, Vec, Addr;
  std::vector<bool> Generic;
  std::map<std::string, std::string> StructOf; // element type -> vector
  std::string Structs;
  for (size_t N = 0; N < P.Streams.size(); ++N) {
    const Stream &St = P.Streams[N];
    Generic.push_back(vectorType(St.Canonical, W).empty());
    if (Generic.back() && !StructOf.count(St.Type)) {
      std::string Name = St.Type;
      for (char &C : Name)
        if (!isAlnum(C))
          C = '_';
      Name = freshIdentifier(Src, Name + std::to_string(W) + "_vec");
      StructOf[St.Type] = Name;
      Structs += I1 + "struct alignas(" + std::to_string(W) + " * sizeof(" +
                 St.Type + ")) " + Name + " { " + St.Type + " e[" +
                 std::to_string(W) + "]; };\n";
    }
    unsigned Same = 0;
    for (size_t M2 = 0; M2 < N; ++M2)
      Same += P.Streams[M2].Array == St.Array;
    Local.push_back(freshIdentifier(
        Src, St.Array + "_v" + (Same ? std::to_string(Same + 1) : "")));
    Vec.push_back(Generic.back() ? StructOf[St.Type]
                                 : vectorType(St.Canonical, W));
    std::string Index = St.FirstIndex;
    Index.replace(Index.find("@FIRST@"), 7, First);
    Addr.push_back(St.Array + " + " +
                   (Index == First ? Index : "(" + Index + ")"));
  }
  static const char *Lanes[] = {"x", "y", "z", "w"};

  // The work once per lane: a return ends the lane's work only, and (on
  // the vector path) the streams' accesses read and write their registers.
  auto WorkText = [&](bool Vector) {
    std::vector<std::pair<SourceSpan, std::string>> Edits;
    if (Vector)
      for (size_t N = 0; N < P.Streams.size(); ++N)
        for (const AccessInfo *A : P.Streams[N].Accesses)
          Edits.push_back({A->Span, Local[N] + "[" + Lane + "]"});
    for (const ThreadMapping::Return &R : M.Returns)
      if (R.Span.BeginOffset >= M.Work.BeginOffset &&
          R.Span.EndOffset <= M.Work.EndOffset)
        Edits.push_back(
            {{"", "", R.Span.BeginOffset, R.Span.BeginOffset + 6}, "continue"});
    std::sort(Edits.begin(), Edits.end(), [](const auto &A, const auto &B) {
      return A.first.BeginOffset < B.first.BeginOffset;
    });
    std::string Text;
    unsigned At = M.Work.BeginOffset;
    for (const auto &[Span, With] : Edits) {
      Text += Src.slice(At, Span.BeginOffset).str() + With;
      At = Span.EndOffset;
    }
    return Text + Src.slice(At, M.Work.EndOffset).str();
  };
  std::string Work = WorkText(true);
  StringRef Base =
      Src.slice(lineStart(Src, M.Work.BeginOffset), M.Work.BeginOffset);
  // Text re-indented to Ind, its nesting kept.
  auto Indented = [&](StringRef Text, const std::string &Ind) {
    std::string S;
    bool FirstLine = true;
    for (StringRef Line : split(Text.rtrim(), '\n')) {
      if (!FirstLine && !Line.consume_front(Base))
        Line = Line.ltrim(" \t");
      FirstLine = false;
      S += Ind + Line.rtrim().str() + "\n";
    }
    return S;
  };
  auto PerLane = [&](const std::string &Ind, const std::string &Body) {
    std::string Index = findIdentifier(Body, 0, Body.size(), X.Name).empty()
                            ? ""
                            : Ind + "  const " + unqualifiedType(X.Type) + " " +
                                  X.Name + " = " + First + " + " + Lane + ";\n";
    return Ind + "#pragma unroll\n" + Ind + "for (int " + Lane + " = 0; " +
           Lane + " < " + W_ + "; ++" + Lane + ") {\n" + Index + Body + Ind +
           "}\n";
  };

  std::string S = "// cuda-rewrite-opt: " + W_ +
                  " consecutive elements per thread, loaded and stored as " +
                  "vectors when the addresses are aligned\n";
  S += Structs;
  S += I1 + "const " + unqualifiedType(X.Type) + " " + First +
       " = (blockIdx.x * blockDim.x + " + "threadIdx.x) * " + W_ + ";\n";
  // The other dimensions' indices stay as written.
  for (const ThreadIndexVar &V : M.IndexVars)
    if (&V != &X)
      S += I1 + spanText(Ctx, V.Decl) + "\n";
  if (std::string Kept = keptPrefix(Ctx, *K); !Kept.empty())
    S += I1 + Kept + "\n";
  // Every element of the vector inside the guard, and every vector access
  // aligned. The guard's upper bounds say the first at once (all of it,
  // for a box); another guard is then asked for each element.
  std::string Inside;
  for (const auto &[Var, Bound] : M.UpperBounds)
    Inside += (Inside.empty() ? "" : " && ") +
              (Var == X.Name ? First + " + " + W_ + " <= " + Bound
                             : Var + " < " + Bound);
  for (size_t N = 0; N < P.Streams.size(); ++N)
    Inside += " &&\n" + I1 + "    reinterpret_cast<unsigned long long>(" +
              Addr[N] + ") % sizeof(" + Vec[N] + ") == 0";
  if (M.GuardIsBox) {
    S += I1 + "if (" + Inside + ") {\n";
  } else {
    std::string All = freshIdentifier(Src, "whole_vector");
    S += I1 + "bool " + All + " = " + Inside + ";\n";
    S += PerLane(I1,
                 I2 + All + " = " + All + " && (" + M.GuardCondition + ");\n");
    S += I1 + "if (" + All + ") {\n";
  }
  for (size_t N = 0; N < P.Streams.size(); ++N) {
    const Stream &St = P.Streams[N];
    S += I2 + St.Type + " " + Local[N] + "[" + W_ + "];\n";
    if (!St.Read)
      continue;
    std::string Q = Local[N] + "_q";
    S += I2 + "const " + Vec[N] + " " + Q + " = *reinterpret_cast<const " +
         Vec[N] + " *>(" + Addr[N] + ");\n";
    for (int64_t L = 0; L < W; ++L)
      S += I2 + Local[N] + "[" + std::to_string(L) + "] = " + Q + "." +
           (Generic[N] ? "e[" + std::to_string(L) + "]" : Lanes[L]) + ";\n";
  }
  S += PerLane(I2, Indented(Work, I3));
  for (size_t N = 0; N < P.Streams.size(); ++N) {
    if (!P.Streams[N].Written)
      continue;
    if (Generic[N]) {
      std::string Q = Local[N] + "_out";
      S += I2 + Vec[N] + " " + Q + ";\n";
      for (int64_t L = 0; L < W; ++L)
        S += I2 + Q + ".e[" + std::to_string(L) + "] = " + Local[N] + "[" +
             std::to_string(L) + "];\n";
      S += I2 + "*reinterpret_cast<" + Vec[N] + " *>(" + Addr[N] + ") = " + Q +
           ";\n";
      continue;
    }
    std::string Args;
    for (int64_t L = 0; L < W; ++L)
      Args += (L ? ", " : "") + Local[N] + "[" + std::to_string(L) + "]";
    S += I2 + "*reinterpret_cast<" + Vec[N] + " *>(" + Addr[N] + ") = make_" +
         Vec[N] + "(" + Args + ");\n";
  }
  S += I1 + "} else {\n";
  std::string Scalar = WorkText(false);
  S += PerLane(I2, I3 + "if (" + M.GuardCondition + ") {\n" +
                       Indented(Scalar, I3 + "  ") + I3 + "}\n");
  S += I1 + "}\n";
  if (Error E = Out.replace(Begin, Close - Begin, S))
    return E;
  return shrinkGrid(Ctx, *K, "x", W, Out);
}

} // namespace cro
