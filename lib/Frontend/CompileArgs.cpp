#include "cro/Frontend/CompileArgs.h"
#include "cro/Support/ToolError.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cro {

std::optional<std::string> normalizeGpuArch(StringRef Arch) {
  Arch = Arch.trim();
  if (Arch.consume_front("sm_") || Arch.consume_front("compute_") ||
      Arch.consume_front("lto_")) {
  }
  if (Arch.empty() || !isDigit(Arch.front()))
    return std::nullopt;
  StringRef Digits = Arch.take_while(isDigit);
  StringRef Suffix = Arch.drop_front(Digits.size());
  if (!(Suffix.empty() || Suffix == "a" || Suffix == "f"))
    return std::nullopt;
  return ("sm_" + Digits + Suffix).str();
}

namespace {

/// How a recognised flag maps to Clang.
enum class FlagKind {
  Include,       // -I
  SystemInclude, // -isystem
  QuoteInclude,  // -iquote
  AfterInclude,  // -idirafter
  Define,        // -D
  Undefine,      // -U
  PreInclude,    // -include
  Std,           // -std=
  Arch,          // -arch / --cuda-gpu-arch
  GenCode,       // -gencode arch=...,code=...
  OpenMP,        // -fopenmp (host compiler): the host code sees _OPENMP
  SkipWithValue, // a flag whose value is the next argument, dropped
  Unknown,
};

struct FlagSpelling {
  StringRef Name;
  FlagKind Kind;
};

// Spelling -> kind. Order matters for prefixes: longer spellings first.
const FlagSpelling NvccFlags[] = {
    {"--cuda-gpu-arch", FlagKind::Arch}, // users may pass Clang's spelling
    {"--offload-arch", FlagKind::Arch},
    {"--include-path", FlagKind::Include},
    {"--system-include", FlagKind::SystemInclude},
    {"--define-macro", FlagKind::Define},
    {"--undefine-macro", FlagKind::Undefine},
    {"--pre-include", FlagKind::PreInclude},
    {"--gpu-architecture", FlagKind::Arch},
    {"--generate-code", FlagKind::GenCode},
    {"-gencode", FlagKind::GenCode},
    {"--std", FlagKind::Std},
    {"-std", FlagKind::Std},
    {"-arch", FlagKind::Arch},
    {"-isystem", FlagKind::SystemInclude},
    {"-iquote", FlagKind::QuoteInclude},
    {"-idirafter", FlagKind::AfterInclude},
    {"-include", FlagKind::PreInclude},
    {"-I", FlagKind::Include},
    {"-D", FlagKind::Define},
    {"-U", FlagKind::Undefine},
};

const FlagSpelling GccFlags[] = {
    {"--cuda-gpu-arch", FlagKind::Arch},
    {"-fopenmp", FlagKind::OpenMP},
    {"-qopenmp", FlagKind::OpenMP},
    {"--offload-arch", FlagKind::Arch},
    {"-isystem", FlagKind::SystemInclude},
    {"-iquote", FlagKind::QuoteInclude},
    {"-idirafter", FlagKind::AfterInclude},
    {"-include", FlagKind::PreInclude},
    {"-std", FlagKind::Std},
    {"-I", FlagKind::Include},
    {"-D", FlagKind::Define},
    {"-U", FlagKind::Undefine},
};

/// The value of nvcc's host-compiler passthrough (`-Xcompiler A,B`,
/// `--compiler-options=A`), or nullopt (I unchanged) when Args[I] is not one
/// or lacks its value; advances I past a separate value.
std::optional<StringRef> hostCompilerOptions(ArrayRef<std::string> Args,
                                             size_t &I) {
  StringRef A = Args[I];
  for (StringRef Name : {"-Xcompiler", "--compiler-options"}) {
    if (!A.starts_with(Name))
      continue;
    StringRef Rest = A.drop_front(Name.size());
    if (Rest.empty())
      return I + 1 < Args.size() ? std::optional<StringRef>(Args[++I])
                                 : std::nullopt;
    if (Rest.consume_front("="))
      return Rest;
  }
  return std::nullopt;
}

// nvcc flags whose value is a separate argument (dropped with the flag).
bool nvccTakesValue(StringRef Flag) {
  return StringSwitch<bool>(Flag)
      .Cases({"-o", "--output-file", "-ccbin", "--compiler-bindir"}, true)
      .Cases({"-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options",
              "-Xlinker", "--linker-options"},
             true)
      .Cases({"-Xnvlink", "--nvlink-options", "-Xarchive", "--archive-options",
              "-maxrregcount", "--maxrregcount"},
             true)
      .Cases({"-Xcudafe", "--cudafe-options", "-Xfatbin", "--fatbin-options"},
             true)
      .Cases(
          {"-MF", "-MT", "-MQ", "-x", "--x", "-l", "-L", "-code", "--gpu-code"},
          true)
      .Cases({"-t", "--threads", "-rdc", "--relocatable-device-code", "-odir",
              "--output-directory"},
             true)
      .Default(false);
}

bool gccTakesValue(StringRef Flag) {
  return StringSwitch<bool>(Flag)
      .Cases({"-o", "-MF", "-MT", "-MQ", "-x", "-Xclang", "-Xlinker", "-target",
              "--target"},
             true)
      .Default(false);
}

const char *clangSpelling(FlagKind K) {
  switch (K) {
  case FlagKind::Include:
    return "-I";
  case FlagKind::SystemInclude:
    return "-isystem";
  case FlagKind::QuoteInclude:
    return "-iquote";
  case FlagKind::AfterInclude:
    return "-idirafter";
  case FlagKind::Define:
    return "-D";
  case FlagKind::Undefine:
    return "-U";
  case FlagKind::PreInclude:
    return "-include";
  default:
    return nullptr;
  }
}

} // namespace

