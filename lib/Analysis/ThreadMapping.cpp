#include "cro/Analysis/ThreadMapping.h"
#include "cro/Analysis/StmtQueries.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <set>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

/// "x" when E is blockIdx.x * blockDim.x + threadIdx.x in any order.
std::optional<std::string> threadIndexDim(const Expr *E) {
  const auto *Add = dyn_cast<BinaryOperator>(stripCasts(E));
  if (!Add || Add->getOpcode() != BO_Add)
    return std::nullopt;
  for (auto [T, M] : {std::pair(Add->getLHS(), Add->getRHS()),
                      std::pair(Add->getRHS(), Add->getLHS())}) {
    std::optional<std::string> Tid = cudaBuiltinName(stripCasts(T));
    const auto *Mul = dyn_cast<BinaryOperator>(stripCasts(M));
    if (!Tid || !StringRef(*Tid).starts_with("threadIdx.") || !Mul ||
        Mul->getOpcode() != BO_Mul)
      continue;
    std::string D = Tid->substr(10);
    std::optional<std::string> A = cudaBuiltinName(stripCasts(Mul->getLHS()));
    std::optional<std::string> B = cudaBuiltinName(stripCasts(Mul->getRHS()));
    if (A && B &&
        ((*A == "blockIdx." + D && *B == "blockDim." + D) ||
         (*B == "blockIdx." + D && *A == "blockDim." + D)))
      return D;
  }
  return std::nullopt;
}

bool isReturnOnly(const Stmt *S) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return CS->size() == 1 && isReturnOnly(CS->body_front());
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    return !R->getRetValue();
  return false;
}

/// Why a reduction loop's body cannot be run per output inside other loops
/// and between barriers: it leaves early, synchronizes, or writes memory.
class LoopBodyChecker : public NestCountingVisitor<LoopBodyChecker> {
public:
  explicit LoopBodyChecker(const SourceText &Text) : Text(Text) {}
  std::string Refusal;

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
    return fail(S, "the loop body writes memory ('" + Text.text(LHS) + "')");
  }
  bool fail(const Stmt *S, const std::string &Why) {
    Refusal = Why + " at " + Text.location(S->getBeginLoc());
    return false;
  }
  const SourceText &Text;
};

class ReturnFinder : public NestCountingVisitor<ReturnFinder> {
public:
  ReturnFinder(const SourceText &Text,
               const std::function<SourceSpan(const Stmt *)> &Span)
      : Text(Text), Span(Span) {}
  std::vector<ThreadMapping::Return> Returns;
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

class MappingBuilder {
public:
  MappingBuilder(const SourceText &Text, KernelInfo &Info)
      : Text(Text), Info(Info), M(Info.Mapping) {}

  void build(const FunctionDecl *Kernel) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
    if (!Body || Body->body_empty())
      return refuse("the kernel has no body");
    if (Body->getBeginLoc().isMacroID())
      return refuse("the kernel is written inside a macro");
    DenseSet<const VarDecl *> Modified = modifiedVariables(Body);

    std::vector<const Stmt *> Rest;
    bool InPrefix = true;
    for (const Stmt *S : Body->body()) {
      if (InPrefix)
        if (const auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl())
          if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
              V && V->getInit() && V->getType()->isIntegerType())
            if (std::optional<std::string> D = threadIndexDim(V->getInit())) {
              if (Modified.count(V))
                return refuse("the thread index '" + V->getNameAsString() +
                              "' is modified after its declaration");
              if (M.indexVar(*D))
                return refuse("two thread index variables for dimension " + *D);
              M.IndexVars.push_back({V->getNameAsString(),
                                     V->getType().getAsString(), *D,
                                     stmtSpan(S)});
              continue;
            }
      InPrefix = false;
      Rest.push_back(S);
    }
    if (M.IndexVars.empty())
      return refuse("the kernel does not start by computing its thread index "
                    "(`int i = blockIdx.x * blockDim.x + threadIdx.x;`)");
    if (Rest.empty())
      return refuse("the kernel has no work after its thread index");

