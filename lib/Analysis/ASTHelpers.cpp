#include "cro/Analysis/ASTHelpers.h"
#include "cro/Frontend/ResourceHeaders.h"
#include "cro/Support/TextLines.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessingRecord.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace clang;
using namespace llvm;

namespace cro {

std::string SourceText::location(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation E = SM.getExpansionLoc(SM.getTopMacroCallerLoc(Loc));
  PresumedLoc P = SM.getPresumedLoc(E, /*UseLineDirectives=*/false);
  if (P.isInvalid())
    return "<unknown>";
  std::string File =
      SM.isInMainFile(E) ? MainName : displayPath(P.getFilename());
  return File + ":" + std::to_string(P.getLine()) + ":" +
         std::to_string(P.getColumn());
}

std::string SourceText::displayPath(StringRef Path) const {
  // A file beside or below the main one is named from the main file's name
  // as the user gave it ("src/k.cu" includes "kernels/a.cu": "src/kernels/
  // a.cu"), not from the absolute path the parse resolved it to, so that
  // messages and --analyze do not depend on where the tree is checked out.
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main)
    return Path.str();
  SmallString<256> Clean(Path);
  sys::path::remove_dots(Clean, /*remove_dot_dot=*/true);
  StringRef MainDir = sys::path::parent_path(Main->getName());
  StringRef Rest = Clean;
  if (MainDir.empty() || !Rest.consume_front(MainDir) ||
      !Rest.consume_front("/"))
    return Clean.str().str();
  SmallString<256> Shown(sys::path::parent_path(MainName));
  sys::path::append(Shown, Rest);
  return Shown.str().str();
}

CharSourceRange SourceText::fileRange(SourceRange R) const {
  const SourceManager &SM = Ctx.getSourceManager();
  // Code written as a macro argument -- CHECK(cudaLaunchKernel(...)),
  // __launch_bounds__(BLOCK) -- is described by its own spelling, not by the
  // whole macro invocation around it.
  SourceLocation B = SM.getTopMacroCallerLoc(R.getBegin());
  SourceLocation E = SM.getTopMacroCallerLoc(R.getEnd());
  CharSourceRange CR = SM.getExpansionRange(SourceRange(B, E));
  if (CR.getBegin().isInvalid() || CR.getEnd().isInvalid() ||
      SM.getFileID(CR.getBegin()) != SM.getFileID(CR.getEnd()) ||
      SM.isBeforeInTranslationUnit(CR.getEnd(), CR.getBegin()))
    CR = SM.getExpansionRange(R);
  return CR;
}

std::string SourceText::text(SourceRange R) const {
  if (R.isInvalid())
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange CR = fileRange(R);
  bool Invalid = false;
  StringRef T = Lexer::getSourceText(CR, SM, Ctx.getLangOpts(), &Invalid);
  return Invalid ? "" : T.str();
}

SourceSpan SourceText::span(SourceRange R) const {
  SourceSpan S;
  if (R.isInvalid())
    return S;
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange CR = fileRange(R);
  SourceLocation End =
      Lexer::getLocForEndOfToken(CR.getEnd(), 0, SM, Ctx.getLangOpts());
  if (!CR.isTokenRange())
    End = CR.getEnd();
  S.Begin = location(CR.getBegin());
  S.End = location(CR.getEnd());
  unsigned Base = baseOf(SM.getFileID(CR.getBegin()));
  S.BeginOffset = Base + SM.getFileOffset(CR.getBegin());
  S.EndOffset = End.isValid() ? Base + SM.getFileOffset(End) : S.BeginOffset;
  return S;
}

SourceSpan SourceText::statementSpan(const Stmt *S) const {
  SourceSpan Sp = span(S->getSourceRange());
  const SourceManager &SM = Ctx.getSourceManager();
  // The statement's file, and where it starts in the program text.
  FileID F = SM.getFileID(fileRange(S->getSourceRange()).getBegin());
  StringRef Buffer = SM.getBufferData(F);
  unsigned Base = baseOf(F);
  unsigned E = Sp.EndOffset - Base;
  while (E < Buffer.size() && (Buffer[E] == ' ' || Buffer[E] == '\t'))
    ++E;
  if (E < Buffer.size() && Buffer[E] == ';' && !isa<CompoundStmt>(S))
    Sp.EndOffset = Base + E + 1;
  return Sp;
}

