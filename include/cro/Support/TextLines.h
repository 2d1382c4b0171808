//===- TextLines.h - line arithmetic on a source buffer -------------------===//
#ifndef CRO_SUPPORT_TEXTLINES_H
#define CRO_SUPPORT_TEXTLINES_H

#include "llvm/ADT/StringRef.h"

namespace cro {

/// The offset where the line holding Offset starts.
inline unsigned lineStart(llvm::StringRef Source, unsigned Offset) {
  size_t P = Source.rfind('\n', Offset); // searches before Offset
  return P == llvm::StringRef::npos ? 0 : P + 1;
}

/// The offset of the newline ending Offset's line (or Source.size()).
inline unsigned lineEnd(llvm::StringRef Source, unsigned Offset) {
  size_t P = Source.find('\n', Offset);
  return P == llvm::StringRef::npos ? Source.size() : P;
}

/// The spaces and tabs that start the line holding Offset.
inline llvm::StringRef lineIndent(llvm::StringRef Source, unsigned Offset) {
  return Source.substr(lineStart(Source, Offset)).take_while([](char C) {
    return C == ' ' || C == '\t';
  });
}

} // namespace cro

#endif
