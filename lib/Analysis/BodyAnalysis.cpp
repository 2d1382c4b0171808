//===- BodyAnalysis.cpp - loops, memory accesses and couplings ------------===//
#include "cro/Analysis/BodyAnalysis.h"
#include "cro/Analysis/AffineBuilder.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <set>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

bool isWarpIntrinsic(StringRef Name) {
  return Name.starts_with("__shfl") || Name.starts_with("__ballot") ||
         Name == "__any_sync" || Name == "__all_sync" || Name == "__uni_sync" ||
         Name == "__activemask" || Name.starts_with("__match_") ||
         Name.starts_with("__reduce_") || Name == "__syncwarp" ||
         Name == "__any" || Name == "__all";
}

bool isBlockBarrier(StringRef Name) {
  return Name == "__syncthreads" || Name == "__syncthreads_count" ||
         Name == "__syncthreads_and" || Name == "__syncthreads_or" ||
         Name == "__barrier_sync";
}

/// What the threads of a block do together inside the functions a call
/// reaches (a `warp_sum()` helper with shuffles, a `block_barrier()`):
/// the same facts the kernel's own body gives, through definitions.
struct Communication {
  bool Barrier = false, Warp = false, Atomic = false;
};

void collectCommunication(const Stmt *S, Communication &C,
                          DenseSet<const FunctionDecl *> &Seen,
                          unsigned Depth) {
  if (!S)
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee()) {
      StringRef Name = FD->getName();
      C.Barrier |= isBlockBarrier(Name);
      C.Warp |= isWarpIntrinsic(Name);
      C.Atomic |= Name.starts_with("atomic");
      const FunctionDecl *Def = nullptr;
      if (Depth < 8 && FD->hasBody(Def) && Seen.insert(Def).second)
        collectCommunication(Def->getBody(), C, Seen, Depth + 1);
    }
  for (const Stmt *Child : S->children())
    collectCommunication(Child, C, Seen, Depth);
}

std::string calleeName(const CallExpr *C) {
  if (const FunctionDecl *FD = C->getDirectCallee())
    return FD->getNameAsString();
  if (const auto *ULE =
          dyn_cast<UnresolvedLookupExpr>(C->getCallee()->IgnoreImplicit()))
    return ULE->getName().getAsString();
  return "";
}

const char *compareSpelling(BinaryOperatorKind Op, bool Flip) {
  switch (Op) {
  case BO_LT:
    return Flip ? ">" : "<";
  case BO_LE:
    return Flip ? ">=" : "<=";
  case BO_GT:
    return Flip ? "<" : ">";
  case BO_GE:
    return Flip ? "<=" : ">=";
  case BO_NE:
    return "!=";
  default:
    return "";
  }
}

