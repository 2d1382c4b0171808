#include "ThreadRemap.h"
#include "ParallelScan.h"
#include "cro/Analysis/ASTHelpers.h"
#include "cro/Rewrite/SourceTokens.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <functional>
#include <set>

using namespace llvm;

namespace cro {

unsigned dimIndex(StringRef Dim) { return Dim == "x" ? 0 : Dim == "y" ? 1 : 2; }

std::vector<const AccessInfo *> accessesIn(const KernelInfo &K,
                                           const SourceSpan &Region) {
  std::vector<const AccessInfo *> Out;
  for (const AccessInfo &A : K.Accesses)
    if (within(A.Span, Region) && (A.Space == "global" || A.Space == "unknown"))
      Out.push_back(&A);
  return Out;
}

std::optional<std::pair<unsigned, unsigned>>
findSpelling(StringRef Src, const SourceSpan &Span, StringRef Extent) {
  std::string Stripped;
  std::vector<unsigned> Offsets;
  for (unsigned I = Span.BeginOffset; I < Span.EndOffset && I < Src.size(); ++I)
    if (!isSpace(Src[I])) {
      Stripped += Src[I];
      Offsets.push_back(I);
    }
  auto IsIdent = [](char C) { return isAlnum(C) || C == '_'; };
  std::optional<std::pair<unsigned, unsigned>> Found;
  for (size_t P = Stripped.find(Extent.str()); P != std::string::npos;
       P = Stripped.find(Extent.str(), P + 1)) {
    size_t E = P + Extent.size();
    if ((P > 0 && IsIdent(Stripped[P - 1]) && IsIdent(Stripped[P])) ||
        (E < Stripped.size() && IsIdent(Stripped[E]) &&
         IsIdent(Stripped[E - 1])))
      continue;
    if (Found)
      return std::nullopt; // ambiguous
    Found = {Offsets[P], Offsets[E - 1] + 1};
  }
  return Found;
}


std::string hiddenLaunchRefusal(const KernelInfo &K) {
  if (K.AddressTaken.empty())
    return "";
  return "the program takes the kernel's address at " +
         K.AddressTaken.front() +
         ", and a launch through that pointer would keep the original "
         "configuration";
}

std::string gridChangeRefusal(const KernelInfo &K) {
  if (std::string Why = hiddenLaunchRefusal(K); !Why.empty())
    return Why;
  if (!K.ClusterDims.empty())
    return "the kernel runs in thread-block clusters ('" + K.ClusterDims +
           "'), and another grid need not be a multiple of the cluster";
  return "";
}

bool sharedWithOtherKernel(const RewriteContext &Ctx, const KernelInfo &K,
                           const SourceSpan &S) {
  for (const KernelInfo &Other : Ctx.Model.Kernels) {
    if (&Other == &K)
      continue;
    for (const LaunchSite &L : Other.Launches)
      for (const LaunchDim3 *D : {&L.Grid, &L.Block})
        for (const ValueOrigin &V : D->Dims)
          if (!V.ResolvedSpan.Begin.empty() &&
              V.ResolvedSpan.BeginOffset < S.EndOffset &&
              S.BeginOffset < V.ResolvedSpan.EndOffset)
            return true;
  }
  return false;
}

std::optional<std::array<int64_t, 3>>
variantBlockShape(const RewriteContext &Ctx, const KernelInfo &K,
                  const ResolvedConfig &Config) {
  if (const json::Value *V = Config.value(K.Id + ".block"))
    return blockShapeOfValue(*V);
  // parallel-scan gives a one-thread block a group of threads.
  if (std::optional<int64_t> G = parallelScanGroup(K, Config))
    return std::array<int64_t, 3>{*G, 1, 1};
  std::optional<std::array<int64_t, 3>> Common;
  for (const LaunchSite &L : K.Launches) {
    std::array<int64_t, 3> S{1, 1, 1};
    for (size_t I = 0; I < L.Block.Dims.size() && I < 3; ++I) {
      if (!L.Block.Dims[I].Value)
        return std::nullopt;
      S[I] = *L.Block.Dims[I].Value;
    }
    if (Common && *Common != S)
      return std::nullopt;
    Common = S;
  }
  return Common;
}

std::string blockShapeRefusal(const KernelInfo &K) {
  if (K.Launches.empty())
    return "the kernel is never launched in this file, so its block size "
           "(which sizes the tiles) is unknown";
  if (std::string Why = hiddenLaunchRefusal(K); !Why.empty())
    return Why;
  std::optional<std::vector<int64_t>> Common;
  for (const LaunchSite &L : K.Launches) {
    std::vector<int64_t> S;
    for (const ValueOrigin &D : L.Block.Dims) {
      if (!D.Value)
        return "the block size at " + L.Location + " ('" + L.Block.Text +
               "') is not known at compile time, and tiles are sized by it";
      S.push_back(*D.Value);
    }
    if (Common && *Common != S)
      return "the launches use different block sizes, and tiles are sized "
             "by it";
    Common = S;
  }
  return "";
}

/// Another dimension of L's grid is the same value as G (`dim3 grid(nb,
/// nb)`): dividing it for one dimension would divide the other too.
static bool sharedWithOtherDim(const LaunchSite &L, const ValueOrigin &G) {
  for (const ValueOrigin &O : L.Grid.Dims)
    if (&O != &G && !O.ResolvedSpan.Begin.empty() &&
        O.ResolvedSpan.BeginOffset < G.ResolvedSpan.EndOffset &&
        G.ResolvedSpan.BeginOffset < O.ResolvedSpan.EndOffset)
      return true;
  return false;
}

/// The grid is divided at the launch, in the launch's own argument, rather
/// than where it is computed: other kernels' launches or other host code
/// (a buffer sized by the block count) read the same value, or a rounding
/// statement (`if (n % B) g++;`) follows its computation and would round
/// the divided extent by the old test, or another dimension of the launch
/// is the same value.
static bool dividedAtLaunch(const RewriteContext &Ctx, const KernelInfo &K,
                            const LaunchSite &L, const ValueOrigin &G) {
  return sharedWithOtherKernel(Ctx, K, G.ResolvedSpan) ||
         sharedWithOtherDim(L, G) || !G.ReadElsewhere.empty() ||
         (G.Derived &&
          G.Derived->RoundUp.EndOffset > G.Derived->RoundUp.BeginOffset);
}

/// The launch's grid argument is a plain variable (`grid`, `blocks`) that
/// the launch can divide in place.
static bool sharedGridVariable(const LaunchSite &L) {
  StringRef T = StringRef(L.Grid.Text).trim();
  return L.Grid.Span.EndOffset > L.Grid.Span.BeginOffset && !T.empty() &&
         (isAlpha(T[0]) || T[0] == '_') &&
         T.find_first_not_of(
             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
             StringRef::npos;
}

/// The launch's grid argument with ceil(G / Factor) blocks along each
/// dimension of Factors: `((grid) + 2 - 1) / 2`, or `dim3(((grid).x + 2 -
/// 1) / 2, (grid).y, (grid).z)` for a dim3 (one argument for all of them:
/// two dimensions of one launch are divided in one edit).
static std::string
dividedGridArgument(const LaunchSite &L,
                    const std::map<std::string, int64_t> &Factors) {
  std::string V = L.Grid.Text;
  auto Divided = [](const std::string &C, int64_t Factor) {
    std::string F = std::to_string(Factor);
    return "(" + C + " + " + F + " - 1) / " + F;
  };
  if (L.Grid.Form == "scalar")
    return Divided("(" + V + ")", Factors.begin()->second);
  std::string Arg = "dim3(";
  for (const char *D : {"x", "y", "z"}) {
    std::string C = "(" + V + ")." + D;
    auto F = Factors.find(D);
    Arg += (*D == 'x' ? "" : ", ") +
           (F == Factors.end() ? C : Divided(C, F->second));
  }
  return Arg + ")";
}

std::string gridShrinkRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                              StringRef Dim) {
  return gridShrinkRefusal(Ctx, K, Dim, K.Mapping.UpperBounds,
                           K.Mapping.UpperBoundForms);
}

std::string gridShrinkRefusal(
    const RewriteContext &Ctx, const KernelInfo &K, StringRef Dim,
    const std::map<std::string, std::string> &UpperBounds,
    const std::map<std::string, ThreadMapping::BoundForm> &UpperBoundForms) {
  const ThreadIndexVar *V = K.Mapping.indexVar(Dim);
  if (!V)
    return "the kernel has no thread index in dimension " + Dim.str();
  auto B = UpperBounds.find(V->Name);
  if (B == UpperBounds.end())
    return "the guard does not bound '" + V->Name +
           "' from above, so the outputs a thread covers are unknown" +
           (K.Mapping.GuardReason.empty() ? ""
                                          : " (" + K.Mapping.GuardReason + ")");
  auto F = UpperBoundForms.find(V->Name);
  if (F == UpperBoundForms.end())
    return "the guard bounds '" + V->Name + "' by '" + B->second +
           "', which is neither a compile-time constant nor a parameter "
           "plus a constant";
  const ThreadMapping::BoundForm &Form = F->second;
  // The bound is a parameter (or a field of a struct parameter) plus a
  // constant offset: which argument each launch passes for it.
  StringRef Param = StringRef(Form.Symbol).split('.').first;
  StringRef Field = StringRef(Form.Symbol).split('.').second;
  const ParamInfo *Bound = nullptr;
  size_t BoundIndex = 0;
  for (size_t I = 0; I < K.Params.size(); ++I)
    if (!Param.empty() && K.Params[I].Name == Param) {
      Bound = &K.Params[I];
      BoundIndex = I;
    }
  if (!Form.Symbol.empty() && !Bound)
    return "the guard bounds '" + V->Name + "' by '" + B->second +
           "', which depends on '" + Form.Symbol +
           "', not on a parameter of the kernel";
  if (Bound && Form.Offset > 0)
    return "the guard bounds '" + V->Name + "' by '" + B->second +
           "', above the parameter '" + Form.Symbol +
           "' the grid may be sized by";
  if (K.Launches.empty())
    return "the kernel is never launched in this file";
  if (std::string Why = gridChangeRefusal(K); !Why.empty())
    return Why;
  for (const LaunchSite &L : K.Launches) {
    unsigned D = dimIndex(Dim);
    const ValueOrigin *G = D < L.Grid.Dims.size() ? &L.Grid.Dims[D] : nullptr;
    if (!G || !G->Derived || G->Derived->BlockDim != Dim ||
        (G->Derived->Form != "ceil-div" && G->Derived->Form != "ceil-float"))
      return "grid dimension " + Dim.str() + " at " + L.Location +
             " is not computed as ceil(extent / block)";
    // The variant covers at least ceil(E / block) * block indices, E the
    // grid's extent; the guard must cut every thread beyond E: its bound,
    // for this launch, is at most E.
    if (!Bound) {
      if (!G->Derived->ExtentValue || Form.Offset > *G->Derived->ExtentValue)
        return "the guard bounds '" + V->Name + "' by " + B->second + " = " +
               std::to_string(Form.Offset) + ", which the grid at " +
               L.Location + " (extent '" + G->Derived->Extent +
               "') is not known to cover";
    } else {
      std::string Passed =
          BoundIndex < L.Args.size() ? L.Args[BoundIndex].Text : "";
      if (!Field.empty() && !Passed.empty())
        Passed += "." + Field.str();
      // An integer conversion of the extent (`(int)n`) is at most the
      // extent, for the non-negative extents a grid has.
      bool Converted = Field.empty() && BoundIndex < L.Args.size() &&
                       !L.Args[BoundIndex].IntegerVariable.empty() &&
                       L.Args[BoundIndex].IntegerVariable == G->Derived->Extent;
      if (!Converted &&
          (Passed.empty() || normalizeSpelling(Passed) != G->Derived->Extent))
        return "the launch at " + L.Location + " sizes the grid by '" +
               G->Derived->Extent + "' but passes '" +
               (Passed.empty() ? std::string("?") : Passed) +
               "' as the bound '" + Form.Symbol + "'";
    }
    if (dividedAtLaunch(Ctx, K, L, *G)) {
      // The launch divides its grid argument itself (see shrinkGrid).
      if (!sharedGridVariable(L))
        return "the grid at " + L.Location +
               (sharedWithOtherKernel(Ctx, K, G->ResolvedSpan)
                    ? " is shared with launches of other kernels"
                : sharedWithOtherDim(L, *G)
                    ? " gives dimension " + Dim.str() +
                          " the same value as another dimension"
                : !G->ReadElsewhere.empty()
                    ? " is read elsewhere too (at " + G->ReadElsewhere + ")"
                    : " is rounded up by a statement of its own") +
               " and is not a variable the launch can divide";
      continue;
    }
    // Where the extent is not written once (`n / B + (n % B == 0 ? 0 :
    // 1)`), the whole grid expression is divided instead (shrinkGrid).
    if (G->ResolvedSpan.EndOffset <= G->ResolvedSpan.BeginOffset)
      return "the grid at " + L.Location + " is not written in this file";
    if (!findSpelling(Ctx.Source, G->ResolvedSpan, G->Derived->Extent)) {
      // A shape-valued expression (a helper returning dim3) cannot be
      // divided as a whole.
      bool Shape = L.Grid.Form != "scalar" &&
                   G->ResolvedSpan.BeginOffset == L.Grid.Span.BeginOffset &&
                   G->ResolvedSpan.EndOffset == L.Grid.Span.EndOffset;
      for (const ValueOrigin &Other : L.Grid.Dims)
        Shape |= &Other != G &&
                 Other.ResolvedSpan.BeginOffset == G->ResolvedSpan.BeginOffset &&
                 Other.ResolvedSpan.EndOffset == G->ResolvedSpan.EndOffset;
      if (Shape)
        return "the extent '" + G->Derived->Extent + "' of the grid at " +
               L.Location + " is not written once in the call that computes "
               "the whole grid shape";
    }
  }
  return "";
}

std::string gridCoverRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                             StringRef Dim, StringRef IndexType,
                             std::string &Cover) {
  if (K.Launches.empty())
    return "the kernel is never launched in this file";
  if (std::string Why = gridChangeRefusal(K); !Why.empty())
    return Why;
  std::string B = "(" + IndexType.str() + ")blockDim." + Dim.str();
  std::optional<std::string> Agreed;
  for (const LaunchSite &L : K.Launches) {
    unsigned D = dimIndex(Dim);
    const ValueOrigin *G = D < L.Grid.Dims.size() ? &L.Grid.Dims[D] : nullptr;
    const ValueOrigin::Derivation *Dv =
        G && G->Derived ? &*G->Derived : nullptr;
    if (!Dv || Dv->BlockDim != Dim || Dv->BlockFraction != 1 ||
        Dv->BlockMultiple != 1)
      return "grid dimension " + Dim.str() + " at " + L.Location +
             " is not computed from an extent and the block, which would say "
             "which threads exist";
    std::string Bound;
    if (Dv->Form == "floor-div") {
      // The parameter the launch passes the grid's extent for: the value
      // itself (a narrowing conversion could change it).
      const ParamInfo *Passed = nullptr;
      for (size_t I = 0; I < K.Params.size() && I < L.Args.size(); ++I)
        if (normalizeSpelling(L.Args[I].Text) == Dv->Extent) {
          Passed = &K.Params[I];
          break;
        }
      if (Dv->ExtentValue)
        Bound = std::to_string(*Dv->ExtentValue) + " / " + B + " * " + B;
      else if (Passed && !Passed->IsPointer && Passed->ModifiedAt.empty())
        Bound = Passed->Name + " / " + B + " * " + B;
      else
        return "the launch at " + L.Location + " sizes the grid by '" +
               Dv->Extent +
               "', which it passes as no parameter the kernel "
               "keeps";
    } else if (Dv->Form == "ceil-div" || Dv->Form == "ceil-float") {
      if (!Dv->ExtentValue)
        return "the launch at " + L.Location + " rounds the grid up from '" +
               Dv->Extent + "', which is not a compile-time constant";
      Bound = "(" + std::to_string(*Dv->ExtentValue) + " + " + B + " - 1) / " +
              B + " * " + B;
    } else {
      return "grid dimension " + Dim.str() + " at " + L.Location +
             " is not computed from an extent and the block, which would say "
             "which threads exist";
    }
    if (Agreed && *Agreed != Bound)
      return "the launches have different numbers of threads ('" + *Agreed +
             "', '" + Bound + "')";
    Agreed = Bound;
  }
  if (std::string Why = gridStrideShrinkRefusal(Ctx, K, Dim); !Why.empty())
    return Why;
  Cover = *Agreed;
  return "";
}

