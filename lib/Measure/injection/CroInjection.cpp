//===- CroInjection.cpp - CUPTI injection: kernel records, replay, capture ===//
//
// Loaded into an unmodified CUDA program through CUDA_INJECTION64_PATH.
// It records every kernel execution (CUPTI activity API), and for each launch
// of a target kernel it
//   1. saves, before the launch, every allocation the kernel's pointer
//      arguments reach (cuMemGetAddressRange), and after it the same
//      allocations again;
//   2. optionally writes those allocations to files (output verification);
//   3. replays the launch R times from the saved "before" state, timing each
//      replay with CUDA events, optionally flushing L2 first;
//   4. restores the "after" state, so the program continues exactly as if
//      the tool were not there.
// It depends on the CUDA driver and CUPTI only; results go to a JSON-lines
// file. Configuration (environment):
//   CRO_OUT          the JSON-lines output file (required)
//   CRO_KERNELS      comma-separated kernel names to replay/capture
//                    (qualified, as in --analyze; "" = record only;
//                    "*" = every kernel)
//   CRO_REPLAYS      replays per launch; 0 or unset = enough for ~CRO_REPLAY_MS
//   CRO_REPLAY_MS    total replay time aimed at when automatic (default 100)
//   CRO_MIN_REPLAYS  at least this many (default 5)
//   CRO_WARMUP_MS    untimed replays first, for this long (default 25)
//   CRO_MAX_LAUNCHES replay the first N launches of each target (default 3)
//   CRO_CAPTURE_DIR  write the reachable allocations after each launch here
//   CRO_MAX_CAPTURES capture the first N launches of each target (default 8)
//   CRO_CAPTURE_REFERENCE  a file of another run's captures, one per line:
//                    "launch allocation bytes checksum kernel"; a capture
//                    with the same bytes and checksum is reported, not
//                    written (a variant's outputs are mostly bit-identical
//                    to the original's, and run to gigabytes)
//   CRO_FLUSH_L2     1: overwrite a 256 MiB buffer before each timed replay
// Every capture record carries the XXH64 checksum of its bytes
// (CaptureChecksum.h).
// Kernel records say "replay":true unless the program launched the kernel
// itself, so that the program's GPU time counts each of its launches once.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>
#include <cupti.h>
#include <cxxabi.h>

#include "CaptureChecksum.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::mutex OutMutex;
FILE *Out = nullptr;

struct Settings {
  std::vector<std::string> Kernels;
  int Replays = 0;
  double ReplayMs = 100;
  int MinReplays = 5;
  double WarmupMs = 25;
  int MaxLaunches = 3;
  int MaxCaptures = 8;
  std::string CaptureDir;
  bool FlushL2 = false;
} S;

/// The reference run's captures: (kernel, launch, allocation) -> bytes and
/// checksum (CRO_CAPTURE_REFERENCE).
struct ReferenceCapture {
  unsigned long long Bytes = 0;
  std::string Checksum;
};
std::map<std::string, ReferenceCapture> Reference;

std::string referenceKey(const std::string &Kernel, int Launch, int Alloc) {
  return std::to_string(Launch) + " " + std::to_string(Alloc) + " " + Kernel;
}

/// Reads CRO_CAPTURE_REFERENCE; a line it cannot parse is skipped (that
/// capture is then written, which is always safe).
void readReference(const char *Path) {
  FILE *F = std::fopen(Path, "r");
  if (!F)
    return;
  char Line[4096];
  while (std::fgets(Line, sizeof Line, F)) {
    int Launch = 0, Alloc = 0, Used = 0;
    unsigned long long Bytes = 0;
    char Sum[17] = {0};
    if (std::sscanf(Line, "%d %d %llu %16s %n", &Launch, &Alloc, &Bytes, Sum,
                    &Used) < 4 ||
        Used == 0)
      continue;
    std::string Kernel = Line + Used;
    while (!Kernel.empty() && (Kernel.back() == '\n' || Kernel.back() == '\r'))
      Kernel.pop_back();
    if (Kernel.empty())
      continue;
    Reference[referenceKey(Kernel, Launch, Alloc)] = {Bytes, Sum};
  }
  std::fclose(F);
}

std::map<std::string, int> LaunchCount; // per target kernel
thread_local bool Busy = false;         // our own driver calls re-enter

