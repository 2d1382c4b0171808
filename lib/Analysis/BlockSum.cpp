#include "cro/Analysis/BlockSum.h"
#include "cro/Analysis/StmtQueries.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

const CallExpr *callNamed(const Stmt *S, StringRef Name) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  const auto *C = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    C = dyn_cast<CallExpr>(EWC->getSubExpr()->IgnoreParenImpCasts());
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  return FD && FD->getName() == Name ? C : nullptr;
}

const VarDecl *sharedArray(const Expr *E) {
  const VarDecl *V = referencedVar(E);
  return V && V->hasAttr<CUDASharedAttr>() ? V : nullptr;
}

/// Whether evaluating E again changes nothing: no assignment or increment,
/// no call other than the builtin variables' accessors and the toolkit's
/// functions (math, `__ldg`); atomics are counted separately.
bool changesNothing(const Expr *E, const SourceText &Text) {
  if (!E)
    return true;
  if (isa<PseudoObjectExpr>(E->IgnoreParens()))
    return cudaBuiltinName(E->IgnoreParens()).has_value();
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    return false;
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->isIncrementDecrementOp())
    return false;
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD ||
        !Text.context().getSourceManager().isInSystemHeader(FD->getLocation()))
      return false;
  }
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (!changesNothing(CE, Text))
        return false;
  return true;
}

/// Decides whether expressions have the same value in every block for a
/// given thread: they read no memory, call nothing, read neither blockIdx
/// nor gridDim, and read only unchanged parameters, constants and the
/// locals in Locals (themselves such values).
class BlockInvariance {
public:
  BlockInvariance(const Stmt *Body) : Modified(modifiedVariables(Body)) {}

  DenseSet<const VarDecl *> Locals;

  /// "" when E is such a value, else why not.
  std::string why(const Expr *E, const SourceText &Text) const {
    if (!E)
      return "";
    E = E->IgnoreParens();
    if (isa<PseudoObjectExpr>(E)) {
      std::optional<std::string> B = cudaBuiltinName(E);
      if (!B)
        return "'" + Text.text(E) + "' calls a property accessor";
      if (StringRef(*B).starts_with("blockIdx") ||
          StringRef(*B).starts_with("gridDim"))
        return "'" + Text.text(E) + "' at " + Text.location(E->getBeginLoc()) +
               " depends on the block";
      return "";
    }
    // `&p[i]` computes an address: it reads no memory.
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->getOpcode() == UO_AddrOf)
      if (const auto *A =
              dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens())) {
        std::string W = why(A->getBase(), Text);
        return W.empty() ? why(A->getIdx(), Text) : W;
      }
    if (isa<CallExpr>(E) || isa<ArraySubscriptExpr>(E))
      return "'" + Text.text(E) + "' at " + Text.location(E->getBeginLoc()) +
             " reads memory or calls a function";
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && (U->getOpcode() == UO_Deref || U->isIncrementDecrementOp()))
      return "'" + Text.text(E) + "' at " + Text.location(E->getBeginLoc()) +
             " reads memory or changes a variable";
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
      return "'" + Text.text(E) + "' at " + Text.location(E->getBeginLoc()) +
             " changes a variable";
    if (const auto *M = dyn_cast<MemberExpr>(E); M && M->isArrow())
      return "'" + Text.text(E) + "' reads memory";
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
        if (V->getType()->isReferenceType() || V->hasAttr<CUDASharedAttr>() ||
            V->hasAttr<CUDADeviceAttr>())
          return "'" + V->getNameAsString() + "' at " +
                 Text.location(E->getBeginLoc()) + " is memory";
        if (isa<ParmVarDecl>(V) ? Modified.contains(V)
            : V->hasLocalStorage()
                ? !Locals.contains(V)
                : !V->getType().isConstQualified() && !V->isConstexpr())
          return "'" + V->getNameAsString() + "' at " +
                 Text.location(E->getBeginLoc()) +
                 " may differ from one block to the next";
      }
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        if (std::string W = why(CE, Text); !W.empty())
          return W;
    return "";
  }

  DenseSet<const VarDecl *> Modified;
};

