//===- BlockSize.cpp - the thread-block shape of a kernel's launches ------===//
#include "BlockSize.h"
#include "ParallelScan.h"
#include "ReductionNest.h"
#include "ThreadRemap.h"
#include "cro/Analysis/ASTHelpers.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/TextLines.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <set>

using namespace llvm;

namespace cro {

namespace {

/// The first identifier of Src[Expr] (qualifiers aside) that the text
/// Src[Body] names too ("" when none): what a kernel reads of the symbols
/// its block size is computed from.
std::string identifierReadBy(StringRef Src, const SourceSpan &Body,
                             const SourceSpan &Expr) {
  StringRef E = Src.slice(Expr.BeginOffset, Expr.EndOffset);
  for (size_t I = 0; I < E.size();) {
    if (!isAlpha(E[I]) && E[I] != '_') {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < E.size() && (isAlnum(E[J]) || E[J] == '_'))
      ++J;
    StringRef Name = E.slice(I, J);
    I = J;
    // A qualifier (`cfg::`) names a scope, not a value.
    if (E.substr(J).ltrim().starts_with("::"))
      continue;
    if (!findIdentifier(Src, Body.BeginOffset, Body.EndOffset, Name).empty())
      return Name.str();
  }
  return "";
}

const char *const DimNames[] = {"x", "y", "z"};

/// How the block size of a kernel is written, and so how to change it.
struct Plan {
  std::string Refusal, Where;
  std::vector<int64_t> Shape;
  bool SquareOnly = false; ///< one symbol sets both x and y
  /// The launches choose the block at run time (`threads` from argv): the
  /// default keeps that choice ("runtime"); another value gives every launch
  /// its own constant block and a grid recomputed from its extent.
  bool RuntimeBlock = false;

  struct Symbol {
    unsigned Dim = 0;
    bool Macro = false;
    /// Defined where no copy can sit beside it (a header, the command line,
    /// an enumerator): the copy is a macro, defined in each file holding a
    /// use it replaces before the first such use (CopyAt), and replaces
    /// qualified uses whole.
    bool CopyBeforeUses = false;
    std::vector<unsigned> CopyAt;
    /// For a constant copied in place inside a namespace: "ns::", how code
    /// outside that namespace names the copy.
    std::string Qualifier;
    long InsertAt = -1; ///< where the kernel's own copy is defined
    std::string Indent; ///< of the original definition
    std::string Type = "int"; ///< of a constant copied in place
  };
  std::map<std::string, Symbol> Symbols; ///< macros and constants, by name
  struct Site {
    unsigned Offset, Length, Dim;
  };
  std::vector<Site> Literals; ///< literal block sizes
  struct Grid {
    unsigned Offset, Length, Dim;
    ValueOrigin::Derivation D;
  };
  std::vector<Grid> Grids; ///< grids derived from a literal block size
  /// Per dimension, what a block extent must stay a multiple of: a grid
  /// that divides by warps per block needs whole warps.
  int64_t Multiple[3] = {1, 1, 1};
  /// Where the kernel's uses of a symbol are switched to its copy.
  std::vector<std::pair<unsigned, unsigned>> Scopes;
  /// Launches whose grid and block come from variables other kernels'
  /// launches use too: their arguments are rewritten at the launch instead
  /// (the block from the new shape, the grid recomputed from its extent),
  /// leaving the shared variables to the other kernels.
  struct PrivateLaunch {
    const LaunchSite *Launch;
    std::vector<const ValueOrigin::Derivation *> Derived; ///< per dimension
  };
  std::vector<PrivateLaunch> Private;