// Correlation ids of the program's own launches, until their activity
// records are written; every other kernel record is the library's (its
// replays and warm-up replays). CUPTI issues no callback for the driver
// calls made inside a callback, so the replays cannot be marked themselves
// (measured on the H200: none of ~5,000 was). A graph launch's id stays, as
// each of its kernels has a record with it. Activity buffers are completed
// on CUPTI's own thread, hence the lock.
std::mutex OwnIdsMutex;
std::map<uint32_t, bool> OwnIds; // id -> several records (a graph)

void noteOwnLaunch(uint32_t Correlation, bool Several) {
  std::lock_guard<std::mutex> G(OwnIdsMutex);
  OwnIds[Correlation] = Several;
}

std::string jsonEscape(const std::string &In) {
  std::string O;
  for (char C : In) {
    if (C == '"' || C == '\\')
      O += '\\', O += C;
    else if ((unsigned char)C < 0x20)
      O += ' ';
    else
      O += C;
  }
  return O;
}

void emit(const std::string &Line) {
  std::lock_guard<std::mutex> G(OutMutex);
  if (Out) {
    std::fputs(Line.c_str(), Out);
    std::fputc('\n', Out);
    std::fflush(Out);
  }
}

void error(const std::string &What) {
  emit("{\"event\":\"error\",\"message\":\"" + jsonEscape(What) + "\"}");
}

#define CU(call)                                                               \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_ = nullptr;                                                \
      cuGetErrorString(r_, &s_);                                               \
      error(std::string(#call) + ": " + (s_ ? s_ : "?"));                      \
      return false;                                                            \
    }                                                                          \
  } while (0)

/// "ns::kern" from a mangled symbol ("_ZN2ns4kernEPf", templates too).
std::string baseName(const char *Mangled) {
  int Status = 0;
  char *D = abi::__cxa_demangle(Mangled, nullptr, nullptr, &Status);
  std::string Name = (Status == 0 && D) ? D : Mangled;
  std::free(D);
  // Drop the parameter list, template arguments and a return type.
  size_t Paren = Name.find('(');
  if (Paren != std::string::npos)
    Name = Name.substr(0, Paren);
  std::string NoTemplates;
  int Depth = 0;
  for (char C : Name) {
    if (C == '<')
      ++Depth;
    else if (C == '>')
      --Depth;
    else if (Depth == 0)
      NoTemplates += C;
  }
  size_t Space = NoTemplates.rfind(' ');
  if (Space != std::string::npos)
    NoTemplates = NoTemplates.substr(Space + 1);
  return NoTemplates;
}

bool isTarget(const std::string &Base) {
  for (const std::string &K : S.Kernels) {
    if (K == Base || K == "*")
      return true;
    // "(anonymous namespace)::k" and friends: compare the last component.
    size_t P = K.rfind("::");
    if (P != std::string::npos && K.substr(P + 2) == Base)
      return true;
  }
  return false;
}

struct Allocation {
  CUdeviceptr Base = 0;
  size_t Size = 0;
  CUdeviceptr Before = 0, After = 0; // saved copies
  std::vector<int> Args;             // arguments pointing into it
};

/// One intercepted launch of a target kernel, from ENTER to EXIT.
struct PendingLaunch {
  std::string Kernel;
  int Index = 0;
  /// Threads the launch starts (grid times block) and its block: how many
  /// terms a sum the kernel accumulates through atomics can have.
  unsigned long long Threads = 0;
  unsigned Block[3] = {0, 0, 0};
  std::vector<Allocation> Allocs;
  std::vector<size_t> ParamSizes;
};
thread_local PendingLaunch *Pending = nullptr;

/// The allocations a launch's pointer-sized arguments point into.
bool findAllocations(CUfunction F, void **Params, PendingLaunch &P) {
  if (!Params)
    return true; // arguments passed through `extra`: nothing to follow
  for (size_t I = 0;; ++I) {
    size_t Offset = 0, Size = 0;
    if (cuKernelGetParamInfo((CUkernel)F, I, &Offset, &Size) != CUDA_SUCCESS &&
        cuFuncGetParamInfo(F, I, &Offset, &Size) != CUDA_SUCCESS)
      break;
    P.ParamSizes.push_back(Size);
    if (Size != sizeof(CUdeviceptr))
      continue;
    CUdeviceptr Ptr;
    std::memcpy(&Ptr, Params[I], sizeof(Ptr));
    CUdeviceptr Base;
    size_t Bytes;
    if (!Ptr || cuMemGetAddressRange(&Base, &Bytes, Ptr) != CUDA_SUCCESS)
      continue; // not a device pointer (a scalar that happens to be 8 bytes)
    bool Known = false;
    for (Allocation &A : P.Allocs)
      if (A.Base == Base) {
        A.Args.push_back(int(I));
        Known = true;
      }
    if (!Known) {
      Allocation A;
      A.Base = Base;
      A.Size = Bytes;
      A.Args.push_back(int(I));
      P.Allocs.push_back(A);
    }
  }
  return true;
}

