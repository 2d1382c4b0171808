//===- UnifiedDiff.h - a unified diff of two texts, as git prints it ------===//
#ifndef CRO_REPORT_UNIFIEDDIFF_H
#define CRO_REPORT_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cro {

/// The unified diff of Before and After (3 lines of context) with headers
/// `--- a/Path` and `+++ b/Path`; "" when the texts are equal.
std::string unifiedDiff(llvm::StringRef Before, llvm::StringRef After,
                        llvm::StringRef Path, unsigned Context = 3);

/// The diff that makes NewPath, a changed copy of OldPath: git's "copy
/// from/copy to" headers, then the hunks from Before to After, so that
/// `git apply` writes the copy and leaves OldPath as it is. "" when the
/// texts are equal.
std::string unifiedCopyDiff(llvm::StringRef Before, llvm::StringRef After,
                            llvm::StringRef OldPath, llvm::StringRef NewPath,
                            unsigned Context = 3);

} // namespace cro

#endif
