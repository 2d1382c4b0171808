#include "cro/Analysis/ProgramText.h"
#include "cro/Support/TextLines.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cro {

unsigned ProgramText::addFile(StringRef Path, StringRef Display,
                              StringRef RelativePath, StringRef FileText) {
  ProgramFile F;
  F.Path = Path.str();
  F.Display = Display.str();
  F.RelativePath = RelativePath.str();
  F.Begin = Text.size();
  F.Size = FileText.size();
  Text += FileText;
  // A newline after each file: no token of one file runs into the next.
  Text += '\n';
  Files.push_back(std::move(F));
  return Files.size() - 1;
}

void ProgramText::addInclusion(unsigned File, IncludeDirective D) {
  for (const IncludeDirective &Old : Files[File].IncludedAt)
    if (Old.NameBegin == D.NameBegin)
      return; // both parses report the same line
  Files[File].IncludedAt.push_back(D);
}

const ProgramFile *ProgramText::find(StringRef Path) const {
  for (const ProgramFile &F : Files)
    if (F.Path == Path)
      return &F;
  return nullptr;
}

const ProgramFile *ProgramText::fileAt(unsigned Offset) const {
  for (const ProgramFile &F : Files)
    if (Offset >= F.Begin && Offset <= F.Begin + F.Size)
      return &F;
  return nullptr;
}

std::string ProgramText::location(unsigned Offset) const {
  const ProgramFile *F = fileAt(Offset);
  if (!F)
    return "<unknown>";
  StringRef Before = StringRef(Text).slice(F->Begin, Offset);
  size_t Line = Before.count('\n') + 1;
  size_t LastBreak = Before.rfind('\n');
  size_t Col = LastBreak == StringRef::npos ? Before.size() + 1
                                            : Before.size() - LastBreak;
  return F->Display + ":" + std::to_string(Line) + ":" + std::to_string(Col);
}

std::string pathFrom(StringRef From, StringRef Target) {
  SmallVector<StringRef, 16> A, B;
  for (auto I = sys::path::begin(From), E = sys::path::end(From); I != E; ++I)
    A.push_back(*I);
  for (auto I = sys::path::begin(Target), E = sys::path::end(Target); I != E;
       ++I)
    B.push_back(*I);
  size_t Common = 0;
  while (Common < A.size() && Common + 1 < B.size() && A[Common] == B[Common])
    ++Common;
  std::string Out;
  for (size_t I = Common; I < A.size(); ++I)
    Out += "../";
  for (size_t I = Common; I < B.size(); ++I)
    Out += B[I].str() + (I + 1 < B.size() ? "/" : "");
  return Out;
}

std::string ProgramText::identityText() const {
  if (Files.empty())
    return "";
  std::string Out = textOf(Files.front()).str();
  StringRef MainDir = sys::path::parent_path(Files.front().Path);
  for (size_t I = 1; I < Files.size(); ++I) {
    const ProgramFile &F = Files[I];
    Out += '\0';
    Out += F.RelativePath.empty() ? pathFrom(MainDir, F.Path) : F.RelativePath;
    Out += '\0';
    Out += textOf(F);
  }
  return Out;
}

std::string ProgramText::textBefore(unsigned Offset) const {
  std::string Out;
  unsigned At = Offset;
  // Walks up the chain of first inclusions; a file never includes itself
  // first through its own text, but a bound keeps a malformed chain finite.
  for (size_t Guard = 0; Guard <= Files.size(); ++Guard) {
    const ProgramFile *F = fileAt(At);
    if (!F)
      break;
    Out.insert(0, StringRef(Text).slice(F->Begin, At).str());
    if (F->IncludedAt.empty())
      break;
    // The includer's text before the `#include` line.
    At = lineStart(Text, F->IncludedAt.front().NameBegin);
  }
  return Out;
}

} // namespace cro