bool saveState(PendingLaunch &P, bool AfterLaunch) {
  CU(cuCtxSynchronize());
  for (Allocation &A : P.Allocs) {
    CUdeviceptr &Copy = AfterLaunch ? A.After : A.Before;
    if (!Copy)
      CU(cuMemAlloc(&Copy, A.Size));
    CU(cuMemcpyDtoD(Copy, A.Base, A.Size));
  }
  CU(cuCtxSynchronize());
  return true;
}

bool restoreState(PendingLaunch &P, bool AfterLaunch) {
  for (Allocation &A : P.Allocs)
    CU(cuMemcpyDtoD(A.Base, AfterLaunch ? A.After : A.Before, A.Size));
  CU(cuCtxSynchronize());
  return true;
}

bool capture(PendingLaunch &P) {
  std::vector<char> Host;
  for (size_t I = 0; I < P.Allocs.size(); ++I) {
    Allocation &A = P.Allocs[I];
    Host.resize(A.Size);
    CU(cuMemcpyDtoH(Host.data(), A.Base, A.Size));
    char Sum[17];
    cro_checksum::toHex(cro_checksum::xxh64(Host.data(), Host.size()), Sum);
    auto Ref = Reference.find(referenceKey(P.Kernel, P.Index, int(I)));
    bool AsReference = Ref != Reference.end() && Ref->second.Bytes == A.Size &&
                       Ref->second.Checksum == Sum;
    std::string File;
    if (!AsReference) {
      File = S.CaptureDir + "/" + P.Kernel + "." + std::to_string(P.Index) +
             ".alloc" + std::to_string(I) + ".bin";
      for (char &C : File)
        if (C == ':' || C == ' ' || C == '(' || C == ')')
          C = '_';
      FILE *F = std::fopen(File.c_str(), "wb");
      if (!F || std::fwrite(Host.data(), 1, Host.size(), F) != Host.size()) {
        error("cannot write " + File);
        if (F)
          std::fclose(F);
        return false;
      }
      std::fclose(F);
    }
    std::string Args;
    for (int X : A.Args)
      Args += (Args.empty() ? "" : ",") + std::to_string(X);
    emit("{\"event\":\"capture\",\"kernel\":\"" + jsonEscape(P.Kernel) +
         "\",\"launch\":" + std::to_string(P.Index) +
         ",\"allocation\":" + std::to_string(I) + ",\"args\":[" + Args +
         "],\"threads\":" + std::to_string(P.Threads) + ",\"block\":[" +
         std::to_string(P.Block[0]) + "," + std::to_string(P.Block[1]) + "," +
         std::to_string(P.Block[2]) + "]" +
         ",\"bytes\":" + std::to_string(A.Size) + ",\"checksum\":\"" + Sum +
         "\",\"file\":\"" + jsonEscape(File) + "\"}");
  }
  return true;
}

/// Launches the kernel again with the same configuration, timed.
struct Relauncher {
  CUfunction F;
  unsigned Grid[3], Block[3], Smem;
  CUstream Stream;
  void **Params, **Extra;
  const CUlaunchConfig *Config = nullptr; // cuLaunchKernelEx
  /// The launch's grid, block and dynamic shared memory, from whichever
  /// call made it.
  void dims(unsigned G[3], unsigned B[3], unsigned &Bytes) const {
    if (Config) {
      G[0] = Config->gridDimX, G[1] = Config->gridDimY, G[2] = Config->gridDimZ;
      B[0] = Config->blockDimX, B[1] = Config->blockDimY,
      B[2] = Config->blockDimZ;
      Bytes = Config->sharedMemBytes;
    } else {
      std::copy(Grid, Grid + 3, G), std::copy(Block, Block + 3, B);
      Bytes = Smem;
    }
  }
  CUresult launch() const {
    if (Config)
      return cuLaunchKernelEx(Config, F, Params, Extra);
    return cuLaunchKernel(F, Grid[0], Grid[1], Grid[2], Block[0], Block[1],
                          Block[2], Smem, Stream, Params, Extra);
  }
  CUstream stream() const { return Config ? Config->hStream : Stream; }
};

