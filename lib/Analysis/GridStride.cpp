#include "cro/Analysis/GridStride.h"
#include "cro/Analysis/AffineBuilder.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include <map>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

/// The builtins whose value depends on where a thread sits in the grid along
/// one dimension. blockDim is not among them: it does not change when the
/// grid does.
bool isGridBuiltin(StringRef Name, StringRef Dim) {
  auto [Base, D] = Name.split('.');
  return D == Dim &&
         (Base == "threadIdx" || Base == "blockIdx" || Base == "gridDim");
}

/// True when a function called from the kernel reads a grid builtin of Dim,
/// in its body or in the functions it calls.
bool calleeReadsGrid(const FunctionDecl *FD, StringRef Dim,
                     DenseSet<const FunctionDecl *> &Seen, unsigned Depth);

bool stmtReadsGrid(const Stmt *S, StringRef Dim,
                   DenseSet<const FunctionDecl *> &Seen, unsigned Depth) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<std::string> B = cudaBuiltinName(E);
        B && isGridBuiltin(*B, Dim))
      return true;
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (calleeReadsGrid(C->getDirectCallee(), Dim, Seen, Depth))
      return true;
  for (const Stmt *Child : S->children())
    if (stmtReadsGrid(Child, Dim, Seen, Depth))
      return true;
  return false;
}

bool calleeReadsGrid(const FunctionDecl *FD, StringRef Dim,
                     DenseSet<const FunctionDecl *> &Seen, unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def))
    return false;
  if (Depth >= 8)
    return true; // too deep to tell: assume it does
  if (!Seen.insert(Def).second)
    return false;
  return stmtReadsGrid(Def->getBody(), Dim, Seen, Depth + 1);
}

const VarDecl *localVar(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(stripCasts(E)))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// One loop `for (v = start; v < bound; v += blockDim.d * gridDim.d)` whose
/// start is blockIdx.d * blockDim.d + threadIdx.d plus values the same for
/// every thread along d.
struct StrideLoop {
  const ForStmt *For = nullptr;
  const VarDecl *Var = nullptr;
  const Expr *Start = nullptr, *Bound = nullptr, *Step = nullptr;
  std::string Dim;
};

std::optional<StrideLoop> matchStrideLoop(const ForStmt *For,
                                          AffineBuilder &Affine) {
  StrideLoop L;
  L.For = For;
  // The start: `T v = e` or `v = e`.
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    if (!DS->isSingleDecl())
      return std::nullopt;
    L.Var = dyn_cast<VarDecl>(DS->getSingleDecl());
    L.Start = L.Var ? L.Var->getInit() : nullptr;
  } else if (const auto *BO =
                 dyn_cast_or_null<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    L.Var = localVar(BO->getLHS());
    L.Start = BO->getRHS();
  }
  if (!L.Var || !L.Start || !L.Var->getType()->isIntegerType())
    return std::nullopt;
  // The bound: `v < e`, `v <= e`, `e > v`, `e >= v`.
  const auto *Cond =
      dyn_cast_or_null<BinaryOperator>(For->getCond()
                                           ? For->getCond()->IgnoreParenImpCasts()
                                           : nullptr);
  if (!Cond)
    return std::nullopt;
  if ((Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_LE) &&
      localVar(Cond->getLHS()) == L.Var)
    L.Bound = Cond->getRHS();
  else if ((Cond->getOpcode() == BO_GT || Cond->getOpcode() == BO_GE) &&
           localVar(Cond->getRHS()) == L.Var)
    L.Bound = Cond->getLHS();
  if (!L.Bound)
    return std::nullopt;
  // The step: `v += s` or `v = v + s`.
  const auto *Inc = dyn_cast_or_null<BinaryOperator>(
      For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr);
  if (!Inc || localVar(Inc->getLHS()) != L.Var)
    return std::nullopt;
  if (Inc->getOpcode() == BO_AddAssign) {
    L.Step = Inc->getRHS();
  } else if (Inc->getOpcode() == BO_Assign) {
    const auto *Sum =
        dyn_cast<BinaryOperator>(Inc->getRHS()->IgnoreParenImpCasts());
    if (Sum && Sum->getOpcode() == BO_Add) {
      if (localVar(Sum->getLHS()) == L.Var)
        L.Step = Sum->getRHS();
      else if (localVar(Sum->getRHS()) == L.Var)
        L.Step = Sum->getLHS();
    }
  }
  if (!L.Step)
    return std::nullopt;
  std::optional<AffineExpr> Start = Affine.build(L.Start).Form;
  std::optional<AffineExpr> Step = Affine.build(L.Step).Form;
  if (!Start || !Step || Step->hasVariables())
    return std::nullopt;
  for (StringRef D : {"x", "y", "z"}) {
    std::string Idx = "threadIdx." + D.str(), Blk = "blockIdx." + D.str();
    SymPoly Extent = SymPoly::symbol("blockDim." + D.str());
    if (!(Start->coefficient(Idx) == SymPoly::constant(1)) ||
        !(Start->coefficient(Blk) == Extent) ||
        !(Step->constantPart() ==
          Extent * SymPoly::symbol("gridDim." + D.str())))
      continue;
    // What else the start adds must be the same for every thread along D.
    bool Uniform = true;
    for (const auto &[Mono, Coef] : Start->constantPart().terms())
      for (const std::string &Sym : Mono)
        Uniform &= !isGridBuiltin(Sym, D);
    for (const auto &[Var, Coef] : Start->coefficients()) {
      Uniform &= Var == Idx || Var == Blk || !isGridBuiltin(Var, D);
      for (const auto &[Mono, C] : Coef.terms())
        for (const std::string &Sym : Mono)
          Uniform &= !isGridBuiltin(Sym, D);
    }
    if (!Uniform)
      continue;
    L.Dim = D.str();
    return L;
  }
  return std::nullopt;
}

