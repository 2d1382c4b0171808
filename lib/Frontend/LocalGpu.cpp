#include "cro/Frontend/LocalGpu.h"
#include "cro/Execute/Executor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace cro {

std::optional<LocalGpu> parseNvidiaSmiLine(StringRef Line) {
  SmallVector<StringRef, 3> Fields;
  Line.trim().split(Fields, ',');
  if (Fields.size() < 2)
    return std::nullopt;
  StringRef Cap = Fields[1].trim();
  auto [Major, Minor] = Cap.split('.');
  unsigned Maj, Min;
  if (Major.getAsInteger(10, Maj) || Minor.getAsInteger(10, Min))
    return std::nullopt;
  LocalGpu G;
  G.Name = Fields[0].trim().str();
  G.Arch = "sm_" + std::to_string(Maj) + std::to_string(Min);
  if (Fields.size() > 2)
    G.Driver = Fields[2].trim().str();
  return G;
}

namespace {

/// Why the probe could not ask nvidia-smi, "" when it could.
std::string &probeProblem() {
  static std::string Problem;
  return Problem;
}

std::optional<LocalGpu> askNvidiaSmi() {
  ErrorOr<std::string> Smi = sys::findProgramByName("nvidia-smi");
  if (!Smi)
    return std::nullopt;
  std::vector<StringRef> Args = {*Smi,
                                 "--query-gpu=name,compute_cap,driver_version",
                                 "--format=csv,noheader"};
  // The GPU the programs will run on is the first one CUDA_VISIBLE_DEVICES
  // names (an index or a UUID, both of which nvidia-smi -i takes); set but
  // empty, the programs see no GPU at all.
  std::string Visible;
  if (std::optional<std::string> V =
          sys::Process::GetEnv("CUDA_VISIBLE_DEVICES")) {
    Visible = StringRef(*V).split(',').first.trim().str();
    if (Visible.empty() || Visible == "-1")
      return std::nullopt;
    Args.push_back("-i");
    Args.push_back(Visible);
  }
  SmallString<128> OutPath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cro-nvidia-smi", "txt", OutPath)) {
    SmallString<128> Dir;
    sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
    probeProblem() = "nvidia-smi is installed, but its answer cannot be "
                     "kept: no temporary file can be made in '" +
                     Dir.str().str() + "' (" + EC.message() +
                     "; set TMPDIR to a writable directory)";
    return std::nullopt;
  }
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(OutPath),
                                          StringRef("")};
  int RC = sys::ExecuteAndWait(*Smi, Args, std::nullopt, Redirects,
                               /*SecondsToWait=*/20);
  std::optional<LocalGpu> Result;
  if (RC == 0)
    if (auto Buf = MemoryBuffer::getFile(OutPath))
      Result = parseNvidiaSmiLine((*Buf)->getBuffer().split('\n').first);
  sys::fs::remove(OutPath);
  return Result;
}

} // namespace

std::optional<LocalGpu> probeLocalGpu() {
  static const std::optional<LocalGpu> Gpu = askNvidiaSmi();
  return Gpu;
}

std::optional<LocalGpu> probeGpuThrough(Executor &Via, std::string &Why) {
  SmallString<128> Out;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cro-nvidia-smi", "txt", Out)) {
    Why = "no temporary file for nvidia-smi's answer: " + EC.message();
    return std::nullopt;
  }
  ProcessOptions P;
  P.StdoutFile = Out.str().str();
  P.StderrFile = P.StdoutFile;
  P.TimeoutSeconds = 120;
  // The job's first device: CUDA_VISIBLE_DEVICES where the scheduler sets
  // it (nvidia-smi itself does not read it).
  ProcessResult R =
      Via.run({"sh", "-c",
               "exec nvidia-smi --query-gpu=name,compute_cap,driver_version "
               "--format=csv,noheader ${CUDA_VISIBLE_DEVICES:+-i "
               "${CUDA_VISIBLE_DEVICES%%,*}}"},
              P, JobKind::Run);
  std::optional<LocalGpu> G;
  std::string Text;
  if (auto B = MemoryBuffer::getFile(Out))
    Text = (*B)->getBuffer().str();
  sys::fs::remove(Out);
  if (R.succeeded())
    G = parseNvidiaSmiLine(StringRef(Text).split('\n').first);
  if (!G)
    Why = "nvidia-smi run through " + Via.describe() + " found no GPU (" +
          R.describe() +
          (Text.empty() ? ""
                        : ": " + StringRef(Text).trim().take_back(300).str()) +
          ")";
  return G;
}

std::vector<GpuEntry> listLocalGpus() {
  std::vector<GpuEntry> Gpus;
  ErrorOr<std::string> Smi = sys::findProgramByName("nvidia-smi");
  SmallString<128> Out;
  if (!Smi || sys::fs::createTemporaryFile("cro-nvidia-smi", "txt", Out))
    return Gpus;
  ProcessOptions P;
  P.StdoutFile = Out.str().str();
  P.TimeoutSeconds = 20;
  ProcessResult R = runProcess(
      {*Smi, "--query-gpu=index,uuid,name", "--format=csv,noheader"}, P);
  std::string Text;
  if (auto B = MemoryBuffer::getFile(Out))
    Text = (*B)->getBuffer().str();
  sys::fs::remove(Out);
  if (!R.succeeded())
    return Gpus;
  SmallVector<StringRef, 8> Lines;
  StringRef(Text).split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    SmallVector<StringRef, 3> F;
    L.split(F, ',', 2);
    if (F.size() == 3)
      Gpus.push_back({F[0].trim().str(), F[1].trim().str(), F[2].trim().str()});
  }
  return Gpus;
}

std::string noGpuMessage() {
  (void)probeLocalGpu();
  if (!probeProblem().empty())
    return "no NVIDIA GPU could be found on this machine: " + probeProblem();
  return "no NVIDIA GPU found on this machine";
}

} // namespace cro
