//===- LocalGpu.h - the GPU of this machine, if it has one ----------------===//
#ifndef CRO_FRONTEND_LOCALGPU_H
#define CRO_FRONTEND_LOCALGPU_H

#include "cro/Execute/Executor.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cro {

struct LocalGpu {
  std::string Name;   ///< e.g. "NVIDIA H200"
  std::string Arch;   ///< e.g. "sm_90"
  std::string Driver; ///< driver version, e.g. "580.95.05"
};

/// Asks nvidia-smi (if installed) for the GPU the programs will run on: the
/// first one CUDA_VISIBLE_DEVICES names, else the first. Returns nullopt on
/// a machine without a GPU or driver (or with CUDA_VISIBLE_DEVICES set but
/// empty); never fails loudly. Asked once per process: the parse and the
/// command both need it, and each nvidia-smi call takes a noticeable part
/// of a second.
std::optional<LocalGpu> probeLocalGpu();

/// "no NVIDIA GPU found on this machine", or, when the probe itself could
/// not run (no temporary file for nvidia-smi's answer), that and why: an
/// unwritable TMPDIR is not the same as no GPU.
std::string noGpuMessage();

/// Parses one line of `nvidia-smi --query-gpu=name,compute_cap,driver_version
/// --format=csv,noheader`, e.g. "NVIDIA H200, 9.0, 580.95.05".
std::optional<LocalGpu> parseNvidiaSmiLine(llvm::StringRef Line);

/// The GPU a program run through Via gets (nvidia-smi run as one of its
/// jobs, on the first device the job may use); nullopt with Why when the
/// job failed or found none.
std::optional<LocalGpu> probeGpuThrough(Executor &Via, std::string &Why);

/// Every GPU of this machine as nvidia-smi lists it (index, UUID, model),
/// whatever CUDA_VISIBLE_DEVICES says; empty without nvidia-smi or GPUs.
std::vector<GpuEntry> listLocalGpus();

/// The architecture used when none is given and no GPU is present.
inline constexpr const char *DefaultGpuArch = "sm_90";

} // namespace cro

#endif