SourceSpan SourceText::lineSpan(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation E = SM.getExpansionLoc(Loc);
  auto [FID, Offset] = SM.getDecomposedLoc(E);
  StringRef Buf = SM.getBufferData(FID);
  unsigned Begin = lineStart(Buf, Offset);
  unsigned End = lineEnd(Buf, Offset);
  SourceSpan S;
  SourceLocation Start = SM.getComposedLoc(FID, Begin);
  S.Begin = location(Start);
  S.End = location(SM.getComposedLoc(FID, End));
  S.BeginOffset = baseOf(FID) + Begin;
  S.EndOffset = baseOf(FID) + End;
  return S;
}

std::string SourceText::indentation(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  auto [FID, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  return lineIndent(SM.getBufferData(FID), Offset).str();
}

std::string SourceText::pathKey(FileID F) const {
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef File = SM.getFileEntryRefForID(F);
  if (!File)
    return "";
  StringRef Real = File->getFileEntry().tryGetRealPathName();
  SmallString<256> Key(Real.empty() ? File->getName() : Real);
  sys::path::remove_dots(Key, /*remove_dot_dot=*/true);
  return Key.str().str();
}

unsigned SourceText::baseOf(FileID F) const {
  if (!Program || F.isInvalid())
    return 0;
  auto It = Bases.find(F);
  if (It != Bases.end())
    return It->second;
  const ProgramFile *PF = Program->find(pathKey(F));
  unsigned Base = PF ? PF->Begin : 0;
  Bases[F] = Base;
  return Base;
}

unsigned SourceText::programOffset(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  auto [FID, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  return baseOf(FID) + Offset;
}

StringRef SourceText::programSource() const {
  if (Program)
    return Program->text();
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.getBufferData(SM.getMainFileID());
}

std::string SourceText::locationAt(unsigned Offset) const {
  if (Program)
    return Program->location(Offset);
  const SourceManager &SM = Ctx.getSourceManager();
  return location(SM.getComposedLoc(SM.getMainFileID(), Offset));
}

void SourceText::addUserFilesToProgram(const PreprocessingRecord *Record) {
  if (!Program)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  SmallString<256> MainDir(Main ? sys::path::parent_path(Main->getName())
                                : StringRef());
  sys::path::remove_dots(MainDir, /*remove_dot_dot=*/true);
  // File entries in the order the parse entered them: the main file first.
  std::vector<FileID> Entered;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile() || !E.getFile().getContentCache().OrigEntry)
      continue;
    FileID F =
        SM.getDecomposedLoc(SourceLocation::getFromRawEncoding(E.getOffset()))
            .first;
    if (F.isValid() && inUserFile(SM.getLocForStartOfFile(F)))
      Entered.push_back(F);
  }
  std::stable_partition(Entered.begin(), Entered.end(),
                        [&](FileID F) { return F == SM.getMainFileID(); });
  for (FileID F : Entered) {
    std::string Key = pathKey(F);
    if (Key.empty() || Program->find(Key))
      continue;
    bool IsMain = F == SM.getMainFileID();
    OptionalFileEntryRef File = SM.getFileEntryRefForID(F);
    SmallString<256> Clean(File->getName());
    sys::path::remove_dots(Clean, /*remove_dot_dot=*/true);
    StringRef Rest = Clean;
    std::string Relative;
    if (IsMain)
      Relative = sys::path::filename(Clean).str();
    else if (!MainDir.empty() && Rest.consume_front(MainDir) &&
             Rest.consume_front("/"))
      Relative = Rest.str();
    Program->addFile(Key, IsMain ? MainName : displayPath(File->getName()),
                     Relative, SM.getBufferData(F));
  }
  // Where the user's files are included: every `#include` line the parse
  // processed (the preprocessing record keeps the lines a header guard
  // made a no-op too, which the file entries above do not show).
  if (!Record) {
    for (FileID F : Entered)
      if (const ProgramFile *PF = Program->find(pathKey(F));
          PF && F != SM.getMainFileID())
        Program->markIncludedWithoutDirective(Program->indexOf(*PF));
    return;
  }
  for (const PreprocessedEntity *E :
       *const_cast<PreprocessingRecord *>(Record)) {
    const auto *ID = dyn_cast_or_null<InclusionDirective>(E);
    if (!ID || !ID->getFile())
      continue;
    // The included file, if it is one of the user's.
    StringRef Real = ID->getFile()->getFileEntry().tryGetRealPathName();
    SmallString<256> Key(Real.empty() ? ID->getFile()->getName() : Real);
    sys::path::remove_dots(Key, /*remove_dot_dot=*/true);
    const ProgramFile *Target = Program->find(Key);
    if (!Target)
      continue;
    unsigned TargetIndex = Program->indexOf(*Target);
    SourceLocation Hash = ID->getSourceRange().getBegin();
    const ProgramFile *From =
        Hash.isFileID() ? Program->find(pathKey(SM.getFileID(Hash))) : nullptr;
    if (!From) { // a line of a system header or of the command line
      Program->markIncludedWithoutDirective(TargetIndex);
      continue;
    }
    auto [Includer, Offset] = SM.getDecomposedLoc(Hash);
    StringRef Buf = SM.getBufferData(Includer);
    unsigned LineBegin = lineStart(Buf, Offset);
    StringRef Line = Buf.slice(LineBegin, lineEnd(Buf, Offset));
    StringRef Directive = Line.ltrim(" \t");
    bool Ok = Directive.consume_front("#");
    Directive = Directive.ltrim(" \t");
    Ok = Ok && Directive.consume_front("include");
    Directive = Directive.ltrim(" \t");
    char Open = Directive.empty() ? 0 : Directive.front();
    size_t Close = Directive.find(Open == '<' ? '>' : '"', 1);
    // `#include KERNELS` names the file through a macro: no line to change.
    if (!Ok || (Open != '"' && Open != '<') || Close == StringRef::npos) {
      Program->markIncludedWithoutDirective(TargetIndex);
      continue;
    }
    unsigned NameBegin =
        From->Begin + LineBegin + (Directive.data() - Line.data());
    Program->addInclusion(
        TargetIndex,
        {NameBegin, NameBegin + unsigned(Close) + 1, Program->indexOf(*From)});
  }
}