  bool refuse(std::string Why, std::string Loc = "") {
    Refusal = std::move(Why);
    Where = std::move(Loc);
    return false;
  }
};

bool spans(const SourceSpan &Outer, const SourceSpan &Inner) {
  return Inner.BeginOffset >= Outer.BeginOffset &&
         Inner.EndOffset <= Outer.EndOffset;
}

/// True when another kernel's launch reads its block or grid from the same
/// place (a shared local variable): editing it would change that launch too.

/// True when which elements a thread touches along dimension Dim does not
/// depend on the block size, so a grid that does not follow the block still
/// covers the same domain -- one block per row with block-strided loops
/// (softmax, layer norm). Needs: no global index scales blockIdx by the
/// block size, no global index uses threadIdx directly, and every loop that
/// starts from threadIdx steps by the block size.
bool coverageIndependentOfBlock(const KernelInfo &K, unsigned Dim,
                                int64_t BlockValue) {
  std::string T = std::string("threadIdx.") + DimNames[Dim];
  std::string B = std::string("blockIdx.") + DimNames[Dim];
  std::string D = std::string("blockDim.") + DimNames[Dim];
  for (const AccessInfo &A : K.Accesses) {
    if (A.Space != "global")
      continue;
    for (const IndexInfo &I : A.Indices) {
      if (!I.Affine)
        return false;
      if (!I.Form.coefficient(T).isZero())
        return false;
      SymPoly C = I.Form.coefficient(B);
      if (C.isZero())
        continue;
      if (C.constantValue() == BlockValue)
        return false;
      for (const auto &[Mono, Coef] : C.terms())
        for (const std::string &Sym : Mono)
          if (Sym == D)
            return false;
    }
  }
  bool Strided = false;
  for (const LoopInfo &L : K.Loops) {
    bool FromThread = L.InitForm ? !L.InitForm->coefficient(T).isZero()
                                 : L.Init.find(T) != std::string::npos;
    if (!FromThread)
      continue;
    bool ByBlock = L.StepKind == "block-stride" ||
                   L.Step.find(D) != std::string::npos ||
                   L.StepValue == BlockValue;
    if (!ByBlock)
      return false;
    Strided = true;
  }
  return Strided;
}

/// Why a constant may not replace a block size the program chooses at run
/// time; empty when it may. The program may rely on its own choice in ways
/// no launch shows (a shared array sized for it, per-block results it reads
/// back), so a constant is legal only where the kernel's outputs cannot
/// depend on how threads are grouped into blocks: each thread's work is a
/// function of its global index alone (no shared memory, barriers, warp
/// intrinsics, or block builtins outside the index), and in every dimension
/// the grid covers exactly the indices the guard keeps (ceil(E / block)
/// with the guard's bound E), or a grid-stride loop covers any domain.
std::string runtimeBlockRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                                unsigned NDims, bool GridStride) {
  if (std::string Why = indexOnlyWorkRefusal(K); !Why.empty())
    return Why;
  if (GridStride)
    return "";
  for (unsigned I = 0; I < NDims; ++I)
    if (std::string Why = gridShrinkRefusal(Ctx, K, DimNames[I]); !Why.empty())
      return Why;
  return "";
}

/// A global store whose index moves with blockIdx along Dim but not with
/// threadIdx (`partial[blockIdx.x] = ...`): one output per block, so the
/// number of outputs is the grid's extent, not the domain's.
const AccessInfo *perBlockOutput(const KernelInfo &K, StringRef Dim) {
  for (const AccessInfo &A : K.Accesses) {
    if (A.Space != "global" || A.Mode == "read")
      continue;
    for (const IndexInfo &I : A.Indices)
      if (I.Affine && !I.Form.coefficient("blockIdx." + Dim.str()).isZero() &&
          I.Form.coefficient("threadIdx." + Dim.str()).isZero())
        return &A;
  }
  return nullptr;
}

/// Threads of a block exchange values: shared memory, barriers, warp
/// intrinsics.
bool threadsCommunicate(const KernelInfo &K) {
  return K.UsesSyncthreads || !K.SharedArrays.empty() || K.UsesWarpIntrinsics;
}

/// True when which elements a block reads depends on the block's size: a
/// grid-stride loop (the blocks interleave by blockDim * gridDim), or a read
/// whose blockIdx coefficient is blockDim, a template parameter (the block
/// extent of `k<256><<<g, 256>>>`) or a multiple of a launched block extent.
/// One block per row with block-strided loops (`m[blockIdx.x * cols + c]`)
/// reads its row whatever its size.
bool blockShareDependsOnSize(const KernelInfo &K) {
  for (const LoopInfo &L : K.Loops)
    if (L.StepKind == "grid-stride")
      return true;
  std::set<int64_t> Extents;
  for (const LaunchSite &L : K.Launches)
    for (const ValueOrigin &B : L.Block.Dims)
      if (B.Value && *B.Value > 1)
        Extents.insert(*B.Value);
  for (const AccessInfo &A : K.Accesses) {
    if (A.Space != "global" || A.Mode == "write")
      continue;
    for (const IndexInfo &I : A.Indices) {
      if (!I.Affine)
        return true; // unknown: assume it does
      for (const char *D : {"x", "y", "z"}) {
        SymPoly C = I.Form.coefficient(std::string("blockIdx.") + D);
        if (C.isZero())
          continue;
        if (std::optional<int64_t> V = C.constantValue()) {
          for (int64_t E : Extents)
            if (*V % E == 0)
              return true;
          continue;
        }
        for (const auto &[Mono, Coef] : C.terms())
          for (const std::string &Sym : Mono) {
            if (StringRef(Sym).starts_with("blockDim."))
              return true;
            for (const TemplateParamInfo &T : K.TemplateParams)
              if (T.Name == Sym)
                return true;
          }
      }
    }
  }
  return false;
}

/// A global element the kernel writes once per block, from values its
/// threads combined (shared memory, barriers, warp exchanges) out of
/// elements the block's size decides: the index has a blockIdx term and no
/// thread index or loop variable, e.g. `if (tid == 0) out[blockIdx.x] =
/// sdata[0];` after a grid-stride loop. Another block size sums other
/// elements there, even where the grid does not change.
const AccessInfo *blockCombinedOutput(const KernelInfo &K) {
  if (!threadsCommunicate(K) || !blockShareDependsOnSize(K))
    return nullptr;
  for (const AccessInfo &A : K.Accesses) {
    if (A.Space != "global" || (A.Mode != "write" && A.Mode != "readwrite") ||
        A.Indices.empty())
      continue;
    // Every index is the block's coordinates and constants only: no thread
    // index, no loop variable (a block-strided `c = threadIdx.x` is one).
    bool PerBlock = true, ByBlock = false;
    for (const IndexInfo &I : A.Indices) {
      PerBlock &= I.Affine;
      for (const auto &[Var, Coef] : I.Form.coefficients()) {
        if (Coef.isZero())
          continue;
        if (StringRef(Var).starts_with("blockIdx."))
          ByBlock = true;
        else
          PerBlock = false;
      }
    }
    if (PerBlock && ByBlock)
      return &A;
  }
  return nullptr;
}

bool makePlan(const RewriteContext &Ctx, const KernelInfo &K, Plan &P) {
  StringRef Src = Ctx.Source;
  if (K.Launches.empty())
    return P.refuse("no launch of " + K.Id +
                    " in this file: its block size is chosen elsewhere");
  if (std::string Why = gridChangeRefusal(K); !Why.empty())
    return P.refuse(Why, K.Location);
  if (!K.HardcodedSize.empty()) {
    const BlockCoupling &H = K.HardcodedSize.front();
    return P.refuse("the body hard-codes the block size: the literal " +
                        H.Symbol + " (" + H.Context +
                        ") has no link to the launch",
                    H.Location);
  }
  if (const AccessInfo *A = blockCombinedOutput(K))
    return P.refuse("the kernel writes '" + spanText(Ctx, A->Span) + "' at " +
                        A->Location +
                        " once per block, from values the block's threads "
                        "combined out of elements the block's size decides: "
                        "another block size combines other elements into it",
                    A->Location);
  bool GridStride = false;
  for (const LoopInfo &L : K.Loops)
    GridStride |= L.StepKind == "grid-stride";

  // The dimensions the knob sets: those the launches give, up to the last
  // one the kernel reads (a `dim3 block(32, 8, 1)` of a 2-D kernel is 2-D).
  unsigned Used = 1;
  for (const std::string &D : K.ThreadDimsUsed)
    Used = std::max<unsigned>(Used, D == "x" ? 1 : D == "y" ? 2 : 3);
  unsigned NDims = 1;
  for (const LaunchSite &L : K.Launches)
    for (unsigned I = 0; I < L.Block.Dims.size() && I < Used; ++I)
      if (L.Block.Dims[I].Kind != "default")
        NDims = std::max(NDims, I + 1);

  std::optional<std::vector<int64_t>> Shape;
  std::optional<bool> Runtime; // whether the launches choose at run time
  bool DynamicShared = false;
  for (const SharedArrayInfo &A : K.SharedArrays)
    DynamicShared |= A.Dynamic;
  for (const LaunchSite &L : K.Launches) {
    // The dynamic shared memory a launch passes is sized by the program for
    // its block; the tool cannot tell how, so another block would index
    // past it (or leave part of it unused by the old formula).
    if (DynamicShared && L.SharedMem.Kind != "default" &&
        L.SharedMem.Value.value_or(-1) != 0)
      return P.refuse("the launch at " + L.Location + " passes '" +
                          L.SharedMem.Text +
                          "' bytes of dynamic shared memory, sized for its "
                          "block; another block size would need another "
                          "amount",
                      L.Location);
    const ValueOrigin *RuntimeDim = nullptr;
    for (unsigned I = 0; I < NDims && I < L.Block.Dims.size(); ++I)
      if (L.Block.Dims[I].Kind == "runtime" && !RuntimeDim)
        RuntimeDim = &L.Block.Dims[I];
    if (Runtime && *Runtime != bool(RuntimeDim))
      return P.refuse("some launches choose the block size at run time and "
                      "others at compile time, so one knob cannot set them",
                      L.Location);
    Runtime = bool(RuntimeDim);
    if (RuntimeDim) {
      // The launch gets a constant block and its grid is recomputed there.
      std::string Why = runtimeBlockRefusal(Ctx, K, NDims, GridStride);
      bool Local = L.Grid.Span.EndOffset > 0 && L.Block.Span.EndOffset > 0 &&
                   spans(L.Span, L.Grid.Span) && spans(L.Span, L.Block.Span);
      for (const ValueOrigin &G : L.Grid.Dims)
        if (Why.empty() && G.Kind != "default" && !G.StableAtLaunch)
          Why = "the grid ('" + G.Text + "') cannot be re-evaluated at the "
                "launch";
      // Block dimensions the knob does not set are written out again.
      for (unsigned I = NDims; I < L.Block.Dims.size(); ++I)
        if (Why.empty() && L.Block.Dims[I].Kind != "default" &&
            !L.Block.Dims[I].StableAtLaunch)
          Why = "its block dimension " + std::string(DimNames[I]) + " ('" +
                L.Block.Dims[I].Text +
                "'), which the kernel does not read, cannot be re-evaluated "
                "at the launch";
      if (Why.empty() && !Local)
        Why = "its grid and block are not arguments the launch can replace";
      if (!Why.empty())
        return P.refuse("the block size at " + L.Location +
                            " is chosen at run time ('" + RuntimeDim->Text +
                            "'); a constant may replace it only where the "
                            "kernel's outputs do not depend on how threads "
                            "are grouped into blocks, and here " +
                            Why,
                        L.Location);
      P.RuntimeBlock = true;
    }
    // Shared with another kernel's launch: then the launch gets arguments
    // of its own, which needs every value re-evaluable at the launch.
    bool Shared = false, Stable = true;
    for (const LaunchDim3 *D : {&L.Grid, &L.Block})
      for (const ValueOrigin &V : D->Dims) {
        if (V.Kind == "default")
          continue;
        Stable &= V.StableAtLaunch;
        // Read by other kernels' launches or by other host code (a buffer
        // sized by the block count): the launch gets values of its own and
        // leaves the variable to them.
        Shared |= !spans(L.Span, V.ResolvedSpan) &&
                  (sharedWithOtherKernel(Ctx, K, V.ResolvedSpan) ||
                   !V.ReadElsewhere.empty());
      }
    bool Private = RuntimeDim ||
                   (Shared && Stable && L.Grid.Span.EndOffset > 0 &&
                    L.Block.Span.EndOffset > 0 && spans(L.Span, L.Grid.Span) &&
                    spans(L.Span, L.Block.Span));
    if (Private)
      P.Private.push_back({&L, std::vector<const ValueOrigin::Derivation *>(
                                   NDims, nullptr)});
    std::vector<int64_t> S;
    for (unsigned I = 0; I < NDims; ++I) {
      if (I >= L.Block.Dims.size() || L.Block.Dims[I].Kind == "default") {
        S.push_back(1);
        continue;
      }
      const ValueOrigin &B = L.Block.Dims[I];
      if (RuntimeDim) {
        // Replaced whole at the launch; 0 stands for "chosen at run time".
        S.push_back(B.Kind == "runtime" ? 0 : B.Value.value_or(0));
        continue;
      }
      if (B.Kind == "template-param")
        return P.refuse("the block size at " + L.Location +
                            " is the template parameter '" + B.Symbol +
                            "' of '" + L.Caller +
                            "', set where that template is instantiated",
                        L.Location);
      if (B.Kind == "runtime")
        return P.refuse("the block size at " + L.Location +
                            " is the run-time value '" + B.Text +
                            "'; only compile-time block sizes can be tuned",
                        L.Location);
      if (!B.Value)
        return P.refuse("the block size at " + L.Location +
                            " is the expression '" + B.Text +
                            "', whose value the tool cannot evaluate at "
                            "compile time",
                        L.Location);
      // A compile-time expression (`WARPS * 32`) is the launch's number,
      // unless the kernel reads what it is computed from: there the old
      // value would stay.
      if (B.Kind == "constant-expr")
        if (std::string Name =
                identifierReadBy(Src, K.BodySpan, B.ResolvedSpan);
            !Name.empty())
          return P.refuse("the block size at " + L.Location + " is '" + B.Text +
                              "', computed from '" + Name +
                              "', which the kernel reads too: there it "
                              "would keep the old value",
                          L.Location);
      S.push_back(*B.Value);
      if (B.Kind == "macro" || B.Kind == "constant") {
        auto [It, New] = P.Symbols.try_emplace(B.Symbol);
        Plan::Symbol &Sym = It->second;
        if (!New && Sym.Dim != I) {
          if (Sym.Dim + I != 1) // only x and y may share a symbol
            return P.refuse("'" + B.Symbol +
                                "' sets more than one block "
                                "dimension",
                            L.Location);
          P.SquareOnly = true;
        }
        if (New)
          Sym.Dim = I;
        Sym.Macro = B.Kind == "macro";
        if (B.DefinedOutsideMainFile) {
          Sym.CopyBeforeUses = true; // placed once the scopes are known
        } else if (Sym.Macro) {
          Sym.InsertAt = defineLineEnd(Src, B.Symbol);
          if (Sym.InsertAt < 0)
            return P.refuse("macro '" + B.Symbol +
                                "' is not defined exactly once in this "
                                "file, so the kernel's own copy has no "
                                "place to go",
                            L.Location);
        } else {
          Sym.InsertAt = B.DefinitionLine.EndOffset;
          Sym.Indent = lineIndent(Src, B.DefinitionLine.BeginOffset).str();
          if (!B.Type.empty())
            Sym.Type = B.Type;
          size_t Q = B.QualifiedSymbol.rfind("::");
          if (!B.LocalDefinition && Q != std::string::npos)
            Sym.Qualifier = B.QualifiedSymbol.substr(0, Q + 2);
        }
      } else if (B.Kind == "literal" || B.Kind == "constant-expr") {
        const SourceSpan &R = B.ResolvedSpan;
        if (R.EndOffset <= R.BeginOffset ||
            (B.Kind == "literal" &&
             Src.substr(R.BeginOffset, R.EndOffset - R.BeginOffset)
                     .find_first_not_of("0123456789uUlL") != StringRef::npos))
          return P.refuse("the block size at " + L.Location +
                              " is not written as a plain number",
                          L.Location);
        if (Private)
          continue; // the launch's own block replaces it
        if (!spans(L.Span, R) && sharedWithOtherKernel(Ctx, K, R))
          return P.refuse("the block size at " + L.Location + " comes from '" +
                              (B.Via.empty() ? B.Text : B.Via.back()) +
                              "', which launches of other kernels use too, "
                              "and cannot be re-evaluated at this launch",
                          L.Location);
        P.Literals.push_back({R.BeginOffset, R.EndOffset - R.BeginOffset, I});
      } else {
        return P.refuse("the block size at " + L.Location + " ('" + B.Text +
                            "') cannot be tuned",
                        L.Location);
      }
      if (!spans(L.Span, B.ResolvedSpan) && !Private)
        P.Scopes.push_back(
            {B.ResolvedSpan.BeginOffset, B.ResolvedSpan.EndOffset});
    }
    // A template argument written as the same number as the block
    // (`k<256><<<g, 256>>>`) may be the body's copy of the block size. It
    // is when the thread index scales blockIdx by it (the model's
    // BlockExtentParams): then it changes with the block. Otherwise
    // nothing ties the two, and the body would keep the old one.
    for (size_t A = 0; A < L.TemplateArgs.size() && A < K.TemplateParams.size();
         ++A) {
      StringRef Arg = StringRef(L.TemplateArgs[A]).trim();
      int64_t V = 0;
      if (K.TemplateParams[A].Kind != "non-type" || Arg.getAsInteger(0, V))
        continue;
      bool Tied = false;
      for (const auto &[Dim, Param] : K.Mapping.BlockExtentParams) {
        unsigned D = Dim == "x" ? 0 : Dim == "y" ? 1 : 2;
        if (Param == K.TemplateParams[A].Name && D < S.size() && S[D] == V &&
            A < L.TemplateArgSpans.size()) {
          const SourceSpan &R = L.TemplateArgSpans[A];
          P.Literals.push_back({R.BeginOffset, R.EndOffset - R.BeginOffset, D});
          Tied = true;
        }
      }
      if (!Tied && std::find(S.begin(), S.end(), V) != S.end())
        return P.refuse("the template argument " + Arg.str() + " for '" +
                            K.TemplateParams[A].Name + "' at " + L.Location +
                            " equals the block size, which nothing ties it "
                            "to; the body would keep the old value",
                        L.Location);
    }
    if (!Shape)
      Shape = S;
    else if (*Shape != S)
      return P.refuse("the launches use different block sizes, so one knob "
                      "cannot set them",
                      L.Location);

    // Coverage: every grid dimension follows the block, or does not matter.
    for (unsigned I = 0; I < NDims; ++I) {
      const ValueOrigin *G = I < L.Grid.Dims.size() ? &L.Grid.Dims[I] : nullptr;
      const ValueOrigin &B = L.Block.Dims[I < L.Block.Dims.size() ? I : 0];
      bool Follows = G && G->Derived && G->Derived->BlockDim == DimNames[I];
      if (!Follows) {
        if (GridStride)
          continue; // a grid-stride loop covers any domain
        if (I < S.size() && coverageIndependentOfBlock(K, I, S[I]))
          continue; // block-strided loops cover any row length
        return P.refuse(
            "grid dimension " + std::string(DimNames[I]) + " at " + L.Location +
                " ('" + (G && !G->Text.empty() ? G->Text : "1") +
                "') does not follow the block size, so another block size "
                "would cover a different index range",
            L.Location);
      }
      // The grid follows the block, so another block size launches another
      // number of blocks: per-block outputs change in number, and the
      // buffers the host sized for the old grid would overflow.
      if (const AccessInfo *A = perBlockOutput(K, DimNames[I]))
        return P.refuse("the kernel writes '" +
                            spanText(Ctx, A->Span) + "' at " + A->Location +
                            ", one element per block along " +
                            DimNames[I] + ": with the grid following the "
                            "block size, another block size writes another "
                            "number of them, beyond buffers sized for the "
                            "original grid",
                        A->Location);
      if (const SourceSpan &Def = G->Derived->DivisorDefinition;
          Def.EndOffset > Def.BeginOffset && !Private) {
        // `tile = kBlock * 4` is renamed with the block's symbol: no other
        // kernel's grid may divide by it.
        for (const KernelInfo &Other : Ctx.Model.Kernels)
          for (const LaunchSite &OL : Other.Launches)
            for (const ValueOrigin &OG : OL.Grid.Dims)
              if (&Other != &K && OG.Derived &&
                  OG.Derived->DivisorDefinition.BeginOffset ==
                      Def.BeginOffset &&
                  OG.Derived->DivisorDefinition.EndOffset == Def.EndOffset)
                return P.refuse("the grid at " + L.Location + " divides by '" +
                                    G->Derived->BlockTerm +
                                    "' through a variable the grid of " +
                                    Other.Name + " divides by too",
                                L.Location);
        P.Scopes.push_back({Def.BeginOffset, Def.EndOffset});
      }
      if (Private) {
        P.Private.back().Derived[I] = &*G->Derived;
        continue; // recomputed at the launch
      }
      // `g = n / B; if (n % B) g++;`: the rounding statement divides by the
      // block too, and changes with it.
      const SourceSpan &RoundUp = G->Derived->RoundUp;
      if (RoundUp.EndOffset > RoundUp.BeginOffset)
        P.Scopes.push_back({RoundUp.BeginOffset, RoundUp.EndOffset});
      const std::string &Term = G->Derived->BlockTerm;
      bool ThroughVariable = !L.Block.Variable.empty() &&
                             Term == L.Block.Variable + "." + DimNames[I];
      bool ThroughSymbol =
          (!B.Symbol.empty() && Term == B.Symbol) ||
          (!B.QualifiedSymbol.empty() &&
           G->Derived->BlockSymbol == B.QualifiedSymbol) ||
          std::find(B.Via.begin(), B.Via.end(), Term) != B.Via.end();
      // A grid of ceil(rows / kWarps) for a block of kWarps * 32 divides by
      // a symbol of its own, tied to the block by the model
      // (Derivation::BlockFraction): it is recomputed like a literal's.
      bool Fraction = G->Derived->BlockFraction > 1;
      if (Fraction) {
        P.Multiple[I] = std::max(P.Multiple[I], G->Derived->BlockFraction);
        // The body reading the divisor (`row = blockIdx.x * kWarps + ...`)
        // would keep the old number of groups per block.
        StringRef Name = unqualifiedName(G->Derived->BlockSymbol);
        for (const BlockCoupling &C : K.Couplings)
          if (C.Symbol == Name)
            return P.refuse(
                "grid dimension " + std::string(DimNames[I]) + " at " +
                    L.Location + " divides by '" + G->Derived->BlockTerm +
                    "', the number of " +
                    std::to_string(G->Derived->BlockFraction) +
                    "-thread groups in a block, which the kernel also reads "
                    "at " +
                    C.Location + "; there it would keep the old number",
                C.Location);
      }
      if (!ThroughVariable && !ThroughSymbol) {
        if (B.Kind != "literal" && B.Kind != "constant-expr" && !Fraction)
          return P.refuse("grid dimension " + std::string(DimNames[I]) +
                              " at " + L.Location + " divides by '" + Term +
                              "', which the tool cannot tie to the block "
                              "size '" +
                              B.Text + "'",
                          L.Location);
        if (RoundUp.EndOffset > RoundUp.BeginOffset)
          return P.refuse("grid dimension " + std::string(DimNames[I]) +
                              " at " + L.Location + " is rounded up by a "
                              "separate statement that divides by the "
                              "number " + B.Text + " again; the tool "
                              "recomputes a grid in one expression",
                          L.Location);
        P.Grids.push_back(
            {G->ResolvedSpan.BeginOffset,
             G->ResolvedSpan.EndOffset - G->ResolvedSpan.BeginOffset, I,
             *G->Derived});
      }
      if (!spans(L.Span, G->ResolvedSpan)) {
        if (sharedWithOtherKernel(Ctx, K, G->ResolvedSpan))
          return P.refuse("the grid at " + L.Location + " comes from '" +
                              (G->Via.empty() ? G->Text : G->Via.back()) +
                              "', which launches of other kernels use too, "
                              "and cannot be re-evaluated at this launch",
                          L.Location);
        P.Scopes.push_back(
            {G->ResolvedSpan.BeginOffset, G->ResolvedSpan.EndOffset});
      }
    }
    P.Scopes.push_back({L.Span.BeginOffset, L.Span.EndOffset});
  }
  P.Scopes.push_back({K.Span.BeginOffset, K.Span.EndOffset});
  P.Shape = *Shape;

  // A macro copy goes, in each file holding a use it replaces, at the start
  // of the line of the earliest such use (the kernel's declaration, or a
  // launch before it). Offsets order uses within a file only: a file the
  // main file includes after its launches needs its own definition, and
  // the same `#define` twice is no redefinition.
  std::map<const ProgramFile *, unsigned> FirstInFile;
  auto NoteUse = [&](unsigned LineBegin) {
    const ProgramFile *F = Ctx.Model.Program.fileAt(LineBegin);
    auto [It, New] = FirstInFile.try_emplace(F, LineBegin);
    if (!New)
      It->second = std::min(It->second, LineBegin);
  };
  NoteUse(K.DeclLineOffset);
  for (const auto &[B, E] : P.Scopes)
    NoteUse(lineStart(Src, B));
  for (auto &[Name, Sym] : P.Symbols)
    if (Sym.CopyBeforeUses)
      for (const auto &[F, At] : FirstInFile)
        Sym.CopyAt.push_back(At);

  // Another kernel whose body reads the symbol keeps the old value while
  // this kernel's copy changes. That is right when the symbol is that
  // kernel's own block size too (every launch of it gives the symbol as the
  // same block dimension): in its body the symbol means its own block, which
  // stays. Otherwise the symbol may be this kernel's block seen from
  // outside -- a multi-kernel protocol (block sums indexed by i / BLOCK) --
  // which the old value would break.
  for (const auto &[Name, Sym] : P.Symbols)
    for (const KernelInfo &Other : Ctx.Model.Kernels) {
      bool Named = !findIdentifier(Src, Other.BodySpan.BeginOffset,
                                   Other.BodySpan.EndOffset, Name)
                        .empty();
      if (&Other == &K || !Named)
        continue;
      bool OwnBlock = !Other.Launches.empty();
      for (const LaunchSite &OL : Other.Launches) {
        const ValueOrigin *D = Sym.Dim < OL.Block.Dims.size()
                                   ? &OL.Block.Dims[Sym.Dim]
                                   : nullptr;
        OwnBlock &= D && (D->Kind == "macro" || D->Kind == "constant") &&
                    D->Symbol == Name;
      }
      if (!OwnBlock)
        return P.refuse("'" + Name + "' is also used in the body of kernel " +
                            Other.Name +
                            ", whose launches do not all use it as their "
                            "block size, so there it may stand for this "
                            "kernel's block size, which would change",
                        Other.Location);
    }

  // Uses in preprocessor directives cannot see a constant, and changing a
  // macro there would change what gets compiled.
  for (const auto &[Name, Sym] : P.Symbols)
    for (const auto &[B, E] : P.Scopes)
      for (const TokenRange &T : findIdentifier(Src, B, E, Name))
        if (onDirectiveLine(Src, T.Offset))
          return P.refuse(
              "'" + Name + "' is used in a preprocessor directive at line " +
              std::to_string(StringRef(Src.data(), T.Offset).count('\n') + 1));
  return true;
}

/// The grid ceil(Extent / B) (in the derivation's own form) for a block
/// extent written as Block (a number or the kernel's copy of a symbol).
std::string recomputedGrid(const ValueOrigin::Derivation &D,
                           std::string Block) {
  if (D.BlockFraction > 1) // the domain keeps blocks multiples of it
    Block = !Block.empty() && isDigit(Block[0])
                ? std::to_string(std::stoll(Block) / D.BlockFraction)
                : "(" + Block + " / " + std::to_string(D.BlockFraction) + ")";
  if (D.BlockMultiple > 1)
    Block = !Block.empty() && isDigit(Block[0])
                ? std::to_string(D.BlockMultiple * std::stoll(Block))
                : "(" + std::to_string(D.BlockMultiple) + " * " + Block + ")";
  std::string Extent = D.Extent;
  if (Extent.find_first_of("+-*/%?<>&|") != std::string::npos)
    Extent = "(" + Extent + ")";
  bool Number = !Block.empty() && isDigit(Block[0]);
  if (D.Form == "floor-div")
    return Extent + " / " + Block;
  if (D.Form == "ceil-float")
    return "ceil(" + Extent + " / (float)" + Block + ")";
  std::string Minus =
      Number ? std::to_string(std::stoll(Block) - 1) : Block + " - 1";
  return "(" + Extent + " + " + Minus + ") / " + Block;
}

/// Gives launch L arguments of its own: `dim3(...)` for the block from the
/// new shape (through the kernel's copies of symbols) and for the grid,
/// each dimension recomputed from its extent where it follows the block,
/// else re-evaluated from the expression it came from.
Error rewritePrivateLaunch(
    StringRef Src, const LaunchSite &L,
    const std::vector<const ValueOrigin::Derivation *> &Derived,
    const std::vector<int64_t> &Shape,
    const std::map<std::string, std::string> &Copies,
    const std::array<int64_t, 3> &OutputsPerThread, EditSet &Out) {
  auto Resolved = [&](const ValueOrigin &V) {
    const SourceSpan &R = V.ResolvedSpan;
    return "(" + Src.slice(R.BeginOffset, R.EndOffset).str() + ")";
  };
  auto BlockValue = [&](size_t I) -> std::string {
    if (I < Shape.size()) {
      const ValueOrigin &B = L.Block.Dims[I];
      auto C = Copies.find(B.Symbol);
      if ((B.Kind == "macro" || B.Kind == "constant") && C != Copies.end())
        return C->second;
      return std::to_string(Shape[I]);
    }
    return "";
  };
  std::vector<std::string> Block, Grid;
  for (size_t I = 0; I < 3; ++I) {
    const ValueOrigin *B = I < L.Block.Dims.size() ? &L.Block.Dims[I] : nullptr;
    const ValueOrigin *G = I < L.Grid.Dims.size() ? &L.Grid.Dims[I] : nullptr;
    if (I < Shape.size())
      Block.push_back(BlockValue(I));
    else if (B && B->Kind != "default")
      Block.push_back(Resolved(*B));
    if (I < Derived.size() && Derived[I]) {
      // The extent as the program spells it, where it can be found.
      ValueOrigin::Derivation D = *Derived[I];
      D.BlockMultiple *= OutputsPerThread[I];
      if (G)
        if (auto R = findSpelling(Src, G->ResolvedSpan, D.Extent))
          D.Extent = Src.slice(R->first, R->second).str();
      Grid.push_back(recomputedGrid(D, BlockValue(I)));
    }
    else if (G && G->Kind != "default")
      Grid.push_back(Resolved(*G));
  }
  auto Dim3 = [](const std::vector<std::string> &V) {
    std::string S = "dim3(";
    for (size_t I = 0; I < V.size(); ++I)
      S += (I ? ", " : "") + V[I];
    return S + ")";
  };
  if (Error E = Out.replace(L.Grid.Span.BeginOffset,
                            L.Grid.Span.EndOffset - L.Grid.Span.BeginOffset,
                            Dim3(Grid)))
    return E;
  return Out.replace(L.Block.Span.BeginOffset,
                     L.Block.Span.EndOffset - L.Block.Span.BeginOffset,
                     Dim3(Block));
}

/// Where the qualified name whose last identifier starts at Offset begins:
/// `cfg::kThreads` and `::cfg::kThreads` are replaced whole by a macro copy.
unsigned qualifierStart(StringRef Src, unsigned Offset) {
  unsigned At = Offset;
  while (true) {
    StringRef Before = Src.take_front(At).rtrim(" \t");
    if (!Before.ends_with("::"))
      return At;
    StringRef Q = Before.drop_back(2).rtrim(" \t");
    size_t I = Q.size();
    while (I > 0 && (isAlnum(Q[I - 1]) || Q[I - 1] == '_'))
      --I;
    At = I == Q.size() ? Before.size() - 2 : I; // `::x` at global scope
    if (I == Q.size())
      return At;
  }
}

/// The shapes the target can launch: at most its threads per block, in
/// whole warps (multi-dimensional shapes of at least two warps).
std::vector<json::Value> domain(const Plan &P, const HardwareLimits &Target) {
  const int64_t MaxT = Target.MaxThreadsPerBlock, Warp = Target.WarpSize;
  std::vector<json::Value> Out;
  auto Add = [&](std::vector<int64_t> S) {
    if (S.size() == 1)
      Out.push_back(S[0]);
    else {
      json::Array A;
      for (int64_t X : S)
        A.push_back(X);
      Out.push_back(std::move(A));
    }
  };
  size_t N = P.Shape.size();
  if (N == 1) {
    for (int64_t X : {32, 64, 128, 256, 512, 1024})
      if (X <= MaxT)
        Add({X});
  } else if (N == 2) {
    for (int64_t X : {8, 16, 32, 64, 128, 256, 512})
      for (int64_t Y : {1, 2, 4, 8, 16, 32}) {
        int64_t T = X * Y;
        if (P.SquareOnly ? X == Y && T <= MaxT
                         : T >= 2 * Warp && T <= MaxT && T % Warp == 0)
          Add({X, Y});
      }
  } else {
    for (int64_t X : {8, 16, 32, 64})
      for (int64_t Y : {1, 2, 4, 8})
        for (int64_t Z : {1, 2, 4, 8}) {
          int64_t T = X * Y * Z;
          if ((!P.SquareOnly || X == Y) && T >= 2 * Warp && T <= MaxT &&
              T % Warp == 0)
            Add({X, Y, Z});
        }
  }
  return Out;
}

json::Value shapeValue(const std::vector<int64_t> &S) {
  if (S.size() == 1)
    return S[0];
  json::Array A;
  for (int64_t X : S)
    A.push_back(X);
  return A;
}

} // namespace

