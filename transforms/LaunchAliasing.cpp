#include "LaunchAliasing.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace cro {

std::string launchAliasingReason(const KernelInfo &K) {
  for (const ParamInfo &P : K.Params)
    if (P.IsPointer && P.Access == "unknown")
      return "pointer parameter '" + P.Name + "' escapes the analysis (" +
             P.EscapeReason + ")";
  if (K.Launches.empty())
    return "no launch of the kernel in this file shows its arguments";
  for (const LaunchSite &L : K.Launches) {
    if (L.Args.size() != K.Params.size())
      return "the arguments of the launch at " + L.Location +
             " are not visible";
    StringSet<> Seen;
    for (size_t I = 0; I < K.Params.size(); ++I) {
      if (!K.Params[I].IsPointer)
        continue;
      const LaunchSite::Argument &A = L.Args[I];
      if (A.BaseVariable.empty())
        return "argument '" + A.Text + "' at " + L.Location +
               " is not a plain pointer variable, so it may alias another";
      if (!Seen.insert(A.BaseVariable).second)
        return "'" + A.BaseVariable + "' is passed twice at " + L.Location;
    }
  }
  return "";
}

} // namespace cro
