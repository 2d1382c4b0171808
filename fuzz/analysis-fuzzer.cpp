// The analysis and the transforms on generated CUDA: the fuzzer's bytes
// choose a kernel from a grammar of the forms user code takes (index
// spellings, guards and early returns, loops of every shape, helpers,
// shared memory, atomics, macro'd sizes, 1-D and 2-D launches), the tool
// parses and models it, describes its knobs, and applies each knob at its
// ends and all of them at once. Parse errors are fine (the grammar can
// make code Clang rejects); a crash, a hang or an ASan report is not, and
// neither is a default configuration that does not give the source back.
#include "cro/Analysis/ModelBuilder.h"
#include "cro/Analysis/ModelJSON.h"
#include "cro/Frontend/Frontend.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/Registry.h"
#include "cro/Support/HardwareLimits.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <fuzzer/FuzzedDataProvider.h>
#include <string>
#include <vector>

using namespace cro;
using namespace llvm;

namespace {

class Generator {
public:
  explicit Generator(FuzzedDataProvider &In) : In(In) {}

  std::string program() {
    std::string S;
    bool Macro = pick(2);
    S += Macro ? "#define BS " + block1() + "\n" : "";
    S += pick(2) ? "typedef float real;\n" : "#define real float\n";
    S += "#define TILE 16\n";
    S += "__device__ int plus1(int v) { return v + 1; }\n";
    TwoD = pick(3) == 0;
    S += "__global__ void k(const real *a, real *b, int n, int m) {\n";
    S += index();
    S += guard();
    S += body(0);
    S += "}\n";
    S += "int main() {\n  int n = 4096, m = 64;\n"
         "  real *a, *b;\n  cudaMalloc(&a, n * m * sizeof(real));\n"
         "  cudaMalloc(&b, n * m * sizeof(real));\n";
    S += launch(Macro ? "BS" : block1());
    S += "  cudaDeviceSynchronize();\n  return 0;\n}\n";
    return S;
  }

private:
  unsigned pick(unsigned N) { return In.ConsumeIntegralInRange(0u, N - 1); }
  std::string block1() {
    static const char *B[] = {"32", "64", "128", "256", "512", "1024"};
    return B[pick(6)];
  }

  std::string index() {
    static const char *I[] = {
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n",
        "  int i = threadIdx.x + blockDim.x * blockIdx.x;\n",
        "  int i;\n  i = blockIdx.x * blockDim.x + threadIdx.x;\n",
        "  const int tid = threadIdx.x;\n  int i = blockIdx.x * blockDim.x + "
        "tid;\n",
        "  int i = blockIdx.x * TILE + threadIdx.x;\n",
        "  int i = plus1(blockIdx.x * blockDim.x + threadIdx.x) - 1;\n",
        "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n",
    };
    std::string S = I[pick(7)];
    if (TwoD)
      S += pick(2) ? "  int j = blockIdx.y * blockDim.y + threadIdx.y;\n"
                   : "  int j = threadIdx.y + blockIdx.y * blockDim.y;\n";
    else
      S += "  int j = 0;\n";
    return S;
  }

  std::string guard() {
    static const char *G[] = {
        "  if (i >= n) return;\n",
        "  if (i >= n || j >= m) return;\n",
        "  if (i < 1 || i >= n - 1) return;\n",
        "",
        "  if (!(i < n)) return;\n",
    };
    return G[pick(5)];
  }

  std::string stmt(int Depth) {
    switch (pick(Depth > 2 ? 9 : 12)) {
    case 0:
      return "  b[i] = a[i] * 2;\n";
    case 1:
      return "  b[i * m + j] += a[j * n + i];\n";
    case 2:
      return "  b[i] = a[i > 0 ? i - 1 : i] + a[i];\n";
    case 3:
      return "  { __shared__ real s[1024]; s[threadIdx.x] = a[i]; "
             "__syncthreads(); b[i] = s[(threadIdx.x + 1) % blockDim.x]; }\n";
    case 4:
      return "  atomicAdd(&b[i % 7], a[i]);\n";
    case 5:
      return "  if (i < n) b[i] = a[i];\n";
    case 6:
      return "  b[i] = a[plus1(i) % n];\n";
    case 7:
      return "  { real t = a[i]; t = t * t; b[i] = t; }\n";
    case 8:
      return "  if (threadIdx.x == 0) b[blockIdx.x] = a[blockIdx.x];\n";
    case 9:
      return loop(Depth + 1);
    case 10:
      return "  if (i < n) {\n" + body(Depth + 1) + "  }\n";
    default:
      return "  for (int g = i; g < n; g += blockDim.x * gridDim.x) b[g] = "
             "a[g];\n";
    }
  }