Error shrinkGrid(const RewriteContext &Ctx, const KernelInfo &K, StringRef Dim,
                 int64_t Factor, EditSet &Out) {
  return shrinkGrid(Ctx, K, {{Dim.str(), Factor}}, Out);
}

Error shrinkGrid(const RewriteContext &Ctx, const KernelInfo &K,
                 const std::map<std::string, int64_t> &Factors, EditSet &Out) {
  // Launches may share one dim3 variable: each value is divided once. Two
  // dimensions of one value are divided at the launch (dividedAtLaunch).
  std::map<unsigned, std::string> Done;
  for (const LaunchSite &L : K.Launches) {
    // A launch that divides its own argument (dividedAtLaunch says why)
    // does it once, for every dimension: ceil(ceil(E / B) / F) = ceil(E /
    // (B * F)), so the shrunk grid covers the same extent.
    std::map<std::string, int64_t> AtLaunch;
    for (const auto &[Dim, Factor] : Factors)
      if (Factor > 1 &&
          dividedAtLaunch(Ctx, K, L, L.Grid.Dims[dimIndex(Dim)]))
        AtLaunch[Dim] = Factor;
    if (!AtLaunch.empty())
      if (Error Err = Out.replace(L.Grid.Span.BeginOffset,
                                  L.Grid.Span.EndOffset -
                                      L.Grid.Span.BeginOffset,
                                  dividedGridArgument(L, AtLaunch)))
        return Err;
    for (const auto &[Dim, Factor] : Factors) {
      if (Factor <= 1 || AtLaunch.count(Dim))
        continue;
      const ValueOrigin &G = L.Grid.Dims[dimIndex(Dim)];
      // The extent E where it is written once: ceil(ceil(E / F) / B) =
      // ceil(E / (B * F)). Else the whole grid G = ceil(E / B): ceil(G / F)
      // is the same number.
      auto R = findSpelling(Ctx.Source, G.ResolvedSpan, G.Derived->Extent);
      if (!R)
        R = std::make_pair(G.ResolvedSpan.BeginOffset, G.ResolvedSpan.EndOffset);
      if (auto [It, New] = Done.insert({R->first, Dim}); !New) {
        if (It->second != Dim)
          return makeToolError(ExitCode::Internal,
                               "grid dimensions " + It->second + " and " +
                                   Dim + " of " + K.Id +
                                   " share a value that is not divided at "
                                   "the launch");
        continue;
      }
      StringRef E = Ctx.Source.slice(R->first, R->second);
      if (Error Err =
              Out.replace(R->first, R->second - R->first,
                          "((" + E.str() + ") + " + std::to_string(Factor) +
                              " - 1) / " + std::to_string(Factor)))
        return Err;
    }
  }
  return Error::success();
}

