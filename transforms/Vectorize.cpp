#include "Vectorize.h"
#include "Coarsen.h"
#include "LaunchAliasing.h"
#include "ThreadRemap.h"
#include "cro/Analysis/ASTHelpers.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/TextLines.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <functional>
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
  /// Null: each lane runs the whole work, the streams loaded before it and
  /// stored after it. Else a loop of the work whose iterations every lane
  /// shares (its control does not depend on the lane): the work around it
  /// runs once, and each iteration loads the streams, runs the body once
  /// per lane and stores them.
  const LoopInfo *Inner = nullptr;
  /// What each lane runs: the work, or the inner loop's body without its
  /// braces and its step statement.
  SourceSpan Lanes;
  std::vector<Stream> Streams;
  /// Statements that give locals declared before the guard their initial
  /// value again for each of a thread's elements (`sum = 0.0f;`).
  std::vector<std::string> Resets;
  /// The bound below which the original's threads exist (gridCoverRefusal)
  /// where the grid, not the guard, says where the work stops: asked for
  /// each element too.
  std::string Cover;
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
/// (a contiguous `p[x + R]` with R fixed before the lanes run: R may use
/// LoopVars, the variables of the inner loop and the loops around it,
/// which the lanes share), or "".
std::string streamRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                          const AccessInfo &A,
                          const std::set<std::string> &LoopVars) {
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
        !StringRef(Var).starts_with("blockIdx.") && !LoopVars.count(Var))
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

