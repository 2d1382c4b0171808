//===- ThreadRemap.h - helpers for transforms that remap threads to work --===//
//
// Coarsening, register tiling and shared-memory staging change which thread
// computes which output. They share three questions, answered here: what
// block shape the variant launches with, whether every launch's grid can be
// shrunk by a factor without changing which outputs are computed, and how
// to rename identifiers in a piece of kernel text.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TRANSFORMS_THREADREMAP_H
#define CRO_TRANSFORMS_THREADREMAP_H

#include "cro/Rewrite/Transform.h"
#include <array>
#include <map>

namespace cro {

/// The position of dimension "x", "y" or "z" in a launch's dims.
unsigned dimIndex(llvm::StringRef Dim);

/// True when Inner lies inside Outer (both offsets in the program text).
inline bool within(const SourceSpan &Inner, const SourceSpan &Outer) {
  return Inner.BeginOffset >= Outer.BeginOffset &&
         Inner.EndOffset <= Outer.EndOffset;
}

/// A's element is E's: the same array at the same affine index.
inline bool sameElement(const AccessInfo &A, const AccessInfo &E) {
  return A.Base == E.Base && A.Indices.size() == 1 && E.Indices.size() == 1 &&
         A.Indices[0].Affine && E.Indices[0].Affine &&
         A.Indices[0].Form == E.Indices[0].Form;
}

/// K's accesses of global memory (or of memory the model cannot place)
/// whose spans lie inside Region, in source order.
std::vector<const AccessInfo *> accessesIn(const KernelInfo &K,
                                           const SourceSpan &Region);

/// Why the launches the model lists may not be all of K's: the host takes
/// its address (`fp = kernel;`), and a launch through the pointer would keep
/// the old configuration. Empty when they are all.
std::string hiddenLaunchRefusal(const KernelInfo &K);

/// Why K's grid may not change: hidden launches (hiddenLaunchRefusal), or
/// `__cluster_dims__`, whose cluster shape every grid must be a multiple
/// of. Empty when it may.
std::string gridChangeRefusal(const KernelInfo &K);

/// True when a launch of a kernel other than K reads its grid or block from
/// text overlapping S (a shared `dim3 grid` variable).
bool sharedWithOtherKernel(const RewriteContext &Ctx, const KernelInfo &K,
                           const SourceSpan &S);

/// The block shape (x, y, z) K is launched with in this variant: the
/// block-size knob's value in Config, else the launches' literal shape.
std::optional<std::array<int64_t, 3>>
variantBlockShape(const RewriteContext &Ctx, const KernelInfo &K,
                  const ResolvedConfig &Config);

/// Why K's block shape is not known at compile time (no launch in the file,
/// a block computed at run time, launches that disagree); empty when it is.
/// Tiles are sized by it.
std::string blockShapeRefusal(const KernelInfo &K);

/// Why the grid of K's launches cannot be shrunk in dimension Dim ("x", "y")
/// so that each thread covers several outputs; empty when it can. Shrinking
/// is exact when the grid is ceil(E / block) and the guard bounds the
/// dimension's index by a parameter the launch passes E for: then both the
/// original and the variant compute exactly the outputs below E.
std::string gridShrinkRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                              llvm::StringRef Dim);
/// The same for a region bounded by other bounds than the guard's (a branch
/// of the guard, ThreadMapping::Branch).
std::string gridShrinkRefusal(
    const RewriteContext &Ctx, const KernelInfo &K, llvm::StringRef Dim,
    const std::map<std::string, std::string> &UpperBounds,
    const std::map<std::string, ThreadMapping::BoundForm> &UpperBoundForms);

/// The byte range in Src[Span] whose spelling, whitespace removed, is
/// Extent (a derivation's normalized extent); nullopt when it does not
/// occur exactly once.
std::optional<std::pair<unsigned, unsigned>>
findSpelling(llvm::StringRef Src, const SourceSpan &Span,
             llvm::StringRef Extent);

