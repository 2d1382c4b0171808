#include "WarpAggregate.h"
#include "Coarsen.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include <map>

using namespace llvm;

namespace cro {

namespace {

/// An atomic read-modify-write whose operation is associative and
/// commutative: the lanes' values can be combined first, by cooperative
/// groups' reduce with the same operation.
struct Operation {
  StringRef Function; ///< atomicAdd
  StringRef Name;     ///< in the helper's name: add
  StringRef Reduce;   ///< cooperative groups' function object: cg::plus
  bool FloatingPoint; ///< also for float and double
};

constexpr Operation Operations[] = {
    {"atomicAdd", "add", "plus", true},
    // Subtracting the lanes' sum is subtracting each (integers wrap alike).
    {"atomicSub", "sub", "plus", false},
    {"atomicMax", "max", "greater", false},
    {"atomicMin", "min", "less", false},
    {"atomicAnd", "and", "bit_and", false},
    {"atomicOr", "or", "bit_or", false},
    {"atomicXor", "xor", "bit_xor", false},
};

const Operation *operationOf(StringRef Function) {
  for (const Operation &O : Operations)
    if (O.Function == Function)
      return &O;
  return nullptr;
}

/// The types both the atomic and cooperative groups' reduce take.
bool aggregatable(const Operation &O, StringRef T) {
  if (T == "int" || T == "unsigned int")
    return true;
  if (T == "unsigned long long")
    return O.Name != "sub"; // there is no atomicSub for it
  if (T == "long long")
    return O.Name == "max" || O.Name == "min";
  return O.FloatingPoint && (T == "float" || T == "double");
}

/// The atomics of K that can be aggregated, or why none can.
struct Sites {
  std::vector<const AtomicUpdateInfo *> Aggregated;
  std::string Refusal;
};

Sites sitesOf(const KernelInfo &K) {
  Sites S;
  std::string FirstWhy;
  for (const AtomicUpdateInfo &A : K.Atomics) {
    std::string Why;
    const Operation *O = operationOf(A.Function);
    if (!O)
      Why = "its operation does not combine values (only add, sub, max, "
            "min, and, or and xor do)";
    else if (A.ResultUsed)
      Why = "the old value it returns is read, and each thread's differs";
    else if (!aggregatable(*O, A.ValueType))
      Why = "it updates a " +
            (A.ValueType.empty() ? std::string("value of unknown type")
                                 : A.ValueType) +
            ", which " + A.Function +
            " and cooperative groups' reduce do not both take";
    else if (!A.UniformTargetWhy.empty())
      Why = "its target may differ between the lanes that reach it "
            "together (" +
            A.UniformTargetWhy + ")";
    else if (A.CalleeSpan.EndOffset == 0)
      Why = "it is written inside a macro or outside the user's files";
    if (Why.empty())
      S.Aggregated.push_back(&A);
    else if (FirstWhy.empty())
      FirstWhy = "the " + A.Function + " at " + A.Location + ": " + Why;
  }
  if (S.Aggregated.empty())
    S.Refusal =
        K.Atomics.empty() ? "the kernel updates nothing atomically" : FirstWhy;
  return S;
}

std::string sanitized(StringRef S) {
  std::string Out;
  for (char C : S)
    Out += isAlnum(C) ? C : '_';
  return Out;
}

/// The function K's aggregated atomics of operation O on T become,
/// inserted before K's declaration: in K's namespace (or `extern "C"`
/// block, hence no template), named and guarded after O, K and T (overloads
/// of a kernel share one copy; kernels of one name in two namespaces get one
/// each).
std::pair<std::string, std::string>
helperFor(const Operation &O, const KernelInfo &K, StringRef T) {
  std::string Suffix =
      O.Name.str() + "_" + sanitized(K.Id) + "_" + sanitized(T);
  std::string Name = "cro_warp_aggregated_" + Suffix;
  std::string Guard = "CRO_WARP_AGGREGATED_" + O.Name.upper() + "_" +
                      sanitized(K.Id) + "_" + sanitized(T);
  std::string Text =
      "#ifndef " + Guard + "\n#define " + Guard +
      "\n"
      "// cuda-rewrite-opt: " +
      O.Function.str() +
      "(target, value) for a target every lane\n"
      "// shares: the lanes that arrive together combine their values, and\n"
      "// one of them updates memory.\n"
      "__device__ __forceinline__ void " +
      Name + "(" + T.str() + " *target, " + T.str() +
      " value) {\n"
      "  namespace cg = cooperative_groups;\n"
      "  const cg::coalesced_group lanes = cg::coalesced_threads();\n"
      "  const " +
      T.str() + " combined = cg::reduce(lanes, value, cg::" + O.Reduce.str() +
      "<" + T.str() +
      ">());\n"
      "  if (lanes.thread_rank() == 0)\n"
      "    " +
      O.Function.str() +
      "(target, combined);\n"
      "}\n"
      "#endif\n";
  return {Name, Text};
}

/// The headers the helpers need go at the top of the kernel's file, at file
/// scope (they cannot be included inside a namespace or `extern "C"`), once.
constexpr StringLiteral IncludeLines =
    "#include <cooperative_groups.h>\n"
    "#include <cooperative_groups/reduce.h>\n";

Error insertOnce(EditSet &Out, unsigned Offset, StringRef Text) {
  for (const Edit &E : Out.edits())
    if (E.Offset == Offset && E.Length == 0 && E.Text == Text)
      return Error::success();
  return Out.insert(Offset, Text);
}

/// The atomic fold turns into an addition to a register (then fold writes
/// the one atomic after the body itself): not K's to rewrite.
bool foldedAway(const KernelInfo &K, const AtomicUpdateInfo &A,
                const ResolvedConfig &Config) {
  const json::Value *F = Config.value(K.Id + ".fold");
  return F && F->getAsInteger().value_or(1) != 1 &&
         K.BlockSum.Form == "atomic" &&
         A.CalleeSpan.BeginOffset == K.BlockSum.Statement.BeginOffset;
}

} // namespace

std::optional<std::string>
warpAggregatedCallee(const RewriteContext &Ctx, const KernelInfo &K,
                     StringRef Function, StringRef ValueType, EditSet &Out) {
  const Operation *O = operationOf(Function);
  if (!O || !aggregatable(*O, ValueType))
    return std::nullopt;
  const ProgramFile *File = Ctx.Model.Program.fileAt(K.DeclLineOffset);
  if (Error E = insertOnce(Out, File ? File->Begin : 0, IncludeLines)) {
    consumeError(std::move(E));
    return std::nullopt;
  }
  auto [Name, Helper] = helperFor(*O, K, ValueType);
  if (Error E = insertOnce(Out, K.DeclLineOffset, Helper)) {
    consumeError(std::move(E));
    return std::nullopt;
  }
  return Name;
}

void WarpAggregate::describe(const RewriteContext &Ctx, const KernelInfo &K,
                             KnobSink &Out) const {
  Sites S = sitesOf(K);
  if (S.Aggregated.empty())
    return Out.refuse(K.Id, S.Refusal, K.Location);
  Knob Kn;
  Kn.Id = K.Id + ".warp_aggregate";
  Kn.Kernel = K.Id;
  Kn.Default = false;
  Kn.Values = {false, true};
  Out.offer(std::move(Kn));
}

Error WarpAggregate::apply(const RewriteContext &Ctx, const Knob &Kn,
                           const json::Value &V, const ResolvedConfig &Config,
                           EditSet &Out) const {
  if (!V.getAsBoolean().value_or(false))
    return Error::success();
  const KernelInfo *K = kernelOf(Ctx, Kn);
  if (!K)
    return makeToolError(ExitCode::Internal, "no kernel for " + Kn.Id);
  Sites S = sitesOf(*K);
  if (S.Aggregated.empty())
    return makeToolError(ExitCode::Internal, S.Refusal);
  // Both re-emit the work for several elements, the call with it.
  if (coarsening(*K, Config))
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K->Id +
                             ": coarsen and warp-aggregate both rewrite its "
                             "work; choose one");
  if (const json::Value *W = Config.value(K->Id + ".vectorize");
      W && W->getAsInteger().value_or(1) != 1)
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K->Id +
                             ": vectorize and warp-aggregate both rewrite its "
                             "work; choose one");
  for (const AtomicUpdateInfo *A : S.Aggregated) {
    if (foldedAway(*K, *A, Config))
      continue;
    std::optional<std::string> Callee =
        warpAggregatedCallee(Ctx, *K, A->Function, A->ValueType, Out);
    if (!Callee)
      return makeToolError(ExitCode::Internal, "no helper for the " +
                                                   A->Function + " at " +
                                                   A->Location);
    if (Error E = Out.replace(
            A->CalleeSpan.BeginOffset,
            A->CalleeSpan.EndOffset - A->CalleeSpan.BeginOffset, *Callee))
      return E;
  }
  return Error::success();
}

} // namespace cro