namespace {

/// Where a launch's grid along Dim is divided for a grid-stride kernel:
/// around the value where it is written, or around the launch's argument.
enum class StrideShrinkSite { Value, Argument, None };

StrideShrinkSite strideShrinkSite(const RewriteContext &Ctx,
                                  const KernelInfo &K, const LaunchSite &L,
                                  StringRef Dim) {
  unsigned D = dimIndex(Dim);
  if (D >= L.Grid.Dims.size())
    return StrideShrinkSite::None;
  const ValueOrigin &G = L.Grid.Dims[D];
  if (G.ResolvedSpan.EndOffset > G.ResolvedSpan.BeginOffset &&
      !sharedWithOtherKernel(Ctx, K, G.ResolvedSpan) &&
      G.ReadElsewhere.empty())
    return StrideShrinkSite::Value;
  if (sharedGridVariable(L))
    return StrideShrinkSite::Argument;
  return StrideShrinkSite::None;
}

} // namespace

std::string gridStrideShrinkRefusal(const RewriteContext &Ctx,
                                    const KernelInfo &K, StringRef Dim,
                                    StringRef Verb) {
  if (K.Launches.empty())
    return "the kernel is never launched in this file";
  if (std::string Why = gridChangeRefusal(K); !Why.empty())
    return Why;
  for (const LaunchSite &L : K.Launches) {
    if (dimIndex(Dim) >= L.Grid.Dims.size())
      return "the launch at " + L.Location + " has no grid dimension " +
             Dim.str();
    if (strideShrinkSite(Ctx, K, L, Dim) == StrideShrinkSite::None) {
      const ValueOrigin &G = L.Grid.Dims[dimIndex(Dim)];
      std::string Why =
          G.ResolvedSpan.EndOffset <= G.ResolvedSpan.BeginOffset
              ? " is not written in this file"
          : sharedWithOtherKernel(Ctx, K, G.ResolvedSpan)
              ? " is shared with launches of other kernels and is not a "
                "variable the launch can " +
                    Verb.str()
              : " is read elsewhere too (at " + G.ReadElsewhere +
                    ") and is not a variable the launch can " + Verb.str();
      return "the grid at " + L.Location + " ('" + L.Grid.Text + "')" + Why;
    }
  }
  return "";
}

