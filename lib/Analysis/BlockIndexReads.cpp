#include "cro/Analysis/BlockIndexReads.h"
#include "cro/Analysis/StmtQueries.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include <set>

using namespace clang;
using namespace llvm;

namespace cro {

namespace {

/// "blockIdx.x" -> "x" when the builtin is blockIdx or gridDim.
std::optional<std::pair<std::string, std::string>>
blockBuiltin(const Expr *E) {
  std::optional<std::string> B = cudaBuiltinName(E);
  if (!B)
    return std::nullopt;
  auto [Base, Dim] = StringRef(*B).split('.');
  if (Base != "blockIdx" && Base != "gridDim")
    return std::nullopt;
  return std::make_pair(Base.str(), Dim.str());
}

/// For a function that reads the block's number or the grid's extent
/// without spelling blockIdx.d / gridDim.d: the dimension the special
/// register it reads ("__nvvm_read_ptx_sreg_ctaid_x"), or "" for all of them
/// (blockIdx or gridDim converted whole to uint3/dim3); nullopt for any
/// other function.
std::optional<std::string> blockRegisterRead(const FunctionDecl *FD) {
  if (!FD)
    return std::nullopt;
  if (const auto *Conv = dyn_cast<CXXConversionDecl>(FD)) {
    StringRef Class = Conv->getParent()->getName();
    if (Class == "__cuda_builtin_blockIdx_t" ||
        Class == "__cuda_builtin_gridDim_t")
      return std::string();
    return std::nullopt;
  }
  StringRef Name = FD->getName();
  for (StringRef Prefix :
       {"__nvvm_read_ptx_sreg_ctaid_", "__nvvm_read_ptx_sreg_nctaid_"})
    if (Name.consume_front(Prefix) && (Name == "x" || Name == "y" || Name == "z"))
      return Name.str();
  return std::nullopt;
}

/// The blockIdx/gridDim dimensions a called function reads (its body and
/// the functions it calls), or nullopt when that cannot be known: a call
/// without a known target, a function defined outside this translation
/// unit, recursion deeper than the analysis follows, inline assembly.
std::optional<std::set<std::string>>
dimsReadByCall(const CallExpr *C, DenseSet<const FunctionDecl *> &Seen,
               unsigned Depth);

bool collectDims(const Stmt *S, std::set<std::string> &Dims,
                 DenseSet<const FunctionDecl *> &Seen, unsigned Depth) {
  if (!S)
    return true;
  if (isa<AsmStmt>(S))
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (auto B = blockBuiltin(E)) {
      Dims.insert(B->second);
      return true;
    }
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    std::optional<std::set<std::string>> In = dimsReadByCall(C, Seen, Depth);
    if (!In)
      return false;
    Dims.insert(In->begin(), In->end());
  }
  for (const Stmt *Child : S->children())
    if (!collectDims(Child, Dims, Seen, Depth))
      return false;
  return true;
}

std::optional<std::set<std::string>>
dimsReadByCall(const CallExpr *C, DenseSet<const FunctionDecl *> &Seen,
               unsigned Depth) {
  std::set<std::string> Dims;
  const FunctionDecl *FD = C->getDirectCallee();
  if (std::optional<std::string> Dim = blockRegisterRead(FD)) {
    if (Dim->empty())
      return std::set<std::string>{"x", "y", "z"};
    Dims.insert(*Dim);
    return Dims;
  }
  if (!FD) {
    // A pseudo-destructor or a call of a builtin through its name.
    if (isa<CXXPseudoDestructorExpr>(C->getCallee()->IgnoreParenImpCasts()))
      return Dims;
    return std::nullopt;
  }
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def)) {
    // Compiler builtins and the toolkit's body-less declarations (math
    // functions, intrinsics) do not read the block's number; a function of
    // the program defined in another translation unit might.
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    if (FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation()))
      return Dims;
    return std::nullopt;
  }
  if (Depth >= 8)
    return std::nullopt;
  if (!Seen.insert(Def).second)
    return Dims;
  if (!collectDims(Def->getBody(), Dims, Seen, Depth + 1))
    return std::nullopt;
  return Dims;
}

class ReadFinder : public NestCountingVisitor<ReadFinder> {
  using Base = NestCountingVisitor<ReadFinder>;

public:
  ReadFinder(const SourceText &Text, const KernelInfo &Info,
             BlockIndexReads &Out)
      : Text(Text), Info(Info), Out(Out) {}

