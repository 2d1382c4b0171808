//===- LaunchAliasing.h - can a kernel's pointer arguments alias? ---------===//
#ifndef CRO_TRANSFORMS_LAUNCHALIASING_H
#define CRO_TRANSFORMS_LAUNCHALIASING_H

#include "cro/Analysis/KernelModel.h"
#include <string>

namespace cro {

/// Why K's pointer arguments might alias, or "" when they cannot as far as
/// the launches in this file show: every launch passes each pointer
/// parameter a different plain variable, and no pointer parameter escapes
/// the analysis. Transforms whose legality needs distinct arrays
/// (read-only's __restrict__, privatize's private copies) ask it, and are
/// lifted by --assume-no-alias.
std::string launchAliasingReason(const KernelInfo &K);

} // namespace cro

#endif
