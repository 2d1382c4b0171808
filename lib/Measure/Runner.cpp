#include "cro/Measure/Runner.h"
#include "cro/Build/Builder.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cro {

namespace {

void readDims(const json::Object &O, StringRef Key, unsigned Out[3]) {
  if (const json::Array *A = O.getArray(Key))
    for (size_t I = 0; I < 3 && I < A->size(); ++I)
      Out[I] = unsigned((*A)[I].getAsInteger().value_or(1));
}

} // namespace

bool sameBytes(const CaptureRecord &A, const CaptureRecord &B) {
  return !A.Checksum.empty() && A.Checksum == B.Checksum && A.Bytes == B.Bytes;
}

Error writeCaptureReference(ArrayRef<CaptureRecord> Captures, StringRef Path) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return makeToolError(ExitCode::Internal,
                         "cannot write " + Path.str() + ": " + EC.message());
  // The library reads the kernel name to the end of the line: names such as
  // "(anonymous namespace)::k" have spaces.
  for (const CaptureRecord &C : Captures)
    if (C.Checksum.size() == 16 && C.Kernel.find('\n') == std::string::npos)
      OS << C.Launch << ' ' << C.Allocation << ' ' << C.Bytes << ' '
         << C.Checksum << ' ' << C.Kernel << '\n';
  OS.close();
  if (OS.has_error())
    return makeToolError(ExitCode::Internal, "cannot write " + Path.str() +
                                                 ": " + OS.error().message());
  return Error::success();
}

void parseInjectionOutput(StringRef Text, RunResult &R) {
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n', -1, false);
  for (StringRef Line : Lines) {
    Expected<json::Value> V = json::parse(Line);
    if (!V) {
      R.Errors.push_back("unreadable record: " + toString(V.takeError()));
      continue;
    }
    const json::Object *O = V->getAsObject();
    if (!O)
      continue;
    StringRef Event = O->getString("event").value_or("");
    std::string Kernel = O->getString("kernel").value_or("").str();
    if (Event == "start") {
      R.InjectionStarted = true;
    } else if (Event == "kernel") {
      KernelRecord K;
      K.Kernel = Kernel;
      K.StartNs = O->getInteger("start_ns").value_or(0);
      K.EndNs = O->getInteger("end_ns").value_or(0);
      K.Registers = O->getInteger("registers").value_or(0);
      K.Replay = O->getBoolean("replay").value_or(false);
      readDims(*O, "grid", K.Grid);
      readDims(*O, "block", K.Block);
      R.Kernels.push_back(K);
    } else if (Event == "replay") {
      ReplayRecord P;
      P.Kernel = Kernel;
      P.Launch = O->getInteger("launch").value_or(0);
      P.Registers = O->getInteger("registers").value_or(0);
      P.Occupancy = O->getNumber("occupancy").value_or(-1);
      readDims(*O, "grid", P.Grid);
      readDims(*O, "block", P.Block);
      if (const json::Array *T = O->getArray("times_ms"))
        for (const json::Value &X : *T)
          P.TimesMs.push_back(X.getAsNumber().value_or(0));
      R.Replays.push_back(P);
    } else if (Event == "capture") {
      CaptureRecord C;
      C.Kernel = Kernel;
      C.Launch = O->getInteger("launch").value_or(0);
      C.Allocation = O->getInteger("allocation").value_or(0);
      C.Threads = O->getInteger("threads").value_or(0);
      readDims(*O, "block", C.Block);
      C.Bytes = O->getInteger("bytes").value_or(0);
      C.Checksum = O->getString("checksum").value_or("").str();
      C.File = O->getString("file").value_or("").str();
      if (const json::Array *A = O->getArray("args"))
        for (const json::Value &X : *A)
          C.Args.push_back(int(X.getAsInteger().value_or(-1)));
      R.Captures.push_back(C);
    } else if (Event == "error") {
      R.Errors.push_back(O->getString("message").value_or("").str());
    }
  }
}

static void anchorForMainExecutable() {}

std::string findInjectionLibrary(StringRef ToolPath) {
  std::optional<std::string> Env = sys::Process::GetEnv("CRO_INJECTION_LIB");
  if (Env && !Env->empty())
    return *Env;
  // The executable's real location (/proc/self/exe on Linux), never argv[0]
  // taken relative to the working directory: called through PATH or a
  // symbolic link, argv[0] names neither the tool's directory nor anything
  // safe, and a libcro-inject.so in the working directory would be injected
  // into the user's program.
  std::string Exe = sys::fs::getMainExecutable(
      ToolPath.str().c_str(),
      reinterpret_cast<void *>(&anchorForMainExecutable));
  SmallString<256> Dir;
  if (Exe.empty() || sys::fs::real_path(Exe, Dir))
    return "";
  sys::path::remove_filename(Dir);
  for (const char *Rel : {"../lib/libcro-inject.so", "libcro-inject.so"}) {
    SmallString<256> P(Dir);
    sys::path::append(P, Rel);
    sys::path::remove_dots(P, true);
    if (sys::fs::exists(P))
      return P.str().str();
  }
  return "";
}