const VarDecl *refVar(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

class BodyAnalyzer : public RecursiveASTVisitor<BodyAnalyzer> {
  using Base = RecursiveASTVisitor<BodyAnalyzer>;

public:
  BodyAnalyzer(const FunctionDecl *Kernel, const SourceText &Text,
               KernelInfo &Info)
      : Kernel(Kernel), Text(Text), Info(Info), Affine(Text, Kernel) {}

  void run(const Stmt *Body) {
    TraverseStmt(const_cast<Stmt *>(Body));
    finish();
  }

  // --- loops ---------------------------------------------------------------
  bool TraverseAttributedStmt(AttributedStmt *S,
                              DataRecursionQueue * = nullptr) {
    for (const Attr *A : S->getAttrs())
      if (const auto *LH = dyn_cast<LoopHintAttr>(A))
        if (LH->getOption() == LoopHintAttr::Unroll ||
            LH->getOption() == LoopHintAttr::UnrollCount)
          UnrollHints[S->getSubStmt()] = LH;
    return Base::TraverseAttributedStmt(S);
  }
  // A loop may run its body zero times: everything in it may be skipped.
  bool TraverseForStmt(ForStmt *S, DataRecursionQueue * = nullptr) {
    LoopInfo &L = openLoop(S, "for");
    describeFor(S, L);
    bool R = skippable(S, [&] { return Base::TraverseForStmt(S); });
    closeLoop();
    return R;
  }
  bool TraverseWhileStmt(WhileStmt *S, DataRecursionQueue * = nullptr) {
    describeWhile(S, openLoop(S, "while"));
    bool R = skippable(S, [&] { return Base::TraverseWhileStmt(S); });
    closeLoop();
    return R;
  }
  bool TraverseDoStmt(DoStmt *S, DataRecursionQueue * = nullptr) {
    openLoop(S, "do");
    bool R = skippable(S, [&] { return Base::TraverseDoStmt(S); });
    closeLoop();
    return R;
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S,
                               DataRecursionQueue * = nullptr) {
    LoopInfo &L = openLoop(S, "range-for");
    if (const VarDecl *V = S->getLoopVariable())
      L.InductionVar = V->getNameAsString();
    bool R = skippable(S, [&] { return Base::TraverseCXXForRangeStmt(S); });
    closeLoop();
    return R;
  }

  // --- what may be skipped: AccessInfo::SkippableBy ------------------------
  // Each construct's parts that always run are traversed outside it, the
  // parts it may skip inside it. The children are traversed here, in full,
  // so that no part is left to the data-recursion queue, which would visit
  // it after the construct was closed.
  bool TraverseIfStmt(IfStmt *S, DataRecursionQueue * = nullptr) {
    if (!WalkUpFromIfStmt(S) || !traverseHead(S))
      return false;
    return skippable(S, [&] {
      ThenConditions.push_back(S->getCond());
      bool Ok = TraverseStmt(S->getThen());
      ThenConditions.pop_back();
      return Ok && TraverseStmt(S->getElse());
    });
  }
  bool TraverseConditionalOperator(ConditionalOperator *S,
                                   DataRecursionQueue * = nullptr) {
    if (!WalkUpFromConditionalOperator(S) || !TraverseStmt(S->getCond()))
      return false;
    return skippable(S, [&] {
      return TraverseStmt(S->getTrueExpr()) && TraverseStmt(S->getFalseExpr());
    });
  }
  bool TraverseBinaryOperator(BinaryOperator *S,
                              DataRecursionQueue * = nullptr) {
    if (!S->isLogicalOp())
      return Base::TraverseBinaryOperator(S);
    if (!WalkUpFromBinaryOperator(S) || !TraverseStmt(S->getLHS()))
      return false;
    return skippable(S, [&] { return TraverseStmt(S->getRHS()); });
  }
  bool TraverseSwitchStmt(SwitchStmt *S, DataRecursionQueue * = nullptr) {
    if (!WalkUpFromSwitchStmt(S) || !traverseHead(S))
      return false;
    return skippable(S, [&] { return TraverseStmt(S->getBody()); });
  }
  /// An if's or a switch's init, condition variable and condition: they
  /// always run.
  template <typename IfOrSwitch> bool traverseHead(IfOrSwitch *S) {
    for (Stmt *Always :
         {S->getInit(), static_cast<Stmt *>(S->getConditionVariableDeclStmt()),
          static_cast<Stmt *>(S->getCond())})
      if (!TraverseStmt(Always))
        return false;
    return true;
  }
  template <typename Fn> bool skippable(const Stmt *S, Fn Traverse) {
    Skippers.push_back(Text.span(S->getSourceRange()));
    bool R = Traverse();
    Skippers.pop_back();
    return R;
  }

  // --- calls: barriers, warp intrinsics, atomics, escaping pointers -------
  bool VisitCallExpr(CallExpr *C) {
    std::string Name = calleeName(C);
    if (isBlockBarrier(Name)) {
      Info.UsesSyncthreads = true;
      for (size_t I : OpenLoops)
        Info.Loops[I].ContainsSync = true;
    }
    if (isWarpIntrinsic(Name))
      Info.UsesWarpIntrinsics = true;
    if (isBlockBarrier(Name) || isWarpIntrinsic(Name))
      communicatesInOpenLoops();
    bool Atomic = StringRef(Name).starts_with("atomic");
    if (Atomic) {
      Info.UsesAtomics = true;
      recordAtomicUpdate(C, Name);
      if (C->getNumArgs() > 0) {
        const Expr *Target = stripCasts(C->getArg(0));
        if (const auto *UO = dyn_cast<UnaryOperator>(Target);
            UO && UO->getOpcode() == UO_AddrOf)
          ModeOf[stripCasts(UO->getSubExpr())] = "atomic";
        else
          recordPointerAccess(C->getArg(0), C, "atomic"); // atomicAdd(p + i, v)
      }
      return true;
    }
    if (Name.empty() || isBlockBarrier(Name) || isWarpIntrinsic(Name))
      return true;
    const FunctionDecl *Def = nullptr;
    if (const FunctionDecl *FD = C->getDirectCallee(); FD && FD->hasBody(Def)) {
      Communication Inside;
      DenseSet<const FunctionDecl *> Seen{Def};
      collectCommunication(Def->getBody(), Inside, Seen, 1);
      if (Inside.Barrier) {
        Info.UsesSyncthreads = true;
        for (size_t I : OpenLoops)
          Info.Loops[I].ContainsSync = true;
      }
      if (Inside.Barrier || Inside.Warp)
        communicatesInOpenLoops();
      Info.UsesWarpIntrinsics |= Inside.Warp;
      Info.UsesAtomics |= Inside.Atomic;
    }
    for (const Expr *Arg : C->arguments())
      if (const ParmVarDecl *P = pointerParamOf(Arg))
        escape(P, "passed to '" + Name + "'");
    noteElementsPassedByReference(C, Name);
    return true;
  }
  /// An element passed to a non-const reference parameter (`set(a[i])`
  /// with `void set(float &r)`), or the object of a non-const member
  /// function (`a[i].scale(2)`), may be written inside the callee. The
  /// assignment and increment operators are modelled as writes already.
  void noteElementsPassedByReference(const CallExpr *C,
                                     const std::string &Name) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    const Expr *Object = nullptr;
    unsigned Shift = 0; // arguments before the first parameter's
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
      Object = MC->getImplicitObjectArgument();
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C); OC && MD) {
      Shift = 1;
      OverloadedOperatorKind Op = OC->getOperator();
      if (!OC->isAssignmentOp() && Op != OO_PlusPlus && Op != OO_MinusMinus)
        Object = C->getArg(0);
    }
    if (Object && MD && !MD->isConst())
      if (const ParmVarDecl *P = elementOwner(Object))
        escape(P, "an element is the object of '" + Name + "'");
    for (unsigned I = Shift;
         I < C->getNumArgs() && I - Shift < FD->getNumParams(); ++I) {
      QualType T = FD->getParamDecl(I - Shift)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        if (const ParmVarDecl *P = elementOwner(C->getArg(I)))
          escape(P, "an element is passed by reference to '" + Name + "'");
    }
  }
  /// The pointer parameter whose element E is (`a[i]`, `*(a + i)`), or null.
  const ParmVarDecl *elementOwner(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return pointerParamOf(AS->getBase());
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref)
      return pointerParamOf(UO->getSubExpr());
    return nullptr;
  }

  // --- statements whose value is discarded, and returns -------------------
  // The visitor sees a statement before its parts, so a call is known to be
  // in statement position (its result unused) by the time it is visited.
  static const Expr *discardedForm(const Expr *E) {
    const Expr *X = E->IgnoreParenImpCasts();
    if (const auto *CS = dyn_cast<CStyleCastExpr>(X);
        CS && CS->getType()->isVoidType())
      X = CS->getSubExpr()->IgnoreParenImpCasts();
    return X;
  }
  void discards(const Stmt *S) {
    if (const auto *E = dyn_cast_or_null<Expr>(S))
      if (!Kept.count(discardedForm(E)))
        Discarded.insert(discardedForm(E));
  }
  /// `({ ...; atomicAdd(...); })`: the last statement is the value.
  bool VisitStmtExpr(StmtExpr *S) {
    if (const CompoundStmt *CS = S->getSubStmt(); CS && !CS->body_empty())
      if (const auto *E = dyn_cast<Expr>(CS->body_back()))
        Kept.insert(discardedForm(E));
    return true;
  }
  /// Every reference to one of the kernel's own parameters (not a lambda's
  /// of the same name): a transform that rewrites some uses of a parameter
  /// can check that it sees them all.
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *P = dyn_cast<ParmVarDecl>(E->getDecl());
        P && P->getDeclContext() == Kernel)
      if (ParamInfo *PI = paramInfo(P))
        ++PI->Uses;
    return true;
  }
  bool VisitAsmStmt(AsmStmt *S) {
    Info.AsmStatements.push_back(Text.location(S->getAsmLoc()));
    communicatesInOpenLoops(); // `bar.sync`, `shfl.sync`: the model cannot tell
    return true;
  }
  void communicatesInOpenLoops() {
    for (size_t I : OpenLoops)
      Info.Loops[I].ContainsCommunication = true;
  }
  bool VisitCompoundStmt(CompoundStmt *S) {
    for (const Stmt *Child : S->body())
      discards(Child);
    return true;
  }
  bool VisitIfStmt(IfStmt *S) {
    discards(S->getThen());
    discards(S->getElse());
    return true;
  }
  bool VisitForStmt(ForStmt *S) {
    discards(S->getBody());
    discards(S->getInc());
    return true;
  }
  bool VisitWhileStmt(WhileStmt *S) {
    discards(S->getBody());
    return true;
  }
  bool VisitDoStmt(DoStmt *S) {
    discards(S->getBody());
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *S) {
    if (!InLambda) // a lambda's return leaves the lambda, not the kernel
      Info.Returns.push_back(Text.location(S->getBeginLoc()));
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *E, DataRecursionQueue * = nullptr) {
    ++InLambda;
    bool R = Base::TraverseLambdaExpr(E);
    --InLambda;
    return R;
  }

  // --- accesses ------------------------------------------------------------
  /// Where the expression that stores a written access begins and ends, and
  /// whether its value is the element as stored.
  void noteStore(AccessInfo &A, const Expr *Writer) {
    SourceSpan S = Text.span(Writer->getSourceRange());
    A.StoredFrom = S.BeginOffset;
    A.StoredAt = S.EndOffset;
    if (const auto *BO = dyn_cast<BinaryOperator>(Writer))
      A.StoreYieldsElement = BO->isAssignmentOp();
    else if (const auto *UO = dyn_cast<UnaryOperator>(Writer))
      A.StoreYieldsElement = UO->isPrefix();
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp()) {
      noteModifiedParam(BO->getLHS(), BO);
      const Expr *LHS = accessOperand(BO->getLHS());
      ModeOf[LHS] = BO->isCompoundAssignmentOp() ? "readwrite" : "write";
      WriterOf[LHS] = BO;
      if (const ParmVarDecl *P = pointerParamOf(BO->getRHS()))
        if (BO->getType()->isPointerType())
          escape(P, "assigned to '" + Text.text(BO->getLHS()) + "'");
    }
    return true;
  }
  /// Class-type elements (float3, structs) are assigned through operator=.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getNumArgs() == 0)
      return true;
    OverloadedOperatorKind Op = OC->getOperator();
    const Expr *Target = accessOperand(OC->getArg(0));
    if (Op == OO_Equal)
      ModeOf[Target] = "write";
    else if (OC->isAssignmentOp() || Op == OO_PlusPlus || Op == OO_MinusMinus)
      ModeOf[Target] = "readwrite";
    if (ModeOf.count(Target))
      WriterOf[Target] = OC;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp()) {
      noteModifiedParam(UO->getSubExpr(), UO);
      ModeOf[accessOperand(UO->getSubExpr())] = "readwrite";
      WriterOf[accessOperand(UO->getSubExpr())] = UO;
    }
    if (UO->getOpcode() == UO_AddrOf)
      noteModifiedParam(UO->getSubExpr(), UO); // may be changed through it
    if (UO->getOpcode() == UO_Deref) {
      recordPointerAccess(UO->getSubExpr(), UO, modeOf(UO));
    }
    return true;
  }
  /// `p->field` reads or writes the element p points to, like `(*p).field`
  /// (recorded as an access of the whole element, whose type is the
  /// pointee's) -- for pointers into the parameters' memory.
  bool VisitMemberExpr(MemberExpr *ME) {
    if (!ME->isArrow() || !pointerParamOf(ME->getBase()))
      return true;
    const Expr *Key = accessOperand(ME);
    recordPointerAccess(ME->getBase(), ME, modeOf(Key));
    AccessInfo &A = Info.Accesses.back();
    QualType Element = ME->getBase()->getType()->getPointeeType();
    A.ElementType = Element.getAsString();
    A.CanonicalElementType =
        Element.getCanonicalType().getUnqualifiedType().getAsString();
    if (auto W = WriterOf.find(Key); W != WriterOf.end())
      noteStore(A, W->second);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    if (Inner.count(E))
      return true;
    std::vector<const Expr *> Indices;
    const Expr *BaseE = E;
    while (const auto *AS = dyn_cast<ArraySubscriptExpr>(BaseE)) {
      Indices.insert(Indices.begin(), AS->getIdx());
      if (AS != E)
        Inner.insert(AS);
      BaseE = AS->getBase()->IgnoreParenImpCasts();
    }
    recordAccess(E, BaseE, Indices, modeOf(E));
    return true;
  }
  bool VisitDeclStmt(DeclStmt *DS) {
    if (!DS->isSingleDecl())
      for (Decl *D : DS->decls())
        SharedDeclStmt.insert(D);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasAttr<CUDASharedAttr>())
      describeShared(VD);
    // `float &r = a[i];`: r reads and writes the element where the model
    // sees only r.
    if (VD->getType()->isReferenceType() &&
        !VD->getType().getNonReferenceType().isConstQualified() &&
        VD->getInit())
      if (const ParmVarDecl *P = elementOwner(VD->getInit()))
        escape(P, "an element is bound to the reference '" +
                      VD->getNameAsString() + "'");
    // A local pointer into a parameter: `float *row = A + i * n;`
    if (VD->hasLocalStorage() && VD->getType()->isPointerType() &&
        VD->getInit()) {
      if (const ParmVarDecl *P = pointerParamOf(VD->getInit())) {
        if (Affine.isModified(VD))
          escape(P, "copied into '" + VD->getNameAsString() +
                        "', which is modified");
        else
          Aliases[VD] = VD->getInit();
        if (!VD->getType()->getPointeeType().isConstQualified())
          if (ParamInfo *PI = paramInfo(P)) {
            PI->AliasedByNonConst = true;
            ParamInfo::NonConstCopy C;
            C.Name = VD->getNameAsString();
            C.Location = Text.location(VD->getLocation());
            if (!SharedDeclStmt.count(VD))
              C.ConstEdit = pointeeConstEdit(VD, Text);
            PI->NonConstCopies.push_back(std::move(C));
          }
      }
    }
    return true;
  }
  bool VisitPseudoObjectExpr(PseudoObjectExpr *E) {
    if (std::optional<std::string> B = cudaBuiltinName(E))
      if (StringRef(*B).starts_with("blockDim."))
        BlockDims.insert(B->substr(9));
    return true;
  }

