#include "Vectorize.h"
#include "Coarsen.h"
#include "ThreadRemap.h"
#include "cro/Analysis/ASTHelpers.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
#include <algorithm>
#include <map>

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

struct Array {
  std::string Name, Type;
  bool Read = false, Written = false;
};

struct VectorPlan {
  std::string Refusal;
  const ThreadIndexVar *X = nullptr;
  std::vector<Array> Arrays;
  std::vector<const AccessInfo *> Accesses;
};

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
  if (!P.X || M.IndexVars.size() != 1)
    return Fail("only 1-D element-wise kernels are vectorized");
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
    if (!A.Direct || A.Indices.size() != 1 ||
        normalizeSpelling(A.Indices[0].Text) != P.X->Name ||
        !Spelled.starts_with(A.Base) || !Spelled.ends_with("]"))
      return Fail("the access '" + Spelled.str() + "' at " + A.Location +
                  " is not `p[" + P.X->Name + "]`");
    auto It = std::find_if(P.Arrays.begin(), P.Arrays.end(),
                           [&](const Array &R) { return R.Name == A.Base; });
    if (It == P.Arrays.end()) {
      P.Arrays.push_back({A.Base, unqualifiedType(A.ElementType)});
      It = P.Arrays.end() - 1;
    }
    if (It->Type != unqualifiedType(A.ElementType))
      return Fail("'" + A.Base + "' is accessed with two element types");
    It->Read |= A.Mode == "read" || A.Mode == "readwrite";
    It->Written |= A.Mode == "write" || A.Mode == "readwrite";
    if (A.Mode != "read" && A.Mode != "write" && A.Mode != "readwrite")
      return Fail("'" + A.Base + "' is updated atomically");
    P.Accesses.push_back(&A);
  }
  if (P.Arrays.empty())
    return Fail("the work accesses no global array");
  for (const Array &A : P.Arrays)
    if (vectorType(A.Type, 2).empty())
      return Fail("no vector type for elements of type '" + A.Type + "'");
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
  bool Four = std::all_of(P.Arrays.begin(), P.Arrays.end(), [](const Array &A) {
    return !vectorType(A.Type, 4).empty();
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
  std::string Bound = M.UpperBounds.at(X.Name);
  unsigned Begin = X.Decl.BeginOffset;
  unsigned Close = K->BodySpan.EndOffset - 1;
  std::string I1 = Src.slice(lineStart(Src, Begin), Begin).str();
  std::string I2 = I1 + "  ", I3 = I2 + "  ";
  std::map<std::string, std::string> Local, Vec;
  for (const Array &A : P.Arrays) {
    Local[A.Name] = freshIdentifier(Src, A.Name + "_v");
    Vec[A.Name] = vectorType(A.Type, W);
  }
  static const char *Lanes[] = {"x", "y", "z", "w"};

  // The work once per lane, with the arrays read from and written to the
  // registers the vectors were loaded into.
  std::string Work;
  unsigned At = M.Work.BeginOffset;
  for (const AccessInfo *A : P.Accesses) {
    Work += Src.slice(At, A->Span.BeginOffset).str() + Local[A->Base] + "[" +
            Lane + "]";
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
                  "vectors when the pointers are aligned\n";
  S += I1 + "const " + X.Type + " " + First + " = (blockIdx.x * blockDim.x + " +
       "threadIdx.x) * " + W_ + ";\n";
  if (std::string Kept = keptPrefix(Ctx, *K); !Kept.empty())
    S += I1 + Kept + "\n";
  std::string Aligned;
  for (const Array &A : P.Arrays)
    Aligned += " &&\n" + I1 + "    reinterpret_cast<unsigned long long>(" +
               A.Name + ") % sizeof(" + Vec[A.Name] + ") == 0";
  S += I1 + "if (" + First + " + " + W_ + " <= " + Bound + Aligned + ") {\n";
  for (const Array &A : P.Arrays) {
    S += I2 + A.Type + " " + Local[A.Name] + "[" + W_ + "];\n";
    if (!A.Read)
      continue;
    std::string Q = Local[A.Name] + "_q";
    S += I2 + "const " + Vec[A.Name] + " " + Q + " = *reinterpret_cast<const " +
         Vec[A.Name] + " *>(" + A.Name + " + " + First + ");\n";
    for (int64_t L = 0; L < W; ++L)
      S += I2 + Local[A.Name] + "[" + std::to_string(L) + "] = " + Q + "." +
           Lanes[L] + ";\n";
  }
  S += PerLane(I2, Indented(Work, I3));
  for (const Array &A : P.Arrays) {
    if (!A.Written)
      continue;
    std::string Args;
    for (int64_t L = 0; L < W; ++L)
      Args += (L ? ", " : "") + Local[A.Name] + "[" + std::to_string(L) + "]";
    S += I2 + "*reinterpret_cast<" + Vec[A.Name] + " *>(" + A.Name + " + " +
         First + ") = make_" + Vec[A.Name] + "(" + Args + ");\n";
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
