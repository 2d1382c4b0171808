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

} // namespace cro

#endif