    std::vector<const Stmt *> Work = Rest;
    M.GuardKind = "none";
    if (const auto *If = dyn_cast<IfStmt>(Rest.front());
        If && !If->getElse() && !If->getInit() && !If->getConditionVariable()) {
      if (isReturnOnly(If->getThen())) {
        M.GuardKind = "early-return";
        M.GuardCondition = "!(" + Text.text(If->getCond()) + ")";
        Work.erase(Work.begin());
      } else if (Rest.size() == 1) {
        M.GuardKind = "wrap";
        M.GuardCondition = Text.text(If->getCond());
        Work.clear();
        if (const auto *CS = dyn_cast<CompoundStmt>(If->getThen()))
          Work.assign(CS->body_begin(), CS->body_end());
        else
          Work.push_back(If->getThen());
      }
      if (M.GuardKind != "none") {
        M.Guard = stmtSpan(If);
        M.GuardIsBox = true;
        collectBounds(If->getCond(), M.GuardKind == "early-return");
      }
    }
    if (Work.empty())
      return refuse("the guarded work is empty");
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
    for (auto &[Offset, What] : BF.Uses) {
      bool InDecl = false;
      for (const ThreadIndexVar &V : M.IndexVars)
        InDecl |= Offset >= V.Decl.BeginOffset && Offset < V.Decl.EndOffset;
      if (!InDecl)
        M.StrayBuiltins.push_back(What);
    }

    int Budget = 4096;
    std::set<std::string> Must = mustAccesses(Text, Work, 0, Budget);
    if (Budget >= 0)
      M.MustAccesses.assign(Must.begin(), Must.end());

    findReduction(Work);
  }

private:
  void refuse(const std::string &Why) {
    M = ThreadMapping();
    M.Reason = Why;
  }

  /// `x < n && ...` (or, negated for an early return, `x >= n || ...`).
  void collectBounds(const Expr *E, bool Negated) {
    const auto *B = dyn_cast<BinaryOperator>(stripCasts(E));
    M.GuardIsBox &= B != nullptr;
    if (!B)
      return;
    if (B->getOpcode() == (Negated ? BO_LOr : BO_LAnd)) {
      collectBounds(B->getLHS(), Negated);
      collectBounds(B->getRHS(), Negated);
      return;
    }
    BinaryOperatorKind Op = B->getOpcode();
    const Expr *VarSide = B->getLHS(), *BoundSide = B->getRHS();
    if (Negated ? Op == BO_LE : Op == BO_GT) {
      std::swap(VarSide, BoundSide); // n > x, n <= x
      Op = Negated ? BO_GE : BO_LT;
    }
    const VarDecl *V = referencedVar(VarSide);
    bool Known = false;
    if (V && Op == (Negated ? BO_GE : BO_LT) && isPure(BoundSide))
      for (const ThreadIndexVar &T : M.IndexVars)
        if (T.Name == V->getNameAsString() && !M.UpperBounds.count(T.Name)) {
          M.UpperBounds[T.Name] = Text.text(BoundSide);
          Known = true;
        }
    M.GuardIsBox &= Known;
  }

  SourceSpan stmtSpan(const Stmt *S) { return Text.statementSpan(S); }

  void findReduction(const std::vector<const Stmt *> &Work) {
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
    for (size_t I = 0; I < LoopAt; ++I) {
      const auto *DS = dyn_cast<DeclStmt>(Work[I]);
      if (!DS) {
        Refuse("only declarations may come before the loop; " +
               Text.location(Work[I]->getBeginLoc()) + " is not one");
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
      R.End = Text.text(C->End);
      DenseSet<const VarDecl *> Mod = modifiedVariables(For->getBody());
      if (Mod.count(C->Var))
        Refuse("the loop variable is modified in the body");
      if (!isPure(C->End))
        Refuse("the loop bound reads memory or calls a function");
    } else {
      Refuse("the loop is not `for (int k = begin; k < end; ++k)`");
    }
    LoopBodyChecker C(Text);
    C.TraverseStmt(const_cast<Stmt *>(For->getBody()));
    Refuse(C.Refusal);
    M.Reduction = std::move(R);
  }

  const SourceText &Text;
  KernelInfo &Info;
  ThreadMapping &M;
};

} // namespace

void analyzeThreadMapping(const FunctionDecl *Kernel, const SourceText &Text,
                          KernelInfo &Info) {
  Info.Mapping = ThreadMapping();
  if (!Text.inMainFile(Kernel->getLocation())) {
    Info.Mapping.Reason = "the kernel is defined outside the input file";
    return;
  }
  MappingBuilder(Text, Info).build(Kernel);
}

} // namespace cro
