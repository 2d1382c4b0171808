#include "cro/Tune/Workload.h"
#include "cro/Frontend/CompileArgs.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"

using namespace llvm;

namespace cro {

std::string workloadHash(const WorkloadInputs &W) {
  SHA256 H;
  auto Add = [&](StringRef S) {
    H.update(S);
    H.update(StringRef("\0", 1));
  };
  Add(W.Program);
  Add(""); // where a generated harness was, before the program text held it
  std::vector<bool> IncludeDir(W.NvccFlags.size(), false);
  for (const PathArgument &P : pathArguments(W.NvccFlags))
    if (P.Directory)
      IncludeDir[P.FlagIndex] = IncludeDir[P.ValueIndex] = true;
  for (size_t I = 0; I < W.NvccFlags.size(); ++I)
    if (!IncludeDir[I])
      Add(W.NvccFlags[I]);
  Add(W.BuildTemplate);
  for (const std::string &A : W.RunArgs)
    Add(A);
  // What the stored times measure. Databases written before the objective
  // was the program's GPU time (2026-12) measured per launch, and have no
  // such entry: they stay the identity of `--objective per-launch`.
  if (W.Goal == Objective::ProgramTime)
    Add("objective=program");
  std::array<uint8_t, 32> D = H.final();
  return toHex(ArrayRef<uint8_t>(D.data(), D.size()), /*LowerCase=*/true);
}

std::string defaultDatabasePath() {
  SmallString<256> P;
  // An empty variable counts as unset (as the XDG specification says):
  // never a database relative to wherever the tool happens to run.
  std::optional<std::string> X = sys::Process::GetEnv("XDG_CACHE_HOME");
  std::optional<std::string> H = sys::Process::GetEnv("HOME");
  if (X && !X->empty())
    P = *X;
  else if (H && !H->empty())
    sys::path::append(P, *H, ".cache");
  else
    P = "/tmp";
  sys::path::append(P, "cuda-rewrite-opt", "tuning.db");
  return P.str().str();
}

Expected<std::unique_ptr<TuningDatabase>> openDatabase(StringRef Path) {
  if (Path == "none")
    return std::unique_ptr<TuningDatabase>();
  return TuningDatabase::open(Path.empty() ? defaultDatabasePath() : Path);
}

std::vector<PriorResult> transferPriors(TuningDatabase &Db,
                                        const KernelFeatures &Features,
                                        StringRef Gpu, StringRef WorkloadHash) {
  std::vector<PriorResult> Priors;
  Expected<std::vector<EvaluationRecord>> Similar =
      Db.bestOfSimilar(Features.signature(), Gpu, WorkloadHash);
  if (!Similar) {
    consumeError(Similar.takeError());
    return Priors;
  }
  for (const EvaluationRecord &R : *Similar) {
    Expected<json::Value> C = json::parse(R.Config);
    if (!C) {
      consumeError(C.takeError());
      continue;
    }
    if (!C->getAsObject() || !R.MedianMs || !R.OriginalMs)
      continue;
    Priors.push_back(
        {Features.signature(), *C->getAsObject(), *R.OriginalMs / *R.MedianMs});
  }
  return Priors;
}

} // namespace cro
