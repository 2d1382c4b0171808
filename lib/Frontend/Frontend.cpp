#include "cro/Frontend/Frontend.h"
#include "cro/Frontend/CompileArgs.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Frontend/NvccParity.h"
#include "cro/Frontend/ResourceHeaders.h"
#include "cro/Support/ToolError.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticAST.h"
#include "clang/Basic/OffloadArch.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/thread.h"
#include <algorithm>

using namespace llvm;
using namespace clang;

namespace cro {

Error checkInputReadable(StringRef Path) {
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return makeToolError(ExitCode::InputUnreadable,
                         "cannot read '" + Path + "': " + EC.message());
  if (Status.type() == sys::fs::file_type::directory_file)
    return makeToolError(ExitCode::InputUnreadable,
                         "'" + Path + "' is a directory, not a source file");
  if (Status.type() != sys::fs::file_type::regular_file)
    return makeToolError(ExitCode::InputUnreadable,
                         "'" + Path + "' is not a regular file");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return makeToolError(ExitCode::InputUnreadable,
                         "cannot read '" + Path +
                             "': " + Buf.getError().message());
  return Error::success();
}

namespace {

/// Records errors (and the notes attached to them) as formatted lines.
class ErrorCollector : public DiagnosticConsumer {
public:
  std::vector<std::string> Lines;

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    // nvcc passes an asm string's `%name` through to PTX as it is
    // (`mov.u32 %0, %laneid;`); Clang wants `%%laneid`. Clang 22 reports
    // the string and keeps the statement, operands and clobbers in the AST
    // (test/frontend/inline-ptx.cu checks that the analyses see it), so the
    // complaint is about PTX's spelling, not about what the code means.
    if (Info.getID() == diag::err_asm_invalid_escape) {
      LastWasError = false;
      return;
    }
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level == DiagnosticsEngine::Note) {
      if (!LastWasError)
        return;
    } else {
      LastWasError = Level >= DiagnosticsEngine::Error;
      if (!LastWasError)
        return;
    }
    SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    std::string Line;
    raw_string_ostream OS(Line);
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        OS << P.getFilename() << ":" << P.getLine() << ":" << P.getColumn()
           << ": ";
    }
    OS << (Level == DiagnosticsEngine::Note ? "note: " : "error: ") << Msg;
    Lines.push_back(std::move(Line));
  }

private:
  bool LastWasError = false;
};

struct SideResult {
  std::unique_ptr<ASTUnit> AST;
  ErrorCollector Errors;
  bool Failed = false;
};

void parseSide(const std::string &File, std::vector<std::string> Args,
               StringRef SideFlag, const std::string &SdkVersion,
               const std::string *MainText, SideResult &Out) {
  Expected<const ResourceHeaders *> Headers = ResourceHeaders::get();
  auto Memory = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  if (Headers)
    (*Headers)->addTo(*Memory);
  else
    consumeError(Headers.takeError()); // reported by the caller
  addHostCompatHeader(*Memory);
  // The main file with a suffix (FrontendOptions::MainFileSuffix) shadows
  // the one on disk.
  if (MainText)
    Memory->addFile(File, 0, MemoryBuffer::getMemBufferCopy(*MainText, File));
  auto Overlay =
      makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
  Overlay->pushOverlay(Memory);

  Args.push_back(SideFlag.str());
  // Every `#include` line, with the file it named, for the program text
  // (a header guard hides a second inclusion from the file entries).
  Args.push_back("-Xclang");
  Args.push_back("-detailed-preprocessing-record");
  if (SideFlag == "--cuda-device-only") {
    // Clang 22 passes the CUDA SDK version only to the host-side cc1. Without
    // it, the device-side Sema assumes a pre-9.2 toolkit and resolves every
    // `<<<...>>>` in host code to the long-gone cudaConfigureCall ("use of
    // undeclared identifier"). Give the device side the same version.
    Args.push_back("-Xclang");
    Args.push_back("-target-sdk-version=" + SdkVersion);
  }
  // CRO_DEBUG_CLANG=1 shows Clang's own command lines (for bug reports).
  if (std::getenv("CRO_DEBUG_CLANG"))
    Args.push_back("-v");
  tooling::FixedCompilationDatabase DB(".", Args);
  tooling::ClangTool Tool(DB, {File},
                          std::make_shared<PCHContainerOperations>(), Overlay);
  Tool.setDiagnosticConsumer(&Out.Errors);
  std::vector<std::unique_ptr<ASTUnit>> ASTs;
  int RC = Tool.buildASTs(ASTs);
  Out.Failed = RC != 0 || ASTs.size() != 1 || Out.Errors.getNumErrors() > 0;
  if (ASTs.size() == 1)
    Out.AST = std::move(ASTs.front());
}