extern "C" const char cro_injection_source_begin[];
extern "C" const char cro_injection_source_end[];

Expected<std::string> buildInjectionLibrary(StringRef CudaRoot,
                                            StringRef CacheDir) {
  std::string Compiler = "g++";
  for (const char *C : {"g++", "c++", "clang++"})
    if (sys::findProgramByName(C)) {
      Compiler = C;
      break;
    }
  std::string Cuda = CudaRoot.str();
  BuildOptions O;
  O.Template = {Compiler,
                "-std=c++17",
                "-O2",
                "-fPIC",
                "-shared",
                "-I" + Cuda + "/include",
                "-I" + Cuda + "/extras/CUPTI/include",
                "{src}",
                "-o",
                "{exe}",
                "-L" + Cuda + "/lib64",
                "-L" + Cuda + "/extras/CUPTI/lib64",
                "-lcupti",
                "-L" + Cuda + "/lib64/stubs",
                "-lcuda",
                "-static-libstdc++",
                "-static-libgcc",
                "-Wl,-rpath," + Cuda + "/lib64:" + Cuda +
                    "/extras/CUPTI/lib64"};
  O.OriginalPath = "CroInjection.cpp";
  O.CacheDir = CacheDir.str();
  O.Jobs = 1;
  Builder B(O);
  std::string Source(cro_injection_source_begin,
                     cro_injection_source_end - cro_injection_source_begin);
  Expected<std::vector<BuildResult>> R = B.build({{Source, {}}});
  if (!R)
    return R.takeError();
  if (!R->front().Ok)
    return makeToolError(ExitCode::Internal,
                         "could not build the measurement library with " +
                             Compiler + " and the CUPTI in " + Cuda + ":\n" +
                             R->front().Log);
  return R->front().Executable;
}

Expected<RunResult> runUnderInjection(const std::string &Exe,
                                      const RunOptions &Opts) {
  if (Opts.InjectionLibrary.empty() || !sys::fs::exists(Opts.InjectionLibrary))
    return makeToolError(ExitCode::Internal,
                         "the measurement library libcro-inject.so was not "
                         "found next to the tool (or in $CRO_INJECTION_LIB)");
  SmallString<256> OutFile(Opts.WorkDir), LogFile(Opts.WorkDir);
  sys::path::append(OutFile, "injection.jsonl");
  sys::path::append(LogFile, "program.log");
  sys::fs::remove(OutFile);
  std::string Kernels;
  for (const std::string &K : Opts.TargetKernels)
    Kernels += (Kernels.empty() ? "" : ",") + K;
  ProcessOptions P;
  P.Env = {"CUDA_INJECTION64_PATH=" + Opts.InjectionLibrary,
           "CRO_OUT=" + OutFile.str().str(),
           "CRO_KERNELS=" + Kernels,
           "CRO_REPLAYS=" + std::to_string(Opts.Replays),
           "CRO_MAX_LAUNCHES=" + std::to_string(Opts.MaxLaunches),
           "CRO_MAX_CAPTURES=" + std::to_string(Opts.MaxCaptures),
           "CRO_FLUSH_L2=" + std::string(Opts.FlushL2 ? "1" : "0"),
           "CRO_CAPTURE_DIR=" + Opts.CaptureDir,
           "CRO_CAPTURE_REFERENCE=" + Opts.CaptureReference};
  if (!Opts.CudaRoot.empty()) {
    std::string Libs =
        Opts.CudaRoot + "/lib64:" + Opts.CudaRoot + "/extras/CUPTI/lib64";
    if (std::optional<std::string> Old =
            sys::Process::GetEnv("LD_LIBRARY_PATH"))
      Libs += ":" + *Old;
    P.Env.push_back("LD_LIBRARY_PATH=" + Libs);
  }
  P.StdoutFile = LogFile.str().str();
  P.StderrFile = P.StdoutFile;
  P.TimeoutSeconds = Opts.TimeoutSeconds;
  P.WorkingDirectory = Opts.WorkDir;
  std::vector<std::string> Argv = {Exe};
  Argv.insert(Argv.end(), Opts.Args.begin(), Opts.Args.end());
  RunResult R;
  R.Process = Opts.Via ? Opts.Via->run(Argv, P, JobKind::Run, Opts.Slot)
                       : runProcess(Argv, P);
  if (auto B = MemoryBuffer::getFile(LogFile))
    R.Output = (*B)->getBuffer().str();
  if (auto B = MemoryBuffer::getFile(OutFile))
    parseInjectionOutput((*B)->getBuffer(), R);
  return R;
}

} // namespace cro
