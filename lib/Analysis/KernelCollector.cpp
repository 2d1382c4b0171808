#include "cro/Analysis/KernelCollector.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace llvm;

namespace cro {

namespace {
class KernelFinder : public RecursiveASTVisitor<KernelFinder> {
public:
  explicit KernelFinder(const SourceText &Text) : Text(Text) {}
  std::vector<const FunctionDecl *> Kernels;

  bool TraverseDecl(Decl *D) {
    // Only the user's files' declarations (not the toolkit's or the
    // library's); namespaces may be reopened in headers, so check every
    // declaration rather than each namespace.
    if (D && !isa<TranslationUnitDecl>(D) && !isa<NamespaceDecl>(D) &&
        !isa<LinkageSpecDecl>(D) && !Text.inUserFile(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody() ||
        FD->isInvalidDecl())
      return true;
    if (FD->isTemplateInstantiation())
      return true;
    Kernels.push_back(FD);
    return true;
  }

private:
  const SourceText &Text;
};
} // namespace

std::vector<const FunctionDecl *>
collectKernelDefinitions(ASTContext &Ctx, const SourceText &Text) {
  KernelFinder F(Text);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Kernels;
}

static std::string typeString(QualType T, const ASTContext &Ctx) {
  PrintingPolicy PP(Ctx.getLangOpts());
  PP.SuppressTagKeyword = true;
  return T.getAsString(PP);
}

/// The canonical pointee types of parameter Index in the instantiations of
/// a kernel template (the launches Sema saw: `row_stats<float><<<...>>>`
/// instantiates `row_stats<float>`), each once.
static std::vector<std::string>
instantiatedPointeeTypes(const FunctionTemplateDecl *Template, unsigned Index) {
  std::vector<std::string> Types;
  for (const FunctionDecl *Spec : Template->specializations()) {
    if (Index >= Spec->getNumParams())
      continue;
    QualType Pointee = Spec->getParamDecl(Index)->getType()->getPointeeType();
    if (Pointee.isNull() || Pointee->isDependentType())
      continue;
    std::string T =
        Pointee.getCanonicalType().getUnqualifiedType().getAsString();
    if (!llvm::is_contained(Types, T))
      Types.push_back(std::move(T));
  }
  return Types;
}

static std::vector<ParamInfo> describeParams(const FunctionDecl *FD,
                                             const SourceText &Text) {
  const ASTContext &Ctx = Text.context();
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<ParamInfo> Params;
  const FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate();
  for (const ParmVarDecl *P : FD->parameters()) {
    ParamInfo PI;
    PI.Name = P->getNameAsString();
    QualType T = P->getType();
    PI.Type = typeString(T, Ctx);
    PI.IsConst = T.isConstQualified();
    PI.IsRestrict = T.isRestrictQualified();
    PI.Span = Text.span(P->getSourceRange());
    if (!PI.Name.empty() && P->getLocation().isFileID())
      PI.NameOffset = Text.programOffset(P->getLocation());
    if (const auto *PT = T->getAs<PointerType>()) {
      PI.IsPointer = true;
      PI.PointeeType = typeString(PT->getPointeeType(), Ctx);
      PI.CanonicalPointeeType = PT->getPointeeType()
                                    .getCanonicalType()
                                    .getUnqualifiedType()
                                    .getAsString();
      if (Template && PT->getPointeeType()->isDependentType())
        PI.InstantiatedPointeeTypes =
            instantiatedPointeeTypes(Template, P->getFunctionScopeIndex());
      PI.PointeeConst = PT->getPointeeType().isConstQualified();
      PI.Access = "none";
      PI.ConstEdit = pointeeConstEdit(P, Text);
    }
    Params.push_back(std::move(PI));
  }
  return Params;
}

void describeKernelSignature(const FunctionDecl *Kernel, const SourceText &Text,
                             KernelInfo &Info) {
  const ASTContext &Ctx = Text.context();
  Info.Name = qualifiedName(Kernel);
  Info.Location = Text.location(Kernel->getLocation());
  Info.InMainFile = Text.inMainFile(Kernel->getLocation());
  Info.Span = Text.span(Kernel->getSourceRange());
  Info.Params = describeParams(Kernel, Text);
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    // "const float *" -> "const float*": the compact form C++ users write.
    std::string T = P->getType().getAsString(Policy);
    for (size_t At; (At = T.find(" *")) != std::string::npos ||
                    (At = T.find(" &")) != std::string::npos;)
      T.erase(At, 1);
    Info.Signature += (Info.Signature.empty() ? "" : ",") + T;
  }
  Info.Id = Info.Name;
  Info.NameOffset = Text.programOffset(Kernel->getLocation());
  SourceLocation DeclBegin = Kernel->getBeginLoc();
  if (const FunctionTemplateDecl *FTD = Kernel->getDescribedFunctionTemplate())
    DeclBegin = FTD->getBeginLoc();
  Info.DeclLineOffset = Text.lineSpan(DeclBegin).BeginOffset;
  if (const Stmt *Body = Kernel->getBody())
    Info.BodySpan = Text.span(Body->getSourceRange());
  // Prototypes: a signature change must be made to each of them too.
  const Decl *Canonical = Kernel;
  if (const FunctionTemplateDecl *FTD = Kernel->getDescribedFunctionTemplate())
    Canonical = FTD;
  for (const Decl *R : Canonical->redecls()) {
    const auto *FD = dyn_cast<FunctionDecl>(R);
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(R))
      FD = FTD->getTemplatedDecl();
    if (!FD || FD == Kernel)
      continue;
    if (Text.inMainFile(FD->getLocation()))
      Info.Redeclarations.push_back(describeParams(FD, Text));
    else
      Info.DeclaredInHeader = true;
  }
  if (const auto *CD = Kernel->getAttr<CUDAClusterDimsAttr>())
    Info.ClusterDims = Text.text(CD->getRange());
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    KernelInfo::LaunchBounds B;
    B.Span = Text.span(LB->getRange());
    auto Describe = [&](const Expr *E, ValueOrigin &V) {
      if (!E) {
        V.Kind = "default";
        return;
      }
      V.Text = Text.text(E);
      V.Value = evaluateInt(E, Ctx);
      V.Symbol = Text.wholeMacroName(E);
      if (!V.Symbol.empty())
        V.Kind = "macro";
      else if (isa<IntegerLiteral>(stripCasts(E)))
        V.Kind = "literal";
      else if (V.Value)
        V.Kind = "constant-expr";
      else
        V.Kind = E->isValueDependent() ? "template-param" : "runtime";
    };
    Describe(LB->getMaxThreads(), B.MaxThreads);
    Describe(LB->getMinBlocks(), B.MinBlocks);
    Describe(LB->getMaxBlocks(), B.MaxBlocksPerCluster);
    Info.Bounds = std::move(B);
  }
  if (const FunctionTemplateDecl *FTD =
          Kernel->getDescribedFunctionTemplate()) {
    for (const NamedDecl *ND : *FTD->getTemplateParameters()) {
      TemplateParamInfo TP;
      TP.Name = ND->getNameAsString();
      if (const auto *TTP = dyn_cast<TemplateTypeParmDecl>(ND)) {
        TP.Kind = "type";
        if (TTP->hasDefaultArgument())
          TP.Default = Text.text(TTP->getDefaultArgument().getSourceRange());
      } else if (const auto *NTTP = dyn_cast<NonTypeTemplateParmDecl>(ND)) {
        TP.Kind = "non-type";
        TP.Type = typeString(NTTP->getType(), Ctx);
        if (NTTP->hasDefaultArgument())
          TP.Default = Text.text(NTTP->getDefaultArgument().getSourceRange());
      } else {
        TP.Kind = "template";
      }
      Info.TemplateParams.push_back(std::move(TP));
    }
  }
}

} // namespace cro