/// Walks the statements after the contribution: they may only add slots of
/// the shared array together, under conditions and loops whose values are
/// the same in every block, and add one slot to the total.
class CombineCheck {
public:
  CombineCheck(const SourceText &Text, BlockInvariance &Inv,
               const VarDecl *Slot)
      : Text(Text), Inv(Inv), Slot(Slot) {}

  const CallExpr *Atomic = nullptr;
  std::string Why;

  bool statement(const Stmt *S) {
    if (!S || isa<NullStmt>(S))
      return true;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        if (!statement(C))
          return false;
      return true;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || !V->hasLocalStorage() || !V->getType()->isIntegerType())
          return fail(S, "declares something other than an integer local");
        if (!invariant(V->getInit()))
          return false;
        Inv.Locals.insert(V);
      }
      return true;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit() || If->getConditionVariable())
        return fail(S, "declares a variable in its condition");
      return invariant(If->getCond()) && statement(If->getThen()) &&
             statement(If->getElse());
    }
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      if (!statement(For->getInit()))
        return false;
      if (For->getConditionVariable())
        return fail(S, "declares a variable in its condition");
      return invariant(For->getCond()) && counterUpdate(For->getInc()) &&
             statement(For->getBody());
    }
    if (const auto *While = dyn_cast<WhileStmt>(S)) {
      if (While->getConditionVariable())
        return fail(S, "declares a variable in its condition");
      return invariant(While->getCond()) && statement(While->getBody());
    }
    if (callNamed(S, "__syncthreads"))
      return true;
    if (const CallExpr *C = callNamed(S, "atomicAdd")) {
      if (Atomic)
        return fail(S, "adds to a total a second time");
      Atomic = C;
      if (C->getNumArgs() != 2 || !slotSum(C->getArg(1)))
        return fail(S, "adds something other than a sum of '" +
                           Slot->getNameAsString() + "' slots to the total");
      return true;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      E = E->IgnoreParenImpCasts();
      if (const auto *B = dyn_cast<BinaryOperator>(E);
          B &&
          (B->getOpcode() == BO_Assign || B->getOpcode() == BO_AddAssign) &&
          sharedArray(slotOf(B->getLHS())) == Slot)
        return slotSum(B->getLHS()) && slotSum(B->getRHS())
                   ? true
                   : fail(S, "stores something other than a sum of '" +
                                 Slot->getNameAsString() + "' slots");
      if (counterUpdate(E))
        return true;
    }
    return fail(S, "is not part of adding '" + Slot->getNameAsString() +
                       "' slots together");
  }

private:
  bool fail(const Stmt *S, const std::string &What) {
    Why = "the statement at " + Text.location(S->getBeginLoc()) + " " + What;
    return false;
  }

  bool invariant(const Expr *E) {
    if (std::string W = Inv.why(E, Text); !W.empty()) {
      Why = W;
      return false;
    }
    return true;
  }

  /// `v op= e`, `v = e`, `++v`: a local the combination declared, changed
  /// by a block-invariant value.
  bool counterUpdate(const Expr *E) {
    if (!E)
      return true;
    E = E->IgnoreParenImpCasts();
    const Expr *Target = nullptr, *Value = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
      Target = B->getLHS(), Value = B->getRHS();
    else if (const auto *U = dyn_cast<UnaryOperator>(E);
             U && U->isIncrementDecrementOp())
      Target = U->getSubExpr();
    const VarDecl *V = Target ? referencedVar(Target) : nullptr;
    if (!V || !Inv.Locals.contains(V)) {
      Why = "'" + Text.text(E) + "' at " + Text.location(E->getBeginLoc()) +
            " changes something other than a counter of the combination";
      return false;
    }
    return invariant(Value);
  }

  /// The array an element expression `a[i]` subscripts.
  static const Expr *slotOf(const Expr *E) {
    const auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
    return A ? A->getBase() : nullptr;
  }

  /// E is `Slot[i]` or a sum of such, each index block-invariant.
  bool slotSum(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(E);
        B && B->getOpcode() == BO_Add)
      return slotSum(B->getLHS()) && slotSum(B->getRHS());
    const auto *A = dyn_cast<ArraySubscriptExpr>(E);
    if (!A || sharedArray(A->getBase()) != Slot)
      return false;
    return invariant(A->getIdx());
  }

  const SourceText &Text;
  BlockInvariance &Inv;
  const VarDecl *Slot;
};