/// Edits every launch of K where strideShrinkSite says: the grid's value
/// along Dim wrapped in Before ... After, or the launch's argument replaced
/// by ArgumentOf(L). Verb names the edit in an internal error.
static Error editGridAtSites(
    const RewriteContext &Ctx, const KernelInfo &K, StringRef Dim,
    StringRef Before, StringRef After,
    const std::function<std::string(const LaunchSite &)> &ArgumentOf,
    StringRef Verb, EditSet &Out) {
  std::set<unsigned> Done; // launches may share one value
  for (const LaunchSite &L : K.Launches) {
    switch (strideShrinkSite(Ctx, K, L, Dim)) {
    case StrideShrinkSite::Value: {
      // Insertions around the value leave edits inside it (a block size
      // the block-size knob rewrites) untouched.
      const SourceSpan &S = L.Grid.Dims[dimIndex(Dim)].ResolvedSpan;
      if (!Done.insert(S.BeginOffset).second)
        continue;
      if (Error E = Out.insert(S.BeginOffset, Before.str()))
        return E;
      if (Error E = Out.insert(S.EndOffset, After.str()))
        return E;
      continue;
    }
    case StrideShrinkSite::Argument: {
      if (Error E = Out.replace(L.Grid.Span.BeginOffset,
                                L.Grid.Span.EndOffset - L.Grid.Span.BeginOffset,
                                ArgumentOf(L)))
        return E;
      continue;
    }
    case StrideShrinkSite::None:
      return makeToolError(ExitCode::Internal, "grid of " + K.Id + " at " +
                                                   L.Location + " cannot be " +
                                                   Verb.str());
    }
  }
  return Error::success();
}

