#include "cro/Commands/MeasureCommand.h"
#include "cro/Build/Builder.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Measure/Decision.h"
#include "cro/Measure/Evaluate.h"
#include "cro/Measure/Profiler.h"
#include "cro/Support/AtomicFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace cro {

namespace {

json::Value timingsJSON(const ProgramRun &R) {
  json::Object O;
  for (const auto &[K, T] : R.Timings)
    O[K] = json::Object{
        {"median_ms", T.Time.Median},
        {"run_medians_ms", json::Array(std::vector<json::Value>(
                               T.RunMedians.begin(), T.RunMedians.end()))},
        {"p25_ms", T.Time.P25},
        {"p75_ms", T.Time.P75},
        {"min_ms", T.Time.Min},
        {"max_ms", T.Time.Max},
        {"replays", int64_t(T.Time.N)},
        {"registers", int64_t(T.Registers)},
        {"occupancy", T.Occupancy},
        {"replayed", T.Replayed},
        {"launches", int64_t(T.Launches)},
        {"program_ms", T.ProgramMs},
        {"run_program_ms", json::Array(std::vector<json::Value>(
                               T.RunProgramMs.begin(), T.RunProgramMs.end()))}};
  return O;
}

json::Value runJSON(const ProgramRun &R) {
  return json::Object{{"ok", R.Ok},
                      {"problem", R.Problem.empty() ? json::Value(nullptr)
                                                    : json::Value(R.Problem)},
                      {"kernels", timingsJSON(R)},
                      {"captures", int64_t(R.Captures.size())}};
}

json::Value buildJSON(const BuildResult &B) {
  return json::Object{
      {"ok", B.Ok},
      {"cached", B.Cached},
      {"seconds", B.Seconds},
      {"log", B.Ok ? json::Value(nullptr) : json::Value(B.Log)}};
}

} // namespace

Expected<EvaluateOptions> evaluateOptions(const MeasureRequest &Req,
                                          const ParsedFile &PF,
                                          const KernelModel &Model) {
  EvaluateOptions E;
  E.Run.InjectionLibrary = findInjectionLibrary(Req.ToolPath);
  E.Run.CudaRoot = PF.Cuda.Root;
  E.Run.Replays = Req.Replays;
  E.Run.MaxLaunches = Req.MaxLaunches;
  E.Run.MaxCaptures = Req.MaxCaptures;
  E.Run.FlushL2 = Req.FlushL2;
  E.CaptureChecksums = !Req.CompareAllCaptures;
  E.Run.TimeoutSeconds = Req.TimeoutSeconds;
  E.Run.Via = Req.Via;
  E.RelTol = Req.RelTol;
  E.Runs = Req.Runs;
  E.Goal = Req.Goal;
  for (const KernelInfo &K : Model.Kernels)
    E.Run.TargetKernels.push_back(K.Name);
  // Clang could not parse the program: its kernels have no names here, so
  // every kernel it launches is timed and its outputs compared bit for bit
  // (only flags that keep results bit-identical are offered then).
  if (!Model.Unparsed.empty())
    E.Run.TargetKernels = {"*"};
  for (const std::string &A : Req.RunArgs)
    E.ArgSets.push_back(splitBuildTemplate(A));
  if (!Req.Check.empty())
    E.CheckCommand = splitBuildTemplate(Req.Check);
  // The library must ship next to the tool (build/lib/libcro-inject.so).
  // Building it on the fly (--print-measurement-library) works here, but a
  // copy built with the H200 host's g++ 13 crashed every program it was
  // loaded into: until that is understood, --measure never uses one.
  if (E.Run.InjectionLibrary.empty())
    return makeToolError(ExitCode::Internal,
                         "the measurement library libcro-inject.so was not "
                         "found next to the tool (../lib/ or the same "
                         "directory) nor in $CRO_INJECTION_LIB; copy it from "
                         "the build's lib/ directory");
  return E;
}