bool SourceText::inMainFile(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  return Loc.isValid() && SM.isInMainFile(SM.getExpansionLoc(Loc));
}

bool SourceText::inUserFile(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Loc.isInvalid())
    return false;
  SourceLocation E = SM.getExpansionLoc(Loc);
  if (SM.isInMainFile(E))
    return true;
  if (SM.isInSystemHeader(E))
    return false;
  OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(E));
  if (!File) // <built-in>, <command line>
    return false;
  StringRef Real = File->getFileEntry().tryGetRealPathName();
  StringRef Path = Real.empty() ? File->getName() : Real;
  if (Path.starts_with(EmbeddedRoot) &&
      Path.drop_front(EmbeddedRoot.size()).starts_with("/"))
    return false;
  if (!ToolkitRoot.empty() && Path.starts_with(ToolkitRoot) &&
      Path.drop_front(ToolkitRoot.size()).starts_with("/"))
    return false;
  return true;
}

std::string SourceText::expansionMacroName(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Loc.isMacroID())
    return "";
  // Walk out to the outermost expansion; its spelling starts with the name.
  SourceLocation Exp = SM.getExpansionLoc(Loc);
  StringRef Buf = SM.getCharacterData(Exp);
  size_t Len = 0;
  while (Len < Buf.size() && (isAlnum(Buf[Len]) || Buf[Len] == '_'))
    ++Len;
  return Buf.take_front(Len).str();
}

std::string SourceText::wholeMacroName(const Expr *E) const {
  if (!E)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation B = SM.getTopMacroCallerLoc(E->getBeginLoc());
  SourceLocation En = SM.getTopMacroCallerLoc(E->getEndLoc());
  if (!B.isMacroID() || !En.isMacroID())
    return "";
  // The expression must be all of one expansion: the 256 inside
  // `#define GRID ((n + 255) / 256)` is not the macro GRID.
  SourceLocation ExpB, ExpE;
  if (!Lexer::isAtStartOfMacroExpansion(B, SM, LO, &ExpB) ||
      !Lexer::isAtEndOfMacroExpansion(En, SM, LO, &ExpE))
    return "";
  if (SM.getExpansionRange(B).getBegin() != SM.getExpansionRange(En).getBegin())
    return "";
  return expansionMacroName(B);
}