Error shrinkGridStride(const RewriteContext &Ctx, const KernelInfo &K,
                       StringRef Dim, int64_t Factor, EditSet &Out) {
  std::string F = std::to_string(Factor);
  return editGridAtSites(
      Ctx, K, Dim, "((", ") + " + F + " - 1) / " + F,
      [&](const LaunchSite &L) {
        return dividedGridArgument(L, {{Dim.str(), Factor}});
      },
      "divided", Out);
}

Error growGrid(const RewriteContext &Ctx, const KernelInfo &K, StringRef Dim,
               int64_t Factor, EditSet &Out) {
  std::string F = std::to_string(Factor);
  return editGridAtSites(
      Ctx, K, Dim, "((", ") * " + F + ")",
      [&](const LaunchSite &L) {
        std::string V = L.Grid.Text;
        if (L.Grid.Form == "scalar")
          return "(" + V + ") * " + F;
        std::string Arg = "dim3(";
        for (const char *D : {"x", "y", "z"})
          Arg += std::string(*D == 'x' ? "" : ", ") + "(" + V + ")." + D +
                 (Dim == D ? " * " + F : "");
        return Arg + ")";
      },
      "multiplied", Out);
}

std::string indexOnlyWorkRefusal(const KernelInfo &K) {
  if (std::string Why = remapRefusalBesidesBuiltins(K); !Why.empty())
    return Why;
  if (!K.Mapping.StrayBuiltins.empty())
    return "the kernel reads " + K.Mapping.StrayBuiltins.front() +
           " outside its thread index";
  return "";
}