private:
  /// IndexInfo::Locals, LocalsInMacro and ReadsThreadPosition of an index
  /// expression.
  void noteLocals(const Expr *E, IndexInfo &I) const {
    unsigned Calls = 0;
    std::function<void(const Stmt *)> Position = [&](const Stmt *S) {
      if (!S || I.ReadsThreadPosition)
        return;
      if (const auto *PO = dyn_cast<PseudoObjectExpr>(S))
        if (std::optional<std::string> B = cudaBuiltinName(PO))
          if (StringRef(*B).starts_with("threadIdx.") ||
              StringRef(*B).starts_with("blockIdx."))
            I.ReadsThreadPosition = true;
      if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *F = Call->getDirectCallee();
        const Stmt *Body = F ? F->getBody() : nullptr;
        // A callee the analysis cannot read may read anything.
        if (!Body || ++Calls > 16)
          I.ReadsThreadPosition = true;
        else
          Position(Body);
      }
      for (const Stmt *C : S->children())
        Position(C);
    };
    Position(E);
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *DR = dyn_cast<DeclRefExpr>(S))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
            V && V->hasLocalStorage() && !isa<ParmVarDecl>(V)) {
          std::string Name = V->getNameAsString();
          if (!llvm::is_contained(I.Locals, Name))
            I.Locals.push_back(Name);
          // A macro's argument is spelled in the text; its body is not.
          I.LocalsInMacro |=
              Text.context().getSourceManager().isMacroBodyExpansion(
                  DR->getLocation());
        }
      for (const Stmt *C : S->children())
        Walk(C);
    };
    Walk(E);
  }

  LoopInfo &openLoop(const Stmt *S, StringRef Kind) {
    LoopInfo L;
    L.Id = "L" + std::to_string(Info.Loops.size());
    L.Kind = Kind.str();
    L.Location = Text.location(S->getBeginLoc());
    L.Depth = OpenLoops.size();
    if (!OpenLoops.empty())
      L.Parent = Info.Loops[OpenLoops.back()].Id;
    L.Span = Text.span(S->getSourceRange());
    L.Indent = Text.indentation(S->getBeginLoc());
    L.InMacro = S->getBeginLoc().isMacroID();
    DynTypedNode Node = DynTypedNode::create(*S);
    for (int Up = 0; Up < 2; ++Up) {
      DynTypedNodeList Parents = Text.context().getParents(Node);
      if (Parents.empty())
        break;
      Node = Parents[0];
      if (!Node.get<AttributedStmt>()) // `#pragma unroll` wraps the loop
        break;
    }
    L.InBlock = Node.get<CompoundStmt>() != nullptr;
    if (const LoopHintAttr *LH = UnrollHints.lookup(S)) {
      L.HasUnrollPragma = true;
      L.PragmaSpan = Text.lineSpan(LH->getLocation());
      if (LH->getOption() == LoopHintAttr::UnrollCount && LH->getValue())
        L.UnrollValue = Text.text(LH->getValue());
      else if (LH->getState() == LoopHintAttr::Disable)
        L.UnrollValue = "1"; // #pragma nounroll
      else
        L.UnrollValue = "full";
    }
    Info.Loops.push_back(std::move(L));
    OpenLoops.push_back(Info.Loops.size() - 1);
    return Info.Loops.back();
  }
  void closeLoop() { OpenLoops.pop_back(); }

  void describeFor(const ForStmt *S, LoopInfo &L) {
    const ASTContext &Ctx = Text.context();
    const VarDecl *Var = nullptr;
    const Expr *InitE = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(S->getInit())) {
      if (DS->isSingleDecl())
        if ((Var = dyn_cast<VarDecl>(DS->getSingleDecl())))
          InitE = Var->getInit();
    } else if (const auto *BO =
                   dyn_cast_or_null<BinaryOperator>(S->getInit())) {
      if (BO->getOpcode() == BO_Assign && (Var = refVar(BO->getLHS())))
        InitE = BO->getRHS();
    }
    // Without an init, the variable compared in the condition.
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        S->getCond() ? S->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Var && Cond)
      Var = refVar(Cond->getLHS());
    if (!Var)
      return;
    L.InductionVar = Var->getNameAsString();
    Affine.addLoopVariable(Var);
    if (InitE) {
      L.Init = Text.text(InitE);
      L.InitForm = Affine.build(InitE).Form;
    }
    const Expr *BoundE = nullptr;
    if (Cond && Cond->isComparisonOp()) {
      if (refVar(Cond->getLHS()) == Var) {
        BoundE = Cond->getRHS();
        L.Compare = compareSpelling(Cond->getOpcode(), false);
      } else if (refVar(Cond->getRHS()) == Var) {
        BoundE = Cond->getLHS();
        L.Compare = compareSpelling(Cond->getOpcode(), true);
      }
      if (BoundE)
        L.Bound = Text.text(BoundE);
    }
    std::optional<int64_t> StepValue = describeStep(S->getInc(), Var, L);
    L.StepValue = StepValue;
    // Constant trip count.
    std::optional<int64_t> InitV = evaluateInt(InitE, Ctx);
    std::optional<int64_t> BoundV = evaluateInt(BoundE, Ctx);
    if (InitV && BoundV && StepValue && *StepValue != 0 && !L.Compare.empty()) {
      int64_t Lo = *InitV, Hi = *BoundV, St = *StepValue;
      int64_t Count = -1;
      if ((L.Compare == "<" || L.Compare == "!=") && St > 0)
        Count = Hi > Lo ? (Hi - Lo + St - 1) / St : 0;
      else if (L.Compare == "<=" && St > 0)
        Count = Hi >= Lo ? (Hi - Lo) / St + 1 : 0;
      else if ((L.Compare == ">" || L.Compare == "!=") && St < 0)
        Count = Lo > Hi ? (Lo - Hi + -St - 1) / -St : 0;
      else if (L.Compare == ">=" && St < 0)
        Count = Lo >= Hi ? (Lo - Hi) / -St + 1 : 0;
      if (Count >= 0)
        L.TripCount = Count;
    }
  }

  /// The loop's step from its increment expression Inc (`v++`, `v += s`,
  /// `v = v + s`, `v *= 2`, ...): L.Step, L.StepKind and the constant step.
  /// A step's kind comes from its value, whatever names hold it: a stride
  /// whose affine form has a blockDim.d * gridDim.d term is a grid stride
  /// (`const size_t stride = blockDim.x * gridDim.x; ... i += stride`).
  std::optional<int64_t> describeStep(const Expr *Inc, const VarDecl *Var,
                                      LoopInfo &L) {
    const ASTContext &Ctx = Text.context();
    const Expr *StepE = nullptr;
    int64_t StepSign = 1;
    std::optional<int64_t> StepValue;
    if (Inc) {
      Inc = Inc->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
        if (UO->isIncrementDecrementOp() && refVar(UO->getSubExpr()) == Var) {
          StepValue = UO->isIncrementOp() ? 1 : -1;
          L.Step = UO->isIncrementOp() ? "1" : "-1";
          L.StepKind = "constant";
        }
      } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc)) {
        if (refVar(BO->getLHS()) == Var) {
          switch (BO->getOpcode()) {
          case BO_AddAssign:
          case BO_SubAssign:
            StepE = BO->getRHS();
            StepSign = BO->getOpcode() == BO_SubAssign ? -1 : 1;
            break;
          case BO_MulAssign:
          case BO_DivAssign:
          case BO_ShlAssign:
          case BO_ShrAssign:
            L.Step = Text.text(BO);
            L.StepKind = "geometric";
            break;
          case BO_Assign:
            if (const auto *Sum = dyn_cast<BinaryOperator>(
                    BO->getRHS()->IgnoreParenImpCasts());
                Sum &&
                (Sum->getOpcode() == BO_Add || Sum->getOpcode() == BO_Sub) &&
                refVar(Sum->getLHS()) == Var) {
              StepE = Sum->getRHS();
              StepSign = Sum->getOpcode() == BO_Sub ? -1 : 1;
            } else {
              L.Step = Text.text(BO->getRHS());
              L.StepKind = "runtime";
            }
            break;
          default:
            break;
          }
        }
      }
    }
    if (StepE) {
      L.Step = (StepSign < 0 ? "-" : "") + Text.text(StepE);
      if (std::optional<int64_t> V = evaluateInt(StepE, Ctx)) {
        StepValue = StepSign * *V;
        L.StepKind = "constant";
      } else {
        std::string T = Text.text(StepE);
        bool Block = T.find("blockDim") != std::string::npos;
        bool Grid = T.find("gridDim") != std::string::npos;
        if (std::optional<AffineExpr> F = Affine.build(StepE).Form;
            F && !F->hasVariables()) {
          Block = Grid = false;
          for (const auto &[Mono, Coef] : F->constantPart().terms()) {
            bool B = false, G = false;
            for (const std::string &Sym : Mono) {
              B |= StringRef(Sym).starts_with("blockDim.");
              G |= StringRef(Sym).starts_with("gridDim.");
            }
            Block |= B;
            Grid |= B && G;
          }
        }
        L.StepKind = Block && Grid ? "grid-stride"
                     : Block       ? "block-stride"
                                   : "runtime";
      }
    }
    return StepValue;
  }

  /// `while (v < e) { ...; v += s; }`: the variable compared in the
  /// condition and stepped by the last statement of the body is the loop's
  /// induction variable, as in the equivalent `for`.
  void describeWhile(const WhileStmt *S, LoopInfo &L) {
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        S->getCond() ? S->getCond()->IgnoreParenImpCasts() : nullptr);
    const auto *Body = dyn_cast_or_null<CompoundStmt>(S->getBody());
    if (!Cond || !Cond->isComparisonOp() || !Body || Body->body_empty())
      return;
    const auto *Last = dyn_cast<Expr>(Body->body_back());
    for (bool Swapped : {false, true}) {
      const VarDecl *Var =
          refVar(Swapped ? Cond->getRHS() : Cond->getLHS());
      if (!Var || !Var->getType()->isIntegerType() || !Last)
        continue;
      LoopInfo Probe;
      std::optional<int64_t> StepValue = describeStep(Last, Var, Probe);
      if (Probe.Step.empty())
        continue;
      L.InductionVar = Var->getNameAsString();
      Affine.addLoopVariable(Var);
      L.Bound = Text.text(Swapped ? Cond->getLHS() : Cond->getRHS());
      L.Compare = compareSpelling(Cond->getOpcode(), Swapped);
      L.Step = Probe.Step;
      L.StepKind = Probe.StepKind;
      L.StepValue = StepValue;
      return;
    }
  }

  /// The expression whose mode an assignment or increment sets: the
  /// subscript or dereference under member accesses (`p[i].x = ...`).
  static const Expr *accessOperand(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase()->IgnoreParenImpCasts();
    return E;
  }
  std::string modeOf(const Expr *E) {
    auto It = ModeOf.find(E);
    return It == ModeOf.end() ? "read" : It->second;
  }

  /// The pointer parameter E points into: `p`, `p + i`, `&p[i]`, or a local
  /// alias of one of those.
  const ParmVarDecl *pointerParamOf(const Expr *E,
                                    const Expr **Offset = nullptr) {
    if (!E)
      return nullptr;
    E = stripCasts(E);
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(
              UO->getSubExpr()->IgnoreParenImpCasts())) {
        if (Offset)
          *Offset = AS->getIdx();
        return pointerParamOf(AS->getBase());
      }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Add && BO->getType()->isPointerType()) {
      bool LPtr = BO->getLHS()->getType()->isPointerType();
      if (Offset)
        *Offset = LPtr ? BO->getRHS() : BO->getLHS();
      return pointerParamOf(LPtr ? BO->getLHS() : BO->getRHS());
    }
    if (const VarDecl *V = refVar(E)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(V))
        return P->getType()->isPointerType() ? P : nullptr;
      auto It = Aliases.find(V);
      if (It != Aliases.end())
        return pointerParamOf(It->second, nullptr);
    }
    return nullptr;
  }

  /// An exclusive upper bound of integer expression E's value, with 0 as
  /// its lower bound, from its type or its form; nullopt and why otherwise.
  std::optional<int64_t> indexBound(const Expr *E, std::string &Why) {
    const ASTContext &Ctx = Text.context();
    const Expr *X = E->IgnoreParenImpCasts();
    QualType T = X->getType().getCanonicalType().getUnqualifiedType();
    if (T->isUnsignedIntegerType() && Ctx.getTypeSize(T) <= 16)
      return int64_t(1) << Ctx.getTypeSize(T);
    if (const auto *BO = dyn_cast<BinaryOperator>(X)) {
      Expr::EvalResult R;
      if (BO->getOpcode() == BO_And) {
        for (const Expr *Side : {BO->getRHS(), BO->getLHS()})
          if (Side->EvaluateAsInt(R, Ctx) && R.Val.getInt().isNonNegative() &&
              R.Val.getInt().getActiveBits() < 40)
            return R.Val.getInt().getZExtValue() + 1;
      }
      if (BO->getOpcode() == BO_Rem && BO->getRHS()->EvaluateAsInt(R, Ctx) &&
          R.Val.getInt().isStrictlyPositive() &&
          R.Val.getInt().getActiveBits() < 40) {
        if (BO->getLHS()
                ->IgnoreParenImpCasts()
                ->getType()
                ->isUnsignedIntegerType())
          return int64_t(R.Val.getInt().getZExtValue());
        Why = "the index '" + Text.text(X) +
              "' is a remainder of a signed value, which can be negative";
        return std::nullopt;
      }
    }
    Why = "the range of the index '" + Text.text(X) +
          "' is not known at compile time (an unsigned char, `e & mask` or "
          "`unsigned % n` gives it)";
    return std::nullopt;
  }

  void recordAtomicUpdate(const CallExpr *C, const std::string &Name) {
    AtomicUpdateInfo A;
    A.Function = Name;
    A.Location = Text.location(C->getBeginLoc());
    A.ResultUsed = !Discarded.count(C);
    if (C->getNumArgs() == 0)
      return;
    // Implicit conversions only: an explicit cast changes the width or
    // type the atomic works on, which a copy of the array's type would not.
    const Expr *Target = C->getArg(0)->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(Target);
    const auto *AS = UO && UO->getOpcode() == UO_AddrOf
                         ? dyn_cast<ArraySubscriptExpr>(
                               UO->getSubExpr()->IgnoreParenImpCasts())
                         : nullptr;
    if (AS) {
      A.ElementType = AS->getType().getUnqualifiedType().getAsString();
      A.IntegerElement = AS->getType()->isIntegerType();
      const auto *DRE =
          dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
      const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      if (P && P->getDeclContext() == Kernel && P->getType()->isPointerType() &&
          Text.inUserFile(DRE->getBeginLoc()) &&
          !DRE->getBeginLoc().isMacroID()) {
        A.Base = P->getNameAsString();
        A.BaseSpan = Text.span(DRE->getSourceRange());
      }
      A.IndexBound = indexBound(AS->getIdx(), A.IndexBoundWhy);
      const Expr *Idx = AS->getIdx();
      if (Text.inUserFile(Idx->getBeginLoc()) &&
          !Idx->getBeginLoc().isMacroID() && !Idx->getEndLoc().isMacroID())
        A.IndexSpan = Text.span(Idx->getSourceRange());
    } else {
      A.IndexBoundWhy = "the target is not written `&array[index]`";
    }
    QualType Pointer = C->getArg(0)->IgnoreImpCasts()->getType();
    if (Pointer->isPointerType())
      A.ValueType = Pointer->getPointeeType()
                        .getCanonicalType()
                        .getUnqualifiedType()
                        .getAsString();
    if (const auto *Callee =
            dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts());
        Callee && Text.inUserFile(Callee->getBeginLoc()) &&
        !Callee->getBeginLoc().isMacroID() && !C->getEndLoc().isMacroID())
      A.CalleeSpan = Text.span(Callee->getSourceRange());
    A.UniformTargetWhy = uniformWhy(C->getArg(0), 0);
    if (A.UniformTargetWhy.empty()) {
      AcrossBlocks = true;
      A.LaunchUniformTargetWhy = uniformWhy(C->getArg(0), 0);
      AcrossBlocks = false;
    } else {
      A.LaunchUniformTargetWhy = A.UniformTargetWhy;
    }
    if (const ParmVarDecl *P = pointerParamOf(C->getArg(0)))
      A.TargetParam = P->getNameAsString();
    for (const Expr *Cond : ThenConditions)
      fixedThreadDims(Cond, A.FixedThreadDims);
    Info.Atomics.push_back(std::move(A));
  }

  /// The dimensions d for which Cond, a conjunction, requires threadIdx.d
  /// to equal a constant: one side of an `==` minus the other is affine
  /// in threadIdx.d alone with a constant coefficient (`threadIdx.x == 0`,
  /// `tid == 0` with `int tid = threadIdx.x;` unchanged): where it holds,
  /// one thread of the block along d.
  void fixedThreadDims(const Expr *Cond, std::vector<std::string> &Dims) {
    const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
    if (!B)
      return;
    if (B->getOpcode() == BO_LAnd) {
      fixedThreadDims(B->getLHS(), Dims);
      fixedThreadDims(B->getRHS(), Dims);
      return;
    }
    if (B->getOpcode() != BO_EQ)
      return;
    std::optional<AffineExpr> L = Affine.build(B->getLHS()).Form;
    std::optional<AffineExpr> R = Affine.build(B->getRHS()).Form;
    if (!L || !R)
      return;
    AffineExpr D = *L - *R;
    if (D.coefficients().size() != 1 || !D.constantPart().constantValue())
      return;
    const auto &[Var, Coef] = *D.coefficients().begin();
    StringRef Dim(Var);
    if (Dim.consume_front("threadIdx.") && Coef.constantValue() &&
        !llvm::is_contained(Dims, Dim.str()))
      Dims.push_back(Dim.str());
  }

  /// uniformWhy asks for one value in the whole launch, not per warp:
  /// blockIdx varies too.
  bool AcrossBlocks = false;

  /// "" when E has the same value in every thread of a warp whenever they
  /// evaluate it together (see AtomicUpdateInfo::UniformTargetWhy), else
  /// why not.
  std::string uniformWhy(const Expr *E, unsigned Depth) {
    if (!E)
      return "it is not an expression";
    if (Depth > 8)
      return "'" + Text.text(E) + "' is computed too many steps away";
    E = E->IgnoreParens();
    if (!KernelModifiedKnown) {
      KernelModified = modifiedVariables(Kernel->getBody());
      KernelModifiedKnown = true;
    }
    if (std::optional<std::string> B = cudaBuiltinName(E))
      return StringRef(*B).starts_with("threadIdx") ||
                     (AcrossBlocks && StringRef(*B).starts_with("blockIdx"))
                 ? "it depends on " + *B
                 : ""; // blockIdx, blockDim, gridDim: one value per warp
    if (!E->isValueDependent() && E->isIntegerConstantExpr(Text.context()))
      return "";
    if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral,
            CXXBoolLiteralExpr, CXXNullPtrLiteralExpr>(E))
      return "";
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      const Expr *Sub = IC->getSubExpr()->IgnoreParens();
      // Reading a variable is followed below; reading memory is not: another
      // thread may write it between two threads' reads.
      if (IC->getCastKind() == CK_LValueToRValue && !isa<DeclRefExpr>(Sub) &&
          !(isa<MemberExpr>(Sub) && !cast<MemberExpr>(Sub)->isArrow()))
        return "it reads memory ('" + Text.text(Sub) + "')";
      return uniformWhy(Sub, Depth);
    }
    if (const auto *CE = dyn_cast<ExplicitCastExpr>(E))
      return uniformWhy(CE->getSubExpr(), Depth);
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return "it reads memory ('" + Text.text(E) + "')";
      return uniformWhy(ME->getBase(), Depth + 1);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (isa<EnumConstantDecl>(DRE->getDecl()))
        return "";
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return "'" + Text.text(E) + "' is not a variable";
      std::string Name = VD->getNameAsString();
      if (KernelModified.count(VD))
        return "'" + Name + "' changes in the kernel";
      if (const auto *P = dyn_cast<ParmVarDecl>(VD))
        return P->getDeclContext() == Kernel
                   ? ""
                   : "'" + Name + "' is not the kernel's parameter";
      if (VD->hasLocalStorage()) {
        if (!VD->getInit())
          return "'" + Name + "' has no initializer";
        std::string Why = uniformWhy(VD->getInit(), Depth + 1);
        return Why.empty() ? "" : "'" + Name + "' = " + Why;
      }
      // A global: its address is one value; its contents are memory, which
      // the cast above refuses to read unless it is a constant.
      if (VD->getType().isConstQualified() && VD->getInit() &&
          VD->getInit()->isEvaluatable(Text.context()))
        return "";
      return "'" + Name + "' is a global variable another thread may change";
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf) {
        const Expr *Sub = UO->getSubExpr()->IgnoreParens();
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
          std::string Why = uniformWhy(AS->getBase(), Depth + 1);
          return Why.empty() ? uniformWhy(AS->getIdx(), Depth + 1) : Why;
        }
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
              VD && !VD->hasLocalStorage())
            return ""; // a global's address
        return "it takes the address of '" + Text.text(Sub) +
               "', which may be each thread's own";
      }
      if (UO->getOpcode() == UO_Deref)
        return "it reads memory ('" + Text.text(E) + "')";
      if (UO->isIncrementDecrementOp())
        return "it changes a variable";
      return uniformWhy(UO->getSubExpr(), Depth);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
        return "it assigns a variable";
      std::string Why = uniformWhy(BO->getLHS(), Depth);
      return Why.empty() ? uniformWhy(BO->getRHS(), Depth) : Why;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      for (const Expr *Part :
           {CO->getCond(), CO->getTrueExpr(), CO->getFalseExpr()})
        if (std::string Why = uniformWhy(Part, Depth); !Why.empty())
          return Why;
      return "";
    }
    if (isa<ArraySubscriptExpr>(E))
      return "it reads memory ('" + Text.text(E) + "')";
    return "'" + Text.text(E) +
           "' is not an expression the model can show to be the same in "
           "every thread";
  }

  /// E is the parameter itself (not what it points to), changed by S.
  void noteModifiedParam(const Expr *E, const Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (ParamInfo *PI = P ? paramInfo(P) : nullptr;
        PI && PI->ModifiedAt.empty())
      PI->ModifiedAt = Text.location(S->getBeginLoc());
  }

  void escape(const ParmVarDecl *P, const std::string &Why) {
    if (ParamInfo *PI = paramInfo(P); PI && PI->EscapeReason.empty())
      PI->EscapeReason = Why;
  }

  /// The model's entry for parameter P, by its name.
  ParamInfo *paramInfo(const ParmVarDecl *P) {
    for (ParamInfo &PI : Info.Params)
      if (PI.Name == P->getNameAsString())
        return &PI;
    return nullptr;
  }

  void recordPointerAccess(const Expr *Ptr, const Expr *AccessE,
                           const std::string &Mode) {
    const Expr *Offset = nullptr;
    const Expr *S = stripCasts(Ptr);
    const Expr *BaseE = S;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Add && BO->getType()->isPointerType()) {
      bool LPtr = BO->getLHS()->getType()->isPointerType();
      Offset = LPtr ? BO->getRHS() : BO->getLHS();
      BaseE = stripCasts(LPtr ? BO->getLHS() : BO->getRHS());
    }
    std::vector<const Expr *> Indices;
    if (Offset)
      Indices.push_back(Offset);
    recordAccess(AccessE, BaseE, Indices, Mode, /*ImplicitZero=*/!Offset);
  }

  void recordAccess(const Expr *AccessE, const Expr *BaseE,
                    std::vector<const Expr *> Indices, const std::string &Mode,
                    bool ImplicitZero = false) {
    AccessInfo A;
    A.Location = Text.location(AccessE->getBeginLoc());
    A.Span = Text.span(AccessE->getSourceRange());
    A.Mode = Mode;
    A.ElementType = AccessE->getType().getAsString();
    A.CanonicalElementType = AccessE->getType()
                                 .getCanonicalType()
                                 .getUnqualifiedType()
                                 .getAsString();
    if (QualType T = AccessE->getType();
        !T->isIncompleteType() && !T->isDependentType())
      A.ElementBytes =
          unsigned(Text.context().getTypeSizeInChars(T).getQuantity());
    if (!OpenLoops.empty())
      A.Loop = Info.Loops[OpenLoops.back()].Id;
    if (!Skippers.empty())
      A.SkippableBy = Skippers.back();
    if (auto W = WriterOf.find(AccessE); W != WriterOf.end())
      noteStore(A, W->second);
    BaseE = stripCasts(BaseE);
    const Expr *AliasOffset = nullptr;
    const VarDecl *V = refVar(BaseE);
    if (V && Aliases.count(V)) {
      const ParmVarDecl *P = pointerParamOf(Aliases[V], &AliasOffset);
      A.Base = P ? P->getNameAsString() : V->getNameAsString();
      A.Space = "global";
    } else if (V && isa<ParmVarDecl>(V)) {
      A.Base = V->getNameAsString();
      A.Direct = true;
      A.Space = V->getType()->isPointerType() ? "global" : "local";
    } else if (V) {
      A.Base = V->getNameAsString();
      if (V->hasAttr<CUDASharedAttr>())
        A.Space = "shared";
      else if (V->hasAttr<CUDAConstantAttr>())
        A.Space = "constant";
      else if (V->hasLocalStorage() && V->getType()->isArrayType())
        A.Space = "local";
      else if (!V->hasLocalStorage() && V->hasAttr<CUDADeviceAttr>())
        A.Space = "global";
      else
        A.Space = "unknown";
    } else {
      A.Base = Text.text(BaseE);
      A.Space = "unknown";
    }
    if (ImplicitZero && Indices.empty()) {
      IndexInfo I;
      I.Text = "0";
      I.Affine = true;
      I.Form = AffineExpr::constant(SymPoly());
      A.Indices.push_back(I);
    }
    for (size_t N = 0; N < Indices.size(); ++N) {
      IndexInfo I;
      I.Text = Text.text(Indices[N]);
      I.Bits =
          integerBits(Indices[N]->IgnoreImpCasts()->getType(), Text.context());
      AffineBuilder::Result R = Affine.build(Indices[N]);
      // A pointer alias adds its offset to the first index.
      if (N == 0 && AliasOffset) {
        AffineBuilder::Result Off = Affine.build(AliasOffset);
        I.Text = Text.text(AliasOffset) + " + " + I.Text;
        if (R.Form && Off.Form)
          R.Form = *Off.Form + *R.Form;
        else if (!Off.Form)
          R = Off;
      }
      I.Affine = R.Form.has_value();
      if (R.Form)
        I.Form = *R.Form;
      else
        I.NonAffineReason = R.Reason;
      for (const Expr *E : {Indices[N], N == 0 ? AliasOffset : nullptr})
        if (E)
          noteLocals(E, I);
      A.Indices.push_back(std::move(I));
    }
    Info.Accesses.push_back(std::move(A));
  }

  void describeShared(const VarDecl *VD) {
    SharedArrayInfo S;
    S.Name = VD->getNameAsString();
    S.Location = Text.location(VD->getLocation());
    QualType T = VD->getType();
    if (const TypeSourceInfo *TSI = VD->getTypeSourceInfo()) {
      TypeLoc TL = TSI->getTypeLoc();
      while (auto ATL = TL.getAs<ArrayTypeLoc>()) {
        if (const Expr *Size = ATL.getSizeExpr()) {
          S.Extents.push_back(Text.text(Size));
          S.ExtentValues.push_back(evaluateInt(Size, Text.context()));
        } else {
          S.Extents.push_back("");
          S.ExtentValues.push_back(std::nullopt);
          S.Dynamic = true;
        }
        TL = ATL.getElementLoc();
      }
    }
    while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
      T = AT->getElementType();
    S.ElementType = T.getAsString();
    Info.SharedArrays.push_back(std::move(S));
  }

  void finish() {
    for (const char *D : {"x", "y", "z"})
      if (BlockDims.count(D))
        Info.BlockDimUses.push_back(D);
    for (ParamInfo &P : Info.Params) {
      if (!P.IsPointer)
        continue;
      bool Read = false, Write = false;
      for (const AccessInfo &A : Info.Accesses) {
        if (A.Base != P.Name || A.Space != "global")
          continue;
        if (A.Mode == "read")
          Read = true;
        else if (A.Mode == "write")
          Write = true;
        else {
          Read = Write = true;
          if (A.Mode == "atomic")
            P.Atomic = true;
        }
      }
      if (!P.EscapeReason.empty())
        P.Access = "unknown";
      else
        P.Access = Read && Write ? "readwrite"
                   : Read        ? "read"
                   : Write       ? "write"
                                 : "none";
    }
  }

  const FunctionDecl *Kernel;
  const SourceText &Text;
  KernelInfo &Info;
  AffineBuilder Affine;
  unsigned InLambda = 0; ///< inside a lambda expression of the body
  std::vector<size_t> OpenLoops;
  std::vector<SourceSpan> Skippers; ///< enclosing constructs, innermost last
  /// The conditions of the enclosing ifs whose then-branch is being
  /// traversed, innermost last.
  std::vector<const Expr *> ThenConditions;
  /// Written access -> the expression that stores it (AccessInfo::StoredAt).
  std::map<const Expr *, const Expr *> WriterOf;
  DenseMap<const Stmt *, const LoopHintAttr *> UnrollHints;
  DenseSet<const Expr *> Inner;
  DenseMap<const Expr *, std::string> ModeOf;
  DenseSet<const Expr *> Discarded; ///< expressions used as statements
  /// The variables the kernel's body changes (uniformWhy), once known.
  DenseSet<const VarDecl *> KernelModified;
  bool KernelModifiedKnown = false;
  DenseSet<const Expr *> Kept; ///< last statements of statement expressions
  DenseMap<const VarDecl *, const Expr *> Aliases;
  /// Declarations that share their statement with others (`float *a, *b;`):
  /// a `const` prefix would qualify all of them.
  DenseSet<const Decl *> SharedDeclStmt;
  std::set<std::string> BlockDims;
};

