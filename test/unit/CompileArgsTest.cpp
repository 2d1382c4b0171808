#include "cro/Frontend/CompileArgs.h"
#include "gtest/gtest.h"

using namespace cro;
using Args = std::vector<std::string>;

TEST(CompileArgs, NvccFlagsThatAffectParsingAreKept) {
  TranslatedArgs T = translateCompilerArgs({"-O3",
                                            "-I",
                                            "inc",
                                            "--include-path=/opt/x",
                                            "-DFOO=1",
                                            "--define-macro",
                                            "BAR",
                                            "-UBAZ",
                                            "-isystem",
                                            "/sys",
                                            "-std=c++17",
                                            "--pre-include",
                                            "pre.h",
                                            "-Xcompiler",
                                            "-fPIC",
                                            "-o",
                                            "k.o",
                                            "-c",
                                            "--expt-relaxed-constexpr",
                                            "-lineinfo"},
                                           /*IsNvcc=*/true);
  EXPECT_EQ(T.Args, (Args{"-I", "inc", "-I", "/opt/x", "-D", "FOO=1", "-D",
                          "BAR", "-U", "BAZ", "-isystem", "/sys", "-std=c++17",
                          "-include", "pre.h"}));
  // -o's value is dropped with it, not kept as an input; -Xcompiler's list
  // is read as the host compiler's flags, and -fPIC does not matter.
  EXPECT_EQ(T.Dropped, (Args{"-O3", "-Xcompiler=-fPIC", "-o", "k.o", "-c",
                             "--expt-relaxed-constexpr", "-lineinfo"}));
  EXPECT_FALSE(T.GpuArch.has_value());
}

TEST(CompileArgs, NvccArchitectureSpellings) {
  EXPECT_EQ(translateCompilerArgs({"-arch=sm_80"}, true).GpuArch, "sm_80");
  EXPECT_EQ(translateCompilerArgs({"-arch", "sm_86"}, true).GpuArch, "sm_86");
  EXPECT_EQ(
      translateCompilerArgs({"-gencode", "arch=compute_90,code=sm_90"}, true)
          .GpuArch,
      "sm_90");
  EXPECT_EQ(translateCompilerArgs(
                {"--generate-code=arch=compute_90a,code=[sm_90a]"}, true)
                .GpuArch,
            "sm_90a");
  EXPECT_EQ(translateCompilerArgs({"-arch=native"}, true).GpuArch,
            std::nullopt);
  EXPECT_EQ(translateCompilerArgs({"--cuda-gpu-arch=sm_100"}, true).GpuArch,
            "sm_100");
}

TEST(CompileArgs, GccStyleCommandLines) {
  TranslatedArgs T = translateCompilerArgs(
      {"-Iinclude", "-DN=4", "-O2", "-Wall", "-MF", "dep.d", "-std=gnu++17",
       "--cuda-gpu-arch=sm_75", "-include", "forced.h"},
      /*IsNvcc=*/false);
  EXPECT_EQ(T.Args, (Args{"-I", "include", "-D", "N=4", "-std=gnu++17",
                          "-include", "forced.h"}));
  EXPECT_EQ(T.GpuArch, "sm_75");
}

TEST(CompileArgs, NormalizeGpuArch) {
  EXPECT_EQ(normalizeGpuArch("sm_90"), "sm_90");
  EXPECT_EQ(normalizeGpuArch("compute_80"), "sm_80");
  EXPECT_EQ(normalizeGpuArch("90"), "sm_90");
  EXPECT_EQ(normalizeGpuArch("sm_90a"), "sm_90a");
  EXPECT_EQ(normalizeGpuArch("all-major"), std::nullopt);
  EXPECT_EQ(normalizeGpuArch("sm_9x"), std::nullopt);
}

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

