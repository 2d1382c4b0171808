#include "cro/Analysis/SerialScan.h"
#include "cro/Analysis/StmtQueries.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <functional>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

const Expr *strip(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (const auto *EWC = dyn_cast_or_null<ExprWithCleanups>(E))
    E = EWC->getSubExpr();
  return E ? E->IgnoreParens() : nullptr;
}

/// Toolkit functions whose calls do something every thread of a group
/// would repeat: printing, allocating, trapping.
bool effectfulToolkitCall(StringRef Name) {
  static const char *Names[] = {
      "printf", "vprintf", "malloc",  "free",         "memcpy",
      "memset", "__trap",  "__brkpt", "__assertfail", "__assert_fail"};
  return llvm::is_contained(Names, Name);
}

/// Why evaluating E again, in another thread, could change something: an
/// assignment or increment, a call of a function the program defines or of
/// a toolkit function with effects. "" when it cannot.
std::string effects(const Expr *E, const SourceText &Text) {
  if (!E)
    return "";
  if (isa<PseudoObjectExpr>(E->IgnoreParens()))
    return cudaBuiltinName(E->IgnoreParens())
               ? ""
               : "'" + Text.text(E) + "' calls a property accessor";
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    return "'" + Text.text(E) + "' at " + Text.location(E->getBeginLoc()) +
           " assigns";
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->isIncrementDecrementOp())
    return "'" + Text.text(E) + "' at " + Text.location(E->getBeginLoc()) +
           " changes a variable";
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = C->getDirectCallee();
    const SourceManager &SM = Text.context().getSourceManager();
    bool WritesThrough =
        FD && llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
          QualType T = P->getType();
          return (T->isPointerType() &&
                  !T->getPointeeType().isConstQualified()) ||
                 (T->isReferenceType() &&
                  !T.getNonReferenceType().isConstQualified());
        });
    if (!FD || !SM.isInSystemHeader(FD->getLocation()) ||
        effectfulToolkitCall(FD->getName()) || WritesThrough)
      return "'" + Text.text(E) + "' at " + Text.location(E->getBeginLoc()) +
             " calls a function that may have effects";
  }
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (std::string W = effects(CE, Text); !W.empty())
        return W;
  return "";
}

/// Whether a warp shuffle moves a value of canonical type T.
bool shuffleable(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  const auto *B = T->getAs<BuiltinType>();
  if (!B)
    return false;
  switch (B->getKind()) {
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::Long:
  case BuiltinType::ULong:
  case BuiltinType::LongLong:
  case BuiltinType::ULongLong:
  case BuiltinType::Float:
  case BuiltinType::Double:
    return true;
  default:
    return false;
  }
}

/// Why an addition computed in type Computed does not keep a running total
/// of type Total ("" when it does): each step converts the total back, so
/// adding the terms in another order would not reproduce it. What names the
/// total ("the element's type", "the running total's type").
std::string convertsBack(QualType Computed, QualType Total, StringRef What) {
  if (Computed.getCanonicalType() ==
      Total.getCanonicalType().getUnqualifiedType())
    return "";
  return "the addition is computed in '" + Computed.getAsString() +
         "', not in " + What.str() + " '" + Total.getAsString() +
         "': each step converts the total back to its type, which a group "
         "adding in another order would not reproduce";
}

const ArraySubscriptExpr *subscriptOf(const Expr *E) {
  return E ? dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()) : nullptr;
}

const VarDecl *arrayOf(const ArraySubscriptExpr *A) {
  return A ? referencedVar(A->getBase()) : nullptr;
}

bool namesVar(const Stmt *S, const VarDecl *V) {
  return S && referencedVars(S).count(V);
}

/// A sum written `p + t1 + ... + tn` without parentheses, which C parses
/// as `((p + t1) + ...) + tn`: its leftmost operand p and the operands t1
/// ... tn, whose text, from t1 to tn, is one expression adding them on
/// their own. Empty (Lead null) when Sum's left operand is not itself such
/// an addition.
struct LeadingAddend {
  const Expr *Lead = nullptr;
  std::vector<const Expr *> Rest;            ///< t1 ... tn
  std::vector<const BinaryOperator *> Steps; ///< the additions, inner first
  clang::SourceRange RestRange;
};

LeadingAddend leadingAddend(const BinaryOperator *Sum) {
  LeadingAddend Out;
  std::vector<const BinaryOperator *> Chain{Sum};
  const auto *B = dyn_cast<BinaryOperator>(Sum->getLHS()->IgnoreImpCasts());
  while (B && B->getOpcode() == BO_Add) {
    Chain.push_back(B);
    B = dyn_cast<BinaryOperator>(B->getLHS()->IgnoreImpCasts());
  }
  if (Chain.size() < 2)
    return Out;
  Out.Lead = Chain.back()->getLHS();
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    Out.Steps.push_back(*It);
    Out.Rest.push_back((*It)->getRHS());
  }
  Out.RestRange = {Chain.back()->getRHS()->getBeginLoc(), Sum->getEndLoc()};
  return Out;
}

