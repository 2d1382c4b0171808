#include "cro/Frontend/NvccParity.h"
#include "cro/Frontend/ResourceHeaders.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include <memory>
#include <mutex>

using namespace llvm;

namespace cro {

namespace {

/// Splits one nvcc.profile value into its words; quotes group, and are
/// dropped, as nvcc's own reading of the file does.
std::vector<std::string> profileWords(StringRef Value) {
  std::vector<std::string> Words;
  std::string Cur;
  bool InQuote = false, HaveWord = false;
  for (char C : Value) {
    if (C == '"') {
      InQuote = !InQuote;
      HaveWord = true;
      continue;
    }
    if (!InQuote && isSpace(C)) {
      if (HaveWord)
        Words.push_back(Cur);
      Cur.clear();
      HaveWord = false;
      continue;
    }
    Cur += C;
    HaveWord = true;
  }
  if (HaveWord)
    Words.push_back(Cur);
  return Words;
}

bool sameDirectory(StringRef A, StringRef B) {
  SmallString<256> RA, RB;
  if (sys::fs::real_path(A, RA) || sys::fs::real_path(B, RB))
    return sys::path::convert_to_slash(A) == sys::path::convert_to_slash(B);
  return RA == RB;
}

} // namespace

std::vector<std::string>
includeArgsFromNvccProfile(StringRef Profile, StringRef Root,
                           StringRef TargetDir,
                           function_ref<bool(StringRef)> Exists) {
  // nvcc's variables; TOP is itself defined in the file (as $(_HERE_)/..),
  // which comes to the root of the toolkit.
  auto Substitute = [&](std::string Word) {
    const std::pair<StringRef, std::string> Vars[] = {
        {"$(TOP)", Root.str()},
        {"$(_HERE_)", (Root + "/bin").str()},
        {"$(_THERE_)", (Root + "/bin").str()},
        {"$(_TARGET_DIR_)", TargetDir.str()},
        {"$(_TARGET_SIZE_)", ""},
        {"$(_SPACE_)", ""}};
    for (const auto &[Name, Value] : Vars)
      for (size_t Pos; (Pos = Word.find(Name.str())) != std::string::npos;)
        Word.replace(Pos, Name.size(), Value);
    SmallString<256> Clean(Word);
    sys::path::remove_dots(Clean, /*remove_dot_dot=*/true);
    return Clean.str().str();
  };
  SmallString<256> ToolkitInclude(Root);
  sys::path::append(ToolkitInclude, "include");

  std::vector<std::string> Args;
  SmallVector<StringRef, 32> Lines;
  Profile.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    auto [Name, Value] = Line.split('=');
    Name = Name.trim().rtrim("+").trim();
    Value = Value.ltrim("+").trim();
    if (Name != "INCLUDES" && Name != "SYSTEM_INCLUDES")
      continue;
    std::vector<std::string> Words = profileWords(Value);
    for (size_t I = 0; I < Words.size(); ++I) {
      std::string Flag, Dir;
      StringRef W = Words[I];
      if ((W == "-isystem" || W == "-I" || W == "-idirafter") &&
          I + 1 < Words.size()) {
        Flag = W.str();
        Dir = Substitute(Words[++I]);
      } else if (W.starts_with("-I") && W.size() > 2) {
        Flag = "-I";
        Dir = Substitute(W.drop_front(2).str());
      } else {
        continue; // $(_SPACE_) and anything that is not a directory
      }
      if (Dir.empty() || !Exists(Dir) || sameDirectory(Dir, ToolkitInclude))
        continue;
      Args.push_back(Flag);
      Args.push_back(Dir);
    }
  }
  return Args;
}

std::string nvccTargetDir(StringRef Root) {
  // nvcc names the directory after the host: x86_64-linux, sbsa-linux
  // (aarch64 servers), ppc64le-linux.
  Triple Host(sys::getProcessTriple());
  std::string Preferred;
  switch (Host.getArch()) {
  case Triple::aarch64:
    Preferred = "sbsa-linux";
    break;
  case Triple::ppc64le:
    Preferred = "ppc64le-linux";
    break;
  default:
    Preferred = (Host.getArchName() + "-linux").str();
  }
  auto HasInclude = [&](StringRef Name) {
    SmallString<256> P(Root);
    sys::path::append(P, "targets", Name, "include");
    return sys::fs::is_directory(P);
  };
  if (HasInclude(Preferred))
    return "targets/" + Preferred;
  SmallString<256> Targets(Root);
  sys::path::append(Targets, "targets");
  std::error_code EC;
  for (sys::fs::directory_iterator It(Targets, EC), End; !EC && It != End;
       It.increment(EC))
    if (HasInclude(sys::path::filename(It->path())))
      return ("targets/" + sys::path::filename(It->path())).str();
  return "";
}