CUdeviceptr FlushBuffer = 0;
const size_t FlushBytes = size_t(256) << 20; // > 4x the H200's 60 MB L2

bool timedReplay(PendingLaunch &P, const Relauncher &L, CUevent E0, CUevent E1,
                 float &Ms) {
  if (!restoreState(P, /*AfterLaunch=*/false))
    return false;
  if (S.FlushL2) {
    if (!FlushBuffer)
      CU(cuMemAlloc(&FlushBuffer, FlushBytes));
    CU(cuMemsetD8(FlushBuffer, 0x5a, FlushBytes));
    CU(cuCtxSynchronize());
  }
  CU(cuEventRecord(E0, L.stream()));
  CU(L.launch());
  CU(cuEventRecord(E1, L.stream()));
  CU(cuEventSynchronize(E1));
  CU(cuEventElapsedTime(&Ms, E0, E1));
  return true;
}

bool replay(PendingLaunch &P, const Relauncher &L) {
  CUevent E0, E1;
  CU(cuEventCreate(&E0, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&E1, CU_EVENT_DEFAULT));
  std::vector<float> Times;
  float Ms = 0;
  // Both budgets below are wall-clock time, not kernel time: every replay
  // first restores the launch's allocations, and for a short kernel on large
  // arrays (a CG solver's dot product over 100 MB) the copies cost many times
  // the kernel. Counted in kernel time, the ~100 ms of replays took seconds
  // per launch (measured on the H200: 6 s of a CG evaluation's 6.1 s).
  using Clock = std::chrono::steady_clock;
  auto WallMs = [](Clock::time_point Since) {
    return std::chrono::duration<double, std::milli>(Clock::now() - Since)
        .count();
  };
  // Warm up for CRO_WARMUP_MS first: an idle GPU ramps its clocks, and the
  // first runs of a program measured ~1% slower than later ones without it.
  Clock::time_point WarmStart = Clock::now();
  bool Ok = timedReplay(P, L, E0, E1, Ms);
  int WarmReplays = 1;
  for (; Ok && WallMs(WarmStart) < S.WarmupMs && WarmReplays < 100000;
       ++WarmReplays)
    Ok = timedReplay(P, L, E0, E1, Ms);
  int R = S.Replays;
  if (Ok && R <= 0) {
    double PerReplayMs = std::max(WallMs(WarmStart) / WarmReplays, 1e-4);
    R = std::max(S.MinReplays,
                 std::min(10000, int(std::ceil(S.ReplayMs / PerReplayMs))));
  }
  for (int I = 0; Ok && I < R; ++I) {
    Ok = timedReplay(P, L, E0, E1, Ms);
    if (Ok)
      Times.push_back(Ms);
  }
  cuEventDestroy(E0);
  cuEventDestroy(E1);
  std::string T;
  for (float X : Times) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%.6f", X);
    T += (T.empty() ? "" : ",") + std::string(Buf);
  }
  unsigned G[3], B[3], Smem;
  L.dims(G, B, Smem);
  // Registers and theoretical occupancy. The runtime's handle is a CUkernel
  // (lazy loading): get its CUfunction in this context first.
  CUfunction Fn = L.F;
  int Regs = 0;
  if (cuFuncGetAttribute(&Regs, CU_FUNC_ATTRIBUTE_NUM_REGS, Fn) !=
          CUDA_SUCCESS &&
      cuKernelGetFunction(&Fn, (CUkernel)L.F) == CUDA_SUCCESS)
    cuFuncGetAttribute(&Regs, CU_FUNC_ATTRIBUTE_NUM_REGS, Fn);
  int Active = 0, MaxThreads = 0;
  CUdevice Dev;
  double Occupancy = -1;
  if (cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &Active, Fn, B[0] * B[1] * B[2], Smem) == CUDA_SUCCESS &&
      cuCtxGetDevice(&Dev) == CUDA_SUCCESS &&
      cuDeviceGetAttribute(&MaxThreads,
                           CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                           Dev) == CUDA_SUCCESS &&
      MaxThreads > 0)
    Occupancy = double(Active) * B[0] * B[1] * B[2] / MaxThreads;
  char Head[512];
  std::snprintf(Head, sizeof Head,
                "{\"event\":\"replay\",\"kernel\":\"%s\",\"launch\":%d,"
                "\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"dynamic_smem\":%u,"
                "\"registers\":%d,\"active_blocks_per_sm\":%d,"
                "\"occupancy\":%.4f,\"flush_l2\":%s,\"times_ms\":[",
                jsonEscape(P.Kernel).c_str(), P.Index, G[0], G[1], G[2], B[0],
                B[1], B[2], Smem, Regs, Active, Occupancy,
                S.FlushL2 ? "true" : "false");
  emit(std::string(Head) + T + "]}");
  return Ok;
}

