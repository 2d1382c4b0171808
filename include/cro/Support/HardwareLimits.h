//===- HardwareLimits.h - the target GPU: what a variant may ask for ------===//
//
// The one description of the target GPU, for every layer that needs it:
// transforms read it from their RewriteContext (threads per block, static
// shared memory per block, when they choose their domains and refuse a
// configuration), and the search never sends a configuration to the
// compiler that the GPU cannot launch (blocks over the thread limit, register
// budgets over the block's register file). The limits come from the device
// itself (the CUDA driver API, loaded at run time so the tool still runs
// where there is no driver), else from a table per compute capability.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SUPPORT_HARDWARELIMITS_H
#define CRO_SUPPORT_HARDWARELIMITS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>

namespace cro {

struct HardwareLimits {
  unsigned MaxThreadsPerBlock = 1024;
  unsigned MaxSharedPerBlock = 48 * 1024;       ///< static shared memory
  unsigned MaxSharedPerBlockOptIn = 227 * 1024; ///< with the opt-in
  unsigned RegistersPerBlock = 65536;
  unsigned MaxRegistersPerThread = 255;
  unsigned MaxThreadsPerSM = 2048;
  unsigned WarpSize = 32;
  unsigned SMs = 0; ///< 0 = unknown
  std::string ComputeCapability = "9.0";
  /// "device" when read from the GPU, else "table for sm_XX".
  std::string Origin;
};

/// The limits of the first GPU, read through libcuda.so.1; nullopt when
/// there is no driver or no device.
std::optional<HardwareLimits> queryDeviceLimits();

/// The documented limits of an architecture ("sm_90"); unknown ones get
/// the most conservative recent values.
HardwareLimits tableLimits(llvm::StringRef Arch);

llvm::json::Value toJSON(const HardwareLimits &L);
bool fromJSON(const llvm::json::Value &V, HardwareLimits &L,
              llvm::json::Path P);

} // namespace cro

#endif
