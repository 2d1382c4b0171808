#include "Vectorize.h"
#include "Coarsen.h"
#include "ThreadRemap.h"
#include "cro/Analysis/ASTHelpers.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
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
/// the kernel: blockDim/gridDim, or a parameter (a field of a by-value
/// struct parameter) the kernel never changes.
bool launchInvariant(const KernelInfo &K, StringRef Sym) {
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

/// C text of Coef * Var (Var "" for the constant) as terms to append, each
/// computed in 64 bits: " + (long long)ny * i", " - 1".
std::string termText(const SymPoly &Coef, const std::string &Var) {
  std::string Out;
  for (const auto &[Mono, C] : Coef.terms()) {
    std::vector<std::string> Factors;
    int64_t Mag = C < 0 ? -C : C;
    if (Mag != 1 || (Mono.empty() && Var.empty()))
      Factors.push_back(std::to_string(Mag));
    Factors.insert(Factors.end(), Mono.begin(), Mono.end());
    if (!Var.empty())
      Factors.push_back(Var);
    std::string T = (Factors.size() > 1 ? "(long long)" : "") + Factors[0];
    for (size_t I = 1; I < Factors.size(); ++I)
      T += " * " + Factors[I];
    Out += (C < 0 ? " - " : " + ") + T;
  }
  return Out;
}

/// The terms of F other than x's, over the program's own index variables
/// where F reads a dimension only through one (c * threadIdx.y + c *
/// blockDim.y * blockIdx.y is c * i for `int i = blockIdx.y * blockDim.y +
/// threadIdx.y`), else over the builtins.
std::string restText(const AffineExpr &F, const ThreadMapping &M) {
  std::string Out;
  std::set<std::string> Done{"threadIdx.x", "blockIdx.x"};
  for (const char *D : {"y", "z"}) {
    const ThreadIndexVar *V = M.indexVar(D);
    std::string T = std::string("threadIdx.") + D, B = std::string("blockIdx.") + D;
    SymPoly CT = F.coefficient(T), CB = F.coefficient(B);
    if (!V || CT.isZero() ||
        !(CB - CT * SymPoly::symbol(std::string("blockDim.") + D)).isZero())
      continue;
    Out += termText(CT, V->Name);
    Done.insert(T);
    Done.insert(B);
  }
  for (const auto &[Var, Coef] : F.coefficients())
    if (!Done.count(Var))
      Out += termText(Coef, Var);
  return Out + termText(F.constantPart(), "");
}

VectorPlan plan(const RewriteContext &Ctx, const KernelInfo &K) {
  VectorPlan P;
  const ThreadMapping &M = K.Mapping;
  auto Fail = [&](const std::string &W) {
    P.Refusal = W;
    return P;
  };
  if (std::string Why = remapRefusal(K); !Why.empty())
    return Fail(Why);
  if (std::string Why = guardedWorkRefusal(K); !Why.empty())
    return Fail(Why);
  if (K.UsesAtomics)
    return Fail("the kernel updates memory atomically");
  P.X = M.indexVar("x");
  if (!P.X)
    return Fail("the kernel has no thread index along x, the dimension a "
                "vector's elements would follow");
  if (M.GuardKind == "none" || !M.GuardIsBox || !M.UpperBounds.count(P.X->Name))
    return Fail("the guard is not `" + P.X->Name + " < bound`");
  if (std::string Why = gridShrinkRefusal(Ctx, K, "x"); !Why.empty())
    return Fail(Why);
  // What comes between the index and the guard (locals of the prefix,
  // declarations before a wrapping guard) stays, once per thread.
  if (std::string Why = keptPrefixRefusal(Ctx, K); !Why.empty())
    return Fail(Why);
  StringRef Work = Ctx.Source.slice(M.Work.BeginOffset, M.Work.EndOffset);
  for (StringRef Kw : {"if", "for", "while", "do", "switch", "return", "goto",
                       "break", "continue"})
    if (!findIdentifier(Work, 0, Work.size(), Kw).empty())
      return Fail("the work is not straight-line code ('" + Kw.str() + "')");
  for (StringRef Op : {"?", "&&", "||"})
    if (Work.contains(Op))
      return Fail("the work evaluates something conditionally ('" + Op.str() +
                  "')");
  for (const AccessInfo &A : K.Accesses) {
    if (A.Span.BeginOffset < M.Work.BeginOffset ||
        A.Span.EndOffset > M.Work.EndOffset)
      continue;
    if (A.Space != "global")
      continue;
    StringRef Spelled = Ctx.Source.slice(A.Span.BeginOffset, A.Span.EndOffset);
    if (A.Mode != "read" && A.Mode != "write" && A.Mode != "readwrite")
      return Fail("'" + A.Base + "' is updated atomically");
    if (!A.Direct || A.Indices.size() != 1 || !Spelled.starts_with(A.Base) ||
        !Spelled.ends_with("]"))
      return Fail("the access '" + Spelled.str() + "' at " + A.Location +
                  " is not a subscript of the parameter '" + A.Base + "'");
    const IndexInfo &I = A.Indices[0];
    if (!I.Affine)
      return Fail("the index of '" + Spelled.str() + "' at " + A.Location +
                  " is not affine (" + I.NonAffineReason + ")");
    std::optional<int64_t> Lane =
        I.Form.coefficient("threadIdx.x").constantValue();
    if (!Lane || (*Lane == 0 && !I.Form.coefficient("blockIdx.x").isZero()))
      return Fail("the index of '" + Spelled.str() + "' at " + A.Location +
                  " depends on the block along x but not on the thread");
    if (*Lane == 0) {
      // The same element for every x of the thread: read once per element
      // as the original threads did; a write there would be a race.
      if (A.Mode != "read")
        return Fail("'" + Spelled.str() + "' at " + A.Location +
                    " is written at an index that does not depend on '" +
                    P.X->Name + "'");
      continue;
    }
    if (*Lane != 1)
      return Fail("the access '" + Spelled.str() + "' at " + A.Location +
                  " is strided along x (" + std::to_string(*Lane) +
                  " elements apart), not contiguous");
    // The index is x + R: R from the form, x at the thread's first element.
    for (const auto &[Var, Coef] : I.Form.coefficients())
      if (!StringRef(Var).starts_with("threadIdx.") &&
          !StringRef(Var).starts_with("blockIdx."))
        return Fail("the index of '" + Spelled.str() + "' at " + A.Location +
                    " depends on '" + Var + "'");
    if (std::string Sym = variantSymbol(K, I.Form); !Sym.empty())
      return Fail("the index of '" + Spelled.str() + "' at " + A.Location +
                  " uses '" + Sym +
                  "', which is not known before the work runs");
    std::string Rest = restText(I.Form, M);
    std::string First = Rest.empty() ? "@FIRST@" : "(long long)@FIRST@" + Rest;
    std::string Key = A.Base + "[" + I.Form.str() + "]";
    auto It = std::find_if(P.Streams.begin(), P.Streams.end(),
                           [&](const Stream &S) { return S.Key == Key; });
    if (It == P.Streams.end()) {
      Stream S;
      S.Array = A.Base;
      S.Type = unqualifiedType(A.ElementType);
      S.Canonical = A.CanonicalElementType.empty() ? S.Type
                                                   : A.CanonicalElementType;
      S.Key = Key;
      S.FirstIndex = First;
      P.Streams.push_back(S);
      It = P.Streams.end() - 1;
    }
    It->Read |= A.Mode == "read" || A.Mode == "readwrite";
    It->Written |= A.Mode == "write" || A.Mode == "readwrite";
    It->Accesses.push_back(&A);
  }
  if (P.Streams.empty())
    return Fail("the work accesses no global array contiguously along '" +
                P.X->Name + "'");
  for (const Stream &S : P.Streams)
    if (vectorType(S.Canonical, 2).empty())
      return Fail("no vector type for elements of type '" + S.Type + "'");
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
  bool Four = std::all_of(P.Streams.begin(), P.Streams.end(), [](const Stream &S) {
    return !vectorType(S.Canonical, 4).empty();
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
  for (size_t N = 0; N < P.Streams.size(); ++N) {
    const Stream &St = P.Streams[N];
    unsigned Same = 0;
    for (size_t M2 = 0; M2 < N; ++M2)
      Same += P.Streams[M2].Array == St.Array;
    Local.push_back(freshIdentifier(
        Src, St.Array + "_v" + (Same ? std::to_string(Same + 1) : "")));
    Vec.push_back(vectorType(St.Canonical, W));
    std::string Index = St.FirstIndex;
    Index.replace(Index.find("@FIRST@"), 7, First);
    Addr.push_back(St.Array + " + " +
                   (Index == First ? Index : "(" + Index + ")"));
  }
  static const char *Lanes[] = {"x", "y", "z", "w"};

  // The work once per lane, with the contiguous accesses read from and
  // written to the registers the vectors were loaded into.
  std::vector<std::pair<const AccessInfo *, size_t>> Replaced;
  for (size_t N = 0; N < P.Streams.size(); ++N)
    for (const AccessInfo *A : P.Streams[N].Accesses)
      Replaced.push_back({A, N});
  std::sort(Replaced.begin(), Replaced.end(), [](const auto &A, const auto &B) {
    return A.first->Span.BeginOffset < B.first->Span.BeginOffset;
  });
  std::string Work;
  unsigned At = M.Work.BeginOffset;
  for (const auto &[A, N] : Replaced) {
    Work += Src.slice(At, A->Span.BeginOffset).str() + Local[N] + "[" + Lane +
            "]";
    At = A->Span.EndOffset;
  }
  Work += Src.slice(At, M.Work.EndOffset).str();
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
                            : Ind + "  const " + X.Type + " " + X.Name + " = " +
                                  First + " + " + Lane + ";\n";
    return Ind + "#pragma unroll\n" + Ind + "for (int " + Lane + " = 0; " +
           Lane + " < " + W_ + "; ++" + Lane + ") {\n" + Index + Body + Ind +
           "}\n";
  };

  std::string S = "// cuda-rewrite-opt: " + W_ +
                  " consecutive elements per thread, loaded and stored as " +
                  "vectors when the addresses are aligned\n";
  S += I1 + "const " + X.Type + " " + First + " = (blockIdx.x * blockDim.x + " +
       "threadIdx.x) * " + W_ + ";\n";
  // The other dimensions' indices stay as written.
  for (const ThreadIndexVar &V : M.IndexVars)
    if (&V != &X)
      S += I1 + spanText(Ctx, V.Decl) + "\n";
  if (std::string Kept = keptPrefix(Ctx, *K); !Kept.empty())
    S += I1 + Kept + "\n";
  // Every element of the vector inside the guard (a box of upper bounds),
  // and every vector access aligned.
  std::string Inside;
  for (const auto &[Var, Bound] : M.UpperBounds)
    Inside += (Inside.empty() ? "" : " && ") +
              (Var == X.Name ? First + " + " + W_ + " <= " + Bound
                             : Var + " < " + Bound);
  for (size_t N = 0; N < P.Streams.size(); ++N)
    Inside += " &&\n" + I1 + "    reinterpret_cast<unsigned long long>(" +
              Addr[N] + ") % sizeof(" + Vec[N] + ") == 0";
  S += I1 + "if (" + Inside + ") {\n";
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
           Lanes[L] + ";\n";
  }
  S += PerLane(I2, Indented(Work, I3));
  for (size_t N = 0; N < P.Streams.size(); ++N) {
    if (!P.Streams[N].Written)
      continue;
    std::string Args;
    for (int64_t L = 0; L < W; ++L)
      Args += (L ? ", " : "") + Local[N] + "[" + std::to_string(L) + "]";
    S += I2 + "*reinterpret_cast<" + Vec[N] + " *>(" + Addr[N] + ") = make_" +
         Vec[N] + "(" + Args + ");\n";
  }
  S += I1 + "} else {\n";
  std::string Scalar = Src.slice(M.Work.BeginOffset, M.Work.EndOffset).str();
  S += PerLane(I2, I3 + "if (" + M.GuardCondition + ") {\n" +
                       Indented(Scalar, I3 + "  ") + I3 + "}\n");
  S += I1 + "}\n";
  if (Error E = Out.replace(Begin, Close - Begin, S))
    return E;
  return shrinkGrid(Ctx, *K, "x", W, Out);
}

} // namespace cro