/// The type operand E is added in after integer promotion: a bit-field
/// of 32 bits or fewer promotes to int or unsigned int whatever its
/// declared type (C++ [conv.prom]), a char or short to int.
QualType promotedType(const Expr *E, ASTContext &Ctx) {
  const Expr *Bare = E->IgnoreParenImpCasts();
  if (QualType B = Ctx.isPromotableBitField(const_cast<Expr *>(Bare));
      !B.isNull())
    return B;
  QualType T = Bare->getType().getCanonicalType().getUnqualifiedType();
  if (T->isIntegerType() && Ctx.isPromotableIntegerType(T))
    return Ctx.getPromotedIntegerType(T);
  return T;
}

/// The type C's usual arithmetic conversions give the sum of two operands
/// of (promoted) types A and B; null for types other than real arithmetic
/// ones.
QualType commonArithmeticType(QualType A, QualType B, ASTContext &Ctx) {
  if (A == B)
    return A;
  if (!A->isArithmeticType() || !B->isArithmeticType() ||
      A->isAnyComplexType() || B->isAnyComplexType())
    return {};
  if (A->isRealFloatingType() || B->isRealFloatingType()) {
    if (!A->isRealFloatingType())
      return B;
    if (!B->isRealFloatingType())
      return A;
    return Ctx.getFloatingTypeOrder(A, B) >= 0 ? A : B;
  }
  if (!A->isIntegerType() || !B->isIntegerType() || A->isEnumeralType() ||
      B->isEnumeralType())
    return {};
  bool SignedA = A->isSignedIntegerType(), SignedB = B->isSignedIntegerType();
  if (SignedA == SignedB)
    return Ctx.getIntegerTypeOrder(A, B) >= 0 ? A : B;
  QualType U = SignedA ? B : A, S = SignedA ? A : B;
  if (Ctx.getIntegerTypeOrder(U, S) >= 0)
    return U;
  if (Ctx.getIntWidth(S) > Ctx.getIntWidth(U))
    return S;
  return Ctx.getCorrespondingUnsignedType(S);
}

/// "" when the terms of A, added on their own, are computed in Total and
/// every step of the original is too, else why not. The original converts
/// each term to Total as it adds it; alone, the first two terms add in
/// their common type, which must be Total (the later ones then add to a
/// Total, as in the original): `(long long)a[k] + b[k]` of a long long
/// total is fine, `a[k] + b[k]` of two ints is not (alone they would add,
/// and wrap, in int), and neither are two chars into an unsigned total
/// (they add in int).
std::string addsAloneIn(const LeadingAddend &A, QualType Total, StringRef What,
                        const SourceText &Text) {
  for (const BinaryOperator *Step : A.Steps)
    if (std::string Why = convertsBack(Step->getType(), Total, What);
        !Why.empty())
      return Why;
  ASTContext &Ctx = Text.context();
  QualType Want = Total.getCanonicalType().getUnqualifiedType();
  QualType First = promotedType(A.Rest[0], Ctx),
           Second = promotedType(A.Rest[1], Ctx);
  QualType Alone = commonArithmeticType(First, Second, Ctx);
  if (Alone.isNull() || Alone != Want)
    return "the terms '" + Text.text(A.Rest[0]) + "' and '" +
           Text.text(A.Rest[1]) +
           "' added on their own would be computed in '" +
           (Alone.isNull() ? std::string("another type")
                           : Alone.getAsString()) +
           "', not in " + What.str() + " '" + Total.getAsString() + "'";
  return "";
}

/// A pointer the term reads through other than by a subscript or `*` on
/// it (`__ldcg(prev + k - 1)`, a call given the pointer): the model records
/// no access there, so nothing tells which elements it reads. "" when there
/// is none but `__restrict__` parameters, which the original promises
/// overlap no memory the kernel writes.
std::string pointerReadOutsideAccess(const Stmt *S, bool AsBase = false) {
  if (!S)
    return "";
  if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (AsBase || !V || !V->getType()->isPointerType())
      return "";
    if (isa<ParmVarDecl>(V) && V->getType().isRestrictQualified())
      return "";
    return V->getNameAsString();
  }
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
    if (std::string P = pointerReadOutsideAccess(A->getBase(), true);
        !P.empty())
      return P;
    return pointerReadOutsideAccess(A->getIdx());
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->getOpcode() == UO_Deref)
    return pointerReadOutsideAccess(U->getSubExpr(), true);
  // The address a subscript or `*` reads: casts, parentheses and pointer
  // arithmetic keep it the address (its integer side is a value).
  if (AsBase) {
    if (const auto *E = dyn_cast<Expr>(S);
        E && (isa<CastExpr>(E) || isa<ParenExpr>(E)))
      return pointerReadOutsideAccess(*S->child_begin(), true);
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAdditiveOp()) {
      bool LeftIsPointer = B->getLHS()->getType()->isPointerType();
      if (std::string P = pointerReadOutsideAccess(B->getLHS(), LeftIsPointer);
          !P.empty())
        return P;
      return pointerReadOutsideAccess(B->getRHS(), !LeftIsPointer);
    }
  }
  for (const Stmt *C : S->children())
    if (std::string P = pointerReadOutsideAccess(C); !P.empty())
      return P;
  return "";
}

