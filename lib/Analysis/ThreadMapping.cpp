#include "cro/Analysis/ThreadMapping.h"
#include "cro/Analysis/AffineBuilder.h"
#include "cro/Analysis/NeighbourReads.h"
#include "cro/Analysis/StmtQueries.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include <set>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

bool isReturnOnly(const Stmt *S) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return CS->size() == 1 && isReturnOnly(CS->body_front());
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    return !R->getRetValue();
  return false;
}

/// Why a reduction loop's body (or a statement of the work before it)
/// cannot be run per output inside other loops and between barriers: it
/// leaves early, synchronizes, or writes memory other than the elements it
/// is allowed to.
class LoopBodyChecker : public NestCountingVisitor<LoopBodyChecker> {
public:
  /// Writes to the subscripts starting at AllowedWrites are accepted (the
  /// loop's accumulated element); with RecordElementWrites, so is any write
  /// to an element of a pointer parameter, recorded in ElementWrites for
  /// the transform to judge.
  LoopBodyChecker(const SourceText &Text, std::set<unsigned> AllowedWrites = {},
                  bool RecordElementWrites = false)
      : Text(Text), AllowedWrites(std::move(AllowedWrites)),
        RecordElementWrites(RecordElementWrites) {}
  std::string Refusal;
  std::vector<SourceSpan> ElementWrites;

  bool VisitReturnStmt(ReturnStmt *S) {
    return fail(S, "the loop body returns");
  }
  bool VisitGotoStmt(GotoStmt *S) { return fail(S, "the loop body uses goto"); }
  bool VisitBreakStmt(BreakStmt *S) {
    return Nest || fail(S, "the loop body leaves the loop (break)");
  }
  bool VisitContinueStmt(ContinueStmt *S) {
    return Nest || fail(S, "the loop body uses continue");
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    std::string Name = FD ? FD->getNameAsString() : "";
    if (StringRef(Name).starts_with("__syncthreads") ||
        StringRef(Name).starts_with("__shfl") ||
        StringRef(Name).contains("sync"))
      return fail(C, "the loop body synchronizes threads (" + Name + ")");
    if (StringRef(Name).starts_with("atomic"))
      return fail(C, "the loop body updates memory atomically");
    for (const Expr *A : C->arguments())
      if (A->getType()->isPointerType())
        return fail(C, "the loop body passes a pointer to '" + Name + "'");
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      return checkWrite(B, B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      return checkWrite(U, U->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() && C->getNumArgs() > 0)
      return checkWrite(C, C->getArg(0));
    return true;
  }

private:
  bool checkWrite(const Stmt *S, const Expr *LHS) {
    const VarDecl *V = referencedVar(LHS);
    if (V && V->hasLocalStorage() && !V->getType()->isReferenceType())
      return true;
    SourceSpan At = Text.span(LHS->IgnoreParens()->getSourceRange());
    if (AllowedWrites.count(At.BeginOffset))
      return true;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS->IgnoreParens());
        RecordElementWrites && AS) {
      const VarDecl *Base = referencedVar(AS->getBase()->IgnoreParenImpCasts());
      if (Base && isa<ParmVarDecl>(Base) && Base->getType()->isPointerType()) {
        ElementWrites.push_back(At);
        return true;
      }
    }
    return fail(S, "the loop body writes memory ('" + Text.text(LHS) + "')");
  }
  bool fail(const Stmt *S, const std::string &Why) {
    Refusal = Why + " at " + Text.location(S->getBeginLoc());
    return false;
  }
  const SourceText &Text;
  std::set<unsigned> AllowedWrites;
  bool RecordElementWrites;
};

class ReturnFinder : public NestCountingVisitor<ReturnFinder> {
public:
  ReturnFinder(const SourceText &Text,
               const std::function<SourceSpan(const Stmt *)> &Span)
      : Text(Text), Span(Span) {}
  std::vector<ThreadMapping::Return> Returns;
  /// A lambda's return leaves the lambda, not the kernel.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *S) {
    Returns.push_back({Span(S), Nest > 0});
    return true;
  }

private:
  const SourceText &Text;
  const std::function<SourceSpan(const Stmt *)> &Span;
};

class BuiltinFinder : public RecursiveASTVisitor<BuiltinFinder> {
public:
  explicit BuiltinFinder(const SourceText &Text) : Text(Text) {}
  std::vector<std::pair<unsigned, std::string>> Uses; // offset, description
  bool VisitPseudoObjectExpr(PseudoObjectExpr *E) {
    std::optional<std::string> B = cudaBuiltinName(E);
    if (B && !StringRef(*B).starts_with("blockDim."))
      Uses.push_back({Text.span(E->getSourceRange()).BeginOffset,
                      *B + " at " + Text.location(E->getBeginLoc())});
    return true;
  }

private:
  const SourceText &Text;
};

} // namespace

std::string accessKey(StringRef Base, StringRef Index) {
  return normalizeSpelling(Base) + "[" + normalizeSpelling(Index) + "]";
}

namespace {

/// Array accesses of S that run whenever S runs: not under `?:`, `&&`, `||`
/// or inside a nested statement.
class UnconditionalAccesses
    : public RecursiveASTVisitor<UnconditionalAccesses> {
  using Base = RecursiveASTVisitor<UnconditionalAccesses>;

public:
  UnconditionalAccesses(const SourceText &Text, std::set<std::string> &Out)
      : Text(Text), Out(Out) {}
  bool TraverseConditionalOperator(ConditionalOperator *C) {
    return TraverseStmt(C->getCond());
  }
  bool TraverseBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr)
      return TraverseStmt(B->getLHS());
    return Base::TraverseBinaryOperator(B);
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    Out.insert(accessKey(Text.text(E->getBase()), Text.text(E->getIdx())));
    return true;
  }

