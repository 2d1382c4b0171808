//===- ASTHelpers.h - small queries on Clang ASTs shared by the analyses --===//
#ifndef CRO_ANALYSIS_ASTHELPERS_H
#define CRO_ANALYSIS_ASTHELPERS_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Analysis/ProgramText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class PreprocessingRecord;
}

namespace cro {

/// Formats locations and source text for one translation unit. Locations in
/// the main file are printed with the name the user gave for it. Offsets
/// (SourceSpan, programOffset) are offsets in the program text of the
/// user's files (ProgramText.h) when one is given; without one, and in files
/// that are not the user's, they are offsets in the file.
class SourceText {
public:
  /// ToolkitRoot: files under it are the toolkit's even when a -I names
  /// its include directory (then Clang does not call them system headers).
  SourceText(clang::ASTContext &Ctx, std::string MainFileDisplayName,
             std::string ToolkitRoot = "", ProgramText *Program = nullptr)
      : Ctx(Ctx), MainName(std::move(MainFileDisplayName)),
        ToolkitRoot(std::move(ToolkitRoot)), Program(Program) {}

  /// Adds the user's files this parse entered (the main file first) to the
  /// program text, unless a file is there already (the other parse added
  /// it), and where the user's files include each: Record's `#include`
  /// lines (the parse's detailed preprocessing record; without one, no
  /// included file is known to be included by a line the tool can change).
  void addUserFilesToProgram(const clang::PreprocessingRecord *Record);
  /// The program text offsets are in (the main file's text without one).
  llvm::StringRef programSource() const;
  /// "file:line:col" of an offset in programSource().
  std::string locationAt(unsigned Offset) const;
  /// The offset of Loc's expansion location in programSource() (or in its
  /// file, for a file that is not the user's).
  unsigned programOffset(clang::SourceLocation Loc) const;

  /// "file:line:col" of the expansion location.
  std::string location(clang::SourceLocation Loc) const;
  /// The source text of R as the user spelled it (macro invocations, not
  /// their expansions).
  std::string text(clang::SourceRange R) const;
  std::string text(const clang::Stmt *S) const {
    return S ? text(S->getSourceRange()) : "";
  }
  SourceSpan span(clang::SourceRange R) const;
  /// The span of statement S in the main file, its terminating `;`
  /// included (an expression statement's range stops before it).
  SourceSpan statementSpan(const clang::Stmt *S) const;
  /// The file range R was written at: through macro arguments to their
  /// spelling, else the whole macro invocation.
  clang::CharSourceRange fileRange(clang::SourceRange R) const;
  /// True when Loc (after macro expansion) is in the main file.
  bool inMainFile(clang::SourceLocation Loc) const;
  /// True when Loc (after macro expansion) is in a file of the user's
  /// program: the main file, or a file it includes that is not a system
  /// header (-isystem, the C++ library, CCCL), not under the toolkit root
  /// and not one of the tool's embedded headers. Kernels and launches are
  /// modelled wherever this holds.
  bool inUserFile(clang::SourceLocation Loc) const;
  /// The macro whose whole expansion is E (e.g. BLOCK for `BLOCK` expanding
  /// to 256), or "" when E is not exactly one macro invocation.
  std::string wholeMacroName(const clang::Expr *E) const;
  /// The name of the outermost macro whose expansion produced Loc, or "".
  std::string expansionMacroName(clang::SourceLocation Loc) const;

  /// The whole line holding Loc (expansion location), without its newline.
  SourceSpan lineSpan(clang::SourceLocation Loc) const;
  /// The spaces and tabs that start the line holding Loc.
  std::string indentation(clang::SourceLocation Loc) const;

  clang::ASTContext &context() const { return Ctx; }

private:
  /// How a file other than the main one is named in locations.
  std::string displayPath(llvm::StringRef Path) const;
  /// The offset in the program text where file F starts (0 for a file not
  /// in it, whose offsets stay those of the file).
  unsigned baseOf(clang::FileID F) const;
  /// The identity of F in the program text: its real path, else its name.
  std::string pathKey(clang::FileID F) const;

  clang::ASTContext &Ctx;
  std::string MainName;
  std::string ToolkitRoot;
  ProgramText *Program;
  mutable llvm::DenseMap<clang::FileID, unsigned> Bases;
};

/// Strips parentheses, implicit casts and value-preserving explicit casts
/// (C casts, static_cast, functional casts to an integer type).
const clang::Expr *stripCasts(const clang::Expr *E);

/// The integer value of E when it is a constant expression (never evaluates
/// dependent expressions).
std::optional<int64_t> evaluateInt(const clang::Expr *E,
                                   const clang::ASTContext &Ctx);

/// The width in bits of an integer type T, else 0 (what an index or index
/// variable is computed in: 64 for `size_t`, 32 for `int`).
unsigned integerBits(clang::QualType T, const clang::ASTContext &Ctx);

/// "threadIdx.x" for the CUDA builtin member reads, else nullopt.
std::optional<std::string> cudaBuiltinName(const clang::Expr *E);

/// Text with all whitespace removed and redundant outer parentheses gone;
/// used to compare spellings ("( BLOCK )" == "BLOCK").
std::string normalizeSpelling(llvm::StringRef Text);

/// Variables of Body that are assigned, incremented, have their address
/// taken or bind to a non-const reference after their declaration.
llvm::DenseSet<const clang::VarDecl *>
modifiedVariables(const clang::Stmt *Body);

/// Where each variable modifiedVariables counts is modified: the
/// assignment or increment; an invalid location for an address taken or a
/// non-const reference bound, through which it may change anywhere.
llvm::DenseMap<const clang::VarDecl *,
               llvm::SmallVector<clang::SourceLocation, 2>>
modificationSites(const clang::Stmt *Body);

/// Like modifiedVariables, but plain assignments (`v = e`) do not count:
/// what else changes a variable besides being assigned.
llvm::DenseSet<const clang::VarDecl *>
modifiedVariablesExceptAssignment(const clang::Stmt *Body);

/// The dimensions ("x", "y", "z") of threadIdx, blockIdx and blockDim that
/// Kernel reads, in its body or any function it calls (through their
/// definitions), sorted.
std::vector<std::string> threadDimsUsed(const clang::FunctionDecl *Kernel);

/// The function FD was instantiated from, or FD itself.
const clang::FunctionDecl *templatePattern(const clang::FunctionDecl *FD);

/// Fully qualified name of FD without template arguments ("ns::kern").
std::string qualifiedName(const clang::NamedDecl *D);

/// The edit of pointer declaration D (a parameter or a local) that makes its
/// pointee const, in text Text: see PointeeConstEdit. Macros are text, so
/// `const DATA_TYPE *p` works whatever DATA_TYPE expands to; the pointee
/// a typedef hides is spelled only where the kernel's scope can name it (a
/// builtin type, or a named class or enum at namespace scope).
PointeeConstEdit pointeeConstEdit(const clang::DeclaratorDecl *D,
                                  const SourceText &Text);

} // namespace cro

#endif
