#include "Privatize.h"
#include "LaunchAliasing.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/TextLines.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace cro {

namespace {

/// Room for all private copies together: a third of the 48 KiB of static
/// shared memory a block may have, so the kernel keeps most of its
/// occupancy; with the kernel's own arrays they stay within the 48 KiB.
constexpr int64_t MaxPrivateBytes = 16 * 1024;

/// Bytes of one element of a shared array's type, when known.
std::optional<int64_t> sharedElementSize(StringRef T) {
  T = T.trim();
  T.consume_front("volatile ");
  if (T == "char" || T == "unsigned char" || T == "signed char" || T == "bool")
    return 1;
  if (T == "short" || T == "unsigned short" || T == "__half" || T == "half")
    return 2;
  if (T == "int" || T == "unsigned int" || T == "float" || T == "unsigned")
    return 4;
  if (T == "double" || T == "long long" || T == "unsigned long long" ||
      T == "float2" || T == "int2" || T == "long" || T == "unsigned long")
    return 8;
  if (T == "float4" || T == "int4" || T == "double2")
    return 16;
  return std::nullopt;
}

std::optional<int64_t> integerSize(StringRef T) {
  if (T == "int" || T == "unsigned int")
    return 4;
  if (T == "unsigned long long" || T == "unsigned long long int" ||
      T == "long long" || T == "long long int")
    return 8;
  return std::nullopt;
}

/// The element counts offered for a copy of an array whose index range is
/// not known (or too large): the copy holds the array's first N elements.
constexpr int64_t CopyCapacities[] = {256, 1024, 4096};

/// One parameter whose updates become block-private.
struct Candidate {
  std::string Param, ElementType;
  int64_t Elements = 0;
  /// False when the indices' range is not known to fit a copy: the copy
  /// then holds the array's first elements (the knob says how many), and
  /// each update checks its index at run time -- indices below the copy's
  /// size go to it, the others (larger, or negative) to the global array as
  /// before.
  bool Bounded = true;
  std::vector<const AtomicUpdateInfo *> Updates;
};

/// The index is spelled in the file, so the update can be rewritten to
/// check it at run time.
bool checkableIndex(const AtomicUpdateInfo &U) {
  return U.IndexSpan.EndOffset > U.IndexSpan.BeginOffset;
}

/// The parameters of K that can be privatized, or the reason none can.
std::vector<Candidate> candidates(const KernelInfo &K, std::string &Why) {
  std::vector<Candidate> Out;
  std::vector<std::string> Seen;
  for (const AtomicUpdateInfo &A : K.Atomics) {
    if (A.Base.empty() ||
        std::find(Seen.begin(), Seen.end(), A.Base) != Seen.end())
      continue;
    Seen.push_back(A.Base);
    Candidate C;
    C.Param = A.Base;
    std::string Reason;
    for (const AtomicUpdateInfo &B : K.Atomics) {
      if (B.Base != A.Base)
        continue;
      C.Updates.push_back(&B);
      if (B.Function != "atomicAdd")
        Reason = "'" + A.Base + "' is updated with " + B.Function + " at " +
                 B.Location + "; only atomicAdd is privatized";
      else if (B.ResultUsed)
        Reason = "the value atomicAdd returns at " + B.Location +
                 " is used, and a private copy would return another";
      else if (!B.IntegerElement || !integerSize(B.ElementType))
        Reason = "'" + A.Base + "' holds " + B.ElementType +
                 ", and only int, unsigned int and (unsigned) long long "
                 "sums are exact in any order";
      else if (B.ElementType != A.ElementType)
        Reason = "'" + A.Base + "' is updated as two element types";
      else if (!B.IndexBound && !checkableIndex(B))
        Reason = B.IndexBoundWhy +
                 ", and the index is written through a macro, so no "
                 "run-time check of it can be written (at " +
                 B.Location + ")";
      if (!Reason.empty())
        break;
      C.ElementType = B.ElementType;
      if (B.IndexBound)
        C.Elements = std::max(C.Elements, *B.IndexBound);
      else
        C.Bounded = false;
    }
    // A known range too large for a copy is checked at run time instead.
    if (Reason.empty() && C.Bounded &&
        C.Elements * *integerSize(C.ElementType) > MaxPrivateBytes) {
      if (llvm::all_of(C.Updates, [](const AtomicUpdateInfo *U) {
            return checkableIndex(*U);
          }))
        C.Bounded = false;
      else
        Reason = "a private copy of '" + A.Base + "' needs " +
                 std::to_string(C.Elements) + " elements, more than " +
                 std::to_string(MaxPrivateBytes / 1024) +
                 " KiB of shared memory";
    }
    if (!C.Bounded)
      C.Elements = 0; // the knob sets it
    for (const AccessInfo &Acc : K.Accesses)
      if (Reason.empty() && Acc.Base == A.Base && Acc.Mode != "atomic")
        Reason = "'" + A.Base + "' is also accessed at " + Acc.Location + " (" +
                 Acc.Mode + "), not only updated by atomicAdd";
    for (const ParamInfo &P : K.Params) {
      if (!Reason.empty() || P.Name != A.Base)
        continue;
      if (P.Access == "unknown")
        Reason =
            "'" + A.Base + "' escapes the analysis (" + P.EscapeReason + ")";
      else if (!P.ModifiedAt.empty())
        Reason = "the pointer '" + A.Base + "' itself is changed at " +
                 P.ModifiedAt + ", so its elements are not one array";
      else if (P.Uses != C.Updates.size())
        // Every use must be one this transform rewrites: any other (an
        // alias, a reference, `bins + i`, a cast, a struct) could read or
        // update the global array behind the private copy's back.
        Reason = "'" + A.Base + "' is used " + std::to_string(P.Uses) +
                 " times, not only in the " + std::to_string(C.Updates.size()) +
                 " `atomicAdd(&" + A.Base + "[index], value)` updates";
    }
    if (Reason.empty())
      Out.push_back(std::move(C));
    else if (Why.empty())
      Why = Reason;
  }
  if (Out.empty() && Why.empty())
    Why = "no atomic update is written `atomicAdd(&param[index], value)` on "
          "a pointer parameter";
  return Out;
}

/// The parameters of K whose updates can become block-private, with every
/// kernel-wide condition checked too; empty with the reason otherwise.
/// Room: the bytes of shared memory left for the copies of unbounded
/// candidates. describe() offers the knob and apply() rewrites on this one
/// answer.
std::vector<Candidate> legalCandidates(const RewriteContext &Ctx,
                                       const KernelInfo &K, std::string &Why,
                                       int64_t &Room) {
  std::vector<Candidate> C = candidates(K, Why);
  if (C.empty())
    return C;
  auto Refuse = [&](std::string Reason) {
    Why = std::move(Reason);
    return std::vector<Candidate>();
  };
  if (!K.Returns.empty())
    return Refuse("the kernel returns at " + K.Returns.front() +
                  ", and every thread must reach the barrier before the "
                  "block's counts are added");
  if (!K.AsmStatements.empty())
    return Refuse("the kernel has inline assembly at " +
                  K.AsmStatements.front() +
                  ", which may end a thread before the barrier");
  for (const LaunchSite &L : K.Launches)
    if (L.Syntax == "cudaLaunchCooperativeKernel")
      return Refuse("the kernel is launched cooperatively at " + L.Location +
                    " (its grid must stay resident; more shared memory per "
                    "block could stop it from starting)");
  // Shared memory: the copies, and the kernel's own static arrays.
  int64_t Copies = 0, Own = 0;
  for (const Candidate &Cand : C)
    Copies += Cand.Elements * *integerSize(Cand.ElementType);
  if (Copies > MaxPrivateBytes)
    return Refuse("the private copies need " + std::to_string(Copies) +
                  " bytes, more than " +
                  std::to_string(MaxPrivateBytes / 1024) +
                  " KiB of shared memory");
  for (const SharedArrayInfo &A : K.SharedArrays) {
    if (A.Dynamic)
      return Refuse("the kernel uses dynamic shared memory ('" + A.Name +
                    "'), whose size at launch the tool cannot add to");
    std::optional<int64_t> Bytes = sharedElementSize(A.ElementType);
    for (const std::optional<int64_t> &E : A.ExtentValues)
      Bytes = Bytes && E ? std::optional<int64_t>(*Bytes * *E) : std::nullopt;
    if (!Bytes)
      return Refuse("the size of the kernel's shared array '" + A.Name +
                    "' is not known, so the copies might not fit beside it");
    Own += *Bytes;
  }
  const int64_t MaxShared = Ctx.Target.MaxSharedPerBlock;
  Room = std::min(MaxPrivateBytes - Copies, MaxShared - Own - Copies);
  if (Own + Copies > MaxShared)
    return Refuse("the private copies (" + std::to_string(Copies) +
                  " bytes) and the kernel's shared arrays (" +
                  std::to_string(Own) + " bytes) exceed the " +
                  std::to_string(MaxShared / 1024) +
                  " KiB of shared memory a block may declare statically");
  // Another array the kernel reads or writes must not be the same memory as
  // a privatized one: its reads would miss the block's counts until the end.
  bool OtherPointers = false;
  for (const ParamInfo &P : K.Params) {
    bool Privatized = false;
    for (const Candidate &Cand : C)
      Privatized |= Cand.Param == P.Name;
    OtherPointers |= P.IsPointer && !Privatized && P.Access != "none";
  }
  if (std::string Alias = launchAliasingReason(K);
      OtherPointers && !Alias.empty() && !Ctx.Options.AssumeNoAlias)
    return Refuse(Alias + "; pass --assume-no-alias to privatize anyway");
  if (K.BodySpan.EndOffset <= K.BodySpan.BeginOffset ||
      K.BodySpan.EndOffset > Ctx.Source.size() ||
      Ctx.Source[K.BodySpan.BeginOffset] != '{' ||
      Ctx.Source[K.BodySpan.EndOffset - 1] != '}')
    return Refuse("the kernel's body is not written as braces in this file "
                  "(a macro?)");
  for (const Candidate &Cand : C)
    for (const AtomicUpdateInfo *U : Cand.Updates)
      if (U->BaseSpan.EndOffset <= U->BaseSpan.BeginOffset)
        return Refuse("the atomic update at " + U->Location +
                      " is written through a macro");
  return C;
}

/// The copy sizes that fit Room for C's unbounded candidates (empty when
/// every candidate is bounded).
std::vector<int64_t> fittingCapacities(const std::vector<Candidate> &C,
                                       int64_t Room) {
  std::vector<int64_t> Out;
  int64_t PerElement = 0;
  for (const Candidate &Cand : C)
    if (!Cand.Bounded)
      PerElement += *integerSize(Cand.ElementType);
  if (PerElement == 0)
    return Out;
  for (int64_t N : CopyCapacities)
    if (N * PerElement <= Room)
      Out.push_back(N);
  return Out;
}

} // namespace