const Expr *stripCasts(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *CE = dyn_cast<CStyleCastExpr>(Next))
      Next = CE->getSubExpr();
    else if (const auto *SC = dyn_cast<CXXStaticCastExpr>(Next))
      Next = SC->getSubExpr();
    else if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Next))
      Next = FC->getSubExpr();
    else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = MT->getSubExpr();
    else if (const auto *ST = dyn_cast<SubstNonTypeTemplateParmExpr>(Next))
      Next = ST->getReplacement();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

std::optional<int64_t> evaluateInt(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      E->isInstantiationDependent() || E->containsErrors())
    return std::nullopt;
  if (!E->getType()->isIntegralOrEnumerationType() &&
      !E->getType()->isRealFloatingType())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType()) {
    if (!E->EvaluateAsInt(R, Ctx) || R.HasSideEffects)
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  }
  return std::nullopt;
}

unsigned integerBits(QualType T, const ASTContext &Ctx) {
  return !T.isNull() && T->isIntegerType() ? unsigned(Ctx.getTypeSize(T)) : 0;
}

std::optional<std::string> cudaBuiltinName(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  const auto *POE = dyn_cast_or_null<PseudoObjectExpr>(E);
  if (!POE)
    return std::nullopt;
  const auto *Prop =
      dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
  if (!Prop)
    return std::nullopt;
  const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Base);
  if (!DRE)
    return std::nullopt;
  StringRef Var = DRE->getDecl()->getName();
  if (Var != "threadIdx" && Var != "blockIdx" && Var != "blockDim" &&
      Var != "gridDim")
    return std::nullopt;
  return (Var + "." + Prop->getPropertyDecl()->getName()).str();
}

std::string normalizeSpelling(StringRef Text) {
  std::string S;
  for (char C : Text)
    if (!isSpace(C))
      S.push_back(C);
  // Remove outer parentheses only when they enclose everything.
  while (S.size() >= 2 && S.front() == '(' && S.back() == ')') {
    int Depth = 0;
    bool Encloses = true;
    for (size_t I = 0; I < S.size(); ++I) {
      Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
      if (Depth == 0 && I + 1 < S.size()) {
        Encloses = false;
        break;
      }
    }
    if (!Encloses)
      break;
    S = S.substr(1, S.size() - 2);
  }
  return S;
}

namespace {
class ModifiedVarFinder : public RecursiveASTVisitor<ModifiedVarFinder> {
public:
  DenseSet<const VarDecl *> Vars;
  DenseMap<const VarDecl *, SmallVector<SourceLocation, 2>> Sites;
  bool SkipPlainAssignments = false;