std::string pointerReadWhy(const std::string &Pointer) {
  return "the term reads through '" + Pointer +
         "' other than by a subscript or '*' (a call given the pointer), so "
         "nothing tells whether it reads what the scan writes; declare it "
         "a __restrict__ parameter if it never overlaps";
}

/// Whether R's ends are written in the file (not inside a macro), so that
/// its text can be copied as it is.
bool rangeAsIs(clang::SourceRange R) {
  return R.getBegin().isFileID() && R.getEnd().isFileID();
}

class Recognizer {
public:
  Recognizer(const FunctionDecl *Kernel, const SourceText &Text,
             KernelInfo &Info)
      : Kernel(Kernel), Text(Text), Info(Info) {}

  /// The loops that run a prefix sum, and the first reason a loop that
  /// stores a running total is not one of them.
  std::vector<std::pair<const ForStmt *, SerialScanInfo::Loop>> Found;
  std::string FirstWhy;

  void run(const Stmt *S) {
    if (!S)
      return;
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      SerialScanInfo::Loop L;
      std::string Why = recognize(F, L);
      if (Why.empty()) {
        Found.push_back({F, L});
        return;
      }
      if (Why != "-" && FirstWhy.empty())
        FirstWhy = Why;
    }
    for (const Stmt *C : S->children())
      run(C);
  }