/// Which threads the original launches exist along Dim, in the kernel's
/// terms: the indices below a bound written into Cover (in the index's type
/// IndexType), when every launch agrees on it. Two grids say so:
///  - floor(E / block) blocks (`nx / TILE`, where the host divides
///    exactly), E a constant or passed to the kernel as an integer parameter
///    it never changes: the bound is `E / B * B`;
///  - ceil(E / block) blocks, E a compile-time constant (`NX` while the
///    guard bounds the index by a run-time `nx`): `(E + B - 1) / B * B`,
/// with B the block's extent `(T)blockDim.x`. Empty when Cover was written;
/// else why not. A rewrite that gives each thread several indices asks each
/// index for it, so any grid with at least as many threads is correct: it
/// divides the grid's value itself (shrinkGridStride: ceil(G / F) blocks).
std::string gridCoverRefusal(const RewriteContext &Ctx, const KernelInfo &K,
                             llvm::StringRef Dim, llvm::StringRef IndexType,
                             std::string &Cover);

/// Edits every launch of K so that dimension Dim has Factor times fewer
/// threads: E becomes ((E) + Factor - 1) / Factor inside ceil(E / block); a
/// launch whose grid variable other kernels' launches use too divides its
/// own argument instead (`dim3(((grid).x + 2 - 1) / 2, (grid).y, ...)`).
llvm::Error shrinkGrid(const RewriteContext &Ctx, const KernelInfo &K,
                       llvm::StringRef Dim, int64_t Factor, EditSet &Out);
/// The same for several dimensions at once (dimension -> factor).
llvm::Error shrinkGrid(const RewriteContext &Ctx, const KernelInfo &K,
                       const std::map<std::string, int64_t> &Factors,
                       EditSet &Out);

/// Why the launches of K cannot be given fewer blocks along Dim, a
/// dimension whose grid extent is free (GridStrideInfo::FreeDims): a launch
/// whose grid along Dim is not written in this file, or is a value other
/// kernels' launches read and not a variable the launch can divide.
std::string gridStrideShrinkRefusal(const RewriteContext &Ctx,
                                    const KernelInfo &K, llvm::StringRef Dim,
                                    llvm::StringRef Verb = "divide");

/// Edits every launch of K so that its grid along Dim has G * Factor blocks
/// (where gridStrideShrinkRefusal(Ctx, K, Dim, "multiply") is empty): a
/// group of Factor threads takes each original thread's place.
llvm::Error growGrid(const RewriteContext &Ctx, const KernelInfo &K,
                     llvm::StringRef Dim, int64_t Factor, EditSet &Out);

/// Edits every launch of K so that its grid along a free dimension Dim has
/// ceil(G / Factor) blocks: each thread takes Factor times more indices of
/// the grid-stride loops. Any G >= 1 is correct there, so the division is
/// written around the value where it is computed (or around the launch's
/// own argument when other kernels read that value).
llvm::Error shrinkGridStride(const RewriteContext &Ctx, const KernelInfo &K,
                             llvm::StringRef Dim, int64_t Factor,
                             EditSet &Out);

/// Why the memory-hierarchy transforms cannot remap K's threads at all
/// (threads that communicate through shared memory, barriers or warp
/// intrinsics, shape not recognized, templates); empty: they can.
std::string remapRefusal(const KernelInfo &K);

/// remapRefusal without the template question: why a thread's work may
/// depend on more than its global index (its block, its neighbours). For
/// rewrites that leave the body as written -- a constant block size in place
/// of a run-time one -- a template is no obstacle: every instantiation keeps
/// its body.
std::string indexOnlyWorkRefusal(const KernelInfo &K);

/// remapRefusal without the stray-builtin question: why K's work cannot be
/// staged through shared memory by a rewrite that keeps every block and
/// thread on the outputs they had (a halo tile): builtins read outside the
/// thread index keep their meaning there.
std::string inPlaceStagingRefusal(const KernelInfo &K);

/// remapRefusal without its last two questions, whether the kernel is a
/// template and whether the body reads a thread or block builtin outside the
/// thread index (strayBuiltinRefusal asks it per dimension): coarsening
/// repeats the body as written, the same text in every instantiation.
std::string remapRefusalBesidesBuiltins(const KernelInfo &K);

/// Why a rewrite of the guarded work alone (vectorize, the shared-memory
/// stages) cannot take this kernel: the work uses a local declared before
/// its guard, which repeating the work per output would share between the
/// outputs ("" when it can). Coarsening repeats the whole body instead.
std::string guardedWorkRefusal(const KernelInfo &K);
/// guardedWorkRefusal's reason for one declaration D (PerOutput not empty).
std::string sharedLeadingDeclRefusal(const ThreadMapping::LeadingDecl &D);

