#include "cro/Frontend/CudaToolkit.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include <vector>

using namespace llvm;

namespace cro {

CudaSearchEnvironment CudaSearchEnvironment::process() {
  CudaSearchEnvironment Env;
  Env.GetEnv = [](StringRef Name) -> std::optional<std::string> {
    std::optional<std::string> V = sys::Process::GetEnv(Name);
    if (V && V->empty())
      return std::nullopt;
    return V;
  };
  Env.FindProgram = [](StringRef Name) -> std::optional<std::string> {
    ErrorOr<std::string> P = sys::findProgramByName(Name);
    if (!P)
      return std::nullopt;
    return *P;
  };
  return Env;
}

bool isCudaToolkitRoot(StringRef Dir) {
  SmallString<256> Header(Dir);
  sys::path::append(Header, "include", "cuda_runtime.h");
  return sys::fs::exists(Header);
}

// Reads the toolkit's version: version.json (CUDA >= 11.1) or version.txt.
static std::string readCudaVersion(StringRef Root) {
  SmallString<256> JsonPath(Root);
  sys::path::append(JsonPath, "version.json");
  if (auto Buf = MemoryBuffer::getFile(JsonPath)) {
    if (Expected<json::Value> V = json::parse((*Buf)->getBuffer())) {
      if (const json::Object *O = V->getAsObject())
        if (const json::Object *Cuda = O->getObject("cuda"))
          if (std::optional<StringRef> Ver = Cuda->getString("version"))
            return Ver->str();
    } else {
      consumeError(V.takeError());
    }
  }
  SmallString<256> TxtPath(Root);
  sys::path::append(TxtPath, "version.txt");
  if (auto Buf = MemoryBuffer::getFile(TxtPath)) {
    StringRef Text = (*Buf)->getBuffer();
    size_t Pos = Text.find("Version ");
    if (Pos != StringRef::npos)
      return Text.substr(Pos + 8).take_until(isSpace).str();
  }
  // Minimal installs (pip wheels, containers) lack both: read cuda.h.
  SmallString<256> Header(Root);
  sys::path::append(Header, "include", "cuda.h");
  if (auto Buf = MemoryBuffer::getFile(Header)) {
    StringRef Text = (*Buf)->getBuffer();
    size_t Pos = Text.find("#define CUDA_VERSION ");
    unsigned V;
    if (Pos != StringRef::npos &&
        !Text.substr(Pos + 21).take_while(isDigit).getAsInteger(10, V))
      return std::to_string(V / 1000) + "." + std::to_string((V % 1000) / 10);
  }
  return "";
}

static CudaToolkit makeToolkit(StringRef Root, StringRef Via) {
  SmallString<256> Real;
  if (sys::fs::real_path(Root, Real))
    Real = Root;
  return {Real.str().str(), Via.str(), readCudaVersion(Real)};
}

Expected<CudaToolkit> findCudaToolkit(StringRef ExplicitPath,
                                      const CudaSearchEnvironment &Env) {
  if (!ExplicitPath.empty()) {
    if (isCudaToolkitRoot(ExplicitPath))
      return makeToolkit(ExplicitPath, "--cuda-path");
    return makeToolError(ExitCode::CudaNotFound,
                         "--cuda-path '" + ExplicitPath +
                             "' is not a CUDA toolkit (no "
                             "include/cuda_runtime.h there)");
  }
  std::vector<std::string> Tried;
  for (StringRef Var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (std::optional<std::string> Dir = Env.GetEnv(Var)) {
      if (isCudaToolkitRoot(*Dir))
        return makeToolkit(*Dir, Var);
      Tried.push_back("$" + Var.str() + "=" + *Dir);
    }
  }
  if (std::optional<std::string> Nvcc = Env.FindProgram("nvcc")) {
    SmallString<256> Real;
    if (sys::fs::real_path(*Nvcc, Real))
      Real = *Nvcc;
    // <root>/bin/nvcc
    StringRef Root = sys::path::parent_path(sys::path::parent_path(Real));
    if (isCudaToolkitRoot(Root))
      return makeToolkit(Root, "nvcc on PATH");
    Tried.push_back("nvcc at " + Real.str().str());
  }
  if (isCudaToolkitRoot(Env.DefaultRoot))
    return makeToolkit(Env.DefaultRoot, "default");
  Tried.push_back(Env.DefaultRoot);
  std::string Msg = "CUDA toolkit not found (tried";
  for (const std::string &T : Tried)
    Msg += " " + T + ",";
  Msg.back() = ')';
  Msg += "; pass --cuda-path=DIR or set CUDA_HOME";
  return makeToolError(ExitCode::CudaNotFound, Msg);
}

} // namespace cro
