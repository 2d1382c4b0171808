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

/// A flag of Table recognised at Args[I]: which spelling, and where its
/// value is -- after the name (and an '=') in Args[I] itself, or the whole
/// next argument (ValueIndex == I + 1; Args.size() when it is missing).
struct MatchedFlag {
  const FlagSpelling *Spelling;
  size_t ValueIndex;
  size_t ValueOffset;
};

/// Recognises Args[I] by Table (longer spellings first); nullopt when it is
/// none of them. -I/-D/-U may have their value glued on, every spelling may
/// have it after '=' or as the next argument ("-includeX" is not
/// "-include"). -fopenmp takes no value.
std::optional<MatchedFlag> matchFlag(ArrayRef<FlagSpelling> Table,
                                     ArrayRef<std::string> Args, size_t I) {
  StringRef A = Args[I];
  for (const FlagSpelling &F : Table) {
    if (!A.starts_with(F.Name))
      continue;
    StringRef Rest = A.drop_front(F.Name.size());
    bool ShortJoined = F.Name.size() == 2;
    if (Rest.empty())
      return MatchedFlag{&F, F.Kind == FlagKind::OpenMP ? I : I + 1, 0};
    if (Rest.front() == '=')
      return MatchedFlag{&F, I, F.Name.size() + 1};
    if (ShortJoined)
      return MatchedFlag{&F, I, F.Name.size()};
  }
  return std::nullopt;
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
    std::optional<MatchedFlag> M = matchFlag(Table, Args, I);
    const FlagSpelling *Match = M ? M->Spelling : nullptr;
    StringRef Value;
    if (M && M->ValueIndex != I) {
      if (M->ValueIndex >= Args.size()) {
        Out.Dropped.push_back(A.str());
        break;
      }
      I = M->ValueIndex;
    }
    if (M)
      Value = StringRef(Args[I]).drop_front(M->ValueOffset);
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

std::vector<PathArgument> pathArguments(ArrayRef<std::string> Args) {
  std::vector<PathArgument> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    std::optional<MatchedFlag> M = matchFlag(NvccFlags, Args, I);
    if (!M)
      continue;
    FlagKind K = M->Spelling->Kind;
    bool Directory = K == FlagKind::Include || K == FlagKind::SystemInclude ||
                     K == FlagKind::QuoteInclude || K == FlagKind::AfterInclude;
    if ((Directory || K == FlagKind::PreInclude) && M->ValueIndex < Args.size())
      Out.push_back({I, M->ValueIndex, M->ValueOffset, Directory});
    if (M->ValueIndex > I)
      I = M->ValueIndex; // a separate value is not a flag of its own
  }
  return Out;
}

namespace {

/// Makes the paths among Args (pathArguments) absolute, relative ones taken
/// from Directory.
void absolutizePaths(std::vector<std::string> &Args, StringRef Directory) {
  for (const PathArgument &P : pathArguments(Args)) {
    std::string &A = Args[P.ValueIndex];
    StringRef Path = StringRef(A).drop_front(P.ValueOffset);
    if (Path.empty() || sys::path::is_absolute(Path))
      continue;
    SmallString<256> Abs(Directory);
    sys::path::append(Abs, Path);
    A = A.substr(0, P.ValueOffset) + Abs.str().str();
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
  // Include directories and pre-included files of the entry are relative
  // to its directory; the parse, the tool's builds and its nvcc compile
  // check run elsewhere.
  absolutizePaths(T.Args, Cmd.Directory);
  absolutizePaths(T.NvccBuildFlags, Cmd.Directory);
  return T;
}

} // namespace cro