void releaseState(PendingLaunch &P) {
  for (Allocation &A : P.Allocs) {
    if (A.Before)
      cuMemFree(A.Before);
    if (A.After)
      cuMemFree(A.After);
  }
}

void CUPTIAPI onDriverCall(void *, CUpti_CallbackDomain Domain,
                           CUpti_CallbackId Cbid, const void *Data) {
  if (Busy || Domain != CUPTI_CB_DOMAIN_DRIVER_API)
    return;
  const auto *CB = static_cast<const CUpti_CallbackData *>(Data);
  if (CB->callbackSite == CUPTI_API_ENTER)
    noteOwnLaunch(CB->correlationId,
                  Cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
                      Cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz);
  Relauncher L{};
  switch (Cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
    const auto *P =
        static_cast<const cuLaunchKernel_params *>(CB->functionParams);
    L.F = P->f;
    L.Grid[0] = P->gridDimX, L.Grid[1] = P->gridDimY, L.Grid[2] = P->gridDimZ;
    L.Block[0] = P->blockDimX, L.Block[1] = P->blockDimY,
    L.Block[2] = P->blockDimZ;
    L.Smem = P->sharedMemBytes;
    L.Stream = P->hStream;
    L.Params = P->kernelParams;
    L.Extra = P->extra;
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    const auto *P =
        static_cast<const cuLaunchKernelEx_params *>(CB->functionParams);
    L.F = P->f;
    L.Config = P->config;
    L.Params = P->kernelParams;
    L.Extra = P->extra;
    break;
  }
  default:
    return;
  }
  if (!CB->symbolName)
    return;
  Busy = true;
  std::string Base = baseName(CB->symbolName);
  if (CB->callbackSite == CUPTI_API_ENTER) {
    if (isTarget(Base)) {
      int Index = LaunchCount[Base]++;
      bool Replay = Index < S.MaxLaunches;
      bool Capture = !S.CaptureDir.empty() && Index < S.MaxCaptures;
      if (Replay || Capture) {
        Pending = new PendingLaunch;
        Pending->Kernel = Base;
        Pending->Index = Index;
        unsigned G[3], B[3], Smem;
        L.dims(G, B, Smem);
        Pending->Threads = 1ull * G[0] * G[1] * G[2] * B[0] * B[1] * B[2];
        std::copy(B, B + 3, Pending->Block);
        if (!findAllocations(L.F, L.Params, *Pending) ||
            !saveState(*Pending, /*AfterLaunch=*/false)) {
          releaseState(*Pending);
          delete Pending;
          Pending = nullptr;
        }
      }
    }
  } else if (Pending && Pending->Kernel == Base) {
    PendingLaunch &P = *Pending;
    bool Ok =
        CB->functionReturnValue == nullptr ||
        *static_cast<const CUresult *>(CB->functionReturnValue) == CUDA_SUCCESS;
    if (Ok && saveState(P, /*AfterLaunch=*/true)) {
      if (!S.CaptureDir.empty() && P.Index < S.MaxCaptures)
        capture(P);
      if (P.Index < S.MaxLaunches)
        replay(P, L);
      restoreState(P, /*AfterLaunch=*/true);
    }
    releaseState(P);
    delete Pending;
    Pending = nullptr;
  }
  Busy = false;
}

// --- activity records ------------------------------------------------------