private:
  const LoopInfo *loopAt(const Stmt *S) const {
    unsigned Offset = Text.span(S->getSourceRange()).BeginOffset;
    for (const LoopInfo &L : Info.Loops)
      if (L.Span.BeginOffset == Offset && L.Kind == "for")
        return &L;
    return nullptr;
  }

  const AccessInfo *accessAt(const Expr *E) const {
    return cro::accessAt(Info, Text.span(E->getSourceRange()));
  }

  /// The store's element moves with the counter by a constant: every
  /// iteration writes an element of its own. Its coefficient, or 0.
  int64_t stride(const AccessInfo *W, StringRef Counter) const {
    if (!W || W->Indices.size() != 1 || !W->Indices[0].Affine)
      return 0;
    return W->Indices[0]
        .Form.coefficient(Counter.str())
        .constantValue()
        .value_or(0);
  }

  /// Whether Prev is the element Store stored one step of Counter back.
  bool isStepBack(const ArraySubscriptExpr *Prev,
                  const ArraySubscriptExpr *Store, StringRef Counter) const {
    const AccessInfo *W = Store ? accessAt(Store) : nullptr;
    const AccessInfo *R = Prev ? accessAt(Prev) : nullptr;
    int64_t Step = stride(W, Counter);
    return R && Step && R->Indices.size() == 1 && R->Indices[0].Affine &&
           R->Indices[0].Form ==
               W->Indices[0].Form -
                   AffineExpr::constant(SymPoly::constant(Step));
  }

  /// "" when F is a prefix sum (L filled), "-" when its body stores no
  /// running total at all, else why it is not one.
  std::string recognize(const ForStmt *F, SerialScanInfo::Loop &Out) {
    std::optional<CanonicalFor> C = canonicalFor(F, Text.context());
    const LoopInfo *L = loopAt(F);
    if (!C || !L || !F->getBody())
      return "-";
    std::vector<const Stmt *> Body;
    if (const auto *CS = dyn_cast<CompoundStmt>(F->getBody()))
      Body.assign(CS->body_begin(), CS->body_end());
    else
      Body.push_back(F->getBody());
    std::string Loop = "loop " + L->Id + " at " + L->Location + ": ";
    std::string Counter = C->Var->getNameAsString();
    SerialScanInfo::Loop S;
    S.Id = L->Id;
    S.Counter = Counter;
    S.CounterType = C->Var->getType().getUnqualifiedType().getAsString(
        Text.context().getPrintingPolicy());
    const ArraySubscriptExpr *Store = nullptr;
    const BinaryOperator *StoreStmt = nullptr;
    QualType Type;
    if (Body.size() == 1) {
      // x[k] += x[k - 1];  x[k] = x[k - 1] + t;  x[k] = t + x[k - 1];
      const auto *B = dyn_cast_or_null<BinaryOperator>(strip(Body[0]));
      if (!B)
        return "-";
      Store = subscriptOf(B->getLHS());
      const VarDecl *X = arrayOf(Store);
      if (!X)
        return "-";
      const Expr *Prev = nullptr, *Term = nullptr;
      LeadingAddend Chain;
      if (const auto *CA = dyn_cast<CompoundAssignOperator>(B);
          CA && CA->getOpcode() == BO_AddAssign) {
        if (std::string Why =
                convertsBack(CA->getComputationResultType(), Store->getType(),
                             "the element's type");
            !Why.empty())
          return Loop + Why;
        Prev = B->getRHS();
        Term = B->getLHS();
      } else if (B->getOpcode() == BO_Assign) {
        const auto *Add =
            dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
        if (!Add || Add->getOpcode() != BO_Add)
          return "-";
        Chain = leadingAddend(Add);
        if (Chain.Lead && arrayOf(subscriptOf(Chain.Lead)) == X &&
            isStepBack(subscriptOf(Chain.Lead), Store, Counter)) {
          // `x[k - 1] + a[k] + b[k]`: the element one step back first of
          // several terms, which the group adds on their own.
          if (std::string Why = addsAloneIn(Chain, Store->getType(),
                                            "the element's type", Text);
              !Why.empty())
            return Loop + Why;
          if (!rangeAsIs(Chain.RestRange))
            return Loop + "the terms are written inside a macro";
          Prev = Chain.Lead;
          S.PreviousFirst = true;
        } else {
          Chain = LeadingAddend();
          // The operand that is the element one step back (`x[k] + x[k - 1]`
          // has the array on both sides).
          bool LeftIsPrev =
              arrayOf(subscriptOf(Add->getLHS())) == X &&
              isStepBack(subscriptOf(Add->getLHS()), Store, Counter);
          if (!LeftIsPrev && arrayOf(subscriptOf(Add->getRHS())) != X)
            LeftIsPrev = arrayOf(subscriptOf(Add->getLHS())) == X;
          if (std::string Why = convertsBack(Add->getType(), Store->getType(),
                                             "the element's type");
              !Why.empty())
            return Loop + Why;
          Prev = LeftIsPrev ? Add->getLHS() : Add->getRHS();
          Term = LeftIsPrev ? Add->getRHS() : Add->getLHS();
          S.PreviousFirst = LeftIsPrev;
        }
      } else {
        return "-";
      }
      const ArraySubscriptExpr *PrevElt = subscriptOf(Prev);
      if (arrayOf(PrevElt) != X)
        return "-";
      if (!isStepBack(PrevElt, Store, Counter))
        return Loop + "'" + Text.text(PrevElt) +
               "' is not the element the iteration before stores ('" +
               Text.text(Store) + "' one step of '" + Counter + "' back)";
      // The term reads the array only at the element it stores.
      const AccessInfo *W = accessAt(Store);
      std::string Stray;
      std::function<void(const Stmt *)> Walk = [&](const Stmt *T) {
        if (!T || !Stray.empty())
          return;
        if (const auto *A = dyn_cast<ArraySubscriptExpr>(T);
            A && arrayOf(A) == X) {
          const AccessInfo *RA = accessAt(A);
          if (!RA || RA->Indices.size() != 1 || !RA->Indices[0].Affine ||
              !(RA->Indices[0].Form == W->Indices[0].Form))
            Stray = Text.text(A);
          else
            Walk(A->getIdx());
          return;
        }
        if (const auto *DR = dyn_cast<DeclRefExpr>(T);
            DR && DR->getDecl() == X) {
          Stray = Text.text(DR);
          return;
        }
        for (const Stmt *Ch : T->children())
          Walk(Ch);
      };
      std::vector<const Expr *> Terms =
          Chain.Lead ? Chain.Rest : std::vector<const Expr *>{Term};
      for (const Expr *T : Terms)
        Walk(T);
      if (!Stray.empty())
        return Loop + "the term reads '" + Stray +
               "', which names the array the scan writes other than at the "
               "element it stores";
      for (const Expr *T : Terms) {
        if (std::string Why = effects(T, Text); !Why.empty())
          return Loop + "the term has effects: " + Why;
        if (std::string P = pointerReadOutsideAccess(T); !P.empty())
          return Loop + pointerReadWhy(P);
      }
      S.Form = "memory";
      S.Term = Text.span(Chain.Lead ? Chain.RestRange : Term->getSourceRange());
      S.Previous = Text.span(PrevElt->getSourceRange());
      S.Element = Text.span(Store->getSourceRange());
      StoreStmt = B;
      Type = Store->getType();
      if (!L->BodyChanges.empty())
        return Loop + "the body changes " + L->BodyChanges.front();
    } else if (Body.size() == 2) {
      // s += t; x[k] = s;  (or the store first: an exclusive scan)
      const VarDecl *Acc = nullptr;
      std::vector<const Expr *> Terms; // added to the total in an iteration
      clang::SourceRange TermRange;    // their text
      int AddAt = -1, StoreAt = -1;
      const VarDecl *X = nullptr;
      for (int I = 0; I < 2; ++I) {
        const auto *B = dyn_cast_or_null<BinaryOperator>(strip(Body[I]));
        if (!B)
          return "-";
        if (const auto *Elt = subscriptOf(B->getLHS());
            Elt && B->getOpcode() == BO_Assign) {
          X = arrayOf(Elt);
          Store = Elt;
          StoreStmt = B;
          StoreAt = I;
          continue;
        }
        const VarDecl *V = referencedVar(B->getLHS());
        if (!V || !isa<DeclRefExpr>(B->getLHS()->IgnoreParens()))
          return "-";
        if (B->getOpcode() == BO_AddAssign) {
          Terms = {B->getRHS()};
          TermRange = B->getRHS()->getSourceRange();
          if (std::string Why = convertsBack(
                  cast<CompoundAssignOperator>(B)->getComputationResultType(),
                  V->getType(), "the running total's type");
              !Why.empty())
            return Loop + Why;
        } else if (B->getOpcode() == BO_Assign) {
          const auto *Add =
              dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
          if (!Add || Add->getOpcode() != BO_Add)
            return "-";
          if (std::string Why = convertsBack(Add->getType(), V->getType(),
                                             "the running total's type");
              !Why.empty())
            return Loop + Why;
          auto IsTotal = [&](const Expr *E) {
            return E && referencedVar(E) == V &&
                   isa<DeclRefExpr>(E->IgnoreParenImpCasts());
          };
          if (IsTotal(Add->getLHS()))
            Terms = {Add->getRHS()};
          else if (IsTotal(Add->getRHS()))
            Terms = {Add->getLHS()};
          if (!Terms.empty()) {
            TermRange = Terms[0]->getSourceRange();
          } else if (LeadingAddend Chain = leadingAddend(Add);
                     IsTotal(Chain.Lead)) {
            // s = s + a[k] + b[k]: the terms after the total, on their own.
            if (std::string Why = addsAloneIn(Chain, V->getType(),
                                              "the running total's type", Text);
                !Why.empty())
              return Loop + Why;
            if (!rangeAsIs(Chain.RestRange))
              return Loop + "the terms are written inside a macro";
            Terms = Chain.Rest;
            TermRange = Chain.RestRange;
          } else {
            return "-";
          }
        } else {
          return "-";
        }
        Acc = V;
        AddAt = I;
      }
      if (!Acc || !Store || !X || AddAt == StoreAt)
        return "-";
      const Expr *Stored = StoreStmt->getRHS()->IgnoreParenImpCasts();
      if (!isa<DeclRefExpr>(Stored) || referencedVar(Stored) != Acc)
        return "-";
      if (Acc->getType()->isReferenceType() || !Acc->hasLocalStorage() ||
          Acc->isStaticLocal())
        return Loop + "the running total '" + Acc->getNameAsString() +
               "' is not a local variable";
      for (const Expr *Term : Terms) {
        if (namesVar(Term, Acc) || namesVar(Term, X))
          return Loop + "the term '" + Text.text(Term) +
                 "' reads the running total or the array the scan writes";
        if (std::string Why = effects(Term, Text); !Why.empty())
          return Loop + "the term has effects: " + Why;
        if (std::string P = pointerReadOutsideAccess(Term); !P.empty())
          return Loop + pointerReadWhy(P);
      }
      if (!stride(accessAt(Store), Counter))
        return Loop + "'" + Text.text(Store) +
               "' is not an element of its own in every iteration";
      for (const std::string &Change : L->BodyChanges)
        if (!StringRef(Change).starts_with("'" + Acc->getNameAsString() + "'"))
          return Loop + "the body changes " + Change;
      S.Form = "accumulator";
      S.Exclusive = StoreAt < AddAt;
      S.Accumulator = Acc->getNameAsString();
      S.Term = Text.span(TermRange);
      S.Element = Text.span(Store->getSourceRange());
      S.Store = Text.statementSpan(Body[StoreAt]);
      Type = Acc->getType();
    } else {
      return "-";
    }
    if (const AccessInfo *WA = accessAt(Store); !WA || WA->Space != "global")
      return Loop + "'" + Text.text(Store) + "' is not global memory (" +
             (WA ? WA->Space : std::string("not modelled")) +
             "): each thread of a group would store its iterations into its "
             "own copy";
    S.CounterBits = integerBits(C->Var->getType(), Text.context());
    if (!S.CounterBits || S.CounterBits > 64)
      return Loop + "the counter '" + Counter + "' is not an integer";
    S.CounterSigned = C->Var->getType()->isSignedIntegerType();
    if (!shuffleable(Type))
      return Loop + "the running total's type '" + Type.getAsString() +
             "' is not one a warp shuffle moves (int, long, long long, their "
             "unsigned forms, float, double)";
    if (Type->isDependentType())
      return Loop + "the running total's type depends on a template "
                    "parameter";
    S.Type = Type.getUnqualifiedType().getAsString(
        Text.context().getPrintingPolicy());
    if (!L->StripMineRefusal.empty())
      return Loop + L->StripMineRefusal;
    if (!L->BodyExit.empty())
      return Loop + "the body leaves the loop (" + L->BodyExit + ")";
    if (!isPure(F->getCond()))
      return Loop + "the condition '" + Text.text(F->getCond()) +
             "' reads memory or has effects, and each thread of the group "
             "evaluates it for its own iteration";
    if (!isPure(C->Begin))
      return Loop + "the first value '" + Text.text(C->Begin) +
             "' reads memory or has effects";
    if (C->DeclaredOutside)
      if (const DeclRefExpr *Read =
              readOutsideItsLoops(C->Var, Kernel->getBody(), F))
        return Loop + "the counter '" + Counter + "' is read after the loop (" +
               Text.location(Read->getBeginLoc()) +
               "), where a group of threads leaves another value";
    for (const Stmt *St :
         std::initializer_list<const Stmt *>{F, F->getCond(), C->Begin})
      if (!writtenAsIs(St))
        return Loop + "the loop is written inside a macro, which the "
                      "rewrite cannot change";
    for (const Stmt *St : Body)
      if (!writtenAsIs(St))
        return Loop + "the body is written inside a macro";
    S.Start = Text.span(C->Begin->getSourceRange());
    S.Condition = Text.span(F->getCond()->getSourceRange());
    if (S.Form == "memory")
      S.Store = Text.statementSpan(Body[0]);
    Out = S;
    return "";
  }

  const FunctionDecl *Kernel;
  const SourceText &Text;
  KernelInfo &Info;
};

