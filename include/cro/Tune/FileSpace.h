//===- FileSpace.h - the search space of a file, judged by its rewrites ---===//
#ifndef CRO_TUNE_FILESPACE_H
#define CRO_TUNE_FILESPACE_H

#include "cro/Rewrite/Transform.h"
#include "cro/Space/SearchSpace.h"

namespace cro {

/// The knobs the transforms offer on Ctx's file, restricted by SpaceFile
/// (--space: knob id -> values; "" = all of them), with the rewrite engine
/// as the judge of their dependencies: a configuration it cannot rewrite is
/// invalid and never built. Ctx must outlive the space.
llvm::Expected<SearchSpace> fileSpace(llvm::StringRef SpaceFile,
                                      const RewriteContext &Ctx);

} // namespace cro

#endif