/// Finds uses of block-size symbols and literals, with their context.
class CouplingFinder : public RecursiveASTVisitor<CouplingFinder> {
  using Base = RecursiveASTVisitor<CouplingFinder>;

public:
  CouplingFinder(const SourceText &Text, KernelInfo &Info)
      : Text(Text), Info(Info) {}

  StringSet<> Macros, Constants, TemplateParams;
  std::set<int64_t> Values;
  /// Half the block, where it starts or ends a loop of a kernel with
  /// barriers: the first stride of a tree reduction (`for (s = 128; s > 0;
  /// s >>= 1)` in a 256-thread block).
  std::set<int64_t> HalfValues;
  /// The number of thread groups per block, where a grid counts groups
  /// (Derivation::BlockFraction): a literal equal to it that scales
  /// blockIdx (`blockIdx.x * 4 + threadIdx.x / 32`) numbers the groups by
  /// the launch's block, whatever its size.
  std::set<int64_t> GroupCounts;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() != BO_Mul || GroupCounts.empty())
      return true;
    for (auto [Idx, Factor] : {std::pair(BO->getLHS(), BO->getRHS()),
                               std::pair(BO->getRHS(), BO->getLHS())}) {
      std::optional<std::string> B = cudaBuiltinName(stripCasts(Idx));
      const auto *L = dyn_cast<IntegerLiteral>(stripCasts(Factor));
      if (!B || !StringRef(*B).starts_with("blockIdx") || !L ||
          L->getLocation().isMacroID())
        continue;
      int64_t V = L->getValue().getLimitedValue();
      if (GroupCounts.count(V))
        add(Info.HardcodedSize, std::to_string(V), "literal", L->getLocation(),
            V);
    }
    return true;
  }

  bool TraverseForStmt(ForStmt *S, DataRecursionQueue * = nullptr) {
    withContext("loop-init", [&] { TraverseStmt(S->getInit()); });
    withContext("loop-bound", [&] { TraverseStmt(S->getCond()); });
    withContext("loop-step", [&] { TraverseStmt(S->getInc()); });
    TraverseStmt(S->getBody());
    return true;
  }
  bool TraverseArraySubscriptExpr(ArraySubscriptExpr *E,
                                  DataRecursionQueue * = nullptr) {
    TraverseStmt(E->getBase());
    withContext("index", [&] { TraverseStmt(E->getIdx()); });
    return true;
  }
  bool TraverseVarDecl(VarDecl *VD) {
    if (!VD->hasAttr<CUDASharedAttr>())
      return Base::TraverseVarDecl(VD);
    bool R = true;
    withContext("shared-array-extent", [&] { R = Base::TraverseVarDecl(VD); });
    return R;
  }
  bool VisitIntegerLiteral(IntegerLiteral *L) {
    SourceLocation Loc = L->getLocation();
    if (Loc.isMacroID()) {
      // Through every macro that expanded to it: `WARPS` inside `ROW`.
      const SourceManager &SM = Text.context().getSourceManager();
      for (SourceLocation In = Loc; In.isMacroID();
           In = SM.getImmediateMacroCallerLoc(In)) {
        std::string M =
            Lexer::getImmediateMacroName(In, SM, Text.context().getLangOpts())
                .str();
        if (Macros.count(M)) {
          add(Info.Couplings, M, "macro", Loc, evaluateInt(L, Text.context()));
          break;
        }
      }
      return true;
    }
    int64_t V = L->getValue().getLimitedValue();
    if (Values.count(V) ||
        (HalfValues.count(V) &&
         (Context == "loop-init" || Context == "loop-bound")))
      add(Info.HardcodedSize, std::to_string(V), "literal", Loc, V);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    std::string Name = D->getNameAsString();
    if (isa<NonTypeTemplateParmDecl>(D) && TemplateParams.count(Name))
      add(Info.Couplings, Name, "template-param", E->getLocation(),
          std::nullopt);
    else if (const auto *VD = dyn_cast<VarDecl>(D);
             VD && !VD->hasLocalStorage() && Constants.count(Name))
      add(Info.Couplings, Name, "constant", E->getLocation(),
          evaluateInt(E, Text.context()));
    return true;
  }