/// Where the first thread-index declaration begins: rewrites that
/// regenerate the body replace it from there to the end.
unsigned indexRegionBegin(const KernelInfo &K);

/// The statements such a rewrite must keep: those between
/// indexRegionBegin and the guard (or the work) that do not declare a
/// thread index -- locals of the prefix, declarations before a wrapping
/// guard -- as text, once per thread.
std::string keptPrefix(const RewriteContext &Ctx, const KernelInfo &K);

/// Why keptPrefix cannot be kept once per thread: one of its statements
/// reads a thread index, which such a rewrite redefines per output ("" when
/// it can).
std::string keptPrefixRefusal(const RewriteContext &Ctx, const KernelInfo &K);

/// Why a remap along dimension Dim alone ("x") is refused by a read of
/// Dim's threadIdx, blockIdx or gridDim outside the thread index; empty
/// when there is none. Coarsening one dimension leaves the builtins of the
/// others their meaning (a row loop from `blockIdx.y * STRIP`).
std::string strayBuiltinRefusal(const KernelInfo &K, llvm::StringRef Dim);

/// Turns each `return` of Returns (spans starting at the keyword of a
/// `return;`) into `continue`: inside a loop over a thread's outputs, or a
/// block's original blocks, leaving one must not skip the others.
llvm::Error returnsBecomeContinue(llvm::StringRef Src,
                                  const std::vector<SourceSpan> &Returns,
                                  EditSet &Out);

/// Text with every identifier token named in Renames replaced.
std::string
renameIdentifiers(llvm::StringRef Text,
                  const std::map<std::string, std::string> &Renames);

/// C text of F as terms to append (" + (long long)pitch * i", " - 1"),
/// over the kernel's own index variables where F reads a dimension only
/// through one (c * threadIdx.y + c * blockDim.y * blockIdx.y is c * i for
/// `int i = blockIdx.y * blockDim.y + threadIdx.y`), else over the
/// builtins; the terms of dimension Omit ("x", or "" for none) left out.
std::string indexTerms(const AffineExpr &F, const ThreadMapping &M,
                       llvm::StringRef Omit = "");
/// indexTerms as an expression: "(long long)n * i + j", "0" for zero.
std::string indexText(const AffineExpr &F, const ThreadMapping &M);

/// Whether every symbol of P keeps one value for the whole launch:
/// blockDim, gridDim, a non-type template parameter, or a scalar parameter
/// (or a field of one) the kernel never changes.
bool fixedForLaunch(const KernelInfo &K, const SymPoly &P);

/// Var is the counter of a loop of K around L (not L's, not one inside it):
/// it keeps its value while L runs.
bool enclosingCounter(const KernelInfo &K, llvm::StringRef Var,
                      const LoopInfo &L);

/// "const float" -> "float": an element type without its qualifiers.
std::string unqualifiedType(llvm::StringRef Type);

/// The original text of S.
std::string spanText(const RewriteContext &Ctx, const SourceSpan &S);

/// The original text of S with each span of Replacements that lies inside
/// it (they do not overlap) replaced by its text: S's expressions as
/// another place, another block or another thread computes them.
std::string
spanTextReplacing(const RewriteContext &Ctx, const SourceSpan &S,
                  std::vector<std::pair<SourceSpan, std::string>> Replacements);

/// Why a symbol of P (a coefficient or constant of an affine form the model
/// built) cannot be written again elsewhere in K's body, as a tile loader
/// (at the body's start) or a drain (after a loop) spells an index with the
/// same value: it is neither blockDim/gridDim, a
/// scalar parameter of K (or a field of one, `g.nx`), nor a name declared
/// before the kernel; or the kernel declares the name for two variables, so
/// the spelling may name another. "" when every symbol can be written;
/// else "'S', which ..." for a refusal to continue.
std::string unwritableSymbol(const RewriteContext &Ctx, const KernelInfo &K,
                             const SymPoly &P);

/// When the text of Src from Begin to End is one statement `STORE = value;`
/// whose left side is the access Store as written: the value's span (no
/// `;`, no surrounding blanks); nullopt otherwise.
std::optional<SourceSpan> assignedValue(llvm::StringRef Src,
                                        const AccessInfo &Store, unsigned Begin,
                                        unsigned End);

} // namespace cro

#endif