/// Why a statement outside the scan loops could do something that every
/// thread of a group repeating it would do again ("" when it cannot): it
/// writes memory or a variable that is not a local, or calls a function
/// with effects.
class OutsideCheck {
public:
  OutsideCheck(const SourceText &Text, const KernelInfo &Info,
               const std::vector<const Stmt *> &Skip, unsigned FirstLoop)
      : Text(Text), Info(Info), Skip(Skip), FirstLoop(FirstLoop) {}

  std::string Why;
  /// Statements before the first scan loop, in no loop, that only write
  /// memory: one thread makes them (SerialScanInfo::HeadWrites).
  std::vector<const Stmt *> HeadWrites;

  void run(const Stmt *S) {
    if (!S || !Why.empty() || llvm::is_contained(Skip, S))
      return;
    if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : Block->body()) {
        if (headWrite(C))
          HeadWrites.push_back(C);
        else
          run(C);
      }
      return;
    }
    bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
                isa<CXXForRangeStmt>(S);
    Depth += Loop;
    if (const auto *E = dyn_cast<Expr>(S))
      Why = check(E);
    if (Why.empty())
      for (const Stmt *C : S->children())
        run(C);
    Depth -= Loop;
  }

private:
  static bool writesMemory(const Expr *Target) {
    const Expr *T = Target->IgnoreParenImpCasts();
    if (isa<ArraySubscriptExpr>(T))
      return true;
    if (const auto *U = dyn_cast<UnaryOperator>(T))
      return U->getOpcode() == UO_Deref;
    if (const auto *M = dyn_cast<MemberExpr>(T))
      return M->isArrow();
    return false;
  }

  /// `p[0] = v;` before the first loop and in no loop: an assignment to
  /// global memory (a thread's own memory must be written in every
  /// thread) whose operands have no effects.
  bool headWrite(const Stmt *S) const {
    const auto *B = dyn_cast_or_null<BinaryOperator>(strip(S));
    if (!B || !B->isAssignmentOp() || Depth || !writtenAsIs(S) ||
        Text.statementSpan(S).EndOffset > FirstLoop ||
        !writesMemory(B->getLHS()) || !effects(B->getRHS(), Text).empty())
      return false;
    const AccessInfo *Target = accessAt(
        Info, Text.span(B->getLHS()->IgnoreParenImpCasts()->getSourceRange()));
    if (!Target || Target->Space != "global")
      return false;
    for (const Stmt *C : B->getLHS()->IgnoreParenImpCasts()->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C);
          CE && !effects(CE, Text).empty())
        return false;
    return true;
  }

  std::string check(const Expr *E) {
    const Expr *Target = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
      Target = B->getLHS();
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->isIncrementDecrementOp())
      Target = U->getSubExpr();
    if (Target) {
      const Expr *T = Target->IgnoreParenImpCasts();
      const VarDecl *V = isa<DeclRefExpr>(T) ? referencedVar(T) : nullptr;
      if (!V || !V->hasLocalStorage() || V->isStaticLocal() ||
          V->getType()->isReferenceType())
        return "'" + Text.text(E) + "' at " + Text.location(E->getBeginLoc()) +
               " writes memory outside the scan loop, and not as a statement "
               "of its own before it, so every thread of the group would "
               "write it again";
      return "";
    }
    if (isa<CallExpr>(E))
      return effects(E, Text);
    return "";
  }

  const SourceText &Text;
  const KernelInfo &Info;
  const std::vector<const Stmt *> &Skip;
  unsigned FirstLoop;
  unsigned Depth = 0;
};