  /// A lambda's return leaves the lambda; its reads of blockIdx are still
  /// the kernel's (its body is the kernel's text).
  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++LambdaDepth;
    unsigned SavedNest = Nest;
    Nest = 0;
    bool R = Base::TraverseLambdaExpr(L);
    Nest = SavedNest;
    --LambdaDepth;
    return R;
  }
  bool VisitReturnStmt(ReturnStmt *S) {
    if (LambdaDepth == 0)
      Out.Returns.push_back({Text.statementSpan(S), Nest > 0});
    return true;
  }
  /// `blockIdx.x` is a property whose semantic form calls the register
  /// read; only the syntactic form is the kernel's text.
  bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
    if (!WalkUpFromPseudoObjectExpr(E))
      return false;
    return TraverseStmt(E->getSyntacticForm());
  }
  bool VisitPseudoObjectExpr(PseudoObjectExpr *E) {
    auto B = blockBuiltin(E);
    if (!B)
      return true;
    auto &[Builtin, Dim] = *B;
    BlockIndexReads::Dim &D = Out.Dims[Dim];
    SourceSpan S = Text.span(E->getSourceRange());
    StringRef Buf = Text.programSource();
    std::string Written =
        S.EndOffset > S.BeginOffset && S.EndOffset <= Buf.size()
            ? normalizeSpelling(Buf.slice(S.BeginOffset, S.EndOffset))
            : "";
    bool InBody = S.BeginOffset >= Info.BodySpan.BeginOffset &&
                  S.EndOffset <= Info.BodySpan.EndOffset;
    if (!InBody || Written != Builtin + "." + Dim) {
      std::string Macro = Text.expansionMacroName(E->getBeginLoc());
      obstacle(D, Builtin + "." + Dim + " at " +
                      Text.location(E->getBeginLoc()) + " is read " +
                      (Macro.empty() ? std::string("where the kernel's text "
                                                   "cannot change it")
                                     : "inside the macro '" + Macro + "'") +
                      ", which the rewrite cannot change for this kernel "
                      "alone");
      return true;
    }
    (Builtin == "blockIdx" ? D.BlockIdx : D.GridDim).push_back(S);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    // A lambda written in the body: its reads are the kernel's text, seen
    // (and replaced) where they are written.
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(FD);
        M && M->getParent()->isLambda()) {
      SourceSpan S = Text.span(M->getSourceRange());
      if (S.BeginOffset >= Info.BodySpan.BeginOffset &&
          S.EndOffset <= Info.BodySpan.EndOffset)
        return true;
    }
    std::string Where = Text.location(C->getBeginLoc());
    if (std::optional<std::string> Dim = blockRegisterRead(FD)) {
      std::string Why =
          Dim->empty()
              ? "blockIdx or gridDim is read whole (converted to uint3/dim3) "
                "at " + Where
              : "the special register read at " + Where +
                    " gives the block's number or the grid's extent";
      for (const char *D : {"x", "y", "z"})
        if (Dim->empty() || *Dim == D)
          obstacle(Out.Dims[D], Why);
      return true;
    }
    DenseSet<const FunctionDecl *> Seen;
    std::optional<std::set<std::string>> Dims = dimsReadByCall(C, Seen, 0);
    std::string Name = FD ? "'" + FD->getNameAsString() + "'" : "";
    if (!Dims) {
      std::string Why =
          FD ? "the function " + Name + " called at " + Where +
                   " may read the block's number (its definition is not "
                   "in this translation unit, or is too deep to follow)"
             : "the call at " + Where +
                   " has no known target, which may read the block's "
                   "number";
      for (const char *Dim : {"x", "y", "z"})
        obstacle(Out.Dims[Dim], Why);
      return true;
    }
    for (const std::string &Dim : *Dims)
      obstacle(Out.Dims[Dim], "the device function " + Name + " called at " +
                                  Where + " reads blockIdx." + Dim +
                                  " or gridDim." + Dim);
    return true;
  }
  bool VisitAsmStmt(AsmStmt *S) {
    for (const char *Dim : {"x", "y", "z"})
      obstacle(Out.Dims[Dim], "the inline assembly at " +
                                  Text.location(S->getAsmLoc()) +
                                  " may read the block's number");
    return true;
  }

private:
  static void obstacle(BlockIndexReads::Dim &D, std::string Why) {
    if (D.Obstacle.empty())
      D.Obstacle = std::move(Why);
  }
  const SourceText &Text;
  const KernelInfo &Info;
  BlockIndexReads &Out;
  unsigned LambdaDepth = 0;
};

} // namespace

void analyzeBlockIndexReads(const FunctionDecl *Kernel, const SourceText &Text,
                            KernelInfo &Info) {
  Info.BlockReads = BlockIndexReads();
  for (const char *Dim : {"x", "y", "z"})
    Info.BlockReads.Dims[Dim];
  if (!Kernel || !Kernel->getBody())
    return;
  ReadFinder F(Text, Info, Info.BlockReads);
  F.TraverseStmt(Kernel->getBody());
}

} // namespace cro