std::vector<int64_t> BlockSize::shapeOf(const json::Value &V) {
  std::vector<int64_t> S;
  if (std::optional<int64_t> N = V.getAsInteger())
    S.push_back(*N);
  else if (const json::Array *A = V.getAsArray())
    for (const json::Value &X : *A)
      S.push_back(X.getAsInteger().value_or(1));
  return S;
}

std::optional<std::vector<int64_t>>
BlockSize::currentShape(const KernelInfo &K) {
  std::optional<std::vector<int64_t>> Shape;
  for (const LaunchSite &L : K.Launches) {
    std::vector<int64_t> S;
    for (const ValueOrigin &V : L.Block.Dims) {
      if (!V.Value)
        return std::nullopt;
      S.push_back(*V.Value);
    }
    while (S.size() > 1 && S.back() == 1)
      S.pop_back();
    if (Shape && *Shape != S)
      return std::nullopt;
    Shape = S;
  }
  return Shape;
}

namespace {
std::optional<int64_t> threadsOf(const std::vector<int64_t> &S) {
  if (S.empty())
    return std::nullopt;
  int64_t T = 1;
  for (int64_t X : S)
    T *= X;
  return T;
}
} // namespace

std::optional<int64_t>
BlockSize::currentThreadsPerBlock(const KernelInfo &K) {
  std::optional<std::vector<int64_t>> C = currentShape(K);
  return C ? threadsOf(*C) : std::nullopt;
}