private:
  template <typename F> void withContext(const char *C, F Fn) {
    std::string Saved = Context;
    Context = C;
    Fn();
    Context = Saved;
  }
  void add(std::vector<BlockCoupling> &Into, const std::string &Symbol,
           const char *Kind, SourceLocation Loc, std::optional<int64_t> Value) {
    std::string Where = Text.location(Loc);
    for (const BlockCoupling &C : Into)
      if (C.Location == Where && C.Symbol == Symbol)
        return;
    Into.push_back(
        {Symbol, Kind, Where, Context.empty() ? "other" : Context, Value});
  }

  const SourceText &Text;
  KernelInfo &Info;
  std::string Context;
};

} // namespace

void analyzeKernelBody(const FunctionDecl *Kernel, const SourceText &Text,
                       KernelInfo &Info) {
  if (!Kernel->getBody())
    return;
  BodyAnalyzer A(Kernel, Text, Info);
  A.run(Kernel->getBody());
}

void analyzeBlockCoupling(const FunctionDecl *Kernel, const SourceText &Text,
                          KernelInfo &Info) {
  CouplingFinder F(Text, Info);
  for (const LaunchSite &L : Info.Launches) {
    int64_t Total = 1;
    bool AllKnown = true;
    for (const ValueOrigin &V : L.Block.Dims) {
      if (V.Kind == "macro")
        F.Macros.insert(V.Symbol);
      else if (V.Kind == "constant")
        F.Constants.insert(V.Symbol);
      if (V.Value && V.Kind != "default") {
        // The size itself, and size - 1 (the last thread: `buf[255 - tid]`).
        if (*V.Value >= 8) {
          F.Values.insert(*V.Value);
          F.Values.insert(*V.Value - 1);
          if (Info.UsesSyncthreads && *V.Value % 2 == 0)
            F.HalfValues.insert(*V.Value / 2);
        }
        Total *= *V.Value;
      } else if (V.Kind != "default") {
        AllKnown = false;
      }
      // Kernel template parameters given the block's value at the launch.
      for (size_t I = 0;
           I < L.TemplateArgs.size() && I < Info.TemplateParams.size(); ++I) {
        std::string Arg = normalizeSpelling(L.TemplateArgs[I]);
        if (V.Kind != "default" && (Arg == normalizeSpelling(V.Text) ||
                                    (!V.Symbol.empty() && Arg == V.Symbol)))
          F.TemplateParams.insert(Info.TemplateParams[I].Name);
      }
    }
    if (AllKnown && Total >= 8 && L.Block.Dims.size() > 1)
      F.Values.insert(Total);
    // A grid that divides by warps per block (Derivation::BlockFraction):
    // the body's reads of that symbol are tied to the block too.
    for (const ValueOrigin &G : L.Grid.Dims)
      if (G.Derived && G.Derived->BlockFraction > 1) {
        StringRef Name = unqualifiedName(G.Derived->BlockSymbol);
        F.Macros.insert(Name);
        F.Constants.insert(Name);
        for (const ValueOrigin &B : L.Block.Dims)
          if (B.Value && *B.Value % G.Derived->BlockFraction == 0)
            F.GroupCounts.insert(*B.Value / G.Derived->BlockFraction);
      }
  }
  if (F.Macros.empty() && F.Constants.empty() && F.TemplateParams.empty() &&
      F.Values.empty() && F.HalfValues.empty() && F.GroupCounts.empty())
    return;
  F.TraverseStmt(Kernel->getBody());
}

} // namespace cro