std::vector<std::string> nvccImplicitIncludeArgs(const CudaToolkit &Cuda) {
  auto Exists = [](StringRef Dir) { return sys::fs::is_directory(Dir); };
  SmallString<256> ProfilePath(Cuda.Root);
  sys::path::append(ProfilePath, "bin", "nvcc.profile");
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Profile =
          MemoryBuffer::getFile(ProfilePath))
    return includeArgsFromNvccProfile((*Profile)->getBuffer(), Cuda.Root,
                                      nvccTargetDir(Cuda.Root), Exists);
  SmallString<256> Cccl(Cuda.Root);
  sys::path::append(Cccl, "include", "cccl");
  if (Exists(Cccl))
    return {"-isystem", Cccl.str().str()};
  return {};
}

StringRef hostCompatHeaderPath() {
  static const std::string Path =
      (EmbeddedRoot + "/nvcc-parity/__cro_nvcc_host_compat.h").str();
  return Path;
}

StringRef hostCompatHeaderText() {
  // Pre-included after Clang's __clang_cuda_runtime_wrapper.h. Keep it to
  // declarations nvcc makes for every file; the tool only analyses with it,
  // nvcc builds every variant with its own headers.
  return R"(// cuda-rewrite-opt: host declarations nvcc's cuda_runtime.h provides.
#pragma clang system_header
// crt/common_functions.h includes these for every file nvcc compiles.
#include <assert.h>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
// crt/math_functions.h includes <math.h>: with libstdc++ that brings
// ::isfinite, ::isnan, ... (`using std::isfinite;`) to host code.
#include <math.h>
// crt/math_functions.hpp declares min and max __host__ __device__; Clang's
// wrapper declares them __device__ only, so host code calling max(a, b)
// compiles with nvcc and not with Clang. The host overloads, same set.
#define __CRO_MINMAX(T, A, B)                                                 \
  static inline __host__ T min(const A a, const B b) {                        \
    return static_cast<T>(a) < static_cast<T>(b) ? static_cast<T>(a)         \
                                                 : static_cast<T>(b);        \
  }                                                                           \
  static inline __host__ T max(const A a, const B b) {                        \
    return static_cast<T>(a) > static_cast<T>(b) ? static_cast<T>(a)         \
                                                 : static_cast<T>(b);        \
  }
__CRO_MINMAX(int, int, int)
__CRO_MINMAX(unsigned int, unsigned int, unsigned int)
__CRO_MINMAX(unsigned int, int, unsigned int)
__CRO_MINMAX(unsigned int, unsigned int, int)
__CRO_MINMAX(long int, long int, long int)
__CRO_MINMAX(unsigned long int, unsigned long int, unsigned long int)
__CRO_MINMAX(unsigned long int, long int, unsigned long int)
__CRO_MINMAX(unsigned long int, unsigned long int, long int)
__CRO_MINMAX(long long int, long long int, long long int)
__CRO_MINMAX(unsigned long long int, unsigned long long int,
             unsigned long long int)
__CRO_MINMAX(unsigned long long int, long long int, unsigned long long int)
__CRO_MINMAX(unsigned long long int, unsigned long long int, long long int)
__CRO_MINMAX(float, float, float)
__CRO_MINMAX(double, double, double)
__CRO_MINMAX(double, float, double)
__CRO_MINMAX(double, double, float)
#undef __CRO_MINMAX
)";
}

void addHostCompatHeader(vfs::InMemoryFileSystem &FS) {
  FS.addFile(hostCompatHeaderPath(), /*ModificationTime=*/0,
             MemoryBuffer::getMemBuffer(hostCompatHeaderText(),
                                        hostCompatHeaderPath(),
                                        /*RequiresNullTerminator=*/true));
}

std::string hostCompilerIncludeDir() {
  static std::once_flag Once;
  static std::string Dir;
  std::call_once(Once, [] {
    // Ask Clang's driver, which finds the GCC installation for libstdc++;
    // "include/omp.h" is searched in that installation's lib/gcc/<triple>/<v>.
    auto DiagOpts = std::make_unique<clang::DiagnosticOptions>();
    clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), *DiagOpts,
                                   new clang::IgnoringDiagConsumer());
    clang::driver::Driver D("clang++", sys::getDefaultTargetTriple(), Diags);
    std::unique_ptr<clang::driver::Compilation> C(
        D.BuildCompilation({"clang++", "-fsyntax-only", "-xc++", "/dev/null"}));
    if (!C)
      return;
    std::string OmpHeader =
        D.GetFilePath("include/omp.h", C->getDefaultToolChain());
    if (sys::path::is_absolute(OmpHeader) && sys::fs::exists(OmpHeader))
      Dir = sys::path::parent_path(OmpHeader).str();
  });
  return Dir;
}

std::vector<std::string> nvccDiagnosticParityArgs() {
  // Warnings are not printed (Frontend.h), so these only stop the parse from
  // failing where nvcc's build succeeds.
  return {"-Wno-register", "-Wno-error=c++11-narrowing"};
}

} // namespace cro