TranslatedArgs translateCompilerArgs(ArrayRef<std::string> Args, bool IsNvcc) {
  TranslatedArgs Out;
  ArrayRef<FlagSpelling> Table = IsNvcc ? ArrayRef<FlagSpelling>(NvccFlags)
                                        : ArrayRef<FlagSpelling>(GccFlags);
  auto NoteArch = [&](StringRef Value) {
    if (!Out.GpuArch)
      Out.GpuArch = normalizeGpuArch(Value);
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    // nvcc hands -Xcompiler's list to the host compiler of every pass,
    // preprocessing included: its -D/-I/-fopenmp shape what the file means.
    if (IsNvcc) {
      if (std::optional<StringRef> Host = hostCompilerOptions(Args, I)) {
        SmallVector<StringRef, 8> Parts;
        Host->split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
        std::vector<std::string> HostArgs(Parts.begin(), Parts.end());
        TranslatedArgs T = translateCompilerArgs(HostArgs, /*IsNvcc=*/false);
        Out.Args.insert(Out.Args.end(), T.Args.begin(), T.Args.end());
        for (const std::string &D : T.Dropped)
          Out.Dropped.push_back("-Xcompiler=" + D);
        continue;
      }
    }
    const FlagSpelling *Match = nullptr;
    StringRef Value;
    bool Separate = false;
    for (const FlagSpelling &F : Table) {
      if (!A.starts_with(F.Name))
        continue;
      StringRef Rest = A.drop_front(F.Name.size());
      bool ShortJoined = F.Name.size() == 2; // -I/-D/-U may be glued
      if (Rest.empty()) {
        Separate = true;
      } else if (Rest.front() == '=') {
        Value = Rest.drop_front();
      } else if (ShortJoined) {
        Value = Rest;
      } else {
        continue; // e.g. "-includeX" is not "-include"
      }
      Match = &F;
      break;
    }
    if (Match && Separate && Match->Kind != FlagKind::OpenMP) {
      if (I + 1 >= Args.size()) {
        Out.Dropped.push_back(A.str());
        break;
      }
      Value = Args[++I];
    }
    if (!Match) {
      bool TakesValue = IsNvcc ? nvccTakesValue(A) : gccTakesValue(A);
      Out.Dropped.push_back(A.str());
      if (TakesValue && I + 1 < Args.size())
        Out.Dropped.push_back(Args[++I]);
      continue;
    }
    switch (Match->Kind) {
    case FlagKind::OpenMP:
      // The analysis ignores OpenMP pragmas (Clang is not asked to parse
      // them), but `#ifdef _OPENMP` code is what the user's build compiles.
      // 201511 (OpenMP 4.5) is what GCC 6 to 14 define.
      Out.Args.push_back("-D_OPENMP=201511");
      break;
    case FlagKind::Std:
      Out.Args.push_back(("-std=" + Value).str());
      break;
    case FlagKind::Arch: {
      // nvcc accepts lists: -arch=sm_80,sm_90
      SmallVector<StringRef, 4> Parts;
      Value.split(Parts, ',');
      for (StringRef P : Parts)
        NoteArch(P);
      break;
    }
    case FlagKind::GenCode: {
      // arch=compute_90,code=sm_90 or code=[sm_80,sm_90]
      SmallVector<StringRef, 4> Parts;
      Value.split(Parts, ',');
      for (StringRef P : Parts) {
        P = P.trim("[] ");
        if (P.consume_front("code=") || P.consume_front("arch="))
          NoteArch(P.trim("[] "));
        else
          NoteArch(P);
      }
      break;
    }
    default:
      Out.Args.push_back(clangSpelling(Match->Kind));
      Out.Args.push_back(Value.str());
      break;
    }
  }
  return Out;
}

