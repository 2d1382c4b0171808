//===- ModelJSON.h - the kernel model as JSON (docs/analyze-json.md) ------===//
#ifndef CRO_ANALYSIS_MODELJSON_H
#define CRO_ANALYSIS_MODELJSON_H

#include "cro/Analysis/KernelModel.h"
#include "llvm/Support/JSON.h"

namespace cro {

/// The JSON form printed by --analyze. Object keys are printed sorted, so the
/// output is deterministic for a given input.
llvm::json::Value toJSON(const KernelModel &M);
llvm::json::Value toJSON(const AffineExpr &E);

} // namespace cro

#endif
