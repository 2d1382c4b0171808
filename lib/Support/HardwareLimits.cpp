#include "cro/Support/HardwareLimits.h"
#include "llvm/ADT/StringExtras.h"
#include <dlfcn.h>

using namespace llvm;

namespace cro {

namespace {

// CUdevice_attribute values from cuda.h (part of the driver's stable ABI).
enum Attribute : int {
  MaxThreadsPerBlock = 1,
  MaxSharedPerBlock = 8,
  RegistersPerBlock = 12,
  MultiprocessorCount = 16,
  MaxThreadsPerSM = 39,
  CapabilityMajor = 75,
  CapabilityMinor = 76,
  MaxSharedPerBlockOptIn = 97,
};

using InitFn = int (*)(unsigned);
using DeviceGetFn = int (*)(int *, int);
using AttributeFn = int (*)(int *, int, int);

} // namespace

std::optional<HardwareLimits> queryDeviceLimits() {
  // Loaded at run time: the tool is one static binary that must also run on
  // build machines without a driver.
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    return std::nullopt;
  auto Init = reinterpret_cast<InitFn>(dlsym(Lib, "cuInit"));
  auto DeviceGet = reinterpret_cast<DeviceGetFn>(dlsym(Lib, "cuDeviceGet"));
  auto Attr = reinterpret_cast<AttributeFn>(dlsym(Lib, "cuDeviceGetAttribute"));
  std::optional<HardwareLimits> Result;
  int Dev = 0;
  if (Init && DeviceGet && Attr && Init(0) == 0 && DeviceGet(&Dev, 0) == 0) {
    auto Get = [&](int A, unsigned &Out) {
      int V = 0;
      if (Attr(&V, A, Dev) == 0 && V > 0)
        Out = unsigned(V);
    };
    HardwareLimits L;
    Get(MaxThreadsPerBlock, L.MaxThreadsPerBlock);
    Get(MaxSharedPerBlock, L.MaxSharedPerBlock);
    Get(MaxSharedPerBlockOptIn, L.MaxSharedPerBlockOptIn);
    Get(RegistersPerBlock, L.RegistersPerBlock);
    Get(MaxThreadsPerSM, L.MaxThreadsPerSM);
    Get(MultiprocessorCount, L.SMs);
    unsigned Major = 0, Minor = 0;
    Get(CapabilityMajor, Major);
    int MinorV = 0;
    if (Attr(&MinorV, CapabilityMinor, Dev) == 0)
      Minor = unsigned(MinorV);
    if (Major)
      L.ComputeCapability = std::to_string(Major) + "." + std::to_string(Minor);
    L.Origin = "device";
    Result = L;
  }
  // libcuda is not unloaded: the driver keeps threads that outlive dlclose.
  return Result;
}

HardwareLimits tableLimits(StringRef Arch) {
  HardwareLimits L;
  unsigned SM = 0;
  if (Arch.consume_front("sm_"))
    Arch.take_while([](char C) { return isDigit(C); }).getAsInteger(10, SM);
  L.Origin = "table for sm_" + std::to_string(SM ? SM : 90);
  if (SM)
    L.ComputeCapability =
        std::to_string(SM / 10) + "." + std::to_string(SM % 10);
  // CUDA C++ Programming Guide, "Technical Specifications per Compute
  // Capability".
  if (SM >= 90) {
    L.MaxSharedPerBlockOptIn = 227 * 1024;
  } else if (SM == 86 || SM == 89) {
    L.MaxSharedPerBlockOptIn = 99 * 1024;
    L.MaxThreadsPerSM = 1536;
  } else if (SM == 80) {
    L.MaxSharedPerBlockOptIn = 163 * 1024;
  } else if (SM >= 70) {
    L.MaxSharedPerBlockOptIn = 96 * 1024;
    L.MaxThreadsPerSM = SM == 75 ? 1024 : 2048;
  } else if (SM) {
    L.MaxSharedPerBlockOptIn = 48 * 1024;
  }
  return L;
}

json::Value toJSON(const HardwareLimits &L) {
  return json::Object{{"max_threads_per_block", L.MaxThreadsPerBlock},
                      {"max_shared_per_block", L.MaxSharedPerBlock},
                      {"max_shared_per_block_optin", L.MaxSharedPerBlockOptIn},
                      {"registers_per_block", L.RegistersPerBlock},
                      {"max_registers_per_thread", L.MaxRegistersPerThread},
                      {"max_threads_per_sm", L.MaxThreadsPerSM},
                      {"sms", L.SMs},
                      {"compute_capability", L.ComputeCapability},
                      {"origin", L.Origin}};
}

bool fromJSON(const json::Value &V, HardwareLimits &L, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("max_threads_per_block", L.MaxThreadsPerBlock) &&
         O.map("max_shared_per_block", L.MaxSharedPerBlock) &&
         O.mapOptional("max_shared_per_block_optin",
                       L.MaxSharedPerBlockOptIn) &&
         O.map("registers_per_block", L.RegistersPerBlock) &&
         O.mapOptional("max_registers_per_thread", L.MaxRegistersPerThread) &&
         O.mapOptional("max_threads_per_sm", L.MaxThreadsPerSM) &&
         O.mapOptional("sms", L.SMs) &&
         O.mapOptional("compute_capability", L.ComputeCapability) &&
         O.mapOptional("origin", L.Origin);
}

} // namespace cro