/// True when S leaves the loop it is the body of: a return, a goto, or a
/// break that is not inside a nested loop or switch.
bool leavesLoop(const Stmt *S, bool Nested) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (isa<BreakStmt>(S))
    return !Nested;
  bool Inner = Nested || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
               isa<DoStmt>(S) || isa<SwitchStmt>(S) || isa<CXXForRangeStmt>(S);
  for (const Stmt *Child : S->children())
    if (leavesLoop(Child, Inner))
      return true;
  return false;
}

/// The first read of memory or call in E ("" when there is none): a bound
/// that reads memory may change while the loop runs.
const Stmt *memoryRead(const Stmt *S) {
  if (!S)
    return nullptr;
  if (isa<ArraySubscriptExpr>(S) || isa<CallExpr>(S))
    return S;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_Deref)
    return S;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    return S;
  for (const Stmt *Child : S->children())
    if (const Stmt *R = memoryRead(Child))
      return R;
  return nullptr;
}

bool within(const SourceSpan &Inner, const SourceSpan &Outer) {
  return Inner.BeginOffset >= Outer.BeginOffset &&
         Inner.EndOffset <= Outer.EndOffset;
}

/// Everything the kernel body does outside the given loops' bodies: writes
/// to anything but its own locals, calls, inline assembly. Those run once
/// per thread, and a grid with fewer blocks has fewer threads.
class OutsideEffects : public RecursiveASTVisitor<OutsideEffects> {
public:
  OutsideEffects(const SourceText &Text, DenseSet<const Stmt *> LoopBodies,
                 std::vector<SourceSpan> Allowed)
      : Text(Text), LoopBodies(std::move(LoopBodies)),
        Allowed(std::move(Allowed)) {}
  std::string Found;