void CUPTIAPI bufferRequested(uint8_t **Buffer, size_t *Size,
                              size_t *MaxRecords) {
  *Size = 8 << 20;
  *Buffer = static_cast<uint8_t *>(std::aligned_alloc(8, *Size));
  *MaxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buffer, size_t,
                              size_t Valid) {
  CUpti_Activity *Record = nullptr;
  while (cuptiActivityGetNextRecord(Buffer, Valid, &Record) == CUPTI_SUCCESS) {
    if (Record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        Record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    const auto *K = reinterpret_cast<const CUpti_ActivityKernel10 *>(Record);
    bool Replay = true;
    {
      std::lock_guard<std::mutex> G(OwnIdsMutex);
      auto It = OwnIds.find(K->correlationId);
      if (It != OwnIds.end()) {
        Replay = false;
        if (!It->second)
          OwnIds.erase(It);
      }
    }
    char Line[1024];
    std::snprintf(Line, sizeof Line,
                  "{\"event\":\"kernel\",\"kernel\":\"%s\",\"start_ns\":%llu,"
                  "\"end_ns\":%llu,\"grid\":[%d,%d,%d],\"block\":[%d,%d,%d],"
                  "\"registers\":%u,\"static_smem\":%d,\"dynamic_smem\":%d,"
                  "\"stream\":%u,\"correlation\":%u,\"replay\":%s}",
                  jsonEscape(baseName(K->name)).c_str(),
                  (unsigned long long)K->start, (unsigned long long)K->end,
                  K->gridX, K->gridY, K->gridZ, K->blockX, K->blockY, K->blockZ,
                  (unsigned)K->registersPerThread, K->staticSharedMemory,
                  K->dynamicSharedMemory, K->streamId, K->correlationId,
                  Replay ? "true" : "false");
    emit(Line);
  }
  std::free(Buffer);
}

void atExit() {
  cuptiActivityFlushAll(1);
  std::lock_guard<std::mutex> G(OutMutex);
  if (Out) {
    std::fputs("{\"event\":\"exit\"}\n", Out);
    std::fclose(Out);
    Out = nullptr;
  }
}

int intEnv(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::atoi(V) : Default;
}

} // namespace

extern "C" int InitializeInjection(void) {
  const char *Path = std::getenv("CRO_OUT");
  if (!Path || !*Path)
    return 1;
  Out = std::fopen(Path, "w");
  if (!Out)
    return 1;
  if (const char *K = std::getenv("CRO_KERNELS")) {
    std::string All = K;
    size_t Start = 0;
    while (Start <= All.size()) {
      size_t Comma = All.find(',', Start);
      std::string Name = All.substr(Start, Comma - Start);
      if (!Name.empty())
        S.Kernels.push_back(Name);
      if (Comma == std::string::npos)
        break;
      Start = Comma + 1;
    }
  }
  S.Replays = intEnv("CRO_REPLAYS", 0);
  S.ReplayMs = intEnv("CRO_REPLAY_MS", 100);
  S.MinReplays = intEnv("CRO_MIN_REPLAYS", 5);
  S.WarmupMs = intEnv("CRO_WARMUP_MS", 25);
  S.MaxLaunches = intEnv("CRO_MAX_LAUNCHES", 3);
  S.MaxCaptures = intEnv("CRO_MAX_CAPTURES", 8);
  S.FlushL2 = intEnv("CRO_FLUSH_L2", 0) != 0;
  if (const char *D = std::getenv("CRO_CAPTURE_DIR"))
    S.CaptureDir = D;
  if (const char *R = std::getenv("CRO_CAPTURE_REFERENCE"))
    if (*R && !S.CaptureDir.empty())
      readReference(R);

  CUpti_SubscriberHandle Sub;
  if (cuptiSubscribe(&Sub, (CUpti_CallbackFunc)onDriverCall, nullptr) !=
      CUPTI_SUCCESS) {
    error("cuptiSubscribe failed (is another profiler attached?)");
    return 1;
  }
  // Launches: the first four are replayed and captured; all of them are the
  // program's own kernels in its GPU time.
  for (CUpti_CallbackId Id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz})
    cuptiEnableCallback(1, Sub, CUPTI_CB_DOMAIN_DRIVER_API, Id);
  cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  std::atexit(atExit);
  emit("{\"event\":\"start\",\"version\":1}");
  return 0;
}