private:
  const SourceText &Text;
  std::set<std::string> &Out;
};

bool containsReturn(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (containsReturn(C))
      return true;
  return false;
}

/// The accesses every path through L[I..] executes, up to its end or a
/// return. Branches are followed with what comes after them, so an `if`
/// whose branch returns still counts the accesses of the other path.
std::set<std::string> mustAccesses(const SourceText &Text,
                                   std::vector<const Stmt *> L, size_t I,
                                   int &Budget) {
  if (I >= L.size() || --Budget < 0)
    return {};
  const Stmt *S = L[I];
  std::set<std::string> Here;
  auto Unconditional = [&](const Stmt *X) {
    if (X)
      UnconditionalAccesses(Text, Here).TraverseStmt(const_cast<Stmt *>(X));
  };
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    Unconditional(R->getRetValue());
    return Here;
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    std::vector<const Stmt *> Flat(CS->body_begin(), CS->body_end());
    Flat.insert(Flat.end(), L.begin() + I + 1, L.end());
    return mustAccesses(Text, Flat, 0, Budget);
  }
  if (const auto *If = dyn_cast<IfStmt>(S);
      If && !If->getInit() && !If->getConditionVariable()) {
    Unconditional(If->getCond());
    std::vector<const Stmt *> T{If->getThen()}, E;
    if (If->getElse())
      E.push_back(If->getElse());
    T.insert(T.end(), L.begin() + I + 1, L.end());
    E.insert(E.end(), L.begin() + I + 1, L.end());
    std::set<std::string> A = mustAccesses(Text, T, 0, Budget);
    std::set<std::string> B = mustAccesses(Text, E, 0, Budget);
    for (const std::string &X : A)
      if (B.count(X))
        Here.insert(X);
    return Here;
  }
  if (isa<Expr>(S) || isa<DeclStmt>(S) || isa<NullStmt>(S)) {
    Unconditional(S);
  } else if (containsReturn(S)) {
    return Here; // a loop or switch that may return: nothing after is sure
  }
  std::set<std::string> Rest = mustAccesses(Text, L, I + 1, Budget);
  Here.insert(Rest.begin(), Rest.end());
  return Here;
}

/// mustAccesses of Stmts as a sorted list; empty when the walk ran out of
/// its budget (then nothing is known to be accessed).
std::vector<std::string> mustAccessList(const SourceText &Text,
                                        std::vector<const Stmt *> Stmts) {
  int Budget = 4096;
  std::set<std::string> Must = mustAccesses(Text, std::move(Stmts), 0, Budget);
  if (Budget < 0)
    return {};
  return {Must.begin(), Must.end()};
}

class MappingBuilder {
public:
  MappingBuilder(const SourceText &Text, KernelInfo &Info)
      : Text(Text), Info(Info), M(Info.Mapping) {}

  void build(const FunctionDecl *Kernel) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
    if (!Body || Body->body_empty())
      return refuse("the kernel has no body");
    KernelBody = Body;
    if (Body->getBeginLoc().isMacroID())
      return refuse("the kernel is written inside a macro");
    AffineBuilder Affine(Text, Kernel); // knows which locals are modified
    this->Affine = &Affine;

    // The prefix: declarations of integer locals computed from the thread's
    // coordinates and launch constants only (no memory, no loop). Those
    // whose value is `blockIdx.d * E + threadIdx.d`, with E the block's
    // extent along d, are the thread's global index in d, whatever they are
    // called and however they are computed (helpers, `bx`/`tx` locals,
    // `blockIdx.x * TILE + threadIdx.x`, casts).
    std::vector<const Stmt *> Rest;
    std::vector<const VarDecl *> Parts; // prefix locals that are not indices
    bool InPrefix = true;
    for (const Stmt *S : Body->body()) {
      const auto *DS = dyn_cast<DeclStmt>(S);
      if (InPrefix && DS && prefixDecl(DS, Affine, Parts))
        continue;
      if (InPrefix && prefixAssignment(S, Affine))
        continue;
      InPrefix = false;
      Rest.push_back(S);
    }
    if (!ModifiedIndex.empty())
      return refuse("the thread index '" + ModifiedIndex +
                    "' is modified after its declaration");
    if (M.IndexVars.empty())
      return refuse(NoIndexReason.empty()
                        ? "no local of the kernel holds the thread's global "
                          "index (blockIdx * blockDim + threadIdx in some "
                          "dimension) before its work begins"
                        : NoIndexReason);
    if (Rest.empty())
      return refuse("the kernel has no work after its thread index");

    // A part of the prefix declared before a later index variable must not
    // read an earlier one: transforms re-derive the indices after the prefix.
    for (const VarDecl *P : Parts)
      for (const ThreadIndexVar &I : M.IndexVars)
        if (Text.span(P->getSourceRange()).BeginOffset < I.Decl.BeginOffset &&
            mentionsIndexVar(P->getInit()))
          return refuse("'" + P->getNameAsString() +
                        "' is computed from a thread index before '" +
                        I.Name + "' is declared");