/// A read of memory outside the statements in Except, before offset End
/// (a local array's elements are the thread's own), or null.
const Expr *memoryReadBefore(const Stmt *S, unsigned End,
                             const std::vector<const Stmt *> &Except,
                             const SourceText &Text) {
  if (!S || llvm::is_contained(Except, S))
    return nullptr;
  if (const auto *E = dyn_cast<Expr>(S);
      E && Text.span(E->getSourceRange()).BeginOffset < End) {
    const Expr *Base = nullptr;
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      Base = A->getBase();
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->getOpcode() == UO_Deref)
      Base = U->getSubExpr();
    if (const auto *M = dyn_cast<MemberExpr>(E); M && M->isArrow())
      Base = M->getBase();
    if (Base) {
      const VarDecl *V = referencedVar(Base);
      bool OwnArray = V && V->hasLocalStorage() &&
                      V->getType()->isArrayType() &&
                      !V->hasAttr<CUDASharedAttr>();
      if (!OwnArray)
        return E;
    }
  }
  for (const Stmt *C : S->children())
    if (const Expr *R = memoryReadBefore(C, End, Except, Text))
      return R;
  return nullptr;
}

/// Why a function S calls (or one they call) reads blockDim: "" when none
/// does.
std::string calleeReadsBlockDim(const Stmt *S, const SourceText &Text,
                                unsigned Depth = 0) {
  if (!S || Depth > 8)
    return "";
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<std::string> B = cudaBuiltinName(E))
      return Depth && StringRef(*B).starts_with("blockDim")
                 ? "'" + *B + "' is read at " +
                       Text.location(E->getBeginLoc()) +
                       " in a function the statements after the scan call, "
                       "where a group's block would be seen"
                 : "";
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = C->getDirectCallee())
      if (FD->hasBody() && !Text.context().getSourceManager().isInSystemHeader(
                               FD->getLocation()))
        if (std::string Why =
                calleeReadsBlockDim(FD->getBody(), Text, Depth + 1);
            !Why.empty())
          return Why;
  for (const Stmt *C : S->children())
    if (std::string Why = calleeReadsBlockDim(C, Text, Depth); !Why.empty())
      return Why;
  return "";
}

