//===- LaunchAliasing.h - can a kernel's pointer arguments alias? ---------===//
#ifndef CRO_TRANSFORMS_LAUNCHALIASING_H
#define CRO_TRANSFORMS_LAUNCHALIASING_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Rewrite/Transform.h"
#include <string>

namespace cro {

/// Why K's pointer arguments might alias, or "" when they cannot as far as
/// the launches in this file show: every launch passes each pointer
/// parameter a different plain variable, and no pointer parameter escapes
/// the analysis. Transforms whose legality needs distinct arrays
/// (read-only's __restrict__, privatize's private copies) ask it, and are
/// lifted by --assume-no-alias.
std::string launchAliasingReason(const KernelInfo &K);

/// Whether memory reached through A may be memory reached through B, both
/// named by K's pointer parameters: always when they are the same name;
/// never with --assume-no-alias, when LaunchesDistinct (the launches pass
/// distinct arrays: launchAliasingReason is empty, and the accesses are to
/// memory the model places), or when both parameters are __restrict__.
bool mayAlias(const RewriteContext &Ctx, const KernelInfo &K, llvm::StringRef A,
              llvm::StringRef B, bool LaunchesDistinct);

} // namespace cro

#endif