namespace {

std::string templateRefusal(const KernelInfo &K) {
  // Tiles and staged copies are typed and sized from one instantiation's
  // element types; coarsening only repeats the body, which every
  // instantiation shares.
  if (!K.TemplateParams.empty())
    return "template kernels are not remapped";
  return "";
}

} // namespace

std::string remapRefusal(const KernelInfo &K) {
  if (std::string Why = indexOnlyWorkRefusal(K); !Why.empty())
    return Why;
  return templateRefusal(K);
}

std::string inPlaceStagingRefusal(const KernelInfo &K) {
  if (std::string Why = remapRefusalBesidesBuiltins(K); !Why.empty())
    return Why;
  return templateRefusal(K);
}

std::string sharedLeadingDeclRefusal(const ThreadMapping::LeadingDecl &D) {
  return "the guarded work uses '" + D.Name +
         "', declared before the guard at " + D.Location + " " + D.PerOutput +
         ": a rewrite of the work alone would share it between the outputs";
}

std::string guardedWorkRefusal(const KernelInfo &K) {
  for (const ThreadMapping::LeadingDecl &D : K.Mapping.LeadingDecls)
    if (!D.PerOutput.empty())
      return sharedLeadingDeclRefusal(D);
  return "";
}

unsigned indexRegionBegin(const KernelInfo &K) {
  unsigned Begin = ~0u;
  for (const ThreadIndexVar &V : K.Mapping.IndexVars)
    Begin = std::min(Begin, V.Decl.BeginOffset);
  return Begin;
}

std::string keptPrefix(const RewriteContext &Ctx, const KernelInfo &K) {
  const ThreadMapping &M = K.Mapping;
  unsigned End =
      M.GuardKind == "none" ? M.Work.BeginOffset : M.Guard.BeginOffset;
  std::vector<SourceSpan> Index;
  for (const ThreadIndexVar &V : M.IndexVars)
    Index.push_back(V.Decl);
  std::sort(Index.begin(), Index.end(),
            [](const SourceSpan &A, const SourceSpan &B) {
              return A.BeginOffset < B.BeginOffset;
            });
  std::string Kept;
  unsigned At = indexRegionBegin(K);
  auto Keep = [&](unsigned To) {
    if (To <= At)
      return;
    StringRef Piece = Ctx.Source.slice(At, To).trim();
    if (!Piece.empty())
      Kept += (Kept.empty() ? "" : "\n") + Piece.str();
  };
  for (const SourceSpan &S : Index) {
    if (S.BeginOffset < At || S.BeginOffset >= End)
      continue;
    Keep(S.BeginOffset);
    At = S.EndOffset;
  }
  Keep(End);
  return Kept;
}