BuildOptions buildOptions(const MeasureRequest &Req, const ParsedFile &PF,
                          const LocalGpu &Gpu) {
  BuildOptions B;
  B.Compiler = PF.Cuda.Root + "/bin/nvcc";
  B.Flags = Req.NvccFlags;
  if (B.Flags.empty())
    B.Flags = {"-O3", "-arch=" + Gpu.Arch};
  // Flags that name no architecture (`-- -I include -DN=4`, a target's
  // include directories from the CMake module) would build for nvcc's
  // default one and time the JIT's code: build for this GPU.
  auto NamesArch = [](StringRef F) {
    return F.starts_with("-arch") || F.starts_with("--gpu-architecture") ||
           F.starts_with("-gencode") || F.starts_with("--generate-code") ||
           F.starts_with("-code") || F.starts_with("--gpu-code");
  };
  if (llvm::none_of(B.Flags, NamesArch))
    B.Flags.push_back("-arch=" + Gpu.Arch);
  if (!Req.BuildTemplate.empty())
    B.Template = splitBuildTemplate(Req.BuildTemplate);
  B.OriginalPath = Req.InputFile;
  B.ProgramFiles = Req.ProgramFiles;
  B.CacheDir = Req.CacheDir;
  B.Via = Req.Via;
  return B;
}

std::optional<LocalGpu> measuringGpu(const MeasureRequest &Req,
                                     std::string &Why) {
  if (Req.Via && Req.Via->remote())
    return probeGpuThrough(*Req.Via, Why);
  std::optional<LocalGpu> Gpu = probeLocalGpu();
  if (!Gpu)
    Why = noGpuMessage();
  return Gpu;
}

