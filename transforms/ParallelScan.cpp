#include "ParallelScan.h"
#include "LaunchAliasing.h"
#include "ThreadRemap.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/TextLines.h"
#include "cro/Support/ToolError.h"
#include <algorithm>

using namespace llvm;

namespace cro {

namespace {

constexpr int64_t GroupSizes[] = {32, 256, 1024};

/// Why K's blocks cannot be given a group of threads in place of their one
/// thread ("" when they can): some launch has more than one thread per
/// block, or one the model does not see, or its block argument is not
/// written at the launch.
std::string launchRefusal(const KernelInfo &K) {
  if (K.Launches.empty())
    return "the kernel is never launched in this file, so its block shape "
           "is unknown";
  if (std::string Why = hiddenLaunchRefusal(K); !Why.empty())
    return Why;
  for (const LaunchSite &L : K.Launches) {
    for (const ValueOrigin &D : L.Block.Dims)
      if (D.Kind != "default" && (!D.Value || *D.Value != 1))
        return "the launch at " + L.Location + " has blocks of '" +
               L.Block.Text +
               "', not of one thread: its threads already share the work";
    if (!within(L.Block.Span, L.Span) ||
        L.Block.Span.EndOffset <= L.Block.Span.BeginOffset)
      return "the block argument of the launch at " + L.Location +
             " is not written at the launch";
  }
  return "";
}

/// Why the terms of loop S could see another value when a group reads them
/// a chunk at a time ("" when they cannot): the term reads an array that
/// may overlap the one the scan writes, whose element the original would
/// read after storing it.
std::string termAliasRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                             const SerialScanInfo::Loop &S) {
  const AccessInfo *Store = accessAt(K, S.Element);
  if (!Store)
    return "the store '" + spanText(Ctx, S.Element) + "' is not modelled";
  std::string Alias = launchAliasingReason(K);
  for (const AccessInfo &A : K.Accesses) {
    if (!within(A.Span, S.Term) || A.Space == "local" || A.Space == "shared" ||
        A.Space == "constant")
      continue;
    // The scanned array, under its name or another (`int *y = x;` ...
    // `y[k - 1]`: the model resolves the pointer to the same base). The element
    // being stored reads what the original read only where the term comes
    // before the store (not in an exclusive scan, whose store comes first), as
    // the same element (not a byte of it through a cast pointer), written on
    // the same array (a pointer derived from a derived pointer may carry an
    // offset the model drops).
    if (A.Base == Store->Base) {
      if (S.Exclusive || !sameElement(A, *Store) || !A.Direct ||
          !Store->Direct ||
          A.CanonicalElementType != Store->CanonicalElementType)
        return "the term reads '" + spanText(Ctx, A.Span) +
               "', an element of '" + Store->Base + "' " +
               (S.Exclusive ? "that the iteration's store before it has written"
                            : "other than the one stored, or through another "
                              "pointer") +
               ", which the group could read before or after another "
               "thread stores it";
      continue;
    }
    // The launches tell which arguments are distinct; they say nothing of
    // a pointer that is not a parameter (a __device__ pointer variable).
    bool Param = llvm::any_of(
        K.Params, [&](const ParamInfo &P) { return P.Name == A.Base; });
    if (mayAlias(Ctx, K, A.Base, Store->Base,
                 Param && A.Space != "unknown" && Alias.empty()))
      return "the term reads '" + spanText(Ctx, A.Span) + "', and '" + A.Base +
             "' may point into '" + Store->Base + "'" +
             (Alias.empty() ? "" : " (" + Alias + ")") +
             ", which the scan writes; pass --assume-no-alias if they never "
             "overlap";
  }
  return "";
}

std::string refusal(const RewriteContext &Ctx, const KernelInfo &K) {
  if (!K.SerialScan.Why.empty())
    return K.SerialScan.Why;
  if (std::string Why = launchRefusal(K); !Why.empty())
    return Why;
  for (const SerialScanInfo::Loop &S : K.SerialScan.Loops) {
    const LoopInfo *L = loopNamed(K, S.Id);
    if (!L || L->InMacro)
      return "loop " + S.Id + " is not modelled outside a macro";
    if (std::string Why = termAliasRefusal(Ctx, K, S); !Why.empty())
      return "loop " + S.Id + " at " + L->Location + ": " + Why;
  }
  return "";
}

/// The group form of one scan loop, replacing the loop statement: chunks
/// of G iterations, one per thread, whose terms a shuffle scan adds up.
std::string groupLoop(const RewriteContext &Ctx, const SerialScanInfo &Info,
                      const SerialScanInfo::Loop &S, const LoopInfo &L,
                      int64_t G) {
  StringRef Src = Ctx.Source;
  // Program text as the group's threads read it: threadIdx and blockDim as
  // the original's one thread read them.
  auto Copy = [&](const SourceSpan &Span) {
    return spanTextReplacing(Ctx, Span, Info.Builtins);
  };
  auto Fresh = [&](StringRef Name) { return freshIdentifier(Src, Name); };
  std::string T = S.Type, CT = S.CounterType, GS = std::to_string(G);
  std::string Carry = Fresh("scan_carry"), First = Fresh("scan_first"),
              Base = Fresh("scan_base"), In = Fresh("scan_in"),
              V = Fresh("scan_value"), Lane = Fresh("scan_lane"),
              D = Fresh("scan_d"), Up = Fresh("scan_up"),
              Before = Fresh("scan_before"), Chunk = Fresh("scan_chunk");
  const std::string &I0 = L.Indent;
  std::string I1 = I0 + "  ", I2 = I1 + "  ", I3 = I2 + "  ";
  int64_t Warps = G / 32;
  std::string Out;
  auto Line = [&](const std::string &Ind, const std::string &Text) {
    Out += Ind + Text + "\n";
  };
  Out += "{ // cuda-rewrite-opt parallel-scan " + GS + ": loop " + S.Id +
         "'s running total computed " + GS +
         " iterations at a time, one per thread\n";
  Line(I1, T + " " + Carry + " = " +
               (S.Form == "accumulator" ? S.Accumulator : "(" + T + ")0") +
               ";");
  Line(I1, "const unsigned " + Lane + " = threadIdx.x % 32;");
  std::string Totals;
  if (Warps > 1) {
    Totals = Fresh("scan_warp_totals");
    Line(I1,
         "__shared__ " + T + " " + Totals + "[" + std::to_string(Warps) + "];");
  }
  Line(I1, "const " + CT + " " + First + " = " + Copy(S.Start) + ";");
  if (S.CounterBits < 64) {
    // The chunk's counters in 64 bits: a thread past the type's largest
    // value is past the loop's end (the original never wraps), and none
    // wraps around to a value the condition admits.
    uint64_t Max = S.CounterSigned ? (uint64_t(1) << (S.CounterBits - 1)) - 1
                                   : (uint64_t(1) << S.CounterBits) - 1;
    Line(I1, "for (long long " + Base + " = " + First + ";; " + Base +
                 " += " + GS + ") {");
    Line(I2, CT + " " + S.Counter + " = (" + CT + ")(" + Base +
                 " + (long long)threadIdx.x);");
    Line(I2, "const bool " + In + " = " + Base +
                 " + (long long)threadIdx.x <= " + std::to_string(Max) +
                 "LL && (" + Copy(S.Condition) + ");");
  } else {
    Line(I1, "for (" + CT + " " + Base + " = " + First + ";; " + Base +
                 " += " + GS + ") {");
    Line(I2,
         CT + " " + S.Counter + " = " + Base + " + (" + CT + ")threadIdx.x;");
    Line(I2, "const bool " + In + " = " + Copy(S.Condition) + ";");
  }
  // The condition holds for a prefix of the chunk's iterations (the counter
  // only grows and the bound does not change): none holds, the loop ends.
  // The check orders the previous chunk's stores before what follows.
  if (Warps > 1) {
    Line(I2, "if (!__syncthreads_or(" + In + "))");
  } else {
    Line(I2, "__syncwarp();");
    Line(I2, "if (!__any_sync(0xffffffffu, " + In + "))");
  }
  Line(I3, "break;");
  Line(I2, T + " " + V + " = " + "(" + T + ")0;");
  Line(I2, "if (" + In + ") {");
  Line(I3, V + " = " + Copy(S.Term) + ";");
  if (S.Form == "memory") {
    // The first iteration adds the element before the loop, as read there.
    std::string Prev = Copy(S.Previous);
    Line(I3, "if (" + S.Counter + " == " + First + ")");
    Line(I3 + "  ",
         V + " = " + (S.PreviousFirst ? Prev + " + " + V : V + " + " + Prev) +
             ";");
  }
  Line(I2, "}");
  Line(I2, "for (int " + D + " = 1; " + D + " < 32; " + D + " *= 2) {");
  Line(I3, "const " + T + " " + Up + " = __shfl_up_sync(0xffffffffu, " + V +
               ", " + D + ");");
  Line(I3, "if (" + Lane + " >= (unsigned)" + D + ")");
  Line(I3 + "  ", V + " += " + Up + ";");
  Line(I2, "}");
  if (S.Exclusive) {
    Line(I2,
         T + " " + Before + " = __shfl_up_sync(0xffffffffu, " + V + ", 1);");
    Line(I2, "if (" + Lane + " == 0)");
    Line(I3, Before + " = " + "(" + T + ")0;");
  }
  if (Warps > 1) {
    // The warps' totals, scanned by the first warp.
    std::string W = Fresh("scan_w"), Off = Fresh("scan_offset");
    std::string WS = std::to_string(Warps);
    Line(I2, "if (" + Lane + " == 31)");
    Line(I3, Totals + "[threadIdx.x / 32] = " + V + ";");
    Line(I2, "__syncthreads();");
    Line(I2, "if (threadIdx.x < 32) {");
    Line(I3, T + " " + W + " = threadIdx.x < " + WS + " ? " + Totals +
                 "[threadIdx.x] : " + "(" + T + ")0;");
    Line(I3,
         "for (int " + D + " = 1; " + D + " < " + WS + "; " + D + " *= 2) {");
    Line(I3 + "  ", "const " + T + " " + Up +
                        " = __shfl_up_sync(0xffffffffu, " + W + ", " + D +
                        ");");
    Line(I3 + "  ", "if (" + Lane + " >= (unsigned)" + D + ")");
    Line(I3 + "    ", W + " += " + Up + ";");
    Line(I3, "}");
    Line(I3, "if (threadIdx.x < " + WS + ")");
    Line(I3 + "  ", Totals + "[threadIdx.x] = " + W + ";");
    Line(I2, "}");
    Line(I2, "__syncthreads();");
    Line(I2, "if (threadIdx.x >= 32) {");
    Line(I3,
         "const " + T + " " + Off + " = " + Totals + "[threadIdx.x / 32 - 1];");
    Line(I3, V + " += " + Off + ";");
    if (S.Exclusive)
      Line(I3, Before + " += " + Off + ";");
    Line(I2, "}");
    Line(I2, "const " + T + " " + Chunk + " = " + Totals + "[" +
                 std::to_string(Warps - 1) + "];");
    Line(I2, "__syncthreads();");
  } else {
    Line(I2, "const " + T + " " + Chunk + " = __shfl_sync(0xffffffffu, " + V +
                 ", 31);");
  }
  Line(I2, "if (" + In + ") {");
  if (S.Form == "memory") {
    Line(I3, Copy(S.Element) + " = " + Carry + " + " + V + ";");
  } else {
    // The running total as the original held it at the store.
    Line(I3, "const " + T + " " + S.Accumulator + " = " + Carry + " + " +
                 (S.Exclusive ? Before : V) + ";");
    Line(I3, Copy(S.Store));
  }
  Line(I2, "}");
  Line(I2, Carry + " += " + Chunk + ";");
  Line(I1, "}");
  if (S.Form == "accumulator")
    Line(I1, S.Accumulator + " = " + Carry + ";");
  Out += I0 + "}";
  return Out;
}

} // namespace