/// The one atomicAdd call of the body (nullptr when none or several).
const CallExpr *onlyAtomicAdd(const Stmt *Body, unsigned &Atomics) {
  const CallExpr *Found = nullptr;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *C = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = C->getDirectCallee();
          FD && FD->getName().starts_with("atomic")) {
        ++Atomics;
        if (FD->getName() == "atomicAdd")
          Found = C;
      }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  return Atomics == 1 ? Found : nullptr;
}

std::string analyze(const FunctionDecl *Kernel, const SourceText &Text,
                    KernelInfo &Info) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  if (!Body)
    return "the kernel has no body";
  BlockSumInfo &Out = Info.BlockSum;
  unsigned Atomics = 0;
  const CallExpr *Atomic = onlyAtomicAdd(Body, Atomics);
  if (!Atomic)
    return Atomics == 0   ? "the kernel adds nothing atomically to a total"
           : Atomics == 1 ? "the kernel's atomic update is not atomicAdd: "
                            "what it keeps is not a sum of the threads' "
                            "values"
                          : "the kernel makes " + std::to_string(Atomics) +
                                " atomic updates, not one sum";
  if (Info.Atomics.size() != 1 ||
      !Info.Atomics.front().LaunchUniformTargetWhy.empty())
    return "the atomicAdd does not update one element for the whole launch" +
           (Info.Atomics.size() == 1
                ? " (" + Info.Atomics.front().LaunchUniformTargetWhy + ")"
                : std::string());
  if (Info.Atomics.front().ResultUsed)
    return "the atomicAdd's old value is read";
  QualType Elem = Atomic->getArg(0)->getType()->getPointeeType();
  if (Elem.isNull() || !Elem->isArithmeticType())
    return "the total is not of an arithmetic type";
  for (const AccessInfo &A : Info.Accesses)
    if (A.Mode != "read" && A.Mode != "atomic" && A.Space != "shared" &&
        A.Space != "local")
      return "the kernel also writes '" + A.Base + "' at " + A.Location;
  if (Info.UsesWarpIntrinsics || !Info.AsmStatements.empty())
    return "the kernel exchanges values between lanes or holds inline "
           "assembly";
  if (!writtenAsIs(Atomic) || !writtenAsIs(Atomic->getArg(1)))
    return "the atomicAdd is written inside a macro";
  // The target is written again after the body: it may name parameters and
  // constants only.
  BlockInvariance Inv(Body);
  const Expr *Target = Atomic->getArg(0);
  if (std::string W = Inv.why(Target, Text); !W.empty())
    return "the atomicAdd's target cannot be written after the body: " + W;

  if (Info.SharedArrays.empty() && !Info.UsesSyncthreads) {
    // The contribution is the atomic's value.
    Out.Form = "atomic";
    Out.Statement = Text.span(Atomic->getSourceRange());
    Out.Value = Text.span(Atomic->getArg(1)->getSourceRange());
    Out.Type = Elem.getUnqualifiedType().getAsString();
    Out.Target = Text.text(Target);
    return "";
  }

  // `slot[threadIdx.x] = value;` after declarations, then the combination.
  auto It = Body->body_begin();
  for (; It != Body->body_end() && isa<DeclStmt>(*It); ++It) {
    bool Shared = false, Local = false;
    for (const Decl *D : cast<DeclStmt>(*It)->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (V && V->hasAttr<CUDASharedAttr>()) {
        Shared = true;
        continue;
      }
      if (!V || V->isStaticLocal() || !V->hasLocalStorage())
        return "a declaration before the thread's value is not a local "
               "variable";
      Local = true;
      if (Inv.Modified.contains(V))
        return "the kernel changes '" + V->getNameAsString() +
               "', declared before the thread's value";
      if (!changesNothing(V->getInit(), Text))
        return "the initializer of '" + V->getNameAsString() +
               "' has side effects";
      if (Inv.why(V->getInit(), Text).empty())
        Inv.Locals.insert(V);
    }
    if (Shared && Local)
      return "the declaration at " + Text.location((*It)->getBeginLoc()) +
             " declares shared memory and a local together";
    if (Local) {
      if (!(*It)->getBeginLoc().isFileID() || !(*It)->getEndLoc().isFileID())
        return "the declaration at " + Text.location((*It)->getBeginLoc()) +
               " is written inside a macro";
      Out.Prefix.push_back(Text.statementSpan(*It));
    }
  }
  if (It == Body->body_end())
    return "the body has no statement after its declarations";
  const auto *Store = dyn_cast<BinaryOperator>(*It);
  const auto *Elt =
      Store && Store->getOpcode() == BO_Assign
          ? dyn_cast<ArraySubscriptExpr>(Store->getLHS()->IgnoreParenImpCasts())
          : nullptr;
  const VarDecl *Slot = Elt ? sharedArray(Elt->getBase()) : nullptr;
  if (!Slot)
    return "the first statement after the declarations, at " +
           Text.location((*It)->getBeginLoc()) +
           ", does not store the thread's value in a shared array";
  const AccessInfo *At = accessAt(Info, Text.span(Elt->getSourceRange()));
  bool OwnSlot = At && At->Indices.size() == 1 && At->Indices[0].Affine &&
                 At->Indices[0].Form == AffineExpr::variable("threadIdx.x");
  if (!OwnSlot)
    return "the store at " + Text.location(Store->getBeginLoc()) +
           " is not to the thread's own slot (index threadIdx.x)";
  const Expr *Value = Store->getRHS();
  for (const VarDecl *V : referencedVars(Value))
    if (V->hasAttr<CUDASharedAttr>())
      return "the thread's value reads shared memory ('" +
             V->getNameAsString() + "')";
  if (!writtenAsIs(Store))
    return "the store of the thread's value is written inside a macro";
  QualType SlotElem =
      Slot->getType()->getAsArrayTypeUnsafe()
          ? Slot->getType()->getAsArrayTypeUnsafe()->getElementType()
          : QualType();
  if (SlotElem.isNull() || !SlotElem->isArithmeticType())
    return "the shared array's elements are not of an arithmetic type";
  CombineCheck Combine(Text, Inv, Slot);
  for (++It; It != Body->body_end(); ++It)
    if (!Combine.statement(*It))
      return "what follows the thread's value does not only add its "
             "slots: " +
             Combine.Why;
  if (Combine.Atomic != Atomic)
    return "the atomicAdd is not among the statements after the thread's "
           "value";
  Out.Form = "shared-slot";
  Out.Statement = Text.span(Store->getSourceRange());
  Out.Value = Text.span(Value->getSourceRange());
  Out.Type = SlotElem.getUnqualifiedType().getAsString();
  return "";
}

} // namespace

void analyzeBlockSum(const FunctionDecl *Kernel, const SourceText &Text,
                     KernelInfo &Info) {
  Info.BlockSum = BlockSumInfo();
  Info.BlockSum.Why = Kernel ? analyze(Kernel, Text, Info) : "no kernel";
  if (!Info.BlockSum.Why.empty()) {
    std::string Why = Info.BlockSum.Why;
    Info.BlockSum = BlockSumInfo();
    Info.BlockSum.Why = Why;
  }
}

} // namespace cro