std::optional<int64_t>
BlockSize::threadsPerBlock(const KernelInfo &K, const ResolvedConfig &Config) {
  if (const json::Value *V = Config.value(K.Id + ".block"))
    return threadsOf(shapeOf(*V));
  // parallel-scan gives a one-thread block a group of threads.
  if (std::optional<int64_t> G = parallelScanGroup(K, Config))
    return *G;
  return currentThreadsPerBlock(K);
}

bool BlockSize::runtimeBlockReplaceable(const RewriteContext &Ctx,
                                        const KernelInfo &K) {
  Plan P;
  return makePlan(Ctx, K, P) && P.RuntimeBlock;
}

bool BlockSize::replacesRuntimeBlock(const RewriteContext &Ctx,
                                     const KernelInfo &K,
                                     const ResolvedConfig &Config) {
  const json::Value *V = Config.value(K.Id + ".block");
  return V && blockShapeOfValue(*V) && runtimeBlockReplaceable(Ctx, K);
}

void BlockSize::describe(const RewriteContext &Ctx, const KernelInfo &K,
                         KnobSink &Out) const {
  Plan P;
  if (!makePlan(Ctx, K, P)) {
    Out.refuse(K.Id, P.Refusal, P.Where);
    return;
  }
  Knob Kn;
  Kn.Id = K.Id + ".block";
  Kn.Kernel = K.Id;
  Kn.Default = P.RuntimeBlock ? json::Value("runtime") : shapeValue(P.Shape);
  Kn.Values = domain(P, Ctx.Target);
  llvm::erase_if(Kn.Values, [&](const json::Value &V) {
    std::vector<int64_t> S = shapeOf(V);
    for (size_t I = 0; I < S.size() && I < 3; ++I)
      if (S[I] % P.Multiple[I] != 0)
        return true;
    return false;
  });
  // Blocks that combine their threads' floats and add the result to memory
  // atomically (a reduction's partial per block): a smaller block adds more
  // partials one after the other, and the rounding error of the total grows
  // with their number (the H200 self-check saw a sum of 2^25 floats leave
  // its program's tolerance at 32 threads). Only blocks at least as large
  // as the original's are offered.
  bool FloatPartials = false;
  for (const AtomicUpdateInfo &A : K.Atomics)
    FloatPartials |= A.Function == "atomicAdd" && !A.IntegerElement;
  if (FloatPartials && threadsCommunicate(K) && !P.RuntimeBlock) {
    std::optional<int64_t> Now = threadsOf(P.Shape);
    llvm::erase_if(Kn.Values, [&](const json::Value &V) {
      return Now && threadsOf(shapeOf(V)).value_or(0) < *Now;
    });
  }
  Out.offer(std::move(Kn));
}