    // Thread-private state the work changes but does not declare (a
    // parameter, a local of the prefix): run once per output, each output
    // would start from the value the previous one left.
    for (const Stmt *S : Rest)
      for (const auto &[V, Sites] : modificationSites(S)) {
        if (!V->hasLocalStorage())
          continue; // memory shared by the grid, not the thread's own
        // `int k;` before `for (k = 0; ...)`: its value on entry is
        // indeterminate, so a well-defined kernel writes it before reading
        // it, in every output.
        if (!isa<ParmVarDecl>(V) && !V->hasInit() &&
            V->getType()->isScalarType())
          continue;
        SourceSpan Decl = Text.span(V->getSourceRange());
        bool Inside = false;
        for (const Stmt *R : Rest)
          Inside |= Decl.BeginOffset >= stmtSpan(R).BeginOffset &&
                    Decl.EndOffset <= stmtSpan(R).EndOffset;
        if (Inside)
          continue;
        std::string Where;
        for (SourceLocation L : Sites)
          if (L.isValid()) {
            Where = " at " + Text.location(L);
            break;
          }
        M.OutsideWrites.push_back(
            "'" + V->getNameAsString() + "'" +
            (isa<ParmVarDecl>(V) ? " (a parameter)" : "") + Where);
      }
    std::sort(M.OutsideWrites.begin(), M.OutsideWrites.end());

    std::vector<const Stmt *> Work = Rest;
    std::vector<const VarDecl *> Leading; // declared before a wrapping guard
    M.GuardKind = "none";
    // Early returns: one or more `if (cond) return;` in a row.
    size_t Leaves = 0;
    while (Leaves < Rest.size()) {
      const auto *If = dyn_cast<IfStmt>(Rest[Leaves]);
      if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
          !isReturnOnly(If->getThen()))
        break;
      ++Leaves;
    }
    if (Leaves) {
      M.GuardKind = "early-return";
      M.GuardIsBox = M.GuardIsRange = true;
      M.Guard = stmtSpan(Rest.front());
      M.Guard.EndOffset = stmtSpan(Rest[Leaves - 1]).EndOffset;
      M.Guard.End = stmtSpan(Rest[Leaves - 1]).End;
      M.GuardWithoutSideEffects = true;
      for (size_t I = 0; I < Leaves; ++I) {
        const auto *If = cast<IfStmt>(Rest[I]);
        M.GuardCondition += (I ? " && " : "") +
                            std::string("!(") + Text.text(If->getCond()) + ")";
        M.GuardWithoutSideEffects &=
            !If->getCond()->HasSideEffects(Text.context());
        collectBounds(If->getCond(), true);
      }
      Work.erase(Work.begin(), Work.begin() + Leaves);
    } else if (const IfStmt *If = guardingIf(Rest)) {
      // Declarations before the guard that read no memory (`float sum =
      // 0.0f;`) run for every thread as they did; the work that uses them
      // is still guarded.
      for (size_t I = 0; I + 1 < Rest.size(); ++I)
        for (const Decl *D : cast<DeclStmt>(Rest[I])->decls())
          Leading.push_back(cast<VarDecl>(D));
      M.Guard = stmtSpan(If);
      if (!If->getElse()) {
        M.GuardKind = "wrap";
        M.GuardCondition = Text.text(If->getCond());
        M.GuardWithoutSideEffects =
            !If->getCond()->HasSideEffects(Text.context());
        Work.clear();
        if (const auto *CS = dyn_cast<CompoundStmt>(If->getThen()))
          Work.assign(CS->body_begin(), CS->body_end());
        else
          Work.push_back(If->getThen());
        M.GuardIsBox = M.GuardIsRange = true;
        collectBounds(If->getCond(), false);
      } else {
        // `if (c1) A else if (c2) B ...` without a final else: a thread
        // for which no condition holds does nothing, so an index is bounded
        // where every condition bounds it alike.
        M.GuardKind = "branches";
        Work.assign(1, If);
        branchBounds(If);
      }
    }
    if (Work.empty())
      return refuse("the guarded work is empty");
    DenseSet<const VarDecl *> ChangedByWork;
    if (!Leading.empty())
      for (const Stmt *S : Work)
        for (const VarDecl *V : modifiedVariables(S))
          ChangedByWork.insert(V);
    for (const VarDecl *V : Leading) {
      ThreadMapping::LeadingDecl D{V->getNameAsString(),
                                   Text.location(V->getLocation()),
                                   V->getType().getAsString(), ""};
      bool Used = false;
      for (const Stmt *S : Work)
        Used |= usesOutsideIndexDecls(S, V) > 0;
      if (ChangedByWork.count(V)) {
        D.PerOutput = "which the work changes";
        // Each output may start from the initial value again where it is
        // the same for every output and evaluating it changes nothing.
        const Expr *Init = V->getInit();
        bool Resettable = Init && !V->getType()->isReferenceType() &&
                          !V->getType().isConstQualified() && isPure(Init) &&
                          !mentionsIndexVar(Init);
        if (Resettable)
          for (const VarDecl *R : referencedVars(Init))
            Resettable &= !ChangedByWork.count(R) && R != V;
        if (!Init && !V->getType()->isReferenceType() &&
            !V->getType()->isArrayType())
          D.NoReset = true;
        else if (Resettable && !isa<InitListExpr>(Init) &&
                 !isa<CXXConstructExpr>(Init->IgnoreImplicit()) &&
                 V->getInitStyle() == VarDecl::CInit)
          D.Reset = V->getNameAsString() + " = " + Text.text(Init) + ";";
      } else if (Used && V->getInit() && mentionsIndexVar(V->getInit()))
        D.PerOutput = "which is computed from the thread index";
      M.LeadingDecls.push_back(std::move(D));
    }
    M.Work = stmtSpan(Work.front());
    M.Work.EndOffset = stmtSpan(Work.back()).EndOffset;
    M.Work.End = stmtSpan(Work.back()).End;

    std::function<SourceSpan(const Stmt *)> SpanOf = [&](const Stmt *S) {
      return stmtSpan(S);
    };
    ReturnFinder RF(Text, SpanOf);
    for (const Stmt *S : Work)
      RF.TraverseStmt(const_cast<Stmt *>(S));
    M.Returns = std::move(RF.Returns);

    BuiltinFinder BF(Text);
    BF.TraverseStmt(const_cast<CompoundStmt *>(Body));
    // Prefix locals such as `int tx = threadIdx.x;` that only feed the
    // index variables are part of the index computation.
    std::vector<SourceSpan> IndexOnly;
    for (const VarDecl *P : Parts)
      if (usesOutsideIndexDecls(Body, P) == 0)
        IndexOnly.push_back(Text.span(P->getSourceRange()));
    for (auto &[Offset, What] : BF.Uses) {
      bool InDecl = false;
      for (const ThreadIndexVar &V : M.IndexVars)
        InDecl |= Offset >= V.Decl.BeginOffset && Offset < V.Decl.EndOffset;
      for (const SourceSpan &P : IndexOnly)
        InDecl |= Offset >= P.BeginOffset && Offset < P.EndOffset;
      if (!InDecl)
        M.StrayBuiltins.push_back(What);
    }

    M.MustAccesses = mustAccessList(Text, Work);

    M.AmbiguousNames = ambiguousNames(Body);
    findBoundedReads(Text, Affine, M, Work);
    findReduction(Work);
  }

