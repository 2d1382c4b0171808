#include "cro/Commands/SearchReport.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace llvm;

namespace cro {

namespace {

/// (kernel, "shared-stage k.shared_stage = 32"), one per changed knob.
std::vector<std::pair<std::string, std::string>>
changes(const SearchSpace &Space, const Point &P) {
  std::vector<std::pair<std::string, std::string>> Out;
  const auto &Dims = Space.dimensions();
  for (size_t I = 0; I < Dims.size(); ++I)
    if (P[I] != Dims[I].Default)
      Out.push_back({Dims[I].Kernel, formatv("{0} {1} = {2}", Dims[I].Transform,
                                             Dims[I].Knob, Dims[I].Values[P[I]])
                                         .str()});
  return Out;
}

} // namespace

std::string rewriteText(const SearchSpace &Space, const Point &P) {
  std::string S;
  for (auto &[Kernel, Change] : changes(Space, P))
    S += (S.empty() ? "" : "; ") + Change;
  return S.empty() ? "the original" : S;
}

std::vector<std::string> rewritesByKernel(const SearchSpace &Space,
                                          const Point &P) {
  std::map<std::string, std::string> ByKernel;
  for (auto &[Kernel, Change] : changes(Space, P)) {
    std::string &L = ByKernel[Kernel];
    L += (L.empty() ? "" : "; ") + Change;
  }
  std::vector<std::string> Out;
  for (auto &[Kernel, L] : ByKernel)
    Out.push_back(
        (Kernel.empty() ? std::string("all kernels") : "kernel " + Kernel) +
        ": " + L);
  return Out;
}

std::vector<ReportEvaluation> reportEvaluations(const SearchResult &R,
                                                const SearchSpace &Space,
                                                double OriginalMs) {
  std::vector<ReportEvaluation> Out;
  for (size_t I = 0; I < R.Trials.size(); ++I) {
    const Trial &T = R.Trials[I];
    ReportEvaluation E;
    E.ElapsedSeconds = R.Elapsed[I];
    E.Config = T.Key;
    E.Sequence = rewriteText(Space, T.P);
    E.Verdict = T.Verdict;
    E.Reason = T.Reason;
    E.Why = T.Why;
    E.Move = T.Move;
    E.TimeMs = T.Time;
    if (T.Spread > 0)
      E.SpreadMs = T.Spread;
    E.Resumed = T.Resumed;
    E.BestSpeedup = OriginalMs > 0 ? OriginalMs / R.Trace[I] : 0;
    Out.push_back(std::move(E));
  }
  return Out;
}

} // namespace cro
