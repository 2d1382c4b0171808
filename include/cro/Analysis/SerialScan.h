//===- SerialScan.h - prefix sums that one thread computes alone ----------===//
//
// Naive code often leaves a prefix sum to a single thread: the scan of a
// few thousand block totals between the two passes of a larger scan, a
// cumulative histogram, the offsets of variable-length rows. The loop's
// iterations form a chain of additions one thread walks alone, while a
// warp or a block could add a chunk of terms at once with shuffles. This
// analysis proves the shape on the AST (SerialScanInfo in KernelModel.h).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_ANALYSIS_SERIALSCAN_H
#define CRO_ANALYSIS_SERIALSCAN_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include "clang/AST/Decl.h"

namespace cro {

/// Fills Info.SerialScan. Needs Info's loops and accesses.
void analyzeSerialScan(const clang::FunctionDecl *Kernel,
                       const SourceText &Text, KernelInfo &Info);

} // namespace cro

#endif
