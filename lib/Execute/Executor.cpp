#include "cro/Execute/Executor.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include <atomic>
#include <thread>

using namespace llvm;

namespace cro {

Executor::~Executor() = default;

ProcessResult LocalExecutor::run(ArrayRef<std::string> Argv,
                                 const ProcessOptions &Opts, JobKind Kind,
                                 unsigned Slot) {
  if (Devices.empty() || Kind == JobKind::Build)
    return runProcess(Argv, Opts);
  ProcessOptions Mine = Opts;
  Mine.Env.push_back("CUDA_VISIBLE_DEVICES=" + Devices[Slot % Devices.size()]);
  return runProcess(Argv, Mine);
}

std::string LocalExecutor::describe() const {
  if (Devices.empty())
    return "this host";
  std::string S = "this host, GPU";
  S += Devices.size() > 1 ? "s " : " ";
  for (size_t I = 0; I < Devices.size(); ++I)
    S += (I ? "," : "") + Devices[I];
  return S;
}

Error checkExecutor(Executor &E) {
  ProcessOptions P;
  P.TimeoutSeconds = 300;
  ProcessResult R = E.run({"true"}, P, JobKind::Build);
  if (R.succeeded())
    return Error::success();
  return makeToolError(ExitCode::ExecutorFailed,
                       E.describe() + " cannot run a job: " + R.describe());
}

namespace {

Error gpuError(const Twine &Msg, ExitCode Code = ExitCode::Usage) {
  return makeToolError(Code, "--gpus: " + Msg);
}

} // namespace

Expected<std::vector<std::string>>
selectGpus(StringRef Spec, ArrayRef<GpuEntry> Listed,
           std::optional<std::string> VisibleDevices) {
  Spec = Spec.trim();
  // The GPUs the programs may use, as CUDA_VISIBLE_DEVICES would name them.
  std::vector<std::string> Usable;
  if (VisibleDevices) {
    SmallVector<StringRef, 8> Parts;
    StringRef(*VisibleDevices).split(Parts, ',', -1, false);
    for (StringRef P : Parts)
      if (!P.trim().empty() && P.trim() != "-1")
        Usable.push_back(P.trim().str());
  } else {
    for (const GpuEntry &G : Listed)
      Usable.push_back(G.Index);
  }
  std::vector<std::string> Chosen;
  unsigned Count = 0;
  if (Spec == "all") {
    Chosen = Usable;
  } else if (!Spec.getAsInteger(10, Count)) {
    if (Count == 0)
      return gpuError("a count of GPUs must be at least 1");
    if (Count > Usable.size())
      return gpuError(Twine(Count) + " GPUs asked for, but " +
                      Twine(Usable.size()) + " can be used here" +
                      (VisibleDevices ? " (CUDA_VISIBLE_DEVICES)" : ""));
    Chosen.assign(Usable.begin(), Usable.begin() + Count);
  } else {
    SmallVector<StringRef, 8> Parts;
    Spec.split(Parts, ',');
    StringSet<> Seen;
    for (StringRef P : Parts) {
      P = P.trim();
      if (P.empty())
        return gpuError("'" + Spec +
                        "' has an empty entry; expected all, a "
                        "count, or a list such as 0,2");
      if (!Seen.insert(P).second)
        return gpuError("GPU '" + P + "' is named twice");
      Chosen.push_back(P.str());
    }
  }
  if (Chosen.empty())
    return gpuError("no GPU can be used on this machine", ExitCode::NoGpu);
  // Every chosen GPU must be one nvidia-smi lists (by index or UUID), and
  // all of one model: the search compares their times with each other.
  std::string Model;
  for (const std::string &C : Chosen) {
    const GpuEntry *Found = nullptr;
    for (const GpuEntry &G : Listed)
      if (G.Index == C || G.Uuid == C)
        Found = &G;
    if (!Found)
      return gpuError("no GPU '" + C + "' on this machine (nvidia-smi lists " +
                      Twine(Listed.size()) + ")");
    if (Model.empty())
      Model = Found->Name;
    else if (Found->Name != Model)
      return gpuError("GPU " + C + " is a " + Found->Name + ", another is a " +
                      Model +
                      ": times are never compared across GPU models; pick "
                      "GPUs of one model with --gpus=LIST");
  }
  return Chosen;
}

void runOnSlots(unsigned Slots, size_t Items,
                const std::function<void(size_t, unsigned)> &Work) {
  Slots = std::max(1u, Slots);
  if (Slots == 1 || Items <= 1) {
    for (size_t I = 0; I < Items; ++I)
      Work(I, 0);
    return;
  }
  std::atomic<size_t> Next{0};
  std::vector<std::thread> Threads;
  unsigned Used = unsigned(std::min<size_t>(Slots, Items));
  for (unsigned S = 0; S < Used; ++S)
    Threads.emplace_back([&, S] {
      for (size_t I = Next++; I < Items; I = Next++)
        Work(I, S);
    });
  for (std::thread &T : Threads)
    T.join();
}

} // namespace cro
