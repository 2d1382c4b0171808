#include "cro/Rewrite/SourceTokens.h"
#include "clang/Basic/LangOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "clang/Lex/Lexer.h"

using namespace llvm;
using namespace clang;

namespace cro {

namespace {

LangOptions cudaLangOptions() {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
  LO.CUDA = 1;
  return LO;
}

/// Calls Fn(offset, token) for every raw token of Source[Begin, End).
template <typename F>
void forEachToken(StringRef Source, unsigned Begin, unsigned End, F Fn) {
  LangOptions LO = cudaLangOptions();
  Lexer L(SourceLocation(), LO, Source.data(), Source.data() + Begin,
          Source.data() + Source.size());
  Token Tok;
  while (!L.LexFromRawLexer(Tok)) {
    unsigned Offset = L.getBufferLocation() - Source.data() - Tok.getLength();
    if (Offset >= End)
      break;
    Fn(Offset, Tok);
  }
  // The last token (LexFromRawLexer returned true at end of buffer).
  if (Tok.isNot(tok::eof)) {
    unsigned Offset = L.getBufferLocation() - Source.data() - Tok.getLength();
    if (Offset < End)
      Fn(Offset, Tok);
  }
}

} // namespace

std::vector<TokenRange> findIdentifier(StringRef Source, unsigned Begin,
                                       unsigned End, StringRef Name) {
  std::vector<TokenRange> Out;
  forEachToken(Source, Begin, End, [&](unsigned Offset, const Token &Tok) {
    if (Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == Name)
      Out.push_back({Offset, Tok.getLength()});
  });
  return Out;
}

StringSet<> allIdentifiers(StringRef Source) {
  StringSet<> Out;
  forEachToken(Source, 0, Source.size(), [&](unsigned, const Token &Tok) {
    if (Tok.is(tok::raw_identifier))
      Out.insert(Tok.getRawIdentifier());
  });
  return Out;
}

std::string freshIdentifier(StringRef Source, StringRef Name) {
  StringSet<> Used = allIdentifiers(Source);
  std::string Candidate = Name.str();
  for (unsigned N = 2; Used.count(Candidate); ++N)
    Candidate = (Name + "_" + Twine(N)).str();
  return Candidate;
}

std::string identifierFragment(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (isAlnum(C) || C == '_')
      Out += C;
    else if (C == '*' || C == '&')
      Out += C == '*' ? 'p' : 'r';
    else if (!Out.empty() && Out.back() != '_')
      Out += '_';
  }
  while (!Out.empty() && Out.back() == '_')
    Out.pop_back();
  return Out;
}

bool onDirectiveLine(StringRef Source, unsigned Offset) {
  // Walk back over continued lines to the directive's first line.
  unsigned Start = lineStart(Source, Offset);
  while (Start >= 2 && Source[Start - 1] == '\n' && Source[Start - 2] == '\\')
    Start = lineStart(Source, Start - 1);
  return Source.substr(Start).ltrim(" \t").starts_with("#");
}

long defineLineEnd(StringRef Source, StringRef Name) {
  long Found = -1;
  for (size_t Pos = 0; Pos < Source.size();) {
    size_t End = lineEnd(Source, Pos);
    StringRef Line = Source.substr(Pos, End - Pos).ltrim(" \t");
    if (Line.consume_front("#")) {
      Line = Line.ltrim(" \t");
      if (Line.consume_front("define") && !Line.empty() && isspace(Line[0])) {
        Line = Line.ltrim(" \t");
        if (Line.starts_with(Name) &&
            (Line.size() == Name.size() ||
             !(isalnum(Line[Name.size()]) || Line[Name.size()] == '_'))) {
          if (Found >= 0)
            return -1; // defined twice: which one applies is not obvious
          size_t E = End;
          while (E > 0 && E < Source.size() && Source[E - 1] == '\\')
            E = lineEnd(Source, E + 1);
          Found = E;
        }
      }
    }
    // Skip continuation lines of any directive or code line.
    while (End > 0 && End < Source.size() && Source[End - 1] == '\\')
      End = lineEnd(Source, End + 1);
    Pos = End + 1;
  }
  return Found;
}

} // namespace cro
