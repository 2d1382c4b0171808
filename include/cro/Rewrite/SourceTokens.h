//===- SourceTokens.h - token-level queries on the original source --------===//
//
// Transforms edit spelled source, so they look at tokens, not AST nodes: the
// identifier BLOCK inside a kernel body, the line a loop starts on. Raw
// lexing skips comments and string literals, so `// BLOCK` is never edited.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_REWRITE_SOURCETOKENS_H
#define CRO_REWRITE_SOURCETOKENS_H

#include "cro/Support/TextLines.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace cro {

struct TokenRange {
  unsigned Offset = 0;
  unsigned Length = 0;
};

/// The identifier tokens spelled Name in Source[Begin, End).
std::vector<TokenRange> findIdentifier(llvm::StringRef Source, unsigned Begin,
                                       unsigned End, llvm::StringRef Name);

/// Every identifier spelled anywhere in Source.
llvm::StringSet<> allIdentifiers(llvm::StringRef Source);

/// Name, or Name with a suffix, that no identifier in Source already uses.
std::string freshIdentifier(llvm::StringRef Source, llvm::StringRef Name);

/// Text as a fragment of a C identifier: "over(const float*,int)" ->
/// "over_const_floatp_int" ('*' is "p", '&' is "r", anything else not
/// allowed in an identifier separates words).
std::string identifierFragment(llvm::StringRef Text);

/// True when Offset is on a preprocessor directive line (#if, #define, ...).
bool onDirectiveLine(llvm::StringRef Source, unsigned Offset);

/// The last line of the `#define Name` directive in Source (following
/// backslash continuations): its end offset, or -1 when Name is not defined
/// exactly once in Source.
long defineLineEnd(llvm::StringRef Source, llvm::StringRef Name);

} // namespace cro

#endif