private:
  void refuse(const std::string &Why) {
    // The preprocessor conditionals stay: they are facts of the body, not
    // of the shape (other rewrites of the body need them).
    std::vector<std::string> Conditionals = std::move(M.Conditionals);
    M = ThreadMapping();
    M.Reason = Why;
    M.Conditionals = std::move(Conditionals);
  }

  /// The dimension d when F is blockIdx.d * E + threadIdx.d and E is the
  /// block's extent along d (blockDim.d, or the constant every launch of
  /// the kernel uses for it); else nullopt, with NoIndexReason saying why
  /// a near miss is not one.
  std::optional<std::string> indexDim(const AffineExpr &F,
                                      const VarDecl *V) {
    std::optional<std::string> Found;
    for (const char *D : {"x", "y", "z"}) {
      std::string T = std::string("threadIdx.") + D;
      std::string B = std::string("blockIdx.") + D;
      if (F.coefficient(T).constantValue() != 1)
        continue;
      if (F.coefficients().size() != 2 || F.coefficient(B).isZero())
        return std::nullopt;
      SymPoly C = F.coefficient(B);
      std::string Param = blockTemplateParam(C, D);
      if (!(C == SymPoly::symbol(std::string("blockDim.") + D)) &&
          Param.empty()) {
        std::optional<int64_t> Value = C.constantValue();
        std::optional<int64_t> Launched = launchedExtent(D);
        if (!Value || !Launched || *Value != *Launched) {
          NoIndexReason =
              "'" + V->getNameAsString() + "' = " + F.str() +
              " scales blockIdx." + D + " by " + C.str() +
              (Launched ? ", but the kernel is launched with blockDim." +
                              std::string(D) + " = " +
                              std::to_string(*Launched)
                        : ", and no launch fixes blockDim." + std::string(D) +
                              " to it") +
              ", so it is not the thread's global index";
          return std::nullopt;
        }
      }
      if (!F.constantPart().isZero())
        return std::nullopt;
      if (!Param.empty())
        M.BlockExtentParams[D] = Param;
      M.IndexBlockScale[D] = C;
      Found = D;
    }
    return Found;
  }

  /// C when it is a non-type template parameter of the kernel that every
  /// launch sets to the number it launches as the block extent along D
  /// (`k<256><<<g, 256>>>` for `blockIdx.x * BLOCK + threadIdx.x`): in
  /// the body it is the block's extent. Else "".
  std::string blockTemplateParam(const SymPoly &C, StringRef D) const {
    std::optional<int64_t> Launched = launchedExtent(D);
    if (!Launched)
      return "";
    for (size_t P = 0; P < Info.TemplateParams.size(); ++P) {
      const TemplateParamInfo &T = Info.TemplateParams[P];
      if (T.Kind != "non-type" || !(C == SymPoly::symbol(T.Name)))
        continue;
      for (const LaunchSite &L : Info.Launches) {
        int64_t V = 0;
        if (P >= L.TemplateArgs.size() ||
            StringRef(L.TemplateArgs[P]).trim().getAsInteger(0, V) ||
            V != *Launched)
          return "";
      }
      return T.Name;
    }
    return "";
  }

  /// The block extent along D that every launch of the kernel uses, when
  /// all launches give the same compile-time value.
  std::optional<int64_t> launchedExtent(StringRef D) const {
    unsigned I = D == "x" ? 0 : D == "y" ? 1 : 2;
    std::optional<int64_t> Common;
    for (const LaunchSite &L : Info.Launches) {
      std::optional<int64_t> V =
          I < L.Block.Dims.size() ? L.Block.Dims[I].Value : std::nullopt;
      if (I >= L.Block.Dims.size())
        V = 1;
      if (!V || (Common && *Common != *V))
        return std::nullopt;
      Common = V;
    }
    return Common;
  }

  /// True when DS belongs to the index prefix: every variable it declares is
  /// an unmodified integer scalar whose initializer is affine in the
  /// thread's coordinates (no memory read, no loop variable). Index
  /// variables are recorded as found.
  bool prefixDecl(const DeclStmt *DS, AffineBuilder &Affine,
                  std::vector<const VarDecl *> &Parts) {
    std::vector<std::pair<const VarDecl *, std::optional<std::string>>> Found;
    // `static_assert(...)`, `using limits = ...;`, `typedef T V;` run no
    // code: they may stand anywhere in the prefix (they stay where they are).
    if (llvm::all_of(DS->decls(), [](const Decl *D) {
          return isa<StaticAssertDecl, TypedefNameDecl, UsingDecl,
                     UsingDirectiveDecl>(D);
        }))
      return true;
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (V && !V->getInit() && V->getType()->isIntegerType() &&
          !V->isStaticLocal()) {
        Uninitialized.insert(V); // `int k;`, `int i;`: defined later
        continue;
      }
      if (!V || !V->getInit() || !V->getType()->isIntegerType() ||
          V->isStaticLocal() || V->getType()->isReferenceType())
        return false;
      AffineBuilder::Result R = Affine.build(V->getInit());
      if (!R.Form)
        return false;
      std::optional<std::string> Dim = indexDim(*R.Form, V);
      if (Affine.isModified(V)) {
        if (Dim)
          ModifiedIndex = V->getNameAsString();
        return false;
      }
      Found.push_back({V, Dim});
    }
    if (!DS->isSingleDecl()) {
      // `int x = ..., y = ...;` declares both in one statement, which the
      // transforms replace whole: only index parts may share it.
      for (auto &[V, Dim] : Found)
        if (Dim)
          return false;
    }
    for (auto &[V, Dim] : Found) {
      if (!Dim || M.indexVar(*Dim)) {
        // A part read before a later index variable must not depend on an
        // earlier one: the transforms re-derive indices after the prefix.
        Parts.push_back(V);
        continue;
      }
      M.IndexVars.push_back({V->getNameAsString(), V->getType().getAsString(),
                             *Dim, stmtSpan(DS), bitsOf(V)});
    }
    return true;
  }

  unsigned bitsOf(const VarDecl *V) const {
    return integerBits(V->getType(), Text.context());
  }

  /// `i = blockIdx.x * blockDim.x + threadIdx.x;` for a prefix local declared
  /// without an initializer: its one definition (AffineBuilder checks that
  /// nothing else writes it), so it belongs to the prefix like a
  /// declaration with that initializer.
  bool prefixAssignment(const Stmt *S, AffineBuilder &Affine) {
    const auto *B = dyn_cast<BinaryOperator>(S);
    if (!B || B->getOpcode() != BO_Assign)
      return false;
    const VarDecl *V = referencedVar(B->getLHS());
    if (!V || !Uninitialized.count(V) ||
        !isa<DeclRefExpr>(B->getLHS()->IgnoreParens()))
      return false;
    // Read after the assignment, V has the assigned value when it is the
    // only write; AffineBuilder's answer for V itself says so.
    AffineBuilder::Result Whole = Affine.build(B->getRHS());
    if (!Whole.Form)
      return false;
    std::optional<std::string> Dim = indexDim(*Whole.Form, V);
    if (Dim && !M.indexVar(*Dim) && Affine.definedOnce(V)) {
      M.IndexVars.push_back({V->getNameAsString(), V->getType().getAsString(),
                             *Dim, stmtSpan(S), bitsOf(V)});
      return true;
    }
    return false;
  }

  /// References to V in Body outside the index variables' declarations.
  unsigned usesOutsideIndexDecls(const Stmt *Body, const VarDecl *V) {
    unsigned N = 0;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (DRE->getDecl() == V) {
          unsigned Off = Text.span(DRE->getSourceRange()).BeginOffset;
          bool InIndex = false;
          for (const ThreadIndexVar &I : M.IndexVars)
            InIndex |= Off >= I.Decl.BeginOffset && Off < I.Decl.EndOffset;
          N += !InIndex;
        }
      for (const Stmt *C : S->children())
        Walk(C);
    };
    Walk(Body);
    return N;
  }

  std::string NoIndexReason, ModifiedIndex;
  DenseSet<const VarDecl *> Uninitialized; // prefix locals without a value
  AffineBuilder *Affine = nullptr;         // of the kernel being built

  /// The `if` that guards the work: the last statement after the prefix,
  /// preceded only by declarations of locals whose initializers read no
  /// memory and call nothing; an else chain must end without a plain else.
  /// (M.GuardReason says why a final `if` is not the guard.)
  const IfStmt *guardingIf(const std::vector<const Stmt *> &Rest) {
    const auto *If = dyn_cast<IfStmt>(Rest.back());
    if (!If || If->getInit() || If->getConditionVariable())
      return nullptr;
    for (const IfStmt *B = If; B;) {
      const Stmt *Else = B->getElse();
      if (!Else)
        break;
      B = dyn_cast<IfStmt>(Else);
      if (!B) {
        M.GuardReason = "the guard's final else at " +
                        Text.location(Else->getBeginLoc()) +
                        " runs for the threads beyond its bounds";
        return nullptr;
      }
      if (B->getInit() || B->getConditionVariable())
        return nullptr;
    }
    for (size_t I = 0; I + 1 < Rest.size(); ++I) {
      const auto *DS = dyn_cast<DeclStmt>(Rest[I]);
      if (!DS) {
        M.GuardReason = "the statement at " +
                        Text.location(Rest[I]->getBeginLoc()) +
                        " runs before the guard, for every thread";
        return nullptr;
      }
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (V && V->getInit() && !isPure(V->getInit())) {
          M.GuardReason = "the initializer of '" + V->getNameAsString() +
                          "' at " + Text.location(V->getLocation()) +
                          " reads memory or calls a function before the "
                          "guard, for every thread";
          return nullptr;
        }
        if (!V || V->isStaticLocal() || V->getType()->isReferenceType() ||
            !V->getType()->isScalarType()) {
          M.GuardReason = "the declaration at " +
                          Text.location(D->getLocation()) +
                          " before the guard is not of a scalar local";
          return nullptr;
        }
      }
    }
    return If;
  }

  /// The upper bounds every branch condition of an else chain gives alike.
  void branchBounds(const IfStmt *If) {
    std::optional<std::map<std::string, std::string>> Common;
    std::map<std::string, ThreadMapping::BoundForm> Forms;
    M.GuardWithoutSideEffects = true;
    std::vector<std::string> Conditions;
    M.Branches.clear();
    for (const IfStmt *B = If; B; B = dyn_cast_or_null<IfStmt>(B->getElse())) {
      M.UpperBounds.clear();
      M.UpperBoundForms.clear();
      M.LowerBounds.clear();
      M.GuardIsBox = M.GuardIsRange = true;
      collectBounds(B->getCond(), false);
      ThreadMapping::Branch Br;
      Br.Body = stmtSpan(B->getThen());
      Br.UpperBounds = M.UpperBounds;
      Br.LowerBounds = M.LowerBounds;
      Br.UpperBoundForms = M.UpperBoundForms;
      Br.IsRange = M.GuardIsRange;
      Br.MustAccesses = mustAccessList(Text, {B->getThen()});
      M.Branches.push_back(std::move(Br));
      Conditions.push_back("(" + Text.text(B->getCond()) + ")");
      M.GuardWithoutSideEffects &=
          !B->getCond()->HasSideEffects(Text.context());
      if (!Common) {
        Common = M.UpperBounds;
        Forms = M.UpperBoundForms;
        continue;
      }
      for (auto It = Common->begin(); It != Common->end();) {
        auto Here = M.UpperBounds.find(It->first);
        if (Here == M.UpperBounds.end() || Here->second != It->second) {
          M.GuardReason += std::string(M.GuardReason.empty() ? "" : "; ") +
                           "the branches of the guard at " +
                           Text.location(If->getBeginLoc()) +
                           " do not all bound '" + It->first + "' by '" +
                           It->second + "'";
          It = Common->erase(It);
        } else {
          ++It;
        }
      }
    }
    M.UpperBounds = *Common;
    M.UpperBoundForms.clear();
    for (const auto &[Var, Form] : Forms)
      if (M.UpperBounds.count(Var))
        M.UpperBoundForms[Var] = Form;
    M.GuardCondition = join(Conditions, " || ");
    M.GuardIsBox = M.GuardIsRange = false;
    M.LowerBounds.clear();
  }

  /// The region the guard lets a thread work in, as bounds on the index
  /// variables: the condition of a wrapping `if` is a conjunction (`&&`),
  /// that of an early return a disjunction (`||`) of conditions to leave.
  /// Every comparison operator and either operand order is understood;
  /// a bound may be any expression the thread cannot change (a parameter,
  /// `n - 1`, a macro, a struct field); `!(c)` is c negated. The guard is
  /// a box when it is exactly upper bounds, one per index variable, and a
  /// range when it is exactly upper and lower bounds, at most one of each
  /// per index variable.
  void collectBounds(const Expr *E, bool Negated) {
    if (const auto *U = dyn_cast<UnaryOperator>(stripCasts(E));
        U && U->getOpcode() == UO_LNot)
      return collectBounds(U->getSubExpr(), !Negated);
    const auto *B = dyn_cast<BinaryOperator>(stripCasts(E));
    if (!B) {
      M.GuardIsBox = M.GuardIsRange = false;
      return;
    }
    if (B->getOpcode() == (Negated ? BO_LOr : BO_LAnd)) {
      collectBounds(B->getLHS(), Negated);
      collectBounds(B->getRHS(), Negated);
      return;
    }
    if (!B->isRelationalOp()) {
      M.GuardIsBox = M.GuardIsRange = false;
      return;
    }
    BinaryOperatorKind Op = B->getOpcode();
    const Expr *VarSide = B->getLHS(), *BoundSide = B->getRHS();
    const ThreadIndexVar *T = indexVarOf(VarSide);
    if (!T) {
      std::swap(VarSide, BoundSide);
      T = indexVarOf(VarSide);
      Op = BinaryOperator::reverseComparisonOp(Op); // n > x is x < n
    }
    if (Negated)
      Op = BinaryOperator::negateComparisonOp(Op); // leave if x >= n: x < n
    if (!T || !isPure(BoundSide) || mentionsIndexVar(BoundSide)) {
      M.GuardIsBox = M.GuardIsRange = false; // not about one index
      return;
    }
    if (Op == BO_GT || Op == BO_GE) {
      M.GuardIsBox = false; // a lower bound
      if (M.LowerBounds.count(T->Name)) {
        M.GuardIsRange = false; // two: the tighter one is unknown
        return;
      }
      std::string Low = Text.text(BoundSide);
      const auto *Lit = dyn_cast<IntegerLiteral>(stripCasts(BoundSide));
      if (Op == BO_GT && Lit && !BoundSide->getBeginLoc().isMacroID())
        Low = std::to_string(Lit->getValue().getSExtValue() + 1); // x > 0
      else if (Op == BO_GT)
        Low =
            (isa<DeclRefExpr>(stripCasts(BoundSide)) ? Low : "(" + Low + ")") +
            " + 1";
      M.LowerBounds[T->Name] = Low;
      return;
    }
    if (M.UpperBounds.count(T->Name)) {
      // two upper bounds: the tighter one is unknown
      M.GuardIsBox = M.GuardIsRange = false;
      return;
    }
    std::string Bound = Text.text(BoundSide);
    if (Affine)
      if (std::optional<AffineExpr> F = Affine->build(BoundSide).Form)
        if (std::optional<ThreadMapping::BoundForm> Form = boundFormOf(*F)) {
          // symbol + constant, or a constant
          Form->Offset += Op == BO_LE;
          M.UpperBoundForms[T->Name] = *Form;
        }
    if (Op == BO_LE)
      Bound = (isa<DeclRefExpr>(stripCasts(BoundSide)) ||
                       isa<IntegerLiteral>(stripCasts(BoundSide))
                   ? Bound
                   : "(" + Bound + ")") +
              " + 1";
    M.UpperBounds[T->Name] = Bound;
  }

  const ThreadIndexVar *indexVarOf(const Expr *E) const {
    const VarDecl *V = referencedVar(E);
    if (!V)
      return nullptr;
    for (const ThreadIndexVar &T : M.IndexVars)
      if (T.Name == V->getNameAsString())
        return &T;
    return nullptr;
  }

  bool mentionsIndexVar(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      for (const ThreadIndexVar &T : M.IndexVars)
        if (T.Name == DRE->getDecl()->getNameAsString())
          return true;
    for (const Stmt *C : S->children())
      if (mentionsIndexVar(C))
        return true;
    return false;
  }

  SourceSpan stmtSpan(const Stmt *S) { return Text.statementSpan(S); }

  /// The work's loops when it has several (ThreadMapping::SequentialLoops).
  void findSequentialLoops(const std::vector<const Stmt *> &Work) {
    std::vector<size_t> At;
    for (size_t I = 0; I < Work.size(); ++I)
      if (isa<ForStmt>(Work[I]))
        At.push_back(I);
    if (At.size() < 2)
      return;
    for (size_t N = 0; N < At.size(); ++N) {
      SourceSpan Loop = stmtSpan(Work[At[N]]);
      std::string Id;
      for (const LoopInfo &L : Info.Loops)
        if (L.Span.BeginOffset == Loop.BeginOffset)
          Id = L.Id;
      if (Id.empty())
        return M.SequentialLoops.clear(), M.AfterEachLoop.clear();
      M.SequentialLoops.push_back(Id);
      size_t From = At[N] + 1;
      size_t To = N + 1 < At.size() ? At[N + 1] : Work.size();
      SourceSpan After;
      if (From < To) {
        After = stmtSpan(Work[From]);
        SourceSpan Last = stmtSpan(Work[To - 1]);
        After.EndOffset = Last.EndOffset;
        After.End = Last.End;
      } else {
        After.BeginOffset = After.EndOffset = Loop.EndOffset;
      }
      M.AfterEachLoop.push_back(After);
    }
  }

  void findReduction(const std::vector<const Stmt *> &Work) {
    findSequentialLoops(Work);
    size_t LoopAt = Work.size();
    for (size_t I = 0; I < Work.size(); ++I)
      if (isa<ForStmt>(Work[I])) {
        if (LoopAt != Work.size())
          return; // two loops: not one reduction
        LoopAt = I;
      }
    if (LoopAt == Work.size())
      return;
    ReductionLoopInfo R;
    const auto *For = cast<ForStmt>(Work[LoopAt]);
    R.Span = stmtSpan(For);
    R.Body = stmtSpan(For->getBody());
    for (const LoopInfo &L : Info.Loops)
      if (L.Span.BeginOffset == R.Span.BeginOffset)
        R.Loop = L.Id;
    if (For->getBeginLoc().isMacroID() ||
        For->getBody()->getBeginLoc().isMacroID())
      R.Refusal = "the loop is written with a macro";
    auto Refuse = [&](const std::string &Why) {
      if (R.Refusal.empty())
        R.Refusal = Why;
    };
    for (size_t I = 0; I < LoopAt; ++I)
      R.BeforeStatements.push_back(stmtSpan(Work[I]));
    for (size_t I = 0; I < LoopAt; ++I) {
      const auto *DS = dyn_cast<DeclStmt>(Work[I]);
      if (!DS) {
        // `c[i * n + j] *= beta;`: run once per output before the loop; it
        // may write locals and elements, which the transform must show are
        // the element the loop adds to.
        if (!isa<Expr>(Work[I])) {
          Refuse("only declarations and expression statements may come "
                 "before the loop; " +
                 Text.location(Work[I]->getBeginLoc()) + " is neither");
          continue;
        }
        LoopBodyChecker C(Text, {}, /*RecordElementWrites=*/true);
        C.TraverseStmt(const_cast<Stmt *>(Work[I]));
        if (!C.Refusal.empty())
          Refuse("before the loop: " + C.Refusal);
        R.BeforeEffects.push_back(stmtSpan(Work[I]));
        llvm::append_range(R.BeforeElementWrites, C.ElementWrites);
        continue;
      }
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || V->getType()->isArrayType() ||
            V->getType()->isReferenceType() || V->isStaticLocal() ||
            V->getType().isConstQualified()) {
          Refuse("only declarations of non-const scalars may come before the "
                 "loop; " +
                 Text.location(D->getBeginLoc()) + " is not one");
          continue;
        }
        LocalDeclInfo L{V->getNameAsString(), V->getType().getAsString(),
                        V->getInit() ? Text.text(V->getInit()) : "",
                        stmtSpan(DS)};
        L.Pure = !V->getInit() || isPure(V->getInit());
        R.Before.push_back(std::move(L));
      }
    }
    if (LoopAt + 1 < Work.size()) {
      R.After = stmtSpan(Work[LoopAt + 1]);
      R.After.EndOffset = stmtSpan(Work.back()).EndOffset;
      R.After.End = stmtSpan(Work.back()).End;
    } else {
      R.After.BeginOffset = R.After.EndOffset = R.Span.EndOffset;
    }

    if (std::optional<CanonicalFor> C = canonicalFor(For, Text.context())) {
      R.Var = C->Var->getNameAsString();
      R.VarType = C->Var->getType().getAsString();
      R.Begin = Text.text(C->Begin);
      R.End = exclusiveEndText(*C, Text.text(C->End));
      if (C->DeclaredOutside) {
        if (const DeclRefExpr *Read =
                readOutsideItsLoops(C->Var, KernelBody, For))
          Refuse("'" + R.Var + "' is read at " +
                 Text.location(Read->getBeginLoc()) +
                 ", outside the loops that assign it, and a rewritten loop "
                 "counts with a variable of its own");
        // Declared before the loop (`int k;`), it is the loop's counter,
        // not a value the work carries into the loop: the rewritten loop
        // declares its own.
        llvm::erase_if(R.Before,
                       [&](const LocalDeclInfo &D) { return D.Name == R.Var; });
      }
      DenseSet<const VarDecl *> Mod = modifiedVariables(For->getBody());
      if (Mod.count(C->Var))
        Refuse("the loop variable is modified in the body");
      if (!isPure(C->End))
        Refuse("the loop bound reads memory or calls a function");
    } else {
      Refuse("the loop does not count up by one from a start to a bound it "
             "compares with <, <=, > or >=");
    }
    // The body may add to the loop's accumulated element, which a
    // transform keeps in a register across the loop.
    std::set<unsigned> Sites;
    for (const LoopInfo &L : Info.Loops)
      if (L.Id == R.Loop) {
        R.Element = L.AccumulatedElement;
        for (const SourceSpan &S : L.AccumulatedSites)
          Sites.insert(S.BeginOffset);
      }
    LoopBodyChecker C(Text, Sites);
    C.TraverseStmt(const_cast<Stmt *>(For->getBody()));
    Refuse(C.Refusal);
    M.Reduction = std::move(R);
  }

  const SourceText &Text;
  KernelInfo &Info;
  ThreadMapping &M;
  const Stmt *KernelBody = nullptr;
};

} // namespace