/// The CUDA version Clang 22 should assume: the toolkit's, capped at the
/// newest it knows (12.9), which is what its driver tells the host side.
std::string clangSdkVersion(StringRef ToolkitVersion) {
  auto [MajorS, Rest] = ToolkitVersion.split('.');
  unsigned Major = 0, Minor = 0;
  if (MajorS.getAsInteger(10, Major) ||
      Rest.split('.').first.getAsInteger(10, Minor) || Major > 12 ||
      (Major == 12 && Minor >= 9))
    return "12.9";
  return std::to_string(Major) + "." + std::to_string(Minor);
}

/// Chooses the GPU architecture the parse targets, and says why.
Expected<std::pair<std::string, std::string>>
chooseGpuArch(StringRef Explicit, const std::optional<std::string> &FromFlags,
              raw_ostream &Diags) {
  auto Known = [](StringRef A) {
    return StringToOffloadArch(A) != OffloadArch::UNKNOWN;
  };
  if (!Explicit.empty()) {
    std::optional<std::string> A = normalizeGpuArch(Explicit);
    if (!A || !Known(*A))
      return makeToolError(ExitCode::Usage,
                           "--cuda-gpu-arch '" + Explicit +
                               "' is not a GPU architecture Clang 22 knows "
                               "(expected e.g. sm_80, sm_90, sm_100)");
    return std::make_pair(*A, std::string("--cuda-gpu-arch"));
  }
  if (FromFlags && Known(*FromFlags))
    return std::make_pair(*FromFlags, std::string("build flags"));
  if (std::optional<LocalGpu> Gpu = probeLocalGpu()) {
    if (Known(Gpu->Arch))
      return std::make_pair(Gpu->Arch, "local GPU (" + Gpu->Name + ")");
    Diags << "cuda-rewrite-opt: warning: the local GPU's architecture "
          << Gpu->Arch << " is unknown to Clang 22; parsing for "
          << DefaultGpuArch << "\n";
  }
  return std::make_pair(std::string(DefaultGpuArch), std::string("default"));
}

} // namespace