  void noteTarget(const Expr *E, SourceLocation Where) {
    E = E->IgnoreParenImpCasts();
    // `v.x = ...` modifies v.
    while (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase()->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        Vars.insert(VD);
        Sites[VD].push_back(Where);
      }
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() &&
        !(SkipPlainAssignments && BO->getOpcode() == BO_Assign))
      noteTarget(BO->getLHS(), BO->getExprLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() ||
        (UO->getOpcode() == UO_AddrOf && !LaunchArgument.count(UO)))
      // Through an address taken, the variable may change anywhere later.
      noteTarget(UO->getSubExpr(), UO->isIncrementDecrementOp()
                                       ? UO->getExprLoc()
                                       : SourceLocation());
    return true;
  }
  /// `void *args[] = {&a, &n};`, the argument array cudaLaunchKernel takes:
  /// the kernel receives copies of the values, so taking their address
  /// there does not let anything change them.
  DenseSet<const UnaryOperator *> LaunchArgument;
  void noteLaunchArgumentArray(const VarDecl *VD) {
    const auto *AT = VD->getASTContext().getAsArrayType(VD->getType());
    const auto *Init = dyn_cast_or_null<InitListExpr>(VD->getInit());
    if (!AT || !Init || !AT->getElementType()->isVoidPointerType())
      return;
    for (const Expr *E : Init->inits())
      if (const auto *UO = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts()))
        if (UO->getOpcode() == UO_AddrOf)
          LaunchArgument.insert(UO);
  }
  /// A call a template leaves unresolved until instantiation
  /// (`cuda::std::fmin(v, hi)` with v of type T): argument I may bind to a
  /// non-const reference unless every candidate takes it by value or const
  /// reference. Only a qualified name's candidates are all known now (ADL
  /// may add others at instantiation).
  static bool mayBindByReference(const UnresolvedLookupExpr *ULE, unsigned I) {
    if (ULE->requiresADL())
      return true;
    for (const NamedDecl *D : ULE->decls()) {
      const FunctionDecl *F = D->getUnderlyingDecl()->getAsFunction();
      if (!F)
        return true;
      unsigned N = F->getNumParams();
      const ParmVarDecl *P = I < N ? F->getParamDecl(I) : nullptr;
      if (N > 0 && F->getParamDecl(N - 1)->isParameterPack() &&
          (!P || I >= N - 1))
        P = F->getParamDecl(N - 1); // the pack takes the rest
      if (!P)
        continue; // C varargs (copies), or a candidate that cannot match
      QualType T = P->getType();
      if (const auto *PE = T->getAs<PackExpansionType>())
        T = PE->getPattern();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        return true;
    }
    return false;
  }
  /// `acc(s, v)` with `void acc(float &s, float v)`: the callee may change
  /// what it gets by non-const reference; a non-const member function may
  /// change its object. Without a declaration to tell (a call through a
  /// pointer), every argument that is not read as a value counts.
  bool VisitCallExpr(CallExpr *C) {
    if (isa<CXXOperatorCallExpr>(C))
      return true; // assignments and increments: below
    const FunctionDecl *FD = C->getDirectCallee();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      if (const CXXMethodDecl *MD = MC->getMethodDecl();
          MD && !MD->isConst() && !MD->isStatic())
        noteTarget(MC->getImplicitObjectArgument(), C->getExprLoc());
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      const Expr *A = C->getArg(I);
      bool ByReference;
      if (FD && I < FD->getNumParams()) {
        QualType T = FD->getParamDecl(I)->getType();
        ByReference = T->isReferenceType() &&
                      !T.getNonReferenceType().isConstQualified();
      } else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(
                     C->getCallee()->IgnoreParenImpCasts())) {
        ByReference = A->isGLValue() && mayBindByReference(ULE, I);
      } else {
        ByReference = !FD && A->isGLValue();
      }
      if (ByReference)
        noteTarget(A, C->getExprLoc());
    }
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() || OC->getOperator() == OO_PlusPlus ||
        OC->getOperator() == OO_MinusMinus)
      if (OC->getNumArgs() > 0)
        noteTarget(OC->getArg(0), OC->getExprLoc());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    noteLaunchArgumentArray(VD);
    // `int &r = x;` lets x change through r.
    if (VD->getType()->isReferenceType() &&
        !VD->getType().getNonReferenceType().isConstQualified() &&
        VD->getInit())
      noteTarget(VD->getInit(), SourceLocation()); // anywhere, through r
    return true;
  }
};
} // namespace

DenseSet<const VarDecl *> modifiedVariables(const Stmt *Body) {
  ModifiedVarFinder F;
  if (Body)
    F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Vars;
}

DenseMap<const VarDecl *, SmallVector<SourceLocation, 2>>
modificationSites(const Stmt *Body) {
  ModifiedVarFinder F;
  if (Body)
    F.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(F.Sites);
}

DenseSet<const VarDecl *>
modifiedVariablesExceptAssignment(const Stmt *Body) {
  ModifiedVarFinder F;
  F.SkipPlainAssignments = true;
  if (Body)
    F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Vars;
}

namespace {
void collectThreadDims(const Stmt *S, std::set<std::string> &Dims,
                       DenseSet<const FunctionDecl *> &Seen, unsigned Depth) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<std::string> B = cudaBuiltinName(E)) {
      StringRef N = *B;
      if (N.starts_with("threadIdx.") || N.starts_with("blockIdx.") ||
          N.starts_with("blockDim."))
        Dims.insert(N.substr(N.find('.') + 1).str());
    }
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = C->getDirectCallee()) {
      const FunctionDecl *Def = nullptr;
      if (Depth < 8 && FD->hasBody(Def) && Seen.insert(Def).second)
        collectThreadDims(Def->getBody(), Dims, Seen, Depth + 1);
    }
  for (const Stmt *Child : S->children())
    collectThreadDims(Child, Dims, Seen, Depth);
}
} // namespace