namespace {

/// `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else` lines inside the kernel's
/// body: the AST holds only the branch this parse took.
std::vector<std::string> bodyConditionals(const FunctionDecl *Kernel,
                                          const SourceText &Text,
                                          const KernelInfo &Info) {
  std::vector<std::string> Out;
  StringRef Buf = Text.programSource();
  unsigned B = Info.BodySpan.BeginOffset, E = Info.BodySpan.EndOffset;
  if (E <= B || E > Buf.size())
    return Out;
  for (size_t At = B; At < E;) {
    size_t Eol = Buf.find('\n', At);
    StringRef Line = Buf.slice(At, std::min<size_t>(Eol, E)).ltrim();
    if (Line.consume_front("#")) {
      Line = Line.ltrim();
      for (StringRef D : {"ifdef", "ifndef", "if", "elif", "else"})
        if (Line.starts_with(D)) {
          Out.push_back("#" + D.str() + " at " + Text.locationAt(At));
          break;
        }
    }
    if (Eol == StringRef::npos)
      break;
    At = Eol + 1;
  }
  return Out;
}

} // namespace

std::optional<ThreadMapping::BoundForm> boundFormOf(const AffineExpr &F) {
  if (F.hasVariables())
    return std::nullopt;
  ThreadMapping::BoundForm Form;
  for (const auto &[Mono, Coef] : F.constantPart().terms()) {
    if (Mono.empty())
      Form.Offset += Coef;
    else if (Mono.size() == 1 && Coef == 1 && Form.Symbol.empty())
      Form.Symbol = Mono.front();
    else
      return std::nullopt;
  }
  return Form;
}

void analyzeThreadMapping(const FunctionDecl *Kernel, const SourceText &Text,
                          KernelInfo &Info) {
  Info.Mapping = ThreadMapping();
  Info.Mapping.Conditionals = bodyConditionals(Kernel, Text, Info);
  MappingBuilder(Text, Info).build(Kernel);
}

} // namespace cro