void Privatize::describe(const RewriteContext &Ctx, const KernelInfo &K,
                         KnobSink &Out) const {
  if (!K.UsesAtomics)
    return; // nothing to privatize; not worth a refusal per kernel
  std::string Why;
  int64_t Room = 0;
  std::vector<Candidate> C = legalCandidates(Ctx, K, Why, Room);
  if (C.empty()) {
    Out.refuse(K.Id, Why);
    return;
  }
  Knob Kn;
  Kn.Id = K.Id + ".privatize";
  Kn.Kernel = K.Id;
  Kn.Default = false;
  Kn.Values = {false};
  if (llvm::all_of(C, [](const Candidate &Cand) { return Cand.Bounded; })) {
    Kn.Values.push_back(true);
  } else {
    // How many of the array's first elements the copy holds.
    for (int64_t N : fittingCapacities(C, Room))
      Kn.Values.push_back(N);
    if (Kn.Values.size() == 1) {
      Out.refuse(K.Id, "the indices' range is not known, and even a copy of "
                       "the first " +
                           std::to_string(CopyCapacities[0]) +
                           " elements does not fit the shared memory left");
      return;
    }
  }
  Out.offer(std::move(Kn));
}

Error Privatize::apply(const RewriteContext &Ctx, const Knob &K,
                       const json::Value &V, const ResolvedConfig &,
                       EditSet &Out) const {
  std::optional<int64_t> Capacity = V.getAsInteger();
  if (V != json::Value(true) && !Capacity)
    return Error::success();
  const KernelInfo *KI = kernelOf(Ctx, K);
  if (!KI)
    return makeToolError(ExitCode::Internal, "no kernel for " + K.Id);
  std::string Why;
  int64_t Room = 0;
  std::vector<Candidate> Cands = legalCandidates(Ctx, *KI, Why, Room);
  if (Cands.empty())
    return makeToolError(ExitCode::Internal, K.Id + ": " + Why);
  bool Unbounded =
      llvm::any_of(Cands, [](const Candidate &Cand) { return !Cand.Bounded; });
  if (Unbounded != bool(Capacity) ||
      (Capacity &&
       !llvm::is_contained(fittingCapacities(Cands, Room), *Capacity)))
    return makeToolError(ExitCode::BadConfig,
                         K.Id + ": " + formatv("{0}", V).str() +
                             " is not one of the knob's values");
  for (Candidate &Cand : Cands)
    if (!Cand.Bounded)
      Cand.Elements = *Capacity;
  // Indented as the kernel's first line (the brace may end a parameter
  // line).
  std::string In = lineIndent(Ctx.Source, KI->Span.BeginOffset).str() + "  ";
  // The thread's rank in its block and the block's size, whatever the
  // block's shape: each element of a copy is zeroed and added by one thread.
  std::string Rank = freshIdentifier(Ctx.Source, "cro_rank");
  std::string Threads = freshIdentifier(Ctx.Source, "cro_threads");
  std::string Pro =
      "\n" + In +
      "// cuda-rewrite-opt privatize: this block's atomic updates go to a "
      "copy\n" +
      In + "// in shared memory, added to global memory once at the end.\n" +
      (Capacity
           ? In + "// The copy holds the first " + std::to_string(*Capacity) +
                 " elements; an update at another index goes to global "
                 "memory directly.\n"
           : "") +
      In + "const unsigned " + Rank +
      " = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * "
      "threadIdx.z);\n" +
      In + "const unsigned " + Threads +
      " = blockDim.x * blockDim.y * blockDim.z;\n";
  std::string I = freshIdentifier(Ctx.Source, "cro_i");
  auto Loop = [&](const std::string &N) {
    return In + "for (unsigned " + I + " = " + Rank + "; " + I + " < " + N +
           "; " + I + " += " + Threads + ")\n";
  };
  std::string Epi = In + "__syncthreads();\n";
  for (const Candidate &C : Cands) {
    std::string Name = freshIdentifier(Ctx.Source, C.Param + "_block");
    std::string N = std::to_string(C.Elements) + "u";
    Pro += In + "__shared__ " + C.ElementType + " " + Name + "[" +
           std::to_string(C.Elements) + "];\n";
    std::string Elem = Name + "[" + I + "]";
    Pro += Loop(N) + In + "  " + Elem + " = 0;\n";
    Epi += Loop(N) + In + "  if (" + Elem + " != 0)\n" + In +
           "    atomicAdd(&" + C.Param + "[" + I + "], " + Elem + ");\n";
    // Without a known range, each update goes through a function that
    // evaluates its index once: an index the copy holds goes to it, any
    // other (larger, or negative: a huge unsigned value) to the global
    // array, as before.
    std::string At;
    if (!C.Bounded) {
      At = freshIdentifier(Ctx.Source, C.Param + "_at");
      std::string K = freshIdentifier(Ctx.Source, "cro_k");
      Pro += In + "auto " + At + " = [&](auto " + K +
             ") { return (unsigned long long)" + K + " < " + N + "ll ? &" +
             Name + "[" + K + "] : &" + C.Param + "[" + K + "]; };\n";
    }
    for (const AtomicUpdateInfo *U : C.Updates) {
      if (C.Bounded) {
        if (Error E = Out.replace(
                U->BaseSpan.BeginOffset,
                U->BaseSpan.EndOffset - U->BaseSpan.BeginOffset, Name))
          return E;
        continue;
      }
      // `bins[index]` becomes `*bins_at(index)`.
      StringRef Src = Ctx.Source;
      size_t Close = Src.find_first_not_of(" \t\n", U->IndexSpan.EndOffset);
      if (Close == StringRef::npos || Src[Close] != ']')
        return makeToolError(ExitCode::Internal,
                             "no ']' after the index at " + U->Location);
      std::string Index =
          Src.slice(U->IndexSpan.BeginOffset, U->IndexSpan.EndOffset).str();
      if (Error E = Out.replace(U->BaseSpan.BeginOffset,
                                Close + 1 - U->BaseSpan.BeginOffset,
                                "*" + At + "(" + Index + ")"))
        return E;
    }
  }
  Pro += In + "__syncthreads();";
  if (Error E = Out.insert(KI->BodySpan.BeginOffset + 1, Pro))
    return E;
  return Out.insert(KI->BodySpan.EndOffset - 1, Epi);
}

} // namespace cro