std::string keptPrefixRefusal(const RewriteContext &Ctx, const KernelInfo &K) {
  if (K.Mapping.IndexVars.empty())
    return "";
  std::string Kept = keptPrefix(Ctx, K);
  for (const ThreadIndexVar &V : K.Mapping.IndexVars)
    if (!findIdentifier(Kept, 0, Kept.size(), V.Name).empty())
      return "a local between the thread index and the guard is computed "
             "from '" + V.Name + "', which the rewrite redefines per output";
  return "";
}

std::string strayBuiltinRefusal(const KernelInfo &K, StringRef Dim) {
  for (StringRef What : K.Mapping.StrayBuiltins) {
    // "blockIdx.y at file:line:col"
    StringRef Builtin = What.split(' ').first;
    if (Builtin.split('.').second == Dim)
      return "the kernel reads " + What.str() + " outside its thread index";
  }
  return "";
}

std::string remapRefusalBesidesBuiltins(const KernelInfo &K) {
  if (K.UsesSyncthreads || !K.SharedArrays.empty())
    return "threads of a block share data through shared memory; a block "
           "would no longer hold the same outputs";
  if (K.UsesWarpIntrinsics)
    return "threads exchange values with warp intrinsics";
  if (!K.Mapping.Reason.empty())
    return K.Mapping.Reason;
  for (const ThreadMapping::Return &R : K.Mapping.Returns)
    if (R.InLoop)
      return "the kernel returns from inside a loop or switch at " +
             R.Span.Begin;
  if (!K.Mapping.Conditionals.empty())
    return "the body holds a preprocessor conditional (" +
           K.Mapping.Conditionals.front() +
           "); the analysis sees only the branch this parse took, and a "
           "remapped body must hold for every branch";
  if (!K.Mapping.OutsideWrites.empty())
    return "the work changes " + K.Mapping.OutsideWrites.front() +
           ", declared outside it: a thread computing several outputs "
           "would start each from the value the previous one left";
  return "";
}

Error returnsBecomeContinue(StringRef Src, const std::vector<SourceSpan> &Returns,
                            EditSet &Out) {
  for (const SourceSpan &R : Returns) {
    StringRef Text = Src.slice(R.BeginOffset, R.EndOffset);
    if (!Text.starts_with("return") || !Text.drop_front(6).trim().trim(';').empty())
      return makeToolError(ExitCode::Internal, "unexpected return form");
    if (Error E = Out.replace(R.BeginOffset, 6, "continue"))
      return E;
  }
  return Error::success();
}

std::string
renameIdentifiers(StringRef Text,
                  const std::map<std::string, std::string> &Renames) {
  std::vector<std::pair<TokenRange, const std::string *>> Hits;
  for (const auto &[From, To] : Renames)
    for (TokenRange T : findIdentifier(Text, 0, Text.size(), From)) {
      // Members (`p.x`, `q->y`) are not the variable.
      StringRef Before = Text.take_front(T.Offset).rtrim();
      if (Before.ends_with(".") || Before.ends_with("->"))
        continue;
      Hits.push_back({T, &To});
    }
  std::sort(Hits.begin(), Hits.end(), [](const auto &A, const auto &B) {
    return A.first.Offset < B.first.Offset;
  });
  std::string Out;
  unsigned At = 0;
  for (const auto &[T, To] : Hits) {
    Out += Text.slice(At, T.Offset);
    Out += *To;
    At = T.Offset + T.Length;
  }
  Out += Text.substr(At);
  return Out;
}

std::string unqualifiedType(StringRef Type) {
  std::string Out;
  for (StringRef W : split(Type, ' '))
    if (!W.empty() && W != "const" && W != "volatile")
      Out += (Out.empty() ? "" : " ") + W.str();
  return Out;
}

std::optional<SourceSpan> assignedValue(StringRef Src, const AccessInfo &Store,
                                        unsigned Begin, unsigned End) {
  StringRef Stmt = Src.slice(Begin, End).ltrim();
  StringRef Rest = Src.slice(Store.Span.EndOffset, End).trim();
  if (Stmt.data() != Src.data() + Store.Span.BeginOffset ||
      !Rest.starts_with("=") || Rest.starts_with("==") ||
      !Rest.ends_with(";") || Rest.drop_front(1).drop_back(1).contains(';'))
    return std::nullopt;
  StringRef Value = Rest.drop_front(1).drop_back(1).trim();
  unsigned At = unsigned(Value.data() - Src.data());
  return SourceSpan{"", "", At, At + unsigned(Value.size())};
}