std::vector<std::string> threadDimsUsed(const FunctionDecl *Kernel) {
  std::set<std::string> Dims;
  DenseSet<const FunctionDecl *> Seen;
  if (Kernel)
    collectThreadDims(Kernel->getBody(), Dims, Seen, 0);
  return std::vector<std::string>(Dims.begin(), Dims.end());
}

const FunctionDecl *templatePattern(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  if (const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate())
    return Primary->getTemplatedDecl();
  if (const FunctionDecl *From = FD->getTemplateInstantiationPattern())
    return From;
  return FD;
}

std::string qualifiedName(const NamedDecl *D) {
  std::string S;
  raw_string_ostream OS(S);
  PrintingPolicy PP(D->getASTContext().getLangOpts());
  PP.SuppressTemplateArgsInCXXConstructors = true;
  D->printQualifiedName(OS, PP);
  return S;
}

} // namespace cro

namespace cro {

/// The declared type's location under qualifiers and attributes
/// (`__restrict__`, address spaces).
static clang::TypeLoc declaredTypeLoc(const clang::DeclaratorDecl *D) {
  const clang::TypeSourceInfo *TSI = D->getTypeSourceInfo();
  if (!TSI)
    return clang::TypeLoc();
  clang::TypeLoc TL = TSI->getTypeLoc().getUnqualifiedLoc();
  while (auto ATL = TL.getAs<clang::AttributedTypeLoc>())
    TL = ATL.getModifiedLoc().getUnqualifiedLoc();
  return TL;
}

static bool declarationStartWritable(const clang::DeclaratorDecl *D,
                                     const clang::ASTContext &Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Begin = D->getBeginLoc();
  return D->getLocation().isFileID() &&
         (Begin.isFileID() || (clang::Lexer::isAtStartOfMacroExpansion(
                                   Begin, SM, Ctx.getLangOpts()) &&
                               SM.getExpansionLoc(Begin).isFileID()));
}

PointeeConstEdit pointeeConstEdit(const clang::DeclaratorDecl *D,
                                  const SourceText &Text) {
  PointeeConstEdit Edit;
  const clang::ASTContext &Ctx = Text.context();
  clang::TypeLoc TL = declaredTypeLoc(D);
  if (TL.isNull() || !D->getType()->isPointerType() ||
      !declarationStartWritable(D, Ctx))
    return Edit;
  if (!TL.getAs<clang::PointerTypeLoc>().isNull()) {
    Edit.InsertAt = Text.programOffset(D->getBeginLoc());
    return Edit;
  }
  // A prefix would qualify the pointer: replace the type's name.
  if (auto ATL = TL.getAs<clang::AutoTypeLoc>();
      !ATL.isNull() && ATL.getNameLoc().isFileID() &&
      ATL.getTypePtr()->getKeyword() == clang::AutoTypeKeyword::Auto &&
      !ATL.isConstrained()) {
    Edit.Replace = Text.span(ATL.getSourceRange());
    Edit.With = "const auto *";
    return Edit;
  }
  auto TDL = TL.getAs<clang::TypedefTypeLoc>();
  if (TDL.isNull() || !TDL.getNameLoc().isFileID())
    return Edit;
  clang::QualType C = D->getType()->getPointeeType().getCanonicalType();
  const auto *Tag = C->getAsTagDecl();
  if (!C->isBuiltinType() &&
      !(Tag && Tag->getIdentifier() && Tag->getDeclContext()->isFileContext()))
    return Edit;
  clang::PrintingPolicy PP(Ctx.getLangOpts());
  PP.SuppressTagKeyword = true;
  PP.FullyQualifiedName = true;
  Edit.Replace = Text.span(TDL.getSourceRange());
  Edit.With =
      (C.isConstQualified() ? C : Ctx.getConstType(C)).getAsString(PP) + " *";
  return Edit;
}

} // namespace cro