int runMeasure(const MeasureRequest &Req, const ParsedFile &PF,
               const KernelModel &Model, raw_ostream &Err) {
  std::string NoGpu;
  std::optional<LocalGpu> Gpu = measuringGpu(Req, NoGpu);
  if (!Gpu)
    return reportAndGetExitCode(
        makeToolError(ExitCode::NoGpu,
                      NoGpu +
                          ": nothing can be measured (--analyze, --apply and "
                          "--diff work without one)"),
        Err);
  Expected<EvaluateOptions> EO = evaluateOptions(Req, PF, Model);
  if (!EO)
    return reportAndGetExitCode(EO.takeError(), Err);
  EvaluateOptions E = std::move(*EO);
  // The original's own run-to-run differences, measured as the search
  // measures them when it begins.
  E.NoiseRuns = 2;
  BuildOptions B = buildOptions(Req, PF, *Gpu);
  auto Original = MemoryBuffer::getFile(Req.InputFile);
  if (!Original)
    return reportAndGetExitCode(makeToolError(ExitCode::InputUnreadable,
                                              "cannot read " + Req.InputFile),
                                Err);
  Builder Build(B);
  std::string OriginalText = Req.OriginalText.empty()
                                 ? (*Original)->getBuffer().str()
                                 : Req.OriginalText;
  Expected<std::vector<BuildResult>> Built =
      Build.build({{OriginalText, {}},
                   {Req.VariantText, Req.VariantFlags, Req.VariantFiles}});
  if (!Built)
    return reportAndGetExitCode(Built.takeError(), Err);

  SmallString<128> Work;
  if (std::error_code EC = sys::fs::createUniqueDirectory("cro-measure", Work))
    return reportAndGetExitCode(
        makeToolError(ExitCode::OutputError,
                      "temporary directory: " + EC.message()),
        Err);
  E.WorkDir = Work.str().str();

  json::Object Report{
      {"gpu", Gpu->Name},
      {"gpu_arch", Gpu->Arch},
      {"driver", Gpu->Driver},
      {"file", Req.InputFile},
      {"variant_flags", json::Array(std::vector<json::Value>(
                            Req.VariantFlags.begin(), Req.VariantFlags.end()))},
      {"build", json::Object{{"original", buildJSON((*Built)[0])},
                             {"variant", buildJSON((*Built)[1])}}},
      {"method", "GPU time of each replay of each target launch (CUDA "
                 "events) after a 25 ms warm-up; median of the per-process "
                 "medians over interleaved runs, interquartile range over all "
                 "replays; faster only when every run median is below every "
                 "run median of the other; outputs compared per launch with "
                 "per-type tolerances"}};
  bool Verified = false;
  std::string Rejection;
  if (!(*Built)[0].Ok) {
    Rejection = "the original does not compile: " + (*Built)[0].Log;
  } else if (!(*Built)[1].Ok) {
    Rejection = "the variant does not compile: " + (*Built)[1].Log;
  } else {
    Evaluation Ev =
        evaluate((*Built)[0].Executable, (*Built)[1].Executable, Model, E);
    Report["original"] = runJSON(Ev.Original);
    Report["variant"] = runJSON(Ev.Variant);
    Verified = Ev.Verified;
    Rejection = Ev.Rejection;
    std::vector<std::string> Widened = widenedTolerances(Ev.Original, Model, E);
    Report["tolerances"] =
        json::Array(std::vector<json::Value>(Widened.begin(), Widened.end()));
    json::Object Speedups;
    for (const auto &[K, T] : Ev.Original.Timings) {
      auto It = Ev.Variant.Timings.find(K);
      if (It == Ev.Variant.Timings.end() || It->second.Time.Median <= 0)
        continue;
      Speedups[K] = json::Object{
          {"speedup", T.Time.Median / It->second.Time.Median},
          {"faster_beyond_noise", fasterAcrossRuns(It->second, T)},
          {"slower_beyond_noise", fasterAcrossRuns(T, It->second)}};
    }
    Report["speedups"] = std::move(Speedups);
    // The whole program, by the objective, and what the main command's
    // rule would decide from these runs.
    std::vector<double> O = runObjectivesMs(Ev.Original),
                        V = runObjectivesMs(Ev.Variant);
    GainRule Rule;
    Rule.MinGain = Req.MinGain;
    GainDecision G = decideGain(O, V, Rule);
    Report["program"] = json::Object{
        {"objective", objectiveName(Req.Goal)},
        {"original_runs_ms",
         json::Array(std::vector<json::Value>(O.begin(), O.end()))},
        {"variant_runs_ms",
         json::Array(std::vector<json::Value>(V.begin(), V.end()))},
        {"speedup", G.Ratio},
        {"speedup_lower_bound",
         G.LowerBound ? json::Value(*G.LowerBound) : json::Value(nullptr)},
        {"confidence", G.Confidence},
        {"min_gain", Rule.MinGain},
        {"would_write", G.Faster && Verified},
        {"why", G.Why}};
    if (Req.Profile) {
      std::string Ncu = findNcu(PF.Cuda.Root);
      std::vector<std::string> Args =
          E.ArgSets.empty() ? std::vector<std::string>() : E.ArgSets.front();
      json::Object Metrics;
      for (auto [Side, Exe] : {std::pair<const char *, std::string>(
                                   "original", (*Built)[0].Executable),
                               {"variant", (*Built)[1].Executable}}) {
        Expected<KernelMetrics> M = profileWithNcu(
            Ncu, Exe, Args, E.Run.TargetKernels, Req.TimeoutSeconds * 4);
        if (!M) {
          Metrics[Side] = json::Object{{"error", toString(M.takeError())}};
          continue;
        }
        json::Object PerKernel;
        for (const auto &[K, Values] : *M) {
          json::Object V;
          for (const auto &[Name, X] : Values)
            V[Name] = X;
          PerKernel[K] = std::move(V);
        }
        Metrics[Side] = std::move(PerKernel);
      }
      Report["metrics"] = std::move(Metrics);
    }
  }
  sys::fs::remove_directories(Work);
  Report["verified"] = Verified;
  Report["rejection"] =
      Rejection.empty() ? json::Value(nullptr) : json::Value(Rejection);
  std::string Text =
      formatv("{0:2}", json::Value(std::move(Report))).str() + "\n";
  if (Error Err2 = writeOutput(Req.ReportFile, Text))
    return reportAndGetExitCode(std::move(Err2), Err);
  if (!Verified) {
    Err << "cuda-rewrite-opt: the variant was rejected: " << Rejection << "\n";
    return static_cast<int>(ExitCode::NotVerified);
  }
  return 0;
}

} // namespace cro
