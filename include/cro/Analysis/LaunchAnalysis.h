//===- LaunchAnalysis.h - kernel launch sites and their configurations ----===//
#ifndef CRO_ANALYSIS_LAUNCHANALYSIS_H
#define CRO_ANALYSIS_LAUNCHANALYSIS_H

#include "cro/Analysis/ASTHelpers.h"
#include "cro/Analysis/KernelModel.h"
#include <map>
#include <vector>

namespace cro {

/// Every launch in the main file (`<<<...>>>`, cudaLaunchKernel,
/// cudaLaunchCooperativeKernel), once per source location, in source order.
/// Launches in templates are described from the template as written, with the
/// values each instantiation gives its block and grid.
/// Kernel (by the location of its definition) -> where the host names it
/// other than as the callee of one of Launches or in a runtime attribute or
/// occupancy query: its address taken (`fp = kernel`), passed on, stored.
/// Launches through such a pointer are not seen.
std::map<std::string, std::vector<std::string>>
collectKernelEscapes(clang::ASTContext &HostCtx, const SourceText &Text,
                     const std::vector<LaunchSite> &Launches);

std::vector<LaunchSite> collectLaunches(clang::ASTContext &HostCtx,
                                        const SourceText &Text);

} // namespace cro

#endif