std::string unwritableSymbol(const RewriteContext &Ctx, const KernelInfo &K,
                             const SymPoly &P) {
  std::string Before = Ctx.textBefore(K.Span.BeginOffset);
  for (const auto &[Mono, Coef] : P.terms())
    for (const std::string &Sym : Mono) {
      StringRef S(Sym);
      if (S.starts_with("blockDim.") || S.starts_with("gridDim."))
        continue;
      StringRef Name = S.split('.').first;
      bool Known = !findIdentifier(Before, 0, Before.size(), Name).empty();
      for (const ParamInfo &PI : K.Params)
        Known |= PI.Name == Name && !PI.IsPointer;
      if (!Known)
        return "'" + Sym +
               "', which is neither a parameter of the kernel nor a name "
               "declared before it";
      if (K.Mapping.AmbiguousNames.count(Name.str()))
        return "'" + Sym + "', a name the kernel declares for two variables";
    }
  return "";
}

std::string spanText(const RewriteContext &Ctx, const SourceSpan &S) {
  return Ctx.Source.slice(S.BeginOffset, S.EndOffset).str();
}

std::string spanTextReplacing(
    const RewriteContext &Ctx, const SourceSpan &S,
    std::vector<std::pair<SourceSpan, std::string>> Replacements) {
  llvm::erase_if(Replacements,
                 [&](const auto &R) { return !within(R.first, S); });
  llvm::sort(Replacements, [](const auto &A, const auto &B) {
    return A.first.BeginOffset < B.first.BeginOffset;
  });
  std::string Out;
  unsigned At = S.BeginOffset;
  for (const auto &[R, With] : Replacements) {
    Out += Ctx.Source.slice(At, R.BeginOffset).str() + With;
    At = R.EndOffset;
  }
  return Out + Ctx.Source.slice(At, S.EndOffset).str();
}

std::string indexTerms(const AffineExpr &F, const ThreadMapping &M,
                       StringRef Omit) {
  std::string Out;
  std::set<std::string> Done;
  if (!Omit.empty())
    Done = {"threadIdx." + Omit.str(), "blockIdx." + Omit.str()};
  for (const char *D : {"x", "y", "z"}) {
    const ThreadIndexVar *V = M.indexVar(D);
    std::string T = std::string("threadIdx.") + D,
                B = std::string("blockIdx.") + D;
    SymPoly CT = F.coefficient(T), CB = F.coefficient(B);
    if (Omit == D || !V || CT.isZero() ||
        !(CB - CT * SymPoly::symbol(std::string("blockDim.") + D)).isZero())
      continue;
    Out += termCText(CT, V->Name);
    Done.insert(T);
    Done.insert(B);
  }
  for (const auto &[Var, Coef] : F.coefficients())
    if (!Done.count(Var))
      Out += termCText(Coef, Var);
  return Out + termCText(F.constantPart(), "");
}

bool fixedForLaunch(const KernelInfo &K, const SymPoly &P) {
  for (const auto &[Mono, C] : P.terms())
    for (const std::string &Sym : Mono) {
      StringRef S(Sym);
      if (S.starts_with("blockDim.") || S.starts_with("gridDim."))
        continue;
      bool Fixed = false;
      for (const TemplateParamInfo &T : K.TemplateParams)
        Fixed |= T.Kind == "non-type" && T.Name == Sym;
      for (const ParamInfo &Pm : K.Params)
        Fixed |= Pm.Name == S.split('.').first && !Pm.IsPointer &&
                 Pm.ModifiedAt.empty();
      if (!Fixed)
        return false;
    }
  return true;
}

bool enclosingCounter(const KernelInfo &K, StringRef Var, const LoopInfo &L) {
  for (const LoopInfo &O : K.Loops)
    if (O.InductionVar == Var && O.Id != L.Id &&
        O.Span.BeginOffset <= L.Span.BeginOffset &&
        O.Span.EndOffset >= L.Span.EndOffset)
      return true;
  return false;
}

std::string indexText(const AffineExpr &F, const ThreadMapping &M) {
  std::string Out = indexTerms(F, M);
  if (Out.empty())
    return "0";
  // Out starts " + t" or " - t".
  return (Out[1] == '+' ? "" : "-") + Out.substr(3);
}

} // namespace cro