std::optional<int64_t> parallelScanGroup(const KernelInfo &K,
                                         const ResolvedConfig &Config) {
  if (const json::Value *V = Config.value(K.Id + ".parallel_scan"))
    if (std::optional<int64_t> G = V->getAsInteger(); G && *G > 1)
      return G;
  return std::nullopt;
}

void ParallelScan::describe(const RewriteContext &Ctx, const KernelInfo &K,
                            KnobSink &Out) const {
  if (std::string Why = refusal(Ctx, K); !Why.empty())
    return Out.refuse(K.Id, Why, K.Location);
  Knob Kn;
  Kn.Id = K.Id + ".parallel_scan";
  Kn.Kernel = K.Id;
  Kn.Default = 1;
  Kn.Values = {1};
  for (int64_t G : GroupSizes)
    Kn.Values.push_back(G);
  Out.offer(std::move(Kn));
}

Error ParallelScan::apply(const RewriteContext &Ctx, const Knob &Kn,
                          const json::Value &V, const ResolvedConfig &Config,
                          EditSet &Out) const {
  std::optional<int64_t> G = V.getAsInteger();
  if (!G || *G == 1)
    return Error::success();
  const KernelInfo *K = kernelOf(Ctx, Kn);
  if (!K)
    return makeToolError(ExitCode::Internal, "no kernel for knob " + Kn.Id);
  if (std::string Why = refusal(Ctx, *K); !Why.empty())
    return makeToolError(ExitCode::Internal,
                         "knob " + Kn.Id + " has no plan: " + Why);
  if (*G % 32 != 0 || *G > 1024)
    return makeToolError(ExitCode::BadConfig,
                         "knob " + Kn.Id + ": a group of " +
                             std::to_string(*G) +
                             " threads is not whole warps of one block");
  // The group is the block: another block shape would contradict it.
  for (const Knob &BK : Ctx.Knobs.Knobs)
    if (BK.Kernel == K->Id && BK.Role == KnobRole::BlockShape &&
        !Config.isDefault(BK))
      return makeToolError(ExitCode::BadConfig,
                           "kernel " + K->Id + ": " + BK.Id +
                               " and parallel-scan both set its block; "
                               "choose one");
  if (K->Bounds && K->Bounds->MaxThreads.Value &&
      *K->Bounds->MaxThreads.Value < *G)
    return makeToolError(ExitCode::BadConfig,
                         "kernel " + K->Id + ": its __launch_bounds__(" +
                             K->Bounds->MaxThreads.Text +
                             ") is below a group of " + std::to_string(*G));
  const SerialScanInfo &Info = K->SerialScan;
  std::vector<SourceSpan> Rewritten;
  for (const SerialScanInfo::Loop &S : Info.Loops) {
    const LoopInfo *L = loopNamed(*K, S.Id);
    unsigned End = std::max(L->Span.EndOffset, L->Body.EndOffset);
    // An unroll pragma has no loop left to apply to.
    if (L->HasUnrollPragma && L->PragmaSpan.EndOffset > 0)
      if (Error E =
              Out.replace(L->PragmaSpan.BeginOffset,
                          L->PragmaSpan.EndOffset - L->PragmaSpan.BeginOffset,
                          "// (#pragma unroll removed: the loop is "
                          "split across threads)"))
        return E;
    if (Error E = Out.replace(L->Span.BeginOffset, End - L->Span.BeginOffset,
                              groupLoop(Ctx, Info, S, *L, *G)))
      return E;
    SourceSpan Whole = L->Span;
    Whole.EndOffset = End;
    Rewritten.push_back(Whole);
  }
  // Everywhere else every thread stands for the block's one thread.
  for (const auto &[B, With] : Info.Builtins)
    if (llvm::none_of(Rewritten, [&, &B = B](const SourceSpan &R) {
          return within(B, R);
        }))
      if (Error E =
              Out.replace(B.BeginOffset, B.EndOffset - B.BeginOffset, With))
        return E;
  // One thread makes the writes before the first loop, as the original's
  // one thread did; the first chunk's barrier orders them before its reads.
  // A barrier after each orders it before anything the group reads later.
  for (const SourceSpan &W : Info.HeadWrites) {
    if (Error E = Out.insert(W.BeginOffset, "if (threadIdx.x == 0) { "))
      return E;
    if (Error E = Out.insert(
            W.EndOffset,
            std::string(" } ") +
                (*G > 32 ? "__syncthreads();" : "__syncwarp();") +
                " /* cuda-rewrite-opt parallel-scan: one thread writes, as "
                "before */"))
      return E;
  }
  // One thread runs what follows the last loop, as the original's one
  // thread did (the loop's last chunk ended with its stores ordered before).
  StringRef Src = Ctx.Source;
  for (const SourceSpan &T : Info.Tails) {
    // The statements keep their lines; the block's closing brace tells the
    // indentation of the statements inside it.
    unsigned Close = lineStart(Src, T.EndOffset);
    bool OwnLine = Src.slice(Close, T.EndOffset).trim(" \t").empty();
    std::string Ind =
        (OwnLine ? Src.slice(Close, T.EndOffset).str() : "") + "  ";
    if (Error E = Out.insert(
            T.BeginOffset,
            "\n" + Ind +
                "if (threadIdx.x == 0) { /* cuda-rewrite-opt parallel-scan: "
                "what follows the scan runs in one thread, as it did */"))
      return E;
    if (Error E = OwnLine ? Out.insert(Close, Ind + "}\n")
                          : Out.insert(T.EndOffset, " }"))
      return E;
  }
  for (const LaunchSite &L : K->Launches)
    if (Error E = Out.replace(L.Block.Span.BeginOffset,
                              L.Block.Span.EndOffset - L.Block.Span.BeginOffset,
                              std::to_string(*G)))
      return E;
  return Error::success();
}

} // namespace cro
