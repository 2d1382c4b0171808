#include "cro/Rewrite/EditSet.h"
#include "cro/Support/ToolError.h"
#include <algorithm>

using namespace llvm;

namespace cro {

std::string EditSet::location(unsigned Offset) const {
  if (Program)
    return Program->location(Offset);
  unsigned Line = 1, Col = 1;
  for (unsigned I = 0; I < Offset && I < Source.size(); ++I) {
    if (Source[I] == '\n') {
      ++Line;
      Col = 1;
    } else {
      ++Col;
    }
  }
  return FilePath + ":" + std::to_string(Line) + ":" + std::to_string(Col);
}

Error EditSet::replace(unsigned Offset, unsigned Length, StringRef Text) {
  if (Offset + Length > Source.size())
    return createStringError(inconvertibleErrorCode(),
                             "edit by " + Origin + " is outside the file");
  // "At the end of the line" in a CRLF file means before its "\r\n", not
  // between the two.
  if (Length == 0 && Offset > 0 && Offset < Source.size() &&
      Source[Offset - 1] == '\r' && Source[Offset] == '\n')
    --Offset;
  for (const Edit &E : Edits) {
    if (E.Offset == Offset && E.Length == Length && E.Text == Text)
      return Error::success(); // the same change, asked for twice
    bool Overlap;
    if (Length == 0 && E.Length == 0)
      Overlap = false; // two insertions: both are kept, in order
    else if (Length == 0)
      Overlap = Offset > E.Offset && Offset < E.Offset + E.Length;
    else if (E.Length == 0)
      Overlap = E.Offset > Offset && E.Offset < Offset + Length;
    else
      Overlap = Offset < E.Offset + E.Length && E.Offset < Offset + Length;
    if (Overlap)
      return makeToolError(ExitCode::BadConfig,
                           "'" + E.Origin + "' and '" + Origin +
                               "' both change " +
                               location(std::max(Offset, E.Offset)) + " ('" +
                               Source.substr(E.Offset, std::max(E.Length, 1u)) +
                               "'); these knobs cannot be combined this way");
  }
  Edits.push_back({Offset, Length, Text.str(), Origin});
  return Error::success();
}

void EditSet::addFlag(StringRef Flag) {
  if (std::find(Flags.begin(), Flags.end(), Flag) == Flags.end())
    Flags.push_back(Flag.str());
}

bool usesCRLF(StringRef Source) {
  size_t CRLF = 0, LF = 0;
  for (size_t I = 0; I < Source.size(); ++I)
    if (Source[I] == '\n')
      ++(I > 0 && Source[I - 1] == '\r' ? CRLF : LF);
  return CRLF > LF;
}

namespace {

/// Text with its line breaks written as Source writes them.
std::string withLineEndings(StringRef Text, bool CRLF) {
  if (!CRLF)
    return Text.str();
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\n' && (I == 0 || Text[I - 1] != '\r'))
      Out += '\r';
    Out += Text[I];
  }
  return Out;
}

} // namespace

Expected<clang::tooling::Replacements> EditSet::replacements() const {
  // Inserted lines end as the file's own do (a CRLF file stays CRLF, and its
  // diff applies).
  bool CRLF = usesCRLF(Source);
  // Stable sort keeps insertions at one offset in the order they were made.
  std::vector<Edit> Sorted = Edits;
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const Edit &A, const Edit &B) {
                     if (A.Offset != B.Offset)
                       return A.Offset < B.Offset;
                     return A.Length < B.Length; // insertions first
                   });
  clang::tooling::Replacements R;
  for (size_t I = 0; I < Sorted.size();) {
    unsigned Offset = Sorted[I].Offset, Length = Sorted[I].Length;
    std::string Text = Sorted[I].Text;
    size_t J = I + 1;
    // Insertions at one offset, then at most one replacement there.
    while (J < Sorted.size() && Sorted[J].Offset == Offset &&
           Sorted[I].Length == 0) {
      Text += Sorted[J].Text;
      Length = Sorted[J].Length;
      if (Sorted[J].Length != 0) {
        ++J;
        break;
      }
      ++J;
    }
    if (Error E = R.add(clang::tooling::Replacement(
            FilePath, Offset, Length, withLineEndings(Text, CRLF))))
      return std::move(E);
    I = J;
  }
  return R;
}

Expected<std::string> EditSet::apply() const {
  Expected<clang::tooling::Replacements> R = replacements();
  if (!R)
    return R.takeError();
  return clang::tooling::applyAllReplacements(Source, *R);
}

} // namespace cro
