//===- KernelModel.h - what the tool knows about a file's kernels ---------===//
//
// The kernel model is the analysis result every transform reads: kernels,
// their launch sites and how the launch configuration is computed, the
// compile-time constants coupled to the block size, loops, and memory
// accesses with their index expressions. It is plain data (no AST pointers)
// so that it can be printed, compared and cached; locations are
// "file:line:col" plus byte offsets into the main file for rewriting.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_ANALYSIS_KERNELMODEL_H
#define CRO_ANALYSIS_KERNELMODEL_H

#include "cro/Analysis/AffineExpr.h"
#include "cro/Analysis/ProgramText.h"
#include "llvm/Support/JSON.h"
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cro {

struct SourceSpan {
  std::string Begin;        ///< "file:line:col"
  std::string End;          ///< "file:line:col" of the last token
  /// Byte offsets in the program text (ProgramText.h): the main file's
  /// own offsets for code in the main file.
  unsigned BeginOffset = 0;
  unsigned EndOffset = 0;   ///< one past the last character
};

/// The in-place edit that makes a pointer declaration's pointee const:
/// insert `const ` at InsertAt (`T *p`, `DATA_TYPE *p`: the declaration's
/// start, or the start of the macro invocation it begins with), or replace
/// Replace by With where a prefix would qualify the pointer itself (a
/// pointer typedef `fptr p` -> `const float *p`; `auto p` -> `const auto *p`).
/// Neither (InsertAt 0, With empty): no edit of the declaration does it.
struct PointeeConstEdit {
  unsigned InsertAt = 0;
  SourceSpan Replace;
  std::string With;
  bool possible() const { return InsertAt || !With.empty(); }
};

struct ParamInfo {
  std::string Name;
  std::string Type; ///< as declared, e.g. "const float *__restrict__"
  bool IsPointer = false;
  bool IsConst = false;    ///< the parameter itself (top level)
  bool IsRestrict = false; ///< pointer declared __restrict__
  std::string PointeeType; ///< for pointers, e.g. "const float"
  /// For pointers: the pointed-to type after typedefs, unqualified
  /// ("float" for `DATA_TYPE *`): what outputs are compared as.
  std::string CanonicalPointeeType;
  /// For pointers of a kernel template whose pointee depends on a template
  /// parameter (`T *`, canonical type "type-parameter-0-0"): the canonical
  /// pointee in each instantiation Sema made of the kernel (`float` for a
  /// launch of `row_stats<float>`), each once, in the order first made.
  /// Outputs are compared by these when they agree on an element kind.
  std::vector<std::string> InstantiatedPointeeTypes;
  bool PointeeConst = false;
  /// For pointers: how the kernel uses the memory it points to:
  /// "none", "read", "write", "readwrite", or "unknown" (the pointer escapes
  /// into a call or a variable the analysis does not follow).
  std::string Access;
  bool Atomic = false;      ///< updated through atomic*()
  std::string EscapeReason; ///< why Access is "unknown"
  SourceSpan Span;          ///< the whole declaration
  unsigned NameOffset = 0;  ///< where the name starts (0: unnamed)
  /// How the pointee can be made const in place (a pointer whose name is
  /// written in the file).
  PointeeConstEdit ConstEdit;
  /// Copied into a local pointer to non-const (`float *row = p + i`), so
  /// the parameter can become a pointer to const only with those locals.
  bool AliasedByNonConst = false;
  /// Those locals, where `const ` would qualify their pointee in place.
  struct NonConstCopy {
    std::string Name;
    std::string Location;
    /// None for a declaration of several variables (`float *a = p, *b;`),
    /// where `const` would qualify all of them.
    PointeeConstEdit ConstEdit;
  };
  std::vector<NonConstCopy> NonConstCopies;
  /// Where the parameter itself is first assigned, incremented or has its
  /// address taken in the body ("" = never: it keeps the launch's value).
  std::string ModifiedAt;
  /// References to the parameter in the body (any use, of any kind).
  unsigned Uses = 0;
};

struct TemplateParamInfo {
  std::string Name;
  std::string Kind; ///< "type", "non-type", "template"
  std::string Type; ///< for non-type parameters
  std::string Default;
};

/// How one launch-configuration value (a grid/block dimension, the dynamic
/// shared memory size) is computed.
struct ValueOrigin {
  std::string Text; ///< as spelled at the launch
  /// "literal", "macro", "constant" (const/constexpr variable),
  /// "template-param", "constant-expr", "runtime", or "default" (omitted).
  std::string Kind;
  std::string Symbol;           ///< macro, variable or template parameter
  /// The symbol's identity: a macro's name, a variable's or enumerator's
  /// qualified name ("cfg::kThreads"); two values with the same one are the
  /// same declaration however each is spelled.
  std::string QualifiedSymbol;
  /// The symbol is defined where a kernel-specific copy cannot be put next
  /// to it: in a header, on the command line, or as an enumerator. A copy
  /// then goes into the main file as a macro.
  bool DefinedOutsideMainFile = false;
  std::optional<int64_t> Value; ///< when known at compile time
  std::vector<std::string> Via; ///< local variables followed to the origin
  /// Where the launching function reads one of Via other than in a launch
  /// configuration (`cudaMalloc(&p, blocks * 256 * 4)`, a printf): a rewrite
  /// of that variable's initializer would change those reads too. "" when
  /// it reads them nowhere else.
  std::string ReadElsewhere;
  std::vector<int64_t> InstantiatedValues; ///< per template instantiation
  /// The resolved expression reads nothing the launching function changes
  /// (no modified local, no memory, only pure calls such as ceil), so it
  /// has the same value when evaluated again at the launch.
  bool StableAtLaunch = false;
  SourceSpan Span;         ///< the expression at the launch (launch values)
  SourceSpan ResolvedSpan; ///< the expression Via leads to (else = Span)
  /// For "constant": the line declaring the variable, and whether it is a
  /// local of the launching function.
  SourceSpan DefinitionLine;
  bool LocalDefinition = false;
  /// For a "constant" variable: its type without qualifiers ("unsigned
  /// int"), which a copy of it keeps.
  std::string Type;

  /// Set when this (grid) value is derived from an extent and a block value.
  struct Derivation {
    std::string Form;      ///< "ceil-div", "ceil-float", "floor-div"
    std::string Extent;    ///< the domain size, e.g. "n"
    std::optional<int64_t> ExtentValue; ///< when a compile-time constant
    std::string BlockTerm; ///< the divisor as spelled, e.g. "BLOCK", "block.x"
    /// The divisor's QualifiedSymbol when it is a macro or constant.
    std::string BlockSymbol;
    /// The divisor is this many blocks (`const int tile = kBlock * 4;` for
    /// kernels that handle 4 elements per thread): the grid is ceil(Extent /
    /// (BlockMultiple * block)).
    int64_t BlockMultiple = 1;
    /// The divisor is the block divided by this many threads: a block of
    /// `kWarps * 32` threads with a grid of ceil(rows / kWarps), one row per
    /// warp. The grid is ceil(Extent / (block / BlockFraction)), and a block
    /// must stay a multiple of BlockFraction.
    int64_t BlockFraction = 1;
    /// Where the divisor is defined when it is a local of the launching
    /// function (`tile`'s initializer); empty when written at the grid.
    SourceSpan DivisorDefinition;
    /// The statement that rounds a floor division up, when the grid is a
    /// local `int g = n / B;` followed by `if (n % B != 0) g++;` (the ceil
    /// is the two statements together).
    SourceSpan RoundUp;
    std::string
        BlockDim; ///< "x"/"y"/"z" of the launch's block it matches, "" if none
  };
  std::optional<Derivation> Derived;
};

struct LaunchDim3 {
  std::string Text;              ///< the whole argument as spelled
  SourceSpan Span;               ///< the argument at the launch
  std::string Form;              ///< "scalar" or "dim3"
  std::string Variable;          ///< the dim3 variable it was read from, if any
  std::vector<ValueOrigin> Dims; ///< x, y, z (only x for a scalar)
};

struct LaunchSite {
  std::string Location;
  /// Written in the main file (else in a file it includes).
  bool InMainFile = true;
  SourceSpan Span;
  std::string Kernel;         ///< qualified name of the launched kernel
  std::string KernelLocation; ///< where that kernel is defined
  std::string Syntax;         ///< "triple-chevron", "cudaLaunchKernel",
                              ///< "cudaLaunchCooperativeKernel"
  std::string Caller;         ///< qualified name of the enclosing function
  std::vector<std::string>
      TemplateArgs; ///< explicit kernel template args as spelled
  std::vector<SourceSpan> TemplateArgSpans; ///< where each is written
  LaunchDim3 Grid;
  LaunchDim3 Block;
  ValueOrigin SharedMem;
  std::string Stream; ///< as spelled; "" when omitted
  struct Argument {
    std::string Text;
    std::string BaseVariable; ///< a plain variable passed as is, else ""
    /// An integer variable passed through integer conversions only (`n`,
    /// `(int)n`, `static_cast<size_t>(n)`), else "". Such a conversion of
    /// a non-negative value never exceeds it.
    std::string IntegerVariable;
    /// The variable a pointer argument points into, through unmodified
    /// local pointers initialized from it (`float *b = a + 1;` -> "a"); ""
    /// when it is not a plain variable.
    std::string Root;
    /// Root is this parameter (its index) of the launching function: what
    /// it points to is what that function's callers pass.
    int CallerParam = -1;
  };
  std::vector<Argument> Args; ///< the kernel's arguments (when visible)
  /// The arguments of every call of the launching function in this file
  /// (filled when an argument's Root is one of its parameters).
  std::vector<std::vector<Argument>> CallerCalls;
  unsigned LoopDepth = 0;     ///< number of enclosing loops in the caller
  bool InTemplate = false;    ///< the caller is a template
};

struct LoopInfo {
  std::string Id;   ///< "L<n>", per kernel in source order
  std::string Kind; ///< "for", "while", "do", "range-for"
  std::string Location;
  std::string Parent; ///< enclosing loop's Id, "" at top level
  unsigned Depth = 0; ///< 0 for outermost
  std::string InductionVar;
  std::string Init, Bound, Step; ///< as spelled ("" when not recognised)
  /// The initial value as an affine form (`i = tid` is threadIdx.x when
  /// `tid` holds it), when it is one.
  std::optional<AffineExpr> InitForm;
  std::string Compare;           ///< "<", "<=", ">", ">=", "!="
  /// "constant", "block-stride" (uses blockDim), "grid-stride"
  /// (blockDim*gridDim), "geometric" (*=, /=, <<=, >>=), "runtime", "".
  std::string StepKind;
  std::optional<int64_t> TripCount; ///< when init, bound and step are constant
  std::optional<int64_t> StepValue; ///< the step, when a constant
  bool HasUnrollPragma = false;
  std::string UnrollValue; ///< the existing pragma's argument ("" = none/full)
  SourceSpan PragmaSpan;   ///< the existing `#pragma unroll` line
  SourceSpan Span;         ///< the loop statement
  std::string Indent;      ///< leading whitespace of the loop's first line
  bool InMacro = false;    ///< written inside a macro expansion
  /// A statement of a `{ }` block (its pragma included), not the sole body
  /// of an `if`, a loop or a label: statements inserted before it run under
  /// the same conditions as it.
  bool InBlock = false;
  bool ContainsSync = false; ///< __syncthreads() inside
  /// Threads may exchange data inside: a block barrier, a warp intrinsic
  /// (`__syncwarp`, shuffles, votes), inline assembly, or a call of a
  /// function that does so.
  bool ContainsCommunication = false;
  SourceSpan Header;         ///< `for (...)`, up to the closing parenthesis
  SourceSpan Body;           ///< the body statement (`;` included)
  std::string VarType;       ///< the induction variable's declared type
  /// Why the loop cannot be strip-mined ("" = it can): it is not
  /// `for (T v = b; v < e; ++v)`, or the body leaves it (break, goto) or
  /// changes v or what e is computed from.
  std::string StripMineRefusal = "not a for loop";
  /// The loop that is this loop's whole body (a perfect nest), and why the
  /// two cannot trade places ("" = they can: no iteration of the body
  /// depends on another).
  std::string InnerLoop, InterchangeRefusal;
  /// Set when the interchange is legal only if no two pointer parameters
  /// alias (lifted by --assume-no-alias): the reason.
  std::string InterchangeAliasing;
  /// For `for` and `while` loops: where the body leaves the loop other than
  /// by running to its end -- a break or continue of this loop, a return, a
  /// goto -- e.g. "break at k.cu:9:7" ("" when it never does).
  std::string BodyExit;
  /// Variables declared outside the body (locals, parameters, the induction
  /// variable) that the body changes, as "'y' at k.cu:12:5", in source
  /// order; a `while` loop's step statement (StepStatement) is not counted.
  std::vector<std::string> BodyChanges;
  /// A `while` loop's last body statement when it is the induction step
  /// (`y++;`); empty otherwise.
  SourceSpan StepStatement;
  /// For a loop that counts up by one (StripMineRefusal empty): the
  /// expression of its start value and its increment expression (`++k`).
  SourceSpan StartValue, Increment;
  /// The one variable declared outside the body that the body changes, when
  /// every change adds to it (`acc += e`, `acc = acc + e`, `acc -= e`), or
  /// every change takes a maximum or minimum into it (AccumulatorCombine),
  /// with e not reading it and nothing else in the body reading it: the
  /// loop reduces into it, in any order (up to rounding, for a sum). Its
  /// type, canonical; in a template kernel, a sum of a dependent type has
  /// the types of the kernel's instantiations, ", "-separated ("double,
  /// float"). "" when not.
  std::string Accumulator, AccumulatorType;
  /// How the loop combines into Accumulator: "" when it adds; the function
  /// as spelled ("fmaxf", "max", "std::min") when every change is
  /// `acc = f(acc, e)` (or f(e, acc)) with f a maximum or minimum -- the
  /// loop keeps the largest or smallest value, in any order exactly.
  std::string AccumulatorCombine;
  /// Where the body changes no variable declared outside it but adds to one
  /// global element at an index the loop does not change (`x1[i] += e`,
  /// `x1[i] -= e`, e not reading that array), nothing else in the body
  /// naming the array: the element as spelled ("x1[i]"), each place the body
  /// adds to it (the subscript's span), and its type (AccumulatorType).
  std::string AccumulatedElement;
  std::vector<SourceSpan> AccumulatedSites;
};

struct IndexInfo {
  std::string Text;
  bool Affine = false;
  std::string NonAffineReason; ///< "index not affine: <expr>"
  AffineExpr Form;
  /// The local variables (not parameters) the index reads, after macro
  /// expansion: what a copy of the text evaluated elsewhere in the kernel
  /// may see differently. LocalsInMacro: some of them are read through a
  /// macro the text names, so renaming the text's identifiers cannot
  /// reach them.
  std::vector<std::string> Locals;
  bool LocalsInMacro = false;
  /// The width of the index's integer type as written, before its
  /// conversion for the subscript (64 for `size_t idx`, 32 for `int`): a
  /// copy of the index computed another way must not overflow sooner.
  unsigned Bits = 0;
  /// The index reads threadIdx or blockIdx itself, not through a local
  /// (directly, in a macro's body or in a function it calls): its text
  /// evaluated elsewhere in the kernel gives this thread's value even where
  /// the index variables are redeclared for another position.
  bool ReadsThreadPosition = false;
};

struct AccessInfo {
  std::string Location;
  SourceSpan Span; ///< the whole access expression, e.g. `A[row * K + k]`
  /// Written as a subscript or dereference of the parameter itself (not of a
  /// local pointer derived from it), so it can be replaced in place.
  bool Direct = false;
  std::string Base;  ///< parameter or variable accessed
  std::string Space; ///< "global", "shared", "constant", "local"
  std::string Mode;  ///< "read", "write", "readwrite", "atomic"
  std::string ElementType;
  /// The element type after typedefs and macros, unqualified ("float" for
  /// `DATA_TYPE` or `real_t`): what a vector type is chosen by.
  std::string CanonicalElementType;
  /// sizeof the element (0 when not known: an incomplete or dependent type).
  unsigned ElementBytes = 0;
  std::vector<IndexInfo> Indices; ///< one per subscript, outermost first
  std::string Loop;               ///< innermost enclosing loop Id, "" if none
  /// The innermost construct of the body that may skip this access when the
  /// code around it runs: an `if` (for its branches), a `?:` (for its arms),
  /// a `&&` or `||` (for its right side), a `switch` (for its body), a loop
  /// (whose body may run zero times). Empty when none encloses the access.
  /// Returns are not constructs: whether one comes first is a question of
  /// order, which the spans answer.
  SourceSpan SkippableBy;
  /// For a write: where the expression that stores it ends. The store
  /// follows what that expression reads (`y[i] = a * x[i]` reads x[i]
  /// first), so a thread's accesses are ordered by Span.BeginOffset for
  /// reads and by StoredAt for writes. 0 for a read.
  unsigned StoredAt = 0;
  /// For a write: where the expression that stores it begins, and whether
  /// its value is the element as stored (a built-in `=`, `op=`, or prefix
  /// `++`/`--`; not a postfix one, whose value is the element before, nor an
  /// overloaded operator, whose value is whatever it returns).
  unsigned StoredFrom = 0;
  bool StoreYieldsElement = false;
};

struct SharedArrayInfo {
  std::string Name;
  std::string Location;
  std::string ElementType;
  std::vector<std::string> Extents; ///< as spelled, one per dimension
  std::vector<std::optional<int64_t>> ExtentValues;
  bool Dynamic = false; ///< `extern __shared__ T s[];`
};

/// An atomic read-modify-write in a kernel, `atomicAdd(&bins[index], v)`,
/// as the privatization transform needs it.
struct AtomicUpdateInfo {
  std::string Function; ///< "atomicAdd", "atomicMax", ...
  std::string Location;
  /// The pointer parameter updated, when the target is written
  /// `&param[index]` in the user's file outside macros (else ""): what a
  /// rewrite of the call can re-spell.
  std::string Base;
  /// The pointer parameter the target address points into, however
  /// spelled (`p`, `&p[i]`, `p + i`, a local alias of those, through
  /// macros); "" when it is none (a member, a pointer read from memory).
  std::string TargetParam;
  std::string ElementType; ///< the element's type, e.g. "unsigned int"
  bool IntegerElement = false;
  SourceSpan BaseSpan;    ///< the parameter's name inside the call
  bool ResultUsed = true; ///< the old value the call returns is read
  /// An exclusive upper bound of the index, when its type or form gives one
  /// (an unsigned char, `e & 255`, `unsigned % 64`), and a lower bound of 0.
  std::optional<int64_t> IndexBound;
  std::string IndexBoundWhy; ///< why no bound is known
  /// The index as spelled in the user's file outside macros (empty span
  /// otherwise): what a run-time check of its range rewrites when
  /// IndexBound is not known.
  SourceSpan IndexSpan;
  /// The call's callee name (`atomicAdd`) as written in the user's file,
  /// outside macros; empty otherwise.
  SourceSpan CalleeSpan;
  /// The type the atomic updates (the pointee of its first argument,
  /// canonical and unqualified: "float", "unsigned int").
  std::string ValueType;
  /// "" when the updated address is the same in every thread of a warp at
  /// any time: computed from the kernel's unmodified parameters, constants,
  /// blockIdx/blockDim/gridDim and locals initialized from those, reading no
  /// memory; else why not.
  std::string UniformTargetWhy = "not analyzed";
  /// "" when the updated address is the same in every thread of the launch
  /// (as UniformTargetWhy, and not computed from blockIdx either:
  /// `atomicAdd(sum, v)`), so one element receives every thread's update;
  /// else why not.
  std::string LaunchUniformTargetWhy = "not analyzed";
  /// The thread dimensions an enclosing `if` fixes to one value where it
  /// runs (`if (threadIdx.x == 0)`, `if (tid == 0)`): along those, one
  /// thread of each block performs the update.
  std::vector<std::string> FixedThreadDims;
};

/// A use, in a kernel's body, of a compile-time value that also sets the
/// block size at a launch (or, for hard-coded literals, equals it or it - 1).
struct BlockCoupling {
  std::string Symbol; ///< macro/constant/template parameter, or the literal
  std::string Kind;   ///< "macro", "constant", "template-param", "literal"
  std::string Location;
  /// "shared-array-extent", "loop-init", "loop-bound", "loop-step",
  /// "index", "other".
  std::string Context;
  std::optional<int64_t> Value;
};

/// A kernel variable that is the thread's global index in one dimension:
/// `int x = blockIdx.x * blockDim.x + threadIdx.x;`.
struct ThreadIndexVar {
  std::string Name, Type;
  std::string Dim; ///< "x", "y", "z"
  SourceSpan Decl; ///< the declaration statement, `;` included
  unsigned Bits = 0; ///< the width of its integer type (64 for `long`)
};

/// A local declared before the reduction loop, e.g. `float acc = 0.0f;`.
struct LocalDeclInfo {
  std::string Name, Type, Init;
  SourceSpan Span; ///< the declaration statement (shared by `int a, b;`)
  /// The initializer only combines values already in registers (no memory
  /// read, no call), so every thread may evaluate it, guarded or not.
  bool Pure = true;
};

/// The work is `decls; for (T k = B; k < E; ++k) BODY; rest`: an output
/// per thread reduced over k (matmul, matrix-vector, convolution rows).
struct ReductionLoopInfo {
  std::string Loop; ///< the LoopInfo id
  std::string Var, VarType, Begin, End;
  SourceSpan Span, Body;
  std::vector<LocalDeclInfo> Before; ///< declarations before the loop
  SourceSpan After; ///< statements after the loop (empty when none)
  /// Each statement of the work before the loop (declarations included).
  std::vector<SourceSpan> BeforeStatements;
  /// The statements before the loop that are not declarations
  /// (`c[i * n + j] *= beta;`), and the subscripts of the elements they
  /// write: a transform that runs them per output must show each is the
  /// element the loop adds to.
  std::vector<SourceSpan> BeforeEffects, BeforeElementWrites;
  /// The global element the loop adds to (LoopInfo::AccumulatedElement), as
  /// spelled; "" when it adds to none.
  std::string Element;
  /// Why the loop cannot be restructured (empty: it can).
  std::string Refusal;
};

/// The shape of a data-parallel kernel that the memory-hierarchy transforms
/// rewrite:
///     <index variables>     int x = blockIdx.x * blockDim.x + threadIdx.x;
///     [guard]               if (x < n) { WORK }  or  if (x >= n) return;
///     WORK
struct ThreadMapping {
  /// Why the kernel does not have this shape (empty: it does).
  std::string Reason;
  std::vector<ThreadIndexVar> IndexVars;
  /// Dimension -> the non-type template parameter the index scales blockIdx
  /// by, where every launch sets it to the block's extent (`k<256><<<g,
  /// 256>>>`): the body's copy of the block size.
  std::map<std::string, std::string> BlockExtentParams;
  /// Dimension -> what the index variable along it scales blockIdx by:
  /// blockDim.d, or what every launch fixes the block's extent to (a
  /// number, a template parameter). An access index written with it
  /// (`bx * BLOCK_SIZE_X + tx`) is the thread's global index as surely as
  /// one written with blockDim.
  std::map<std::string, SymPoly> IndexBlockScale;
  /// "none", "wrap" (`if (c) { work }`), "early-return" (`if (c) return;`)
  /// or "branches" (`if (c1) A else if (c2) B`, no final else: the work is
  /// the whole chain).
  std::string GuardKind;
  SourceSpan Guard;      ///< the guarding if statement
  /// When the work runs, as C text over the index variables.
  std::string GuardCondition;
  /// Index variable -> the exclusive upper bound the guard gives it, as
  /// spelled (`x < n` or, for an early return, `x >= n`).
  std::map<std::string, std::string> UpperBounds;
  /// An upper bound's value as `Symbol + Offset` (Symbol a scalar parameter
  /// "n" or a field "g.nx" of a by-value struct parameter; "" for a
  /// compile-time constant, then Offset is its value), through macros,
  /// constants and casts: `_PB_NX` expanding to `nx`, `nx - 1`, `n - 2 + 1`.
  struct BoundForm {
    std::string Symbol;
    int64_t Offset = 0;
  };
  std::map<std::string, BoundForm> UpperBoundForms;
  /// The guard is exactly a conjunction of those upper bounds (no other
  /// condition), so it holds for a thread iff each index is below its bound.
  bool GuardIsBox = false;
  /// Index variable -> the inclusive lower bound the guard gives it, as C
  /// text (`x > 0` and `if (x < 1) return;` give "1", `x > lo` "lo + 1").
  std::map<std::string, std::string> LowerBounds;
  /// The guard is exactly a conjunction of upper bounds and lower bounds,
  /// at most one of each per index variable (`x > 0 && x < nx - 1 && y > 0
  /// && y < ny - 1`, or its early-return or `!(...)` forms): it holds for a
  /// thread iff each index lies in its range. A box is a range without
  /// lower bounds.
  bool GuardIsRange = false;
  /// Evaluating the guard's condition changes nothing (it may read memory):
  /// a rewrite may evaluate it again, for another output.
  bool GuardWithoutSideEffects = false;
  SourceSpan Work; ///< first to last statement of the work
  /// Locals declared between the thread index and a wrapping guard, with
  /// initializers that read no memory (`float sum = 0.0f;`): every thread
  /// runs them, and a rewrite that repeats only the guarded work per output
  /// would share them between its outputs.
  struct LeadingDecl {
    std::string Name, Location;
    std::string Type; ///< as declared (a typedef keeps its name)
    /// Why its value differs from one output to the next where the work
    /// uses it ("which the work changes", "which is computed from the
    /// thread index"); "" when the outputs may share it.
    std::string PerOutput;
    /// Where the work changes it: the statement that gives it back its
    /// initial value for the next output (`sum = 0.0f;`), when its
    /// initializer is pure, independent of the thread index and of what the
    /// work changes. NoReset when it has no initializer (the work assigns
    /// it before reading it, or reads an indeterminate value either way).
    std::string Reset;
    bool NoReset = false;
  };
  std::vector<LeadingDecl> LeadingDecls;
  /// Why the kernel's last `if` is not taken as the guard, or, for a
  /// "branches" guard, which indices its branches do not bound alike (""
  /// when neither applies).
  std::string GuardReason;
  /// `return` statements inside the work; InLoop when inside a loop or
  /// switch of the work (where `continue` would mean something else).
  struct Return {
    SourceSpan Span;
    bool InLoop = false;
  };
  std::vector<Return> Returns;
  /// The elements ("base[index]", as accessKey() spells them) that every
  /// path through the work accesses, to its end or to a return: a thread
  /// inside the guard certainly reads or writes those.
  std::vector<std::string> MustAccesses;
  /// For GuardKind "branches", each branch of the chain: its statement, the
  /// bounds its own condition gives (as UpperBounds and LowerBounds above;
  /// IsRange as GuardIsRange) and the accesses every path through its
  /// statement makes (as MustAccesses). A rewrite of what one branch reads
  /// may rely on that branch's condition.
  struct Branch {
    SourceSpan Body;
    std::map<std::string, std::string> UpperBounds, LowerBounds;
    std::map<std::string, BoundForm> UpperBoundForms;
    bool IsRange = false;
    std::vector<std::string> MustAccesses;
  };
  std::vector<Branch> Branches;
  /// A read p[S * R + C] of the work (p[C] with a 1-D index) whose row R
  /// and column C are not affine but provably stay within constant offsets
  /// of the thread's index in y and x wherever the guard holds: coordinates
  /// clamped to the image (`min(max(y + dy, 0), h - 1)`) with dy from a
  /// loop of constant bounds, a choice between neighbours (`c ? x - 1 :
  /// x`). Found by NeighbourReads.cpp.
  struct BoundedRead {
    unsigned Offset = 0;  ///< the access's begin (AccessInfo::Span)
    std::string Row, Col; ///< R and C as written (Row "" for a 1-D index)
    SymPoly Stride;       ///< S's value; zero for a 1-D index
    int64_t RowLo = 0, RowHi = 0, ColLo = 0, ColHi = 0; ///< R - y, C - x
    /// The iteration of the loops around the read where their variables
    /// are 0 runs on every path through the work for a thread inside the
    /// guard, performs the read (conditions around it hold there: a bounds
    /// check of the neighbour's coordinates), and reads the thread's own
    /// element (R == y, C == x).
    bool ReadsCentre = false;
  };
  std::vector<BoundedRead> BoundedReads;
  /// Reads whose index chooses among neighbours (`?:`) but is not known to
  /// stay near the thread's element: the access's begin offset -> why
  /// ("its choice 'edge ? c : c + 1' reads 'edge', which the kernel
  /// changes").
  std::map<unsigned, std::string> UnboundedChoices;
  /// Names that may mean different variables at different places of the
  /// body (ambiguousNames): a rewrite that spells a condition or a bound
  /// again elsewhere must not use them.
  std::set<std::string> AmbiguousNames;
  /// Thread-private variables declared before the work (parameters, locals
  /// of the prefix) that the work changes, e.g. "'out' (a parameter) at
  /// k.cu:9:5": a thread that runs the work for several outputs would carry
  /// the change from one to the next.
  std::vector<std::string> OutsideWrites;
  /// Preprocessor conditionals in the kernel's body ("#if at k.cu:4:1"):
  /// the model describes only the branch this parse took.
  std::vector<std::string> Conditionals;
  /// threadIdx/blockIdx/gridDim read outside the index variables, e.g.
  /// "threadIdx.x at k.cu:7:3".
  std::vector<std::string> StrayBuiltins;
  std::optional<ReductionLoopInfo> Reduction;
  /// The work's statements that are loops, when there are two or more
  /// (per-row statistics: a loop for the mean, statements, a loop for the
  /// variance): their LoopInfo ids in order, and after each loop the
  /// statements up to the next loop, or to the end of the work after the
  /// last (an empty span at the loop's end when there are none). Empty
  /// when the work has fewer than two loops.
  std::vector<std::string> SequentialLoops;
  std::vector<SourceSpan> AfterEachLoop;

  const ThreadIndexVar *indexVar(llvm::StringRef Dim) const {
    for (const ThreadIndexVar &V : IndexVars)
      if (V.Dim == Dim)
        return &V;
    return nullptr;
  }
};

/// Where the number of blocks does not change what a kernel computes (see
/// GridStride.h): its work is a set of grid-stride loops.
struct GridStrideInfo {
  std::vector<std::string> Loops; ///< Ids of the grid-stride loops, any dim
  /// Dimensions ("x", "y", "z") whose grid extent is free: any number of
  /// blocks >= 1 along them computes the same outputs.
  std::vector<std::string> FreeDims;
  /// Why a dimension that has grid-stride loops is not free ("" when every
  /// such dimension is, or when the kernel has none).
  std::string Reason;
};

/// Where a kernel reads its block's number and the grid's extent, per
/// dimension: what a rewrite that renumbers blocks (one block doing the work
/// of several consecutive original blocks) must replace, and what stops it.
/// See BlockIndexReads.h.
struct BlockIndexReads {
  struct Dim {
    std::vector<SourceSpan> BlockIdx; ///< each `blockIdx.d` in the body text
    std::vector<SourceSpan> GridDim;  ///< each `gridDim.d` in the body text
    /// A read of blockIdx.d or gridDim.d the body's text cannot change
    /// (inside a macro, in a called device function, through a call whose
    /// target is unknown); "" when every read is in BlockIdx/GridDim.
    std::string Obstacle;
  };
  std::map<std::string, Dim> Dims; ///< "x", "y", "z"
  /// Every `return` of the kernel's own body (a lambda's excluded); InLoop
  /// when inside a loop or switch, where `continue` means something else.
  struct Return {
    SourceSpan Span;
    bool InLoop = false;
  };
  std::vector<Return> Returns;
};

/// The kernel adds one value per thread -- its contribution -- into one
/// total that every block of the launch updates with atomicAdd: either the
/// contribution is the atomicAdd's value itself (`atomicAdd(sum, a[i] *
/// b[i])`), or the thread stores it in its own slot of a shared array
/// (`part[threadIdx.x] = v;`) and what follows only adds slots together
/// (a tree reduction, under conditions on the thread's position alone) and
/// adds one slot to the total. The total is then a sum of the contributions
/// with weights that do not depend on the block: a thread may add up the
/// contributions of several original blocks before the block combines them,
/// and the launch adds the same total (BlockFold).
struct BlockSumInfo {
  /// "" when the kernel has this shape; else why not.
  std::string Why = "not analyzed";
  std::string Form;     ///< "atomic" or "shared-slot"
  SourceSpan Statement; ///< the contribution's statement (`;` excluded)
  SourceSpan Value;     ///< the contribution's expression
  /// The type the contribution is added in: the atomic's value type or the
  /// slot's element type, as spelled in the kernel (a typedef keeps its
  /// name).
  std::string Type;
  /// For "atomic": the atomic's target as spelled (it reads parameters and
  /// constants only, so it can be written after the kernel's body).
  std::string Target;
  /// For "shared-slot": the declarations before the statement that do not
  /// declare shared memory, which a thread evaluates again per original
  /// block (their initializers read no memory the kernel writes).
  std::vector<SourceSpan> Prefix;
};

/// A loop that one thread runs as a prefix sum: each iteration stores the
/// running total of the terms so far into its own element, either through
/// the element the iteration before stored (`x[k] += x[k - 1]`,
/// `x[k] = x[k - 1] + t`) or through a local accumulator (`s += t; x[k] =
/// s;`, or `x[k] = s; s += t;` for an exclusive scan). A group of threads
/// can compute the same totals a chunk of iterations at a time: each takes
/// one iteration's term, a shuffle scan adds the terms up, and the chunk's
/// total is carried to the next (ParallelScan). This analysis proves the
/// shape on the AST and that nothing else in the kernel writes memory, so
/// that threads running the kernel's other statements together with the
/// one original thread change nothing but the loop.
struct SerialScanInfo {
  /// "" when every memory write of the kernel is in one of Loops and the
  /// rest of the body can run in every thread of a group (no barrier,
  /// shared memory or call with effects); else why not.
  std::string Why = "not analyzed";
  struct Loop {
    std::string Id;   ///< LoopInfo::Id
    std::string Form; ///< "memory" (through x[k - 1]) or "accumulator"
    /// "accumulator": the store comes before the addition (`x[k] = s; s +=
    /// t;`), so element k holds the total of the terms before k.
    bool Exclusive = false;
    std::string Type;        ///< the running total's type as spelled
    std::string Accumulator; ///< "accumulator": the local's name
    std::string Counter, CounterType;
    /// The counter's width and signedness: a chunk's counters are computed
    /// in 64 bits where it is narrower, so that none wraps past its bound.
    unsigned CounterBits = 32;
    bool CounterSigned = true;
    SourceSpan Start;     ///< the counter's first value
    SourceSpan Condition; ///< the loop's condition (monotone in the counter)
    SourceSpan Term;      ///< the term added in an iteration
    /// "memory": the read of the element the iteration before stored, and
    /// whether the original adds it on the left (`x[k - 1] + t`).
    SourceSpan Previous;
    bool PreviousFirst = false;
    SourceSpan Element; ///< the element stored, `x[k]`
    /// The statements of the body, `;` included: the loop is replaced by
    /// the group's form, which copies the store and the term.
    SourceSpan Store; ///< "accumulator": the store statement
  };
  std::vector<Loop> Loops;
  /// What runs after the last loop (itself in no loop): per block around
  /// it, the statements after it, from the end of the statement holding
  /// the loop to the block's closing brace. One thread runs them, where
  /// they may write memory (`offsets[n] = total;`) as the original's one
  /// thread did.
  std::vector<SourceSpan> Tails;
  /// Statements before the first loop, in no loop, that only write memory
  /// (`cdf[0] = hist[0];`, `;` included): one thread makes them, and
  /// nothing else before the loop reads memory; the loop's first chunk
  /// begins with a barrier that orders them before its reads.
  std::vector<SourceSpan> HeadWrites;
  /// Reads of threadIdx and blockDim anywhere in the body: every thread of
  /// the group stands for the original block's one thread, so they read 0
  /// and 1 there (the spans and the text replacing them).
  std::vector<std::pair<SourceSpan, std::string>> Builtins;
};

struct KernelInfo {
  std::string Name; ///< qualified, e.g. "ns::saxpy"
  /// The kernel in knob ids, refusals and --kernel: Name, or, when the file
  /// defines another kernel of that name (overloads), Name followed by its
  /// parameter types, "over(float*,int)", so that each one is tuned alone.
  std::string Id;
  /// The parameter types as the declaration spells them after Sema,
  /// "float*,int" (what tells overloads apart).
  std::string Signature;
  std::string Location;
  /// Defined in the main file. A kernel defined in a file the main file
  /// includes (kernels.cu, kernels.cuh) is modelled too: its spans are
  /// offsets in the program text like any other.
  bool InMainFile = true;
  SourceSpan Span;
  SourceSpan BodySpan;
  unsigned NameOffset = 0;     ///< the kernel's name in its definition
  unsigned DeclLineOffset = 0; ///< start of the line its declaration
                               ///< (template header included) begins on
  /// Other declarations of the kernel in the main file (prototypes), whose
  /// parameters must change together with the definition's.
  std::vector<std::vector<ParamInfo>> Redeclarations;
  /// A declaration outside the main file (a header) exists.
  bool DeclaredInHeader = false;
  std::vector<std::string> Sides; ///< "host", "device": parses that saw it
  std::vector<ParamInfo> Params;
  std::vector<TemplateParamInfo> TemplateParams;
  /// __launch_bounds__(MaxThreads[, MinBlocks[, MaxBlocksPerCluster]]) as
  /// written; Kind "default" for omitted arguments.
  struct LaunchBounds {
    SourceSpan Span;
    ValueOrigin MaxThreads, MinBlocks, MaxBlocksPerCluster;
  };
  std::optional<LaunchBounds> Bounds;
  /// `__cluster_dims__(...)` as written ("" when the kernel has none): its
  /// grid must stay a multiple of the cluster shape.
  std::string ClusterDims;
  std::vector<LaunchSite> Launches;
  /// Where the host names the kernel other than as a launch's callee
  /// (`fp = kernel;`): launches through that pointer are not in Launches.
  std::vector<std::string> AddressTaken;
  std::vector<LoopInfo> Loops;
  std::vector<AccessInfo> Accesses;
  std::vector<SharedArrayInfo> SharedArrays;
  std::vector<std::string> BlockDimUses; ///< "x","y","z" read from blockDim
  /// The dimensions ("x","y","z") of threadIdx, blockIdx or blockDim the
  /// kernel reads, in its body or in the device functions it calls: a block
  /// dimension it never reads cannot matter to it.
  std::vector<std::string> ThreadDimsUsed;
  bool UsesSyncthreads = false;
  bool UsesWarpIntrinsics = false; ///< __shfl*, __ballot*, __any/__all_sync...
  bool UsesAtomics = false;
  std::vector<AtomicUpdateInfo> Atomics;
  /// `return` statements anywhere in the body ("file:line:col").
  std::vector<std::string> Returns;
  /// Inline assembly statements in the body (one may end the thread).
  std::vector<std::string> AsmStatements;
  std::vector<BlockCoupling> Couplings; ///< symbols shared with launches
  std::vector<BlockCoupling>
      HardcodedSize; ///< literals equal to the block size
  ThreadMapping Mapping;
  GridStrideInfo GridStride;
  BlockIndexReads BlockReads;
  BlockSumInfo BlockSum;
  SerialScanInfo SerialScan;
};

/// "ns::k" -> "k", "ns::k(ns::T*,int)" -> "k(ns::T*,int)"; a name without
/// a scope is returned as it is.
inline llvm::StringRef unqualifiedName(llvm::StringRef Qualified) {
  size_t P = Qualified.substr(0, Qualified.find('(')).rfind("::");
  return P == llvm::StringRef::npos ? Qualified : Qualified.substr(P + 2);
}

/// The access the model records at exactly span S (an array element
/// `a[i]`, `p[i][j]` as written, after macro expansion), or null when S is
/// not one: analyses and transforms that hold an expression ask the model
/// what it knows of that element through this.
inline const AccessInfo *accessAt(const KernelInfo &K, const SourceSpan &S) {
  for (const AccessInfo &A : K.Accesses)
    if (A.Span.BeginOffset == S.BeginOffset && A.Span.EndOffset == S.EndOffset)
      return &A;
  return nullptr;
}

/// True when Name is K's qualified name or its last component, as users
/// (--kernel, kernel specs) and the measurement library name kernels.
inline bool isKernelNamed(const KernelInfo &K, llvm::StringRef Name) {
  return K.Name == Name || K.Id == Name || unqualifiedName(K.Name) == Name ||
         unqualifiedName(K.Id) == Name;
}

struct KernelModel {
  std::string File;
  std::string GpuArch;
  std::string CudaRoot, CudaVersion;
  std::vector<KernelInfo> Kernels;
  /// The user's files as one text: what every offset of the model indexes.
  ProgramText Program;
  /// Non-empty when Clang could not parse the program although nvcc
  /// compiles it: Clang's first error. Kernels is then empty -- the kernels
  /// exist but are not modelled -- and only what needs no model (compiler
  /// flags) can be offered.
  std::string Unparsed;
  // What transforms offer is not part of the model: see cro/Rewrite/Knob.h.
};

} // namespace cro

#endif