namespace {

/// Makes the include directories among nvcc flags (-I dir, -Idir, -isystem
/// dir, --include-path[=]dir, --system-include[=]dir, -idirafter, -iquote)
/// absolute, relative ones taken from Directory.
void absolutizeIncludeDirs(std::vector<std::string> &Flags,
                           StringRef Directory) {
  auto Absolute = [&](StringRef Path) {
    if (Path.empty() || sys::path::is_absolute(Path))
      return Path.str();
    SmallString<256> Abs(Directory);
    sys::path::append(Abs, Path);
    return Abs.str().str();
  };
  const StringRef Separate[] = {
      "-I",      "-isystem",       "-idirafter",
      "-iquote", "--include-path", "--system-include"};
  for (size_t I = 0; I < Flags.size(); ++I) {
    StringRef F = Flags[I];
    for (StringRef Opt : Separate) {
      if (F == Opt) {
        if (I + 1 < Flags.size()) {
          Flags[I + 1] = Absolute(Flags[I + 1]);
          ++I;
        }
        break;
      }
      if (!F.starts_with(Opt))
        continue;
      StringRef Value = F.drop_front(Opt.size());
      // Short options take the directory glued on, long ones after '='.
      bool Long = Opt.starts_with("--");
      if (Long ? !Value.consume_front("=") : Opt != "-I" && Opt != "-isystem")
        continue;
      Flags[I] = (Opt + (Long ? "=" : "") + Absolute(Value)).str();
      break;
    }
  }
}

} // namespace

Expected<TranslatedArgs> argsFromCompilationDatabase(StringRef BuildDir,
                                                     StringRef File) {
  std::string Err;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB =
      clang::tooling::CompilationDatabase::loadFromDirectory(BuildDir, Err);
  if (!DB) // Clang explains in one line per database kind it tried
    return makeToolError(ExitCode::BadBuildConfig,
                         "cannot load compile_commands.json from '" + BuildDir +
                             "': " + oneLineMessage(Err));
  std::vector<clang::tooling::CompileCommand> Cmds =
      DB->getCompileCommands(File);
  // Clang fills in a file the database lacks with a neighbour's command
  // (Heuristic says which): the flags of another file are a guess, and a
  // wrong -D or -arch is a wrong parse and a wrong build. Only the file's
  // own entries count.
  std::string Guess;
  llvm::erase_if(Cmds, [&](const clang::tooling::CompileCommand &C) {
    if (C.Heuristic.empty())
      return false;
    Guess = C.Heuristic;
    return true;
  });
  if (Cmds.empty())
    return makeToolError(ExitCode::BadBuildConfig,
                         "compile_commands.json in '" + BuildDir +
                             "' has no entry for '" + File + "'" +
                             (Guess.empty()
                                  ? ""
                                  : " (Clang would guess its flags: " + Guess +
                                        "; give them after "
                                        "`--` instead)"));
  const clang::tooling::CompileCommand &Cmd = Cmds.front();
  if (Cmd.CommandLine.empty())
    return makeToolError(ExitCode::BadBuildConfig,
                         "empty compile command for '" + File + "'");
  StringRef Compiler = sys::path::filename(Cmd.CommandLine.front());
  bool IsNvcc = Compiler.contains("nvcc");
  // Drop argv[0] and the source file itself.
  std::vector<std::string> Rest;
  for (size_t I = 1; I < Cmd.CommandLine.size(); ++I) {
    const std::string &A = Cmd.CommandLine[I];
    if (A == Cmd.Filename || A == File)
      continue;
    // Relative include paths are relative to the entry's directory.
    Rest.push_back(A);
  }
  TranslatedArgs T = translateCompilerArgs(Rest, IsNvcc);
  if (IsNvcc)
    for (size_t I = 0; I < Rest.size(); ++I) {
      StringRef A = Rest[I];
      if (A == "-c" || A == "--compile")
        continue;
      if ((A == "-o" || A == "--output-file") && I + 1 < Rest.size()) {
        ++I;
        continue;
      }
      if (A.starts_with("-o") && A.size() > 2)
        continue;
      T.NvccBuildFlags.push_back(A.str());
    }
  // Include directories of the entry are relative to its directory; the
  // tool's builds and its nvcc compile check run elsewhere.
  absolutizeIncludeDirs(T.NvccBuildFlags, Cmd.Directory);
  for (size_t I = 0; I + 1 < T.Args.size(); ++I) {
    StringRef Flag = T.Args[I];
    if (Flag != "-I" && Flag != "-isystem" && Flag != "-iquote" &&
        Flag != "-idirafter" && Flag != "-include")
      continue;
    std::string &Path = T.Args[++I];
    if (!sys::path::is_absolute(Path)) {
      SmallString<256> Abs(Cmd.Directory);
      sys::path::append(Abs, Path);
      Path = Abs.str().str();
    }
  }
  return T;
}

} // namespace cro