  bool TraverseStmt(Stmt *S) {
    if (!S || !Found.empty() || LoopBodies.count(S))
      return true;
    return RecursiveASTVisitor::TraverseStmt(S);
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  /// threadIdx.x and friends are calls of builtin getters underneath.
  bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
    return cudaBuiltinName(E) ? true
                              : RecursiveASTVisitor::TraversePseudoObjectExpr(E);
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      checkTarget(BO->getLHS(), BO);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      checkTarget(UO->getSubExpr(), UO);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    SourceSpan S = Text.span(C->getSourceRange());
    for (const SourceSpan &A : Allowed)
      if (within(S, A))
        return true; // an index helper in a loop's start or step
    if (C->getBuiltinCallee() || isa<CXXOperatorCallExpr>(C))
      return true;
    const FunctionDecl *FD = C->getDirectCallee();
    Found = "the kernel calls '" +
            (FD ? FD->getNameAsString() : Text.text(C->getCallee())) +
            "' at " + Text.location(C->getBeginLoc()) +
            " outside its grid-stride loops, once per thread of the grid";
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *A) {
    Found = "the kernel runs inline assembly at " +
            Text.location(A->getBeginLoc()) +
            " outside its grid-stride loops, once per thread of the grid";
    return true;
  }

private:
  void checkTarget(const Expr *Target, const Expr *Op) {
    const VarDecl *V = localVar(Target);
    if (V && V->hasLocalStorage() && !V->getType()->isReferenceType())
      return;
    if (Found.empty())
      Found = "the kernel writes '" + Text.text(Target) + "' at " +
              Text.location(Op->getBeginLoc()) +
              " outside its grid-stride loops, once per thread of the grid";
  }

  const SourceText &Text;
  DenseSet<const Stmt *> LoopBodies;
  std::vector<SourceSpan> Allowed;
};

/// Every read of a variable in the kernel body, and every read of a grid
/// builtin (or call of a function that reads one) of one dimension.
class ReadCollector : public RecursiveASTVisitor<ReadCollector> {
public:
  ReadCollector(const SourceText &Text, StringRef Dim) : Text(Text), Dim(Dim) {}
  std::map<const VarDecl *, std::vector<SourceSpan>> VarReads;
  std::vector<std::pair<SourceSpan, std::string>> GridReads;

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      VarReads[V].push_back(Text.span(E->getSourceRange()));
    return true;
  }
  bool VisitPseudoObjectExpr(PseudoObjectExpr *E) {
    if (std::optional<std::string> B = cudaBuiltinName(E);
        B && isGridBuiltin(*B, Dim))
      GridReads.push_back({Text.span(E->getSourceRange()),
                           *B + " at " + Text.location(E->getBeginLoc())});
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    DenseSet<const FunctionDecl *> Seen;
    if (calleeReadsGrid(C->getDirectCallee(), Dim, Seen, 0))
      GridReads.push_back(
          {Text.span(C->getSourceRange()),
           "'" + C->getDirectCallee()->getNameAsString() + "' (which reads " +
               "the grid position along " + Dim.str() + ") at " +
               Text.location(C->getBeginLoc())});
    return true;
  }

private:
  const SourceText &Text;
  StringRef Dim;
};

class ForCollector : public RecursiveASTVisitor<ForCollector> {
public:
  std::vector<const ForStmt *> Fors;
  bool VisitForStmt(ForStmt *F) {
    Fors.push_back(F);
    return true;
  }
};

class GridStrideAnalysis {
public:
  GridStrideAnalysis(const SourceText &Text, KernelInfo &Info,
                     const FunctionDecl *Kernel)
      : Text(Text), Info(Info), Kernel(Kernel),
        Body(Kernel->getBody()), Affine(Text, Kernel) {}