std::string analyze(const FunctionDecl *Kernel, const SourceText &Text,
                    KernelInfo &Info, SerialScanInfo &Out) {
  const Stmt *Body = Kernel->getBody();
  if (!Body)
    return "the kernel has no body";
  Recognizer R(Kernel, Text, Info);
  R.run(Body);
  if (R.Found.empty())
    return R.FirstWhy.empty()
               ? "no loop stores a running total (x[k] = x[k - 1] + t, or "
                 "s += t; x[k] = s;)"
               : R.FirstWhy;
  if (Info.UsesSyncthreads || Info.UsesWarpIntrinsics)
    return "the kernel synchronizes or exchanges values between threads, "
           "which assumes its own block shape";
  if (Info.UsesAtomics)
    return "the kernel updates memory atomically";
  if (!Info.SharedArrays.empty())
    return "the kernel declares shared memory, which the group's threads "
           "would share";
  if (!Info.AsmStatements.empty())
    return "the kernel holds inline assembly (" + Info.AsmStatements.front() +
           ")";
  std::vector<const Stmt *> Skip;
  for (const auto &[F, L] : R.Found)
    Skip.push_back(F);
  // After the last loop, if no loop holds it, one thread runs the rest of
  // each block around it: that may write memory.
  const ForStmt *Last = R.Found.back().first;
  const LoopInfo *LastInfo = nullptr;
  for (const LoopInfo &L : Info.Loops)
    if (L.Id == R.Found.back().second.Id)
      LastInfo = &L;
  if (LastInfo && LastInfo->Depth == 0) {
    DynTypedNode Node = DynTypedNode::create(*static_cast<const Stmt *>(Last));
    while (true) {
      DynTypedNodeList Parents = Text.context().getParents(Node);
      if (Parents.empty())
        break;
      const Stmt *Child = Node.get<Stmt>();
      const auto *Block = Parents[0].get<CompoundStmt>();
      if (Block && Child) {
        const Stmt *const *It = llvm::find(Block->body(), Child);
        if (It != Block->body_end() && std::next(It) != Block->body_end()) {
          bool AsIs = writtenAsIs(*It) && Block->getRBracLoc().isFileID();
          if (!AsIs)
            return "the statements after the loop at " +
                   Text.location(Last->getBeginLoc()) +
                   " are in a macro, which the rewrite cannot change";
          SourceSpan Tail;
          Tail.BeginOffset = Text.statementSpan(*It).EndOffset;
          Tail.EndOffset = Text.programOffset(Block->getRBracLoc());
          Tail.Begin = Text.location(std::next(It)[0]->getBeginLoc());
          Out.Tails.push_back(Tail);
          for (const Stmt *const *After = std::next(It);
               After != Block->body_end(); ++After)
            Skip.push_back(*After);
        }
      }
      if (Parents[0].get<FunctionDecl>())
        break;
      Node = Parents[0];
    }
  }
  unsigned FirstLoop =
      Text.span(R.Found.front().first->getSourceRange()).BeginOffset;
  // What follows the last loop runs in thread 0, whose threadIdx is the
  // original's; but a function it calls that reads blockDim would see the
  // group's block.
  for (const Stmt *T : Skip)
    if (!llvm::any_of(R.Found, [&](const auto &F) { return F.first == T; }))
      if (std::string Why = calleeReadsBlockDim(T, Text); !Why.empty())
        return Why;
  OutsideCheck Outside(Text, Info, Skip, FirstLoop);
  Outside.run(Body);
  if (!Outside.Why.empty())
    return Outside.Why;
  // One thread makes the writes before the loop, each followed by a
  // barrier; the others must not read memory before the last of them, which
  // they could do before or after that write.
  if (!Outside.HeadWrites.empty()) {
    unsigned LastWrite = 0;
    for (const Stmt *W : Outside.HeadWrites)
      LastWrite = std::max(LastWrite, Text.statementSpan(W).EndOffset);
    if (const Expr *Read =
            memoryReadBefore(Body, LastWrite, Outside.HeadWrites, Text))
      return "'" + Text.text(Read) + "' at " +
             Text.location(Read->getBeginLoc()) +
             " reads memory before the scan, where one thread of the group "
             "writes '" +
             Text.text(strip(Outside.HeadWrites.front())) +
             "': another could read it before or after that write";
    for (const Stmt *W : Outside.HeadWrites)
      Out.HeadWrites.push_back(Text.statementSpan(W));
  }
  // Every read of threadIdx and blockDim, inside the loops too: the
  // group's threads all stand for the original's one thread.
  std::string Why;
  std::function<void(const Stmt *)> Builtins = [&](const Stmt *S) {
    if (!S || !Why.empty())
      return;
    if (const auto *E = dyn_cast<Expr>(S))
      if (std::optional<std::string> B = cudaBuiltinName(E)) {
        StringRef Var = StringRef(*B).split('.').first;
        if (Var == "threadIdx" || Var == "blockDim") {
          if (!writtenAsIs(E))
            Why = "'" + *B + "' at " + Text.location(E->getBeginLoc()) +
                  " is read inside a macro, which the rewrite cannot change";
          Out.Builtins.push_back({Text.span(E->getSourceRange()),
                                  Var == "threadIdx" ? "0u" : "1u"});
        }
        return;
      }
    for (const Stmt *C : S->children())
      Builtins(C);
  };
  Builtins(Body);
  if (!Why.empty())
    return Why;
  for (auto &[F, L] : R.Found)
    Out.Loops.push_back(std::move(L));
  return "";
}

} // namespace

void analyzeSerialScan(const FunctionDecl *Kernel, const SourceText &Text,
                       KernelInfo &Info) {
  Info.SerialScan = SerialScanInfo();
  SerialScanInfo Out;
  std::string Why = Kernel ? analyze(Kernel, Text, Info, Out) : "no kernel";
  if (!Why.empty()) {
    Info.SerialScan = SerialScanInfo();
    Info.SerialScan.Why = Why;
    return;
  }
  Out.Why = "";
  Info.SerialScan = std::move(Out);
}

} // namespace cro
