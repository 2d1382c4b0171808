#include "cro/Build/Builder.h"
#include "cro/Support/Process.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <mutex>

using namespace llvm;

namespace cro {

std::vector<std::string> splitBuildTemplate(StringRef Template) {
  SmallVector<StringRef, 16> Parts;
  Template.split(Parts, ' ', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (StringRef P : Parts) {
    P = P.trim();
    if (!P.empty())
      Out.push_back(P.str());
  }
  return Out;
}

Builder::Builder(BuildOptions O) : Opts(std::move(O)) {
  if (Opts.CacheDir.empty()) {
    SmallString<256> Dir;
    if (!sys::path::cache_directory(Dir))
      Dir = "/tmp";
    sys::path::append(Dir, "cuda-rewrite-opt", "build");
    Opts.CacheDir = Dir.str().str();
  }
  if (Opts.Template.empty())
    Opts.Template = {Opts.Compiler, "{flags}", "{src}", "-o", "{exe}"};
}

Expected<std::string> Builder::compilerIdentity() {
  if (!Identity.empty())
    return Identity;
  SmallString<128> Out;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cro-compiler-version", "txt", Out))
    return makeToolError(ExitCode::Internal, "temporary file: " + EC.message());
  ProcessOptions P;
  P.StdoutFile = Out.str().str();
  P.StderrFile = P.StdoutFile;
  P.TimeoutSeconds = 60;
  std::string Compiler = Opts.Template.front();
  ProcessResult R = runProcess({Compiler, "--version"}, P);
  auto Text = MemoryBuffer::getFile(Out);
  sys::fs::remove(Out);
  if (!R.succeeded() || !Text)
    return makeToolError(ExitCode::CudaNotFound, "cannot run the compiler '" +
                                                     Compiler +
                                                     "': " + R.describe());
  Identity = (*Text)->getBuffer().str();
  return Identity;
}

std::vector<std::string> Builder::command(const BuildRequest &R, StringRef Src,
                                          StringRef Exe) const {
  std::vector<std::string> Cmd;
  for (const std::string &T : Opts.Template) {
    if (T == "{flags}") {
      if (!Opts.OriginalPath.empty()) {
        SmallString<256> Dir(Opts.OriginalPath);
        sys::fs::make_absolute(Dir);
        Cmd.push_back("-I");
        Cmd.push_back(sys::path::parent_path(Dir).str());
      }
      Cmd.insert(Cmd.end(), Opts.Flags.begin(), Opts.Flags.end());
      Cmd.insert(Cmd.end(), R.Flags.begin(), R.Flags.end());
      continue;
    }
    std::string A = T;
    for (auto [Placeholder, Value] :
         {std::pair<StringRef, StringRef>("{src}", Src), {"{exe}", Exe}}) {
      for (size_t P = A.find(Placeholder.str()); P != std::string::npos;
           P = A.find(Placeholder.str(), P + Value.size()))
        A.replace(P, Placeholder.size(), Value.str());
    }
    Cmd.push_back(A);
  }
  return Cmd;
}

std::string Builder::keyOf(const BuildRequest &R) const {
  SHA256 H;
  auto Add = [&](StringRef S) {
    H.update(S);
    H.update(StringRef("\0", 1));
  };
  Add(Identity);
  // The command with its temporary paths as placeholders.
  for (const std::string &A : command(R, "{src}", "{exe}"))
    Add(A);
  Add(sys::path::filename(Opts.OriginalPath));
  Add(R.Source);
  for (const auto *Files : {&Opts.ProgramFiles, &R.Files})
    for (const auto &[Path, Text] : *Files) {
      Add(Path);
      Add(Text);
    }
  std::array<uint8_t, 32> Hash = H.final();
  return toHex(ArrayRef<uint8_t>(Hash.data(), Hash.size()), /*LowerCase=*/true);
}

BuildResult Builder::buildOne(const BuildRequest &R, const std::string &Key) {
  BuildResult Res;
  Res.Key = Key;
  SmallString<256> Final(Opts.CacheDir);
  sys::path::append(Final, Key);
  SmallString<256> Exe(Final), Log(Final), Failed(Final);
  sys::path::append(Exe, "variant");
  sys::path::append(Log, "build.log");
  sys::path::append(Failed, "FAILED");
  auto ReadLog = [](StringRef Path) {
    auto B = MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  if (sys::fs::exists(Exe) || sys::fs::exists(Failed)) {
    Res.Cached = true;
    Res.Ok = sys::fs::exists(Exe);
    Res.Executable = Res.Ok ? Exe.str().str() : "";
    Res.Log = ReadLog(Log);
    return Res;
  }

  // Build in a private directory, then publish it with one rename, so a
  // concurrent tool never sees half a result.
  SmallString<256> Work;
  if (std::error_code EC = sys::fs::createUniqueDirectory(
          (Opts.CacheDir + "/tmp-" + Key.substr(0, 12)), Work)) {
    Res.Log = "cannot create a build directory: " + EC.message();
    return Res;
  }
  std::string Name = Opts.OriginalPath.empty()
                         ? "variant.cu"
                         : sys::path::filename(Opts.OriginalPath).str();
  SmallString<256> Src(Work), WorkExe(Work), WorkLog(Work), WorkFailed(Work);
  sys::path::append(Src, Name);
  sys::path::append(WorkExe, "variant");
  sys::path::append(WorkLog, "build.log");
  sys::path::append(WorkFailed, "FAILED");
  // The variant, the user's files around it, and its rewritten copies.
  std::vector<std::string> Written;
  auto Write = [&](StringRef Relative, StringRef Text) {
    SmallString<256> Path(Work);
    sys::path::append(Path, Relative);
    sys::fs::create_directories(sys::path::parent_path(Path));
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    OS << Text;
    Written.push_back(Path.str().str());
  };
  for (const auto &[Path, Text] : Opts.ProgramFiles)
    Write(Path, Text);
  for (const auto &[Path, Text] : R.Files)
    Write(Path, Text);
  Write(Name, R.Source);
  ProcessOptions P;
  P.StdoutFile = WorkLog.str().str();
  P.StderrFile = P.StdoutFile;
  P.TimeoutSeconds = Opts.TimeoutSeconds;
  P.WorkingDirectory = Work.str().str();
  ProcessResult PR =
      Opts.Via ? Opts.Via->run(command(R, Src, WorkExe), P, JobKind::Build)
               : runProcess(command(R, Src, WorkExe), P);
  Res.Seconds = PR.Seconds;
  Res.Log = ReadLog(WorkLog);
  Res.Ok = PR.succeeded() && sys::fs::exists(WorkExe);
  if (!Res.Ok) {
    if (!PR.succeeded())
      Res.Log += "\n[" + PR.describe() + "]";
    std::error_code EC;
    raw_fd_ostream(WorkFailed, EC) << PR.describe() << "\n";
  }
  for (const std::string &Path : Written)
    sys::fs::remove(Path);
  if (sys::fs::rename(Work, Final)) {
    // Another builder published the same key first: use theirs.
    sys::fs::remove_directories(Work);
  }
  Res.Executable = Res.Ok ? Exe.str().str() : "";
  return Res;
}

Expected<std::vector<BuildResult>>
Builder::build(ArrayRef<BuildRequest> Requests) {
  if (Expected<std::string> Id = compilerIdentity(); !Id)
    return Id.takeError();
  if (std::error_code EC = sys::fs::create_directories(Opts.CacheDir))
    return makeToolError(ExitCode::OutputError,
                         "cannot create the build cache '" + Opts.CacheDir +
                             "': " + EC.message());
  std::vector<std::string> Keys;
  std::map<std::string, size_t> FirstWithKey;
  for (size_t I = 0; I < Requests.size(); ++I) {
    Keys.push_back(keyOf(Requests[I]));
    FirstWithKey.emplace(Keys.back(), I);
  }
  std::vector<BuildResult> Results(Requests.size());
  unsigned Jobs =
      Opts.Jobs ? Opts.Jobs : hardware_concurrency().compute_thread_count();
  {
    DefaultThreadPool Pool(hardware_concurrency(Jobs));
    for (const auto &[Key, I] : FirstWithKey)
      Pool.async(
          [&, I = I, Key = Key] { Results[I] = buildOne(Requests[I], Key); });
    Pool.wait();
  }
  // Duplicates share the first one's result, as cache hits.
  for (size_t I = 0; I < Requests.size(); ++I) {
    size_t First = FirstWithKey[Keys[I]];
    if (First != I) {
      Results[I] = Results[First];
      Results[I].Cached = true;
      Results[I].Seconds = 0;
    }
  }
  return Results;
}

} // namespace cro