TEST(CompileArgs, NvccBuildFlagsFromACompilationDatabase) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cro-ccdb", Dir));
  std::string File = (Dir + "/k.cu").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS((Dir + "/compile_commands.json").str(), EC);
    OS << "[{\"directory\": \"" << Dir << "\", \"file\": \"k.cu\", "
       << "\"arguments\": [\"/usr/local/cuda/bin/nvcc\", \"-O3\", "
          "\"-arch=sm_80\", \"-Iinc\", \"-isystem\", \"sys\", "
          "\"--include-path=more\", \"-I/abs\", \"-c\", \"k.cu\", \"-o\", "
          "\"k.o\"]}]";
  }
  llvm::Expected<TranslatedArgs> T = argsFromCompilationDatabase(Dir, File);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  // Include directories are made absolute from the entry's directory: the
  // builds and the compile check run elsewhere.
  std::string D = Dir.str().str();
  EXPECT_EQ(T->NvccBuildFlags,
            (Args{"-O3", "-arch=sm_80", "-I" + D + "/inc", "-isystem",
                  D + "/sys", "--include-path=" + D + "/more", "-I/abs"}));
  EXPECT_EQ(T->GpuArch, "sm_80");
  llvm::sys::fs::remove_directories(Dir);
}

TEST(CompileArgs, HostCompilerOptionsReachTheParse) {
  // nvcc gives -Xcompiler's list to the host compiler of every pass,
  // preprocessing included, so its macros and include directories shape the
  // file; -fopenmp makes the host code see _OPENMP.
  TranslatedArgs T = translateCompilerArgs(
      {"-Xcompiler", "-fopenmp,-DUSE_X=2,-Iinc,-O3", "--compiler-options=-isystem,/s",
       "-Xcompiler=-Wall", "-Xcudafe", "--diag_suppress=177", "-DLAST"},
      /*IsNvcc=*/true);
  EXPECT_EQ(T.Args, (Args{"-D_OPENMP=201511", "-D", "USE_X=2", "-I", "inc",
                          "-isystem", "/s", "-D", "LAST"}));
  EXPECT_EQ(T.Dropped, (Args{"-Xcompiler=-O3", "-Xcompiler=-Wall", "-Xcudafe",
                             "--diag_suppress=177"}));
}

TEST(CompileArgs, OpenMPInAHostCompilerCommand) {
  // A compile_commands.json entry from a gcc/clang build: -fopenmp alone,
  // last on the line, takes no value.
  EXPECT_EQ(translateCompilerArgs({"-O2", "-fopenmp"}, /*IsNvcc=*/false).Args,
            (Args{"-D_OPENMP=201511"}));
  EXPECT_EQ(translateCompilerArgs({"-fopenmp-simd"}, /*IsNvcc=*/false).Args,
            Args{});
  // nvcc itself has no -fopenmp: there it is not a host flag.
  EXPECT_EQ(translateCompilerArgs({"-fopenmp"}, /*IsNvcc=*/true).Args, Args{});
}

TEST(CompileArgs, PathArgumentsInEverySpelling) {
  // What the database identity leaves out (directories) and what a
  // compilation database's directory makes absolute (directories and files).
  Args A{"-O3",          "-Iinc",          "-I",    "a b",
         "-isystem=sys", "--include-path", "p",     "--system-include=s",
         "-include",     "pre.h",          "-DX=1", "-includeX",
         "-iquote"};
  std::vector<PathArgument> P = pathArguments(A);
  ASSERT_EQ(P.size(), 6u);
  auto Path = [&](const PathArgument &X) {
    return A[X.ValueIndex].substr(X.ValueOffset);
  };
  EXPECT_EQ(Path(P[0]), "inc");
  EXPECT_EQ(P[0].FlagIndex, P[0].ValueIndex);
  EXPECT_EQ(Path(P[1]), "a b");
  EXPECT_EQ(P[1].FlagIndex + 1, P[1].ValueIndex);
  EXPECT_EQ(Path(P[2]), "sys");
  EXPECT_EQ(Path(P[3]), "p");
  EXPECT_EQ(Path(P[4]), "s");
  EXPECT_EQ(Path(P[5]), "pre.h");
  for (int I = 0; I < 5; ++I)
    EXPECT_TRUE(P[I].Directory) << I;
  EXPECT_FALSE(P[5].Directory);
  // "-includeX" is no -include; a trailing "-iquote" has no value.
}