  std::string loop(int Depth) {
    static const char *Heads[] = {
        "  for (int q = 0; q < m; ++q) {\n",
        "  { int q; for (q = 0; q <= m - 1; q++) {\n",
        "  { int q = 0; while (q < m) {\n",
        "  for (int q = m - 1; q >= 0; q -= 2) {\n",
        "  for (int q = 0; q < TILE; q++) {\n",
    };
    unsigned H = pick(5);
    std::string S = Heads[H];
    S += pick(2) ? "  real acc = 0; acc += a[q * n + i]; b[i] += acc;\n"
                 : "  b[i * m + q] = a[i * m + q] + 1;\n";
    if (pick(2))
      S += body(Depth);
    if (H == 2)
      S += "  q += 1; } }\n";
    else if (H == 1)
      S += "  } }\n";
    else
      S += "  }\n";
    return S;
  }

  std::string body(int Depth) {
    std::string S;
    unsigned N = 1 + pick(3);
    for (unsigned I = 0; I < N; ++I)
      S += stmt(Depth);
    return S;
  }

  std::string launch(const std::string &Block) {
    if (TwoD)
      return pick(2) ? "  k<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, "
                       "16)>>>(a, b, n, m);\n"
                     : "  dim3 block(32, 8);\n  dim3 grid((n + block.x - 1) "
                       "/ block.x, (m + block.y - 1) / block.y);\n  "
                       "k<<<grid, block>>>(a, b, n, m);\n";
    switch (pick(4)) {
    case 0:
      return "  k<<<(n + " + Block + " - 1) / " + Block + ", " + Block +
             ">>>(a, b, n, m);\n";
    case 1:
      return "  int threads = " + Block +
             ";\n  k<<<(n + threads - 1) / threads, threads>>>(a, b, n, "
             "m);\n";
    case 2:
      return "  for (int t = 0; t < 3; ++t)\n    k<<<n / TILE, TILE>>>(a, b, "
             "n, m);\n";
    default:
      return "  k<<<1024, " + Block + ">>>(a, b, n, m);\n";
    }
  }

  FuzzedDataProvider &In;
  bool TwoD = false;
};

std::string tempFile() {
  SmallString<128> P;
  int FD;
  if (sys::fs::createTemporaryFile("cro-fuzz", "cu", FD, P))
    __builtin_trap();
  sys::fs::closeFile(FD);
  return P.str().str();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string File = tempFile();
  FuzzedDataProvider In(Data, Size);
  std::string Source = Generator(In).program();
  // CRO_FUZZ_SHOW=1: print the program (to see what a crashing input was).
  static const bool Show = std::getenv("CRO_FUZZ_SHOW") != nullptr;
  if (Show)
    errs() << "---- generated program ----\n" << Source;
  {
    std::error_code EC;
    raw_fd_ostream OS(File, EC);
    OS << Source;
  }
  FrontendOptions Opts;
  Opts.InputFile = File;
  Opts.GpuArch = "sm_90";
  std::string Diags;
  raw_string_ostream DiagOS(Diags);
  Expected<std::unique_ptr<ParsedFile>> PF = parseCudaFile(Opts, DiagOS);
  if (!PF) {
    if (Show)
      errs() << "---- not parsed ----\n" << Diags;
    consumeError(PF.takeError());
    return 0;
  }
  KernelModel Model = buildKernelModel(**PF, File);
  (void)toJSON(Model);
  TransformRegistry Transforms;
  registerBuiltinTransforms(Transforms);
  RewriteContext Ctx(Model, Transforms, Model.Program.text(), File);
  Ctx.Target = tableLimits("sm_90");
  describeKnobs(Ctx);
  Expected<Variant> Same = applyConfiguration(Ctx, json::Object{});
  if (!Same || Same->Source != Source)
    __builtin_trap(); // the default configuration is the source
  json::Object All;
  for (const Knob &K : Ctx.Knobs.Knobs) {
    for (const json::Value *V : {&K.Values.front(), &K.Values.back()}) {
      Expected<Variant> One = applyConfiguration(Ctx, json::Object{{K.Id, *V}});
      if (!One)
        consumeError(One.takeError()); // a refusal of the engine: fine
    }
    All[K.Id] =
        K.Values[In.ConsumeIntegralInRange<size_t>(0, K.Values.size() - 1)];
  }
  Expected<Variant> Mixed = applyConfiguration(Ctx, All);
  if (!Mixed)
    consumeError(Mixed.takeError());
  return 0;
}