Error BlockSize::apply(const RewriteContext &Ctx, const Knob &K,
                       const json::Value &V, const ResolvedConfig &Config,
                       EditSet &Out) const {
  if (V == K.Default)
    return Error::success();
  const KernelInfo *KI = kernelOf(Ctx, K);
  Plan P;
  if (!KI || !makePlan(Ctx, *KI, P))
    return makeToolError(ExitCode::Internal,
                         "block-size: no plan for " + K.Id + ": " + P.Refusal);
  // The launches get grids of their own, recomputed from the extent: for
  // one thread per index, or per register tile (a thread of RY x RX
  // outputs covers RX columns and RY rows; the nest leaves the grid to this
  // rewrite, see emitReductionNest). Coarsening would shrink the grid the
  // launch no longer reads. (Shared staging keeps one output per thread
  // where it is offered for a run-time block: a halo tile, or k tiles of a
  // reduction; see SharedStage::describe.)
  std::array<int64_t, 3> OutputsPerThread{1, 1, 1};
  if (P.RuntimeBlock) {
    NestChoice C = nestChoice(*KI, Config);
    OutputsPerThread = {C.RX, C.RY, 1};
    for (const Knob &Other : Ctx.Knobs.Knobs)
      if (Other.Kernel == K.Kernel && !Config.isDefault(Other) &&
          Other.Role == KnobRole::Coarsening)
        return makeToolError(
            ExitCode::BadConfig,
            K.Id + " replaces a block size chosen at run time at the launch, "
                   "with a grid of one thread per index; " +
                Other.Id + " would need that grid shrunk: choose one of them");
  }
  std::vector<int64_t> Shape = shapeOf(V);
  for (size_t I = 0; I < Shape.size() && I < 3; ++I)
    if (Shape[I] % P.Multiple[I] != 0)
      return makeToolError(ExitCode::BadConfig,
                           K.Id + ": a grid divides by the blocks' groups of " +
                               std::to_string(P.Multiple[I]) +
                               " threads, so the block's extent must stay a "
                               "multiple of " +
                               std::to_string(P.Multiple[I]));
  StringRef Src = Ctx.Source;
  // The copies are named after the kernel; `a::k` and `b::k` both copying
  // one macro need their scopes in the names.
  StringRef Short = unqualifiedName(KI->Id);
  bool SameName = false;
  for (const KernelInfo &Other : Ctx.Model.Kernels)
    SameName |= &Other != KI && unqualifiedName(Other.Id) == Short;
  std::string Kernel = identifierFragment(SameName ? StringRef(KI->Id) : Short);

  std::map<std::string, std::string> Copies; // symbol -> the kernel's copy
  for (const auto &[Name, Sym] : P.Symbols) {
    int64_t NewValue = Shape[Sym.Dim];
    std::string Copy = freshIdentifier(Src, Kernel + "_" + Name);
    Copies[Name] = Sym.Qualifier + Copy;
    std::string Def =
        Sym.CopyBeforeUses
            ? "#define " + Copy + " " + std::to_string(NewValue) + "\n"
        : Sym.Macro ? "\n#define " + Copy + " " + std::to_string(NewValue)
                    : "\n" + Sym.Indent + "constexpr " + Sym.Type + " " + Copy +
                          " = " + std::to_string(NewValue) + ";";
    for (unsigned At : Sym.CopyBeforeUses
                           ? Sym.CopyAt
                           : std::vector<unsigned>{unsigned(Sym.InsertAt)})
      if (Error E = Out.insert(At, Def))
        return E;
    std::set<unsigned> Done;
    for (const auto &[B, E] : P.Scopes)
      for (const TokenRange &T : findIdentifier(Src, B, E, Name)) {
        // A launch given arguments of its own is rewritten whole.
        bool InPrivate = false;
        for (const Plan::PrivateLaunch &PL : P.Private)
          for (const LaunchDim3 *D : {&PL.Launch->Grid, &PL.Launch->Block})
            InPrivate |= T.Offset >= D->Span.BeginOffset &&
                         T.Offset < D->Span.EndOffset;
        if (InPrivate)
          continue;
        // __launch_bounds__ belongs to the launch-bounds transform, which
        // writes the new block size there itself.
        if (KI->Bounds && T.Offset >= KI->Bounds->Span.BeginOffset &&
            T.Offset < KI->Bounds->Span.EndOffset)
          continue;
        if (!Done.insert(T.Offset).second)
          continue;
        unsigned Begin =
            Sym.CopyBeforeUses ? qualifierStart(Src, T.Offset) : T.Offset;
        if (Error Err =
                Out.replace(Begin, T.Offset + T.Length - Begin, Copy))
          return Err;
      }
  }
  for (const Plan::Site &S : P.Literals)
    if (Error E = Out.replace(S.Offset, S.Length, std::to_string(Shape[S.Dim])))
      return E;
  for (const Plan::PrivateLaunch &PL : P.Private)
    if (Error E = rewritePrivateLaunch(Src, *PL.Launch, PL.Derived, Shape,
                                       Copies, OutputsPerThread, Out))
      return E;
  for (const Plan::Grid &G : P.Grids)
    if (Error E =
            Out.replace(G.Offset, G.Length, recomputedGrid(G.D, std::to_string(Shape[G.Dim]))))
      return E;
  return Error::success();
}

} // namespace cro