/// The streams of the accesses in Region: the contiguous accesses that
/// every lane performs (EveryElement), merged by element, each with every
/// access of its element. Why is set where a stream is dropped.
std::vector<Stream>
collectStreams(const RewriteContext &Ctx, const KernelInfo &K,
               const std::vector<const AccessInfo *> &InRegion,
               const std::function<bool(const AccessInfo &)> &EveryElement,
               const std::set<std::string> &LoopVars, std::string &Why) {
  const ThreadMapping &M = K.Mapping;
  auto KeyOf = [](const AccessInfo &A) {
    return A.Base + "[" +
           (A.Indices.size() == 1 && A.Indices[0].Affine
                ? A.Indices[0].Form.str()
                : "?") +
           "]";
  };
  std::vector<Stream> Streams;
  for (const AccessInfo *A : InRegion) {
    if (!EveryElement(*A) || !streamRefusal(Ctx, K, *A, LoopVars).empty())
      continue;
    std::string Key = KeyOf(*A);
    if (std::any_of(Streams.begin(), Streams.end(),
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
    Streams.push_back(S);
  }
  // Every access of a stream's element goes through its registers: loaded
  // when any reads it, stored when any writes it. A store writes all the
  // vector's elements, so some write must be one every element performs.
  for (auto It = Streams.begin(); It != Streams.end();) {
    bool WrittenByAll = false;
    for (const AccessInfo *A : InRegion) {
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
      It = Streams.erase(It);
    } else {
      ++It;
    }
  }
  if (Streams.empty() && Why.empty()) {
    for (const AccessInfo *A : InRegion) {
      if (!EveryElement(*A))
        continue;
      Why = streamRefusal(Ctx, K, *A, LoopVars);
      if (!Why.empty())
        break;
    }
    if (Why.empty())
      Why = "every access is skipped by a branch, a loop or a return on "
            "some path";
  }
  return Streams;
}

/// Why the streams cannot move: loads before the lanes' work and stores
/// after it, past the accesses that stay in place and past the other
/// streams' loads and stores. Where one of those may touch a stream's
/// element, the thread's order of the two must survive: no stream read
/// after a write by the other, no write of the other after a stream write,
/// no read by the other after a stream write. Within one array, indices a
/// nonzero constant apart are other elements, the original's other
/// threads', which no race-free kernel touches; different parameters are
/// other arrays unless the launches may pass the same one.
std::string orderRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                         const std::vector<Stream> &Streams,
                         const std::vector<const AccessInfo *> &InRegion) {
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
      for (const Stream &S : Streams)
        if ((S.Written || !Pm.PointeeConst) &&
            (Pm.Name == S.Array || !OtherArray(Pm.Name, S, false)))
          return "'" + Pm.Name + "' escapes the analysis (" + Pm.EscapeReason +
                 "), so accesses to '" + S.Array +
                 "' the model does not see may be reordered with its "
                 "vector loads and stores";
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
  for (const Stream &S : Streams) {
    std::optional<unsigned> FirstWrite, LastRead;
    for (const AccessInfo *SA : S.Accesses) {
      if (std::optional<unsigned> W = WrittenAt(*SA))
        FirstWrite = std::min(FirstWrite.value_or(~0u), *W);
      if (std::optional<unsigned> R = ReadAt(*SA))
        LastRead = std::max(LastRead.value_or(0u), *R);
    }
    for (const AccessInfo *A : InRegion) {
      if (llvm::is_contained(S.Accesses, A) || Distinct(*A, S))
        continue;
      bool OtherStream =
          std::any_of(Streams.begin(), Streams.end(), [&](const Stream &T) {
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
        return Where(*A) + " may access the element " +
               Where(*S.Accesses.front()) + " accesses" +
               (A->Base == S.Array ? "" : " (" + Alias + ")") + ": " + Broken;
    }
  }
  return "";
}

/// The part of a loop's body each lane runs: inside the braces, without a
/// `while` loop's step statement (which the lanes share).
SourceSpan laneRegion(StringRef Src, const LoopInfo &L) {
  SourceSpan R = L.Body;
  StringRef Body = Src.slice(R.BeginOffset, R.EndOffset);
  if (Body.starts_with("{") && Body.ends_with("}")) {
    R.BeginOffset += 1;
    R.EndOffset -= 1;
  }
  if (L.StepStatement.EndOffset > L.StepStatement.BeginOffset)
    R.EndOffset = L.StepStatement.BeginOffset;
  return R;
}

/// Why the lanes cannot share loop L's iterations, each running the body
/// once per iteration (the work around L once per thread), or "". Lanes are
/// the original's threads, which may interleave in any order; what they
/// must share is L's control and the work around L, so neither may depend
/// on the lane.
std::string innerLoopRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                             const LoopInfo &L, const ThreadIndexVar &X) {
  const ThreadMapping &M = K.Mapping;
  if (L.Kind != "for" && L.Kind != "while")
    return "loop " + L.Id + " at " + L.Location + " is a " + L.Kind +
           " loop, whose iterations the lanes cannot share";
  if (L.InMacro)
    return "loop " + L.Id + " at " + L.Location + " is written inside a macro";
  if (!L.BodyExit.empty())
    return "loop " + L.Id + " at " + L.Location +
           " ends an iteration early for one element (" + L.BodyExit + ")";
  if (!L.BodyChanges.empty())
    return "the body of loop " + L.Id + " at " + L.Location + " changes " +
           L.BodyChanges.front() +
           ", declared outside it, which a thread's elements would then "
           "change one after the other";
  StringRef Src = Ctx.Source;
  std::string Around = Src.slice(M.Work.BeginOffset, L.Body.BeginOffset).str() +
                       Src.slice(L.Body.EndOffset, M.Work.EndOffset).str();
  if (!findIdentifier(Around, 0, Around.size(), X.Name).empty())
    return "the work around loop " + L.Id + " at " + L.Location + " uses '" +
           X.Name + "', so the lanes would not run it alike";
  for (const AccessInfo &A : K.Accesses)
    if (A.Span.BeginOffset >= M.Work.BeginOffset &&
        A.Span.EndOffset <= M.Work.EndOffset &&
        (A.Span.BeginOffset < L.Body.BeginOffset ||
         A.Span.EndOffset > L.Body.EndOffset))
      return "'" + Src.slice(A.Span.BeginOffset, A.Span.EndOffset).str() +
             "' at " + A.Location + " lies outside the body of loop " + L.Id +
             ", where it would run once for all of a thread's elements";
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
  //
  // A local declared before the guard that the work changes starts each of
  // a thread's elements from its initial value again.
  for (const ThreadMapping::LeadingDecl &D : M.LeadingDecls) {
    if (D.PerOutput.empty())
      continue;
    if (D.PerOutput == "which the work changes" &&
        (D.NoReset || !D.Reset.empty())) {
      if (!D.Reset.empty())
        P.Resets.push_back(D.Reset);
      continue;
    }
    return Fail(guardedWorkRefusal(K));
  }
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
  // Without a guard, every thread the original launches works: its grid
  // must say which threads exist (gridCoverRefusal), in the kernel's terms.
  std::string IndexType = unqualifiedType(P.X->Type);
  if (M.GuardKind == "none") {
    if (std::string Why = gridCoverRefusal(Ctx, K, "x", IndexType, P.Cover);
        !Why.empty())
      return Fail("the kernel has no guard, so every thread works, and " + Why);
  } else if (!M.UpperBounds.count(P.X->Name)) {
    return Fail("the guard gives '" + P.X->Name +
                "' no upper bound, so threads beyond the data are not known "
                "to do nothing");
  } else {
    if (!M.GuardIsBox && !M.GuardWithoutSideEffects)
      return Fail("the guard '" + M.GuardCondition +
                  "' has side effects, and deciding whether a whole vector "
                  "passes it would evaluate it once more per element");
    // A guard whose bound the grid is not known to cover (`i < nx` in a
    // grid of ceil(NX / block)) is still exact with the original's threads
    // asked too.
    if (std::string Why = gridShrinkRefusal(Ctx, K, "x"); !Why.empty()) {
      std::string CoverWhy = gridCoverRefusal(Ctx, K, "x", IndexType, P.Cover);
      if (!CoverWhy.empty())
        return Fail(Why +
                    "; nor is it known which threads the launches "
                    "have: " +
                    CoverWhy);
    }
  }
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

  // Each lane runs the whole work: the streams are the accesses every
  // element performs (nothing in the work may skip them: no branch, no
  // loop, no return before them). Only those are known to be inside their
  // arrays for all the elements of a vector, so only they may become
  // vector loads and stores; the rest run per element as written.
  std::vector<const AccessInfo *> InWork = accessesIn(K, M.Work);
  unsigned Return = firstReturnInWork(M);
  std::string Why;
  P.Lanes = M.Work;
  P.Streams = collectStreams(
      Ctx, K, InWork,
      [&](const AccessInfo &A) {
        return !inside(A.SkippableBy, M.Work) && A.Span.BeginOffset < Return;
      },
      {}, Why);
  if (!P.Streams.empty()) {
    if (std::string Order = orderRefusal(Ctx, K, P.Streams, InWork);
        !Order.empty())
      return Fail(Order);
    return P;
  }

  // Else the lanes may share a loop of the work: each iteration loads the
  // accesses of the body that every iteration performs, indexed by the
  // loop's variables as well.
  std::string InnerWhy;
  for (const LoopInfo &L : K.Loops) {
    if (!inside(L.Span, M.Work) || L.Body.EndOffset <= L.Body.BeginOffset)
      continue;
    std::string LoopWhy = innerLoopRefusal(Ctx, K, L, *P.X);
    std::set<std::string> LoopVars;
    for (const LoopInfo &O : K.Loops)
      if (!O.InductionVar.empty() && inside(L.Span, O.Span) &&
          inside(O.Span, M.Work))
        LoopVars.insert(O.InductionVar);
    SourceSpan Lanes = laneRegion(Ctx.Source, L);
    std::vector<const AccessInfo *> InBody = accessesIn(K, Lanes);
    std::string StreamWhy;
    std::vector<Stream> Streams;
    if (LoopWhy.empty())
      Streams = collectStreams(
          Ctx, K, InBody,
          [&](const AccessInfo &A) { return !inside(A.SkippableBy, L.Body); },
          LoopVars, StreamWhy);
    if (LoopWhy.empty() && Streams.empty())
      LoopWhy = "in loop " + L.Id + ": " + StreamWhy;
    if (LoopWhy.empty())
      LoopWhy = orderRefusal(Ctx, K, Streams, InBody);
    if (LoopWhy.empty()) {
      P.Inner = &L;
      P.Lanes = Lanes;
      P.Streams = std::move(Streams);
      return P;
    }
    if (InnerWhy.empty())
      InnerWhy = LoopWhy;
  }
  return Fail("no global access of the work is both contiguous along '" +
              P.X->Name + "' and performed for every element: " + Why +
              (InnerWhy.empty()
                   ? ""
                   : "; nor can the lanes share a loop: " + InnerWhy));
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

  // Source text of [B, E) with the streams' accesses reading and writing
  // their registers (Vector) and the work's returns ending one lane's work
  // (Continue).
  auto RegionText = [&](unsigned B, unsigned E, bool Vector, bool Continue) {
    std::vector<std::pair<SourceSpan, std::string>> Edits;
    if (Vector)
      for (size_t N = 0; N < P.Streams.size(); ++N)
        for (const AccessInfo *A : P.Streams[N].Accesses)
          Edits.push_back({A->Span, Local[N] + "[" + Lane + "]"});
    if (Continue)
      for (const ThreadMapping::Return &R : M.Returns)
        if (R.Span.BeginOffset >= B && R.Span.EndOffset <= E)
          Edits.push_back({{"", "", R.Span.BeginOffset, R.Span.BeginOffset + 6},
                           "continue"});
    std::sort(Edits.begin(), Edits.end(), [](const auto &A, const auto &B) {
      return A.first.BeginOffset < B.first.BeginOffset;
    });
    std::string Text;
    unsigned At = B;
    for (const auto &[Span, With] : Edits) {
      if (Span.BeginOffset < B || Span.EndOffset > E)
        continue;
      Text += Src.slice(At, Span.BeginOffset).str() + With;
      At = Span.EndOffset;
    }
    return Text + Src.slice(At, E).str();
  };
  // Text re-indented to Ind, its nesting kept: lines after the first lose
  // Base (the indentation of the region's first line in the source).
  auto Indented = [&](StringRef Text, StringRef Base, const std::string &Ind) {
    std::string S;
    bool FirstLine = true;
    for (StringRef Line : split(Text.trim("\n\r").rtrim(), '\n')) {
      if (FirstLine)
        Line = Line.ltrim(" \t");
      else if (!Line.consume_front(Base))
        Line = Line.ltrim(" \t");
      FirstLine = false;
      S += Line.trim().empty() ? "\n" : Ind + Line.rtrim().str() + "\n";
    }
    return S;
  };
  // The indentation of the first line of [B, E) that holds code.
  auto BaseOf = [&](unsigned B, unsigned E) {
    StringRef R = Src.slice(B, E);
    size_t Code = R.find_first_not_of(" \t\r\n");
    return lineIndent(Src, B + (Code == StringRef::npos ? 0 : Code));
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
  std::string Resets;
  for (const std::string &R : P.Resets)
    Resets += "@IND@" + R + "\n";
  auto WithResets = [&](const std::string &Ind, const std::string &Body) {
    std::string S = Resets;
    for (size_t At = S.find("@IND@"); At != std::string::npos;
         At = S.find("@IND@"))
      S.replace(At, 5, Ind);
    return S + Body;
  };
  // Every vector access aligned (continued lines indented from Ind).
  auto Aligned = [&](const std::string &Ind) {
    std::string A;
    for (size_t N = 0; N < P.Streams.size(); ++N)
      A += (A.empty() ? "" : " &&\n" + Ind + "    ") +
           "reinterpret_cast<unsigned long long>(" + Addr[N] + ") % sizeof(" +
           Vec[N] + ") == 0";
    return A;
  };
  // The streams' registers, loaded; their stores.
  auto Loads = [&](const std::string &Ind) {
    std::string S;
    for (size_t N = 0; N < P.Streams.size(); ++N) {
      const Stream &St = P.Streams[N];
      S += Ind + St.Type + " " + Local[N] + "[" + W_ + "];\n";
      if (!St.Read)
        continue;
      std::string Q = Local[N] + "_q";
      S += Ind + "const " + Vec[N] + " " + Q + " = *reinterpret_cast<const " +
           Vec[N] + " *>(" + Addr[N] + ");\n";
      for (int64_t L = 0; L < W; ++L)
        S += Ind + Local[N] + "[" + std::to_string(L) + "] = " + Q + "." +
             (Generic[N] ? "e[" + std::to_string(L) + "]" : Lanes[L]) + ";\n";
    }
    return S;
  };
  auto Stores = [&](const std::string &Ind) {
    std::string S;
    for (size_t N = 0; N < P.Streams.size(); ++N) {
      if (!P.Streams[N].Written)
        continue;
      if (Generic[N]) {
        std::string Q = Local[N] + "_out";
        S += Ind + Vec[N] + " " + Q + ";\n";
        for (int64_t L = 0; L < W; ++L)
          S += Ind + Q + ".e[" + std::to_string(L) + "] = " + Local[N] + "[" +
               std::to_string(L) + "];\n";
        S += Ind + "*reinterpret_cast<" + Vec[N] + " *>(" + Addr[N] +
             ") = " + Q + ";\n";
        continue;
      }
      std::string Args;
      for (int64_t L = 0; L < W; ++L)
        Args += (L ? ", " : "") + Local[N] + "[" + std::to_string(L) + "]";
      S += Ind + "*reinterpret_cast<" + Vec[N] + " *>(" + Addr[N] +
           ") = make_" + Vec[N] + "(" + Args + ");\n";
    }
    return S;
  };
  StringRef WorkBase = BaseOf(M.Work.BeginOffset, M.Work.EndOffset);

  std::string S = "// cuda-rewrite-opt: " + W_ +
                  " consecutive elements per thread, loaded and stored as " +
                  "vectors when the addresses are aligned\n";
  S += Structs;
  // An index wider than the builtins' unsigned int is computed in its own
  // type, as the original's cast (`(long)blockIdx.x * blockDim.x`) did.
  std::string IndexType = unqualifiedType(X.Type);
  bool Narrow = IndexType == "int" || IndexType == "unsigned int" ||
                IndexType == "unsigned";
  S += I1 + "const " + IndexType + " " + First + " = (" +
       (Narrow ? "" : "(" + IndexType + ")") +
       "blockIdx.x * blockDim.x + threadIdx.x) * " + W_ + ";\n";
  // The other dimensions' indices stay as written.
  for (const ThreadIndexVar &V : M.IndexVars)
    if (&V != &X)
      S += I1 + spanText(Ctx, V.Decl) + "\n";
  if (std::string Kept = keptPrefix(Ctx, *K); !Kept.empty())
    S += I1 + Kept + "\n";
  // Every element of the vector inside the guard. The guard's upper bounds
  // say the first at once (all of it, for a box); another guard is then
  // asked for each element.
  std::string Inside;
  for (const auto &[Var, Bound] : M.UpperBounds)
    Inside += (Inside.empty() ? "" : " && ") +
              (Var == X.Name ? First + " + " + W_ + " <= " + Bound
                             : Var + " < " + Bound);
  // The original's threads, where the grid alone says which exist: one
  // more upper bound of the box (the only one, without a guard).
  bool Box = M.GuardIsBox;
  std::string Guard = M.GuardCondition;
  if (!P.Cover.empty()) {
    Inside +=
        (Inside.empty() ? "" : " && ") + First + " + " + W_ + " <= " + P.Cover;
    std::string Thread = X.Name + " < " + P.Cover;
    if (M.GuardKind == "none") {
      Box = true;
      Guard = Thread;
    } else {
      Guard = "(" + Guard + ") && " + Thread;
    }
  }
  // Where each lane runs the whole work, the alignment is known before it.
  if (!P.Inner)
    Inside += " &&\n" + I1 + "    " + Aligned(I1);
  if (Box) {
    S += I1 + "if (" + Inside + ") {\n";
  } else {
    std::string All = freshIdentifier(Src, "whole_vector");
    S += I1 + "bool " + All + " = " + Inside + ";\n";
    S += PerLane(I1, I2 + All + " = " + All + " && (" + Guard + ");\n");
    S += I1 + "if (" + All + ") {\n";
  }
  if (!P.Inner) {
    S += Loads(I2);
    S += PerLane(
        I2, WithResets(I3, Indented(RegionText(M.Work.BeginOffset,
                                               M.Work.EndOffset, true, true),
                                    WorkBase, I3)));
    S += Stores(I2);
  } else {
    // The work around the loop runs once; the loop's body becomes, per
    // iteration, the lanes' vector path where this iteration's addresses
    // are aligned, else the lanes one after the other as written.
    const LoopInfo &L = *P.Inner;
    std::string LI = lineIndent(Src, L.Span.BeginOffset).str();
    std::string LI2 = LI + "  ", LI3 = LI2 + "  ";
    StringRef LaneBase = BaseOf(P.Lanes.BeginOffset, P.Lanes.EndOffset);
    std::string Body = "{\n";
    Body += LI2 + "if (" + Aligned(LI2) + ") {\n";
    Body += Loads(LI3);
    Body += PerLane(LI3, Indented(RegionText(P.Lanes.BeginOffset,
                                             P.Lanes.EndOffset, true, false),
                                  LaneBase, LI3 + "  "));
    Body += Stores(LI3);
    Body += LI2 + "} else {\n";
    Body += PerLane(LI3, Indented(RegionText(P.Lanes.BeginOffset,
                                             P.Lanes.EndOffset, false, false),
                                  LaneBase, LI3 + "  "));
    Body += LI2 + "}\n";
    if (L.StepStatement.EndOffset > L.StepStatement.BeginOffset)
      Body += LI2 + spanText(Ctx, L.StepStatement) + "\n";
    Body += LI + "}";
    std::string Work = Src.slice(M.Work.BeginOffset, L.Body.BeginOffset).str() +
                       Body +
                       Src.slice(L.Body.EndOffset, M.Work.EndOffset).str();
    S += Indented(Work, WorkBase, I2);
  }
  S += I1 + "} else {\n";
  std::string Scalar =
      RegionText(M.Work.BeginOffset, M.Work.EndOffset, false, true);
  S += PerLane(
      I2, I3 + "if (" + Guard + ") {\n" +
              WithResets(I3 + "  ", Indented(Scalar, WorkBase, I3 + "  ")) +
              I3 + "}\n");
  S += I1 + "}\n";
  if (Error E = Out.replace(Begin, Close - Begin, S))
    return E;
  if (!P.Cover.empty())
    return shrinkGridStride(Ctx, *K, "x", W, Out);
  return shrinkGrid(Ctx, *K, "x", W, Out);
}

} // namespace cro
