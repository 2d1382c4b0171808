//===- ProgramText.h - the user's files of a program as one text ----------===//
//
// A kernel may be defined in a file the input includes (main.cu includes
// kernels.cu), and a rewrite may have to edit both. Rather than teaching every
// transform about files, the model places the user's files one after another
// in one text: the main file at offset 0, each other user file (in the order
// the parse first entered it) after the previous one and a newline. Every
// SourceSpan and offset of the model is an offset in this text, transforms
// read and edit it as they read and edited the main file, and the rewrite
// engine cuts the edited text back into files.
//
// Offsets in this text say nothing about the order of the translation unit
// (main.cu's code after `#include "kernels.cu"` has smaller offsets than the
// included kernels); textBefore() gives what precedes an offset in the
// translation unit as far as the user's files tell.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_ANALYSIS_PROGRAMTEXT_H
#define CRO_ANALYSIS_PROGRAMTEXT_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cro {

/// Where a user file is included: the file name of an `#include` line as
/// written, quotes or angle brackets included, in the program text.
struct IncludeDirective {
  unsigned NameBegin = 0, NameEnd = 0;
  /// The file whose directive it is (an index into ProgramText::files()).
  unsigned Includer = 0;
};

/// The path of Target from the directory From (both absolute, dots
/// removed): "../common/x.h".
std::string pathFrom(llvm::StringRef From, llvm::StringRef Target);

struct ProgramFile {
  /// The path the parse opened it by, dots removed (absolute for the main
  /// file and the files it reaches by relative includes).
  std::string Path;
  /// How locations name it (the main file as the user gave it; others
  /// relative to that when they are beside or below it).
  std::string Display;
  /// Its path from the main file's directory when it is that directory or
  /// below it ("kernels/a.cu"), else "": a rewritten copy of it can be
  /// written only where its includers find it, which the tool knows for
  /// files of the main file's tree.
  std::string RelativePath;
  unsigned Begin = 0; ///< offset of its first byte in the program text
  unsigned Size = 0;
  /// Where the user's files include it (empty for the main file, and for a
  /// file whose every inclusion is through a macro or another tool's file).
  /// In the order the parse met them.
  std::vector<IncludeDirective> IncludedAt;
  /// Also included other than by an `#include "..."` line of a user file
  /// (through a macro, -include, a system header): a rewritten copy would
  /// not replace it everywhere.
  bool IncludedWithoutDirective = false;
};

class ProgramText {
public:
  /// Adds a file (the first one added is the main file); its index.
  unsigned addFile(llvm::StringRef Path, llvm::StringRef Display,
                   llvm::StringRef RelativePath, llvm::StringRef Text);
  void addInclusion(unsigned File, IncludeDirective D);
  void markIncludedWithoutDirective(unsigned File) {
    Files[File].IncludedWithoutDirective = true;
  }

  /// The whole text: every file, each followed by a newline.
  llvm::StringRef text() const { return Text; }
  const std::vector<ProgramFile> &files() const { return Files; }
  /// The text of one file, as on disk.
  llvm::StringRef textOf(const ProgramFile &F) const {
    return llvm::StringRef(Text).substr(F.Begin, F.Size);
  }
  /// The file with this path (as the parse opened it, dots removed).
  const ProgramFile *find(llvm::StringRef Path) const;
  /// The file holding Offset (its terminating newline included), or null.
  const ProgramFile *fileAt(unsigned Offset) const;
  unsigned indexOf(const ProgramFile &F) const { return &F - Files.data(); }

  /// "file:line:col" of Offset.
  std::string location(unsigned Offset) const;

  /// What precedes Offset in the translation unit, as far as the user's
  /// files tell: for a file included by another, the includer's text before
  /// the `#include` line (recursively), then the file's own text up to
  /// Offset. For the main file, its text up to Offset.
  std::string textBefore(unsigned Offset) const;

  /// What identifies the program's sources (a tuning result holds for
  /// them): the main file's text, then for each other file a NUL, its path
  /// from the main file's directory ("kernels/a.cu", "../common/x.h": the
  /// same wherever the tree is checked out), a NUL and its text. For a
  /// program of one file, that file's text.
  std::string identityText() const;

private:
  std::vector<ProgramFile> Files;
  std::string Text;
};

} // namespace cro

#endif