  void run() {
    ForCollector FC;
    FC.TraverseStmt(const_cast<Stmt *>(Body));
    std::map<std::string, std::vector<StrideLoop>> ByDim;
    for (const ForStmt *F : FC.Fors)
      if (std::optional<StrideLoop> L = matchStrideLoop(F, Affine)) {
        ByDim[L->Dim].push_back(*L);
        SourceSpan S = Text.span(F->getSourceRange());
        for (const LoopInfo &LI : Info.Loops)
          if (LI.Span.BeginOffset == S.BeginOffset)
            Info.GridStride.Loops.push_back(LI.Id);
      }
    for (const auto &[Dim, Loops] : ByDim) {
      std::string Why = obstacle(Dim, Loops);
      if (Why.empty())
        Info.GridStride.FreeDims.push_back(Dim);
      else if (Info.GridStride.Reason.empty())
        Info.GridStride.Reason = Why;
    }
  }

private:
  /// Why the grid's extent along Dim matters to the kernel ("" when it
  /// does not).
  std::string obstacle(StringRef Dim, const std::vector<StrideLoop> &Loops) {
    if (Info.UsesSyncthreads || !Info.SharedArrays.empty())
      return "threads of a block share data through shared memory, and a "
             "block's share of the grid-stride loop depends on the grid";
    if (Info.UsesWarpIntrinsics)
      return "threads exchange values with warp intrinsics, and which "
             "indices a warp holds depends on the grid";
    DenseSet<const VarDecl *> ModifiedAnywhere = modifiedVariables(Body);
    std::vector<SourceSpan> Allowed;
    DenseSet<const Stmt *> LoopBodies;
    for (const StrideLoop &L : Loops) {
      const Stmt *LoopBody = L.For->getBody();
      std::string Where = Text.location(L.For->getBeginLoc());
      if (leavesLoop(LoopBody, false))
        return "the grid-stride loop at " + Where +
               " may stop early, after a number of indices that depends on "
               "the grid";
      SourceSpan BodySpan = Text.span(LoopBody->getSourceRange());
      for (const VarDecl *V : modifiedVariables(LoopBody)) {
        if (V == L.Var)
          return "the grid-stride loop at " + Where + " changes its index '" +
                 V->getNameAsString() + "' in its body";
        if (within(Text.span(V->getSourceRange()), BodySpan))
          continue; // a fresh local per index
        return "the grid-stride loop at " + Where + " carries '" +
               V->getNameAsString() +
               "' from one index to the next, and which indices one thread "
               "takes depends on the grid";
      }
      if (const Stmt *R = memoryRead(L.Bound))
        return "the bound of the grid-stride loop at " + Where + " reads '" +
               Text.text(R) + "', which its body may change";
      DenseSet<const FunctionDecl *> Seen;
      if (stmtReadsGrid(L.Bound, Dim, Seen, 0))
        return "the bound of the grid-stride loop at " + Where +
               " depends on the thread's place in the grid";
      Allowed.push_back(Text.span(L.Start->getSourceRange()));
      Allowed.push_back(Text.span(L.Step->getSourceRange()));
      LoopBodies.insert(LoopBody);
    }

    // Locals such as `int stride = blockDim.x * gridDim.x;` read only in
    // loop starts and steps are part of them.
    ReadCollector RC(Text, Dim);
    RC.TraverseStmt(const_cast<Stmt *>(Body));
    DenseSet<const VarDecl *> IndexOnly;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const auto &[V, Reads] : RC.VarReads) {
        if (IndexOnly.count(V) || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
            !V->getInit() || ModifiedAnywhere.count(V))
          continue;
        bool OnlyThere = true;
        for (const SourceSpan &R : Reads) {
          bool In = false;
          for (const SourceSpan &A : Allowed)
            In |= within(R, A);
          OnlyThere &= In;
        }
        if (!OnlyThere)
          continue;
        IndexOnly.insert(V);
        Allowed.push_back(Text.span(V->getInit()->getSourceRange()));
        Changed = true;
      }
    }
    for (const auto &[Span, What] : RC.GridReads) {
      bool In = false;
      for (const SourceSpan &A : Allowed)
        In |= within(Span, A);
      if (!In)
        return "the kernel reads " + What +
               " outside the start and step of its grid-stride loops";
    }

    OutsideEffects OE(Text, LoopBodies, Allowed);
    OE.TraverseStmt(const_cast<Stmt *>(Body));
    return OE.Found;
  }

  const SourceText &Text;
  KernelInfo &Info;
  const FunctionDecl *Kernel;
  const Stmt *Body;
  AffineBuilder Affine;
};

} // namespace

void analyzeGridStride(const FunctionDecl *Kernel, const SourceText &Text,
                       KernelInfo &Info) {
  Info.GridStride = GridStrideInfo();
  if (!Kernel->getBody())
    return;
  GridStrideAnalysis(Text, Info, Kernel).run();
}

} // namespace cro
