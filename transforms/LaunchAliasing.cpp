#include "LaunchAliasing.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace cro {

bool mayAlias(const RewriteContext &Ctx, const KernelInfo &K, StringRef A,
              StringRef B, bool LaunchesDistinct) {
  if (A == B)
    return true;
  if (Ctx.Options.AssumeNoAlias || LaunchesDistinct)
    return false;
  const ParamInfo *PA = nullptr, *PB = nullptr;
  for (const ParamInfo &P : K.Params) {
    PA = P.Name == A ? &P : PA;
    PB = P.Name == B ? &P : PB;
  }
  return !(PA && PB && PA->IsRestrict && PB->IsRestrict);
}

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
    // What each pointer argument points into; through the launching
    // function's parameters, at each of its calls.
    bool ThroughCaller = false;
    for (size_t I = 0; I < K.Params.size(); ++I) {
      if (!K.Params[I].IsPointer)
        continue;
      const LaunchSite::Argument &A = L.Args[I];
      if (A.Root.empty())
        return "argument '" + A.Text + "' at " + L.Location +
               " is not a plain pointer variable, so it may alias another";
      ThroughCaller |= A.CallerParam >= 0;
    }
    // Context -1 is the launch itself (a parameter of the launching
    // function is its own root there: passed twice, it aliases); then each
    // call of the launching function.
    int Contexts = ThroughCaller ? int(L.CallerCalls.size()) : 0;
    for (int C = -1; C < Contexts; ++C) {
      StringMap<std::string> Seen; // root -> the argument that points into it
      StringMap<bool> Written;     // root -> a written parameter points into it
      for (size_t I = 0; I < K.Params.size(); ++I) {
        if (!K.Params[I].IsPointer)
          continue;
        const LaunchSite::Argument &A = L.Args[I];
        std::string Root = A.Root, Where = L.Location;
        if (A.CallerParam >= 0 && C >= 0) {
          const std::vector<LaunchSite::Argument> &Call = L.CallerCalls[C];
          if (size_t(A.CallerParam) >= Call.size() ||
              Call[A.CallerParam].Root.empty() ||
              Call[A.CallerParam].CallerParam >= 0)
            return "a call of '" + L.Caller + "' passes '" +
                   (size_t(A.CallerParam) < Call.size()
                        ? Call[A.CallerParam].Text
                        : std::string("?")) +
                   "' for '" + A.Root +
                   "', which is not a plain pointer variable of its own";
          Root = Call[A.CallerParam].Root;
          Where = "a call of '" + L.Caller + "'";
        }
        bool Writes = K.Params[I].Access != "read";
        auto [It, New] = Seen.try_emplace(Root, A.Text);
        bool &AnyWriter = Written[Root];
        bool Conflict = !New && (Writes || AnyWriter);
        AnyWriter |= Writes;
        if (Conflict)
          return It->second == A.Text && C < 0
                     ? "'" + A.Text + "' is passed twice at " + L.Location
                     : "'" + It->second + "' and '" + A.Text +
                           "' point into the same buffer '" + Root +
                           "' (at " + Where + ")";
      }
      if (C == -1 && ThroughCaller && L.CallerCalls.empty())
        return "the launch at " + L.Location + " passes parameters of '" +
               L.Caller + "', and no call of '" + L.Caller +
               "' in this file shows what they point to";
    }
  }
  return "";
}

} // namespace cro