Expected<std::unique_ptr<ParsedFile>> parseCudaFile(const FrontendOptions &Opts,
                                                    raw_ostream &Diags) {
  if (Error E = checkInputReadable(Opts.InputFile))
    return std::move(E);
  auto Result = std::make_unique<ParsedFile>();
  SmallString<256> Abs(Opts.InputFile);
  if (std::error_code EC = sys::fs::make_absolute(Abs))
    return makeToolError(ExitCode::InputUnreadable, "cannot resolve '" +
                                                        Opts.InputFile +
                                                        "': " + EC.message());
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  Result->MainFile = Abs.str().str();

  Expected<CudaToolkit> Cuda = findCudaToolkit(Opts.CudaPath);
  if (!Cuda)
    return Cuda.takeError();
  Result->Cuda = *Cuda;

  Expected<const ResourceHeaders *> Headers = ResourceHeaders::get();
  if (!Headers)
    return Headers.takeError();

  // User flags: compile_commands.json first, then the arguments after `--`.
  std::vector<std::string> UserArgs;
  std::optional<std::string> ArchFromFlags;
  if (!Opts.BuildPath.empty()) {
    Expected<TranslatedArgs> FromDB =
        argsFromCompilationDatabase(Opts.BuildPath, Result->MainFile);
    if (!FromDB)
      return FromDB.takeError();
    UserArgs = FromDB->Args;
    ArchFromFlags = FromDB->GpuArch;
    Result->NvccBuildFlags = FromDB->NvccBuildFlags;
  }
  TranslatedArgs Extra = translateCompilerArgs(Opts.ExtraArgs, /*IsNvcc=*/true);
  UserArgs.insert(UserArgs.end(), Extra.Args.begin(), Extra.Args.end());
  if (Extra.GpuArch)
    ArchFromFlags = Extra.GpuArch;

  Expected<std::pair<std::string, std::string>> Arch =
      chooseGpuArch(Opts.GpuArch, ArchFromFlags, Diags);
  if (!Arch)
    return Arch.takeError();
  Result->GpuArch = Arch->first;
  Result->GpuArchSource = Arch->second;

  std::vector<std::string> &Args = Result->ClangArgs;
  Args = {"-xcuda",
          "--cuda-path=" + Result->Cuda.Root,
          "--cuda-gpu-arch=" + Result->GpuArch,
          "-nocudalib",
          "--no-cuda-version-check",
          "-Wno-unknown-cuda-version",
          ("-resource-dir=" + ResourceHeaders::resourceDir()).str(),
          // What nvcc's cuda_runtime.h declares for host code and Clang's
          // wrapper does not (NvccParity.h); before the user's -include's,
          // as nvcc's pre-include is.
          "-include",
          hostCompatHeaderPath().str()};
  Args.insert(Args.end(), UserArgs.begin(), UserArgs.end());
  for (std::string &A : nvccDiagnosticParityArgs())
    Args.push_back(std::move(A));
  // The include directories nvcc and its host compiler search on their own
  // come after the user's, as they do there: CCCL (Thrust, CUB, libcu++)
  // from the toolkit, then the host compiler's (omp.h).
  for (std::string &A : nvccImplicitIncludeArgs(Result->Cuda))
    Args.push_back(std::move(A));
  if (std::string HostInclude = hostCompilerIncludeDir();
      !HostInclude.empty()) {
    Args.push_back("-idirafter");
    Args.push_back(HostInclude);
  }

  std::optional<std::string> Suffixed;
  if (!Opts.MainFileSuffix.empty()) {
    auto Own = MemoryBuffer::getFile(Result->MainFile);
    if (!Own)
      return makeToolError(ExitCode::InputUnreadable,
                           "cannot read '" + Opts.InputFile +
                               "': " + Own.getError().message());
    Suffixed = (*Own)->getBuffer().str() + Opts.MainFileSuffix;
  }
  const std::string *MainText = Suffixed ? &*Suffixed : nullptr;

  SideResult Host, Device;
  const std::string Sdk = clangSdkVersion(Result->Cuda.Version);
  if (std::getenv("CRO_DEBUG_CLANG")) { // readable -v output: one at a time
    parseSide(Result->MainFile, Args, "--cuda-device-only", Sdk, MainText,
              Device);
    parseSide(Result->MainFile, Args, "--cuda-host-only", Sdk, MainText, Host);
  } else {
    llvm::thread DeviceThread(
        std::optional<unsigned>(DeepStackBytes), parseSide, Result->MainFile,
        Args, "--cuda-device-only", std::cref(Sdk), MainText, std::ref(Device));
    parseSide(Result->MainFile, Args, "--cuda-host-only", Sdk, MainText, Host);
    DeviceThread.join();
  }

  // Print each error once, host side first; the device side often repeats it.
  StringSet<> Seen;
  unsigned NumErrors = 0;
  std::string FirstError;
  for (SideResult *Side : {&Host, &Device})
    for (const std::string &Line : Side->Errors.Lines)
      if (Seen.insert(Line).second) {
        Diags << Line << "\n";
        if (!StringRef(Line).contains(": note: ") && NumErrors++ == 0)
          FirstError = Line;
      }
  if (Host.Failed || Device.Failed || !Host.AST || !Device.AST) {
    if (Opts.KeepFailedParse) {
      Result->NumErrors = std::max(NumErrors, 1u);
      Result->FirstError = std::move(FirstError);
      if (Result->FirstError.empty())
        Result->FirstError = "Clang could not parse '" + Opts.InputFile + "'";
      // What the preprocessor entered is still known (the program's files).
      Result->Host = std::move(Host.AST);
      Result->Device = std::move(Device.AST);
      return std::move(Result);
    }
    if (NumErrors == 0)
      return makeToolError(ExitCode::ParseError,
                           "Clang could not parse '" + Opts.InputFile + "'");
    return makeToolError(ExitCode::ParseError, Twine(NumErrors) + " error" +
                                                   (NumErrors == 1 ? "" : "s") +
                                                   " in '" + Opts.InputFile +
                                                   "'; nothing was analyzed");
  }
  Result->Host = std::move(Host.AST);
  Result->Device = std::move(Device.AST);
  return std::move(Result);
}

} // namespace cro
