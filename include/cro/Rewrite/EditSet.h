//===- EditSet.h - the source edits and compiler flags of one variant -----===//
//
// Transforms never write text themselves: they add edits (byte ranges of the
// original main file and their new text) and compiler flags to an EditSet.
// Edits from different knobs may not overlap -- the set says which two knobs
// collide, and where -- except that identical edits are kept once and
// insertions at one offset are kept in the order they were made.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_REWRITE_EDITSET_H
#define CRO_REWRITE_EDITSET_H

#include "cro/Analysis/ProgramText.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cro {

/// True when most of Source's line breaks are "\r\n": lines the tool adds
/// are written so too.
bool usesCRLF(llvm::StringRef Source);

struct Edit {
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
  std::string Origin; ///< the knob (or step) that made it
};

class EditSet {
public:
  EditSet(llvm::StringRef Source, llvm::StringRef FilePath)
      : Source(Source), FilePath(FilePath.str()) {}
  /// Edits of a program text (ProgramText.h): messages name the file and
  /// line an offset falls in.
  explicit EditSet(const ProgramText &Program)
      : Source(Program.text()), Program(&Program) {}

  /// Edits made from now on are attributed to Origin in conflict messages.
  void setOrigin(llvm::StringRef O) { Origin = O.str(); }

  llvm::Error replace(unsigned Offset, unsigned Length, llvm::StringRef Text);
  llvm::Error insert(unsigned Offset, llvm::StringRef Text) {
    return replace(Offset, 0, Text);
  }
  /// A flag for nvcc (kept once, in order).
  void addFlag(llvm::StringRef Flag);

  bool empty() const { return Edits.empty() && Flags.empty(); }
  const std::vector<Edit> &edits() const { return Edits; }
  const std::vector<std::string> &flags() const { return Flags; }

  /// The edits as clang::tooling::Replacements (insertions at one offset
  /// merged in the order they were made).
  llvm::Expected<clang::tooling::Replacements> replacements() const;
  /// The rewritten source.
  llvm::Expected<std::string> apply() const;

  /// "file:line:col" of Offset in the original source.
  std::string location(unsigned Offset) const;

private:
  llvm::StringRef Source;
  std::string FilePath;
  const ProgramText *Program = nullptr;
  std::string Origin;
  std::vector<Edit> Edits;
  std::vector<std::string> Flags;
};

} // namespace cro

#endif
