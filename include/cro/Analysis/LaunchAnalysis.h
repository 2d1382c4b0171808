//===- LaunchAnalysis.h - kernel launch sites and their configurations ----===//
#ifndef CRO_ANALYSIS_LAUNCHANALYSIS_H
#define CRO_ANALYSIS_LAUNCHANALYSIS_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include <vector>

namespace cro {

/// Every launch in the main file (`<<<...>>>`, cudaLaunchKernel,
/// cudaLaunchCooperativeKernel), once per source location, in source order.
/// Launches in templates are described from the template as written, with the
/// values each instantiation gives its block and grid.
std::vector<LaunchSite> collectLaunches(clang::ASTContext &HostCtx,
                                        const SourceText &Text);

} // namespace cro

#endif
