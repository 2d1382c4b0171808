//===- CudaRewriteOpt.cpp - the cuda-rewrite-opt command line -------------===//
//
// A thin driver: options in, library calls, exit codes out (docs/usage.md).
//
//===----------------------------------------------------------------------===//
#include "CroCommit.inc"
#include "ExecutorOptions.h"
#include "cro/Analysis/ModelBuilder.h"
#include "cro/Analysis/ModelJSON.h"
#include "cro/Build/CompileCheck.h"
#include "cro/Commands/ApplyEachCommand.h"
#include "cro/Commands/KernelSelection.h"
#include "cro/Commands/MeasureCommand.h"
#include "cro/Commands/ModelSummary.h"
#include "cro/Commands/SearchCommand.h"
#include "cro/Commands/TuneCommand.h"
#include "cro/Frontend/Frontend.h"
#include "cro/Frontend/LocalGpu.h"
#include "cro/Measure/Harness.h"
#include "cro/Measure/Runner.h"
#include "cro/Report/UnifiedDiff.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/Registry.h"
#include "cro/Rewrite/VariantOutput.h"
#include "cro/Support/AtomicFile.h"
#include "cro/Support/ToolError.h"
#include "clang/Basic/Version.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include <cmath>
#include <cstdio>
#include <memory>

using namespace llvm;
using namespace cro;

namespace {

cl::OptionCategory Category("cuda-rewrite-opt options");

cl::opt<std::string> InputFile(cl::Positional, cl::desc("<kernel.cu>"),
                               cl::cat(Category));
cl::opt<bool> Analyze("analyze",
                      cl::desc("Print the kernel model as JSON and exit"),
                      cl::cat(Category));
cl::opt<std::string> ApplyConfig(
    "apply",
    cl::desc("Apply a configuration (JSON object: knob id -> value) and write "
             "the rewritten source (-o, or stdout)"),
    cl::value_desc("config.json"), cl::cat(Category));
cl::opt<std::string> ApplyEach(
    "apply-each",
    cl::desc("Apply each configuration of a JSON array, from one parse: "
             "writes <-o DIR>/<index>/<file name> and prints a JSON line per "
             "configuration (its exit code, file or error, nvcc flags)"),
    cl::value_desc("configs.json"), cl::cat(Category));
cl::opt<bool> Diff("diff",
                   cl::desc("Print the unified diff of the rewritten source "
                            "against the input"),
                   cl::cat(Category));
cl::opt<bool> AssumeNoAlias(
    "assume-no-alias",
    cl::desc("Allow __restrict__ even where the tool cannot see that "
             "pointer arguments do not alias"),
    cl::cat(Category));
cl::opt<bool>
    AllowFastMath("allow-fast-math",
                  cl::desc("Offer compiler flags that change numerical results "
                           "(-use_fast_math, -prec-div=false, ...)"),
                  cl::cat(Category));
cl::opt<bool> Measure(
    "measure",
    cl::desc("Build the original and the variant (--apply, --variant, or the "
             "original itself), run both on the GPU under the measurement "
             "library, verify the variant's outputs and print a JSON report"),
    cl::cat(Category));
cl::opt<std::string>
    VariantFile("variant",
                cl::desc("With --measure: a hand-written variant to verify "
                         "and time against the input"),
                cl::value_desc("file.cu"), cl::cat(Category));
cl::list<std::string> RunArgs(
    "run",
    cl::desc("With --measure: program arguments (repeat for several input "
             "sets; every set is verified)"),
    cl::value_desc("\"args\""), cl::cat(Category));
cl::opt<std::string> CheckCommand(
    "check",
    cl::desc("With --measure: a command that must succeed after the "
             "variant ran"),
    cl::value_desc("\"cmd args\""), cl::cat(Category));
cl::opt<int> Replays(
    "replays",
    cl::desc("Replays per launch (default: ~100 ms of wall time, >= 5)"),
    cl::init(0), cl::cat(Category));
cl::opt<std::string> HarnessSpec(
    "harness",
    cl::desc("A kernel spec (JSON) for a file without main(): the tool "
             "appends a generated harness to the original and the variant "
             "(--measure, --apply)"),
    cl::value_desc("spec.json"), cl::cat(Category));
cl::opt<bool> Profile(
    "profile",
    cl::desc("With --measure or the main command: also collect Nsight Compute "
             "metrics (DRAM and SM throughput, achieved "
             "occupancy) for each target kernel"),
    cl::cat(Category));
cl::opt<bool> PrintInjectionLibrary(
    "print-measurement-library",
    cl::desc("Print the path of the measurement library (libcro-inject.so), "
             "building it with the local CUDA toolkit if needed (experimental: "
             "--measure uses only a shipped one), and exit"),
    cl::cat(Category));
cl::opt<unsigned> Runs("runs",
                       cl::desc("With --measure, --search and the main "
                                "command: program runs per executable for "
                                "timing, interleaved (default 5; the search "
                                "runs the original this many times and each "
                                "variant once)"),
                       cl::init(5), cl::cat(Category));
cl::opt<std::string> ObjectiveOpt(
    "objective",
    cl::desc("What 'faster' means: 'program' (default) is the program's GPU "
             "time, every launch of every kernel counted once; 'per-launch' "
             "is the sum over the target kernels of each one's median time "
             "per launch (the objective before 2026-12). Part of the tuning "
             "problem's identity in the database, so a --replay must be given "
             "it as the search was"),
    cl::init("program"), cl::cat(Category));
cl::opt<double> MinGain(
    "min-gain",
    cl::desc("The main command writes a variant only when it is faster than "
             "the original by at least this fraction with 95% confidence "
             "over interleaved runs (default 0.02 = 2%; at least 5 runs each)"),
    cl::init(0.02), cl::cat(Category));
cl::opt<int> MaxLaunches(
    "max-launches",
    cl::desc("With --measure: launches of each kernel that are replayed and "
             "timed (default 3)"),
    cl::init(3), cl::cat(Category));
cl::opt<int> MaxCaptures(
    "max-captures",
    cl::desc("With --measure: launches of each kernel whose outputs are "
             "captured and compared (default 8)"),
    cl::init(8), cl::cat(Category));
cl::opt<bool> CompareAllCaptures(
    "compare-all-captures",
    cl::desc("Write, read back and compare every captured output, each "
             "before the next run starts, even where its checksum equals "
             "the original's (the behaviour before checksums; to measure "
             "what they save)"),
    cl::Hidden, cl::cat(Category));
cl::opt<bool> FlushL2("flush-l2",
                      cl::desc("Flush the L2 cache before each timed replay"),
                      cl::cat(Category));
cl::opt<double> RunTimeout("timeout",
                           cl::desc("Seconds a program run may take before "
                                    "its process group is killed (default "
                                    "300)"),
                           cl::init(300), cl::cat(Category));
cl::opt<double> RelTolOpt("rtol",
                          cl::desc("Relative tolerance for float outputs "
                                   "(default 1e-4 float, 1e-10 double)"),
                          cl::init(0), cl::cat(Category));
cl::opt<std::string> BuildTemplateOpt(
    "build",
    cl::desc("Build command template for --measure, e.g. \"nvcc {flags} {src} "
             "util.cu -o {exe}\" (no shell: split at spaces)"),
    cl::value_desc("template"), cl::cat(Category));
cl::opt<std::string> CacheDir("cache-dir",
                              cl::desc("Build cache (default "
                                       "~/.cache/cuda-rewrite-opt/build)"),
                              cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> OutputFile("o", cl::desc("Write the result to <file>"),
                                cl::value_desc("file"), cl::cat(Category));
cl::list<std::string> Kernels("kernel",
                              cl::desc("Only consider this kernel (repeatable; "
                                       "qualified or plain name)"),
                              cl::value_desc("name"), cl::cat(Category));
cl::opt<std::string> BuildPath("p",
                               cl::desc("Directory containing "
                                        "compile_commands.json"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA toolkit root (default: CUDA_HOME, "
                                       "CUDA_PATH, nvcc on PATH, "
                                       "/usr/local/cuda)"),
                              cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> GpuArch("cuda-gpu-arch",
                             cl::desc("GPU architecture to parse for, e.g. "
                                      "sm_90 (default: the local GPU's, else "
                                      "sm_90)"),
                             cl::value_desc("sm_XX"), cl::cat(Category));

cl::opt<bool> Search(
    "search",
    cl::desc("Search the file's knobs on the local GPU: every candidate is "
             "built, verified against the original and timed; prints a JSON "
             "summary, and with -o writes the fastest verified variant"),
    cl::cat(Category));
cl::opt<std::string> Simulate(
    "simulate",
    cl::desc("Run the strategy against a recorded search space instead of "
             "the GPU and print a JSON result (no input file needed)"),
    cl::value_desc("space.json"), cl::cat(Category));
cl::opt<bool> Replay(
    "replay",
    cl::desc("Write the best verified variant the tuning database has for "
             "this source and GPU, without measuring (no GPU needed)"),
    cl::cat(Category));
cl::opt<std::string> StrategyOpt(
    "strategy",
    cl::desc("Search strategy: agent (default), bayes, random, anneal, "
             "genetic, exhaustive, or external:CMD (a policy process speaking "
             "JSON lines, docs/search.md)"),
    cl::init("agent"), cl::value_desc("name"), cl::cat(Category));
cl::opt<unsigned> Budget("budget",
                         cl::desc("Evaluations, the original included "
                                  "(default 100)"),
                         cl::init(100), cl::cat(Category));
cl::opt<double> TimeLimit("time-limit",
                          cl::desc("Stop the search after this many seconds "
                                   "(0 = no limit)"),
                          cl::init(0), cl::value_desc("s"), cl::cat(Category));
cl::opt<uint64_t> Seed("seed",
                       cl::desc("Seed of the strategy's random choices "
                                "(default 1): same seed, same proposals"),
                       cl::init(1), cl::cat(Category));
cl::opt<unsigned> Batch("batch",
                        cl::desc("Candidates per batch: a batch compiles in "
                                 "parallel while the previous one is measured "
                                 "(default 8)"),
                        cl::init(8), cl::cat(Category));
cl::opt<unsigned> Patience(
    "patience",
    cl::desc("Stop early when this many evaluations in a row did not improve "
             "the best by 1% (default 40; 0 = never)"),
    cl::init(40), cl::cat(Category));
cl::opt<std::string> DbPath(
    "db",
    cl::desc("Tuning database (default $XDG_CACHE_HOME, else ~/.cache, else "
             "/tmp, then cuda-rewrite-opt/tuning.db; \"none\" for no "
             "database)"),
    cl::value_desc("path"), cl::cat(Category));
cl::opt<std::string> DepFile(
    "depfile",
    cl::desc("With --replay: also write a Make-style dependency file: the "
             "output depends on the program's files and the tuning database "
             "(as gcc -MF; for build systems that rerun the replay only when "
             "one changes)"),
    cl::value_desc("file.d"), cl::cat(Category));
cl::opt<std::string> DepFileTarget(
    "depfile-target",
    cl::desc("The target the --depfile names (as gcc -MT; default: -o)"),
    cl::value_desc("name"), cl::cat(Category));
cl::opt<std::string> GpuName("gpu",
                             cl::desc("With --replay: the GPU to replay for "
                                      "(default: this machine's, else the "
                                      "only one the database knows)"),
                             cl::value_desc("name"), cl::cat(Category));
cl::opt<std::string> SpaceFile(
    "space",
    cl::desc("With --search, --print-space and the main command: a JSON "
             "object of knob id -> list of values or \"all\"; only those "
             "knobs are searched"),
    cl::value_desc("space.json"), cl::cat(Category));
cl::opt<std::string> RecordSpaceFile(
    "record-space",
    cl::desc("With --search: write every evaluated point as a recorded space "
             "for --simulate"),
    cl::value_desc("file.json"), cl::cat(Category));
cl::opt<std::string> RecordFormat(
    "record-format",
    cl::desc("With --record-space: 'cro' (the tool's recorded space, the "
             "default) or 't4' (the auto-tuning community's T4 results "
             "format, which Kernel Tuner reads); --simulate reads both, and "
             "Kernel Tuner caches"),
    cl::value_desc("cro|t4"), cl::init("cro"), cl::cat(Category));
cl::opt<bool> PrintSpace(
    "print-space",
    cl::desc("Print the search space (after --space) as JSON: knobs, size, "
             "valid points and why the others are invalid; no GPU needed"),
    cl::cat(Category));
cl::opt<std::string> EvaluatePoint(
    "evaluate-point",
    cl::desc("With --simulate: print one point's recorded result as JSON "
             "(what a simulated search's jobs run through an executor)"),
    cl::value_desc("config"), cl::Hidden, cl::cat(Category));
cl::opt<std::string> ReportFile(
    "report",
    cl::desc("With the main command (or --simulate): write a report of the "
             "run -- every "
             "evaluated variant, the moves and why, metrics, plots -- as "
             ".json, .md or a self-contained .html"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> LogJson(
    "log-json",
    cl::desc("With -o (the main command): write machine-readable progress "
             "events, one JSON object per line (\"-\" = stdout)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("No progress lines on stderr"),
                    cl::cat(Category));
cl::opt<bool> RequireGpu(
    "require-gpu",
    cl::desc("With the main command: exit 11 when this machine has no GPU, "
             "instead of replaying (for tuning jobs that must not pass "
             "without tuning anything)"),
    cl::cat(Category));

void printVersion(raw_ostream &OS) {
  OS << "cuda-rewrite-opt " << CRO_VERSION << "\n"
     << "  commit: " << CRO_COMMIT << "\n"
     << "  frontend: Clang " << CLANG_VERSION_STRING << " (LLVM "
     << LLVM_VERSION_STRING << "), linked in\n";
  // The toolkit this run would parse and build with (the same lookup as
  // every command: --cuda-path, $CUDA_HOME, $CUDA_PATH, nvcc on PATH,
  // /usr/local/cuda).
  Expected<CudaToolkit> Cuda = findCudaToolkit(CudaPath);
  if (Cuda)
    OS << "  CUDA: "
       << (Cuda->Version.empty() ? "version unknown" : Cuda->Version) << " at "
       << Cuda->Root << " (" << Cuda->FoundVia << ")\n";
  else
    OS << "  CUDA: " << toString(Cuda.takeError()) << "\n";
}

/// Keeps only the kernels named by --kernel, and their knobs and refusals;
/// an unknown name is an error.
/// The target the variants are for: the local GPU's own limits when the
/// command will run variants on it and it is the model's architecture, else
/// the architecture's documented ones (so that --analyze and --apply give
/// the same knobs on every machine).
HardwareLimits targetLimits(StringRef GpuArch, bool OnThisGpu) {
  if (OnThisGpu)
    if (std::optional<HardwareLimits> L = queryDeviceLimits()) {
      std::string Arch = "sm_" + L->ComputeCapability; // "9.0" -> "sm_90"
      llvm::erase(Arch, '.');
      if (Arch == GpuArch)
        return *L;
    }
  return tableLimits(GpuArch);
}

/// The variant --apply asks for (the original itself without --apply).
Expected<Variant> configuredVariant(const RewriteContext &Ctx) {
  json::Object Config;
  if (!ApplyConfig.empty()) {
    Expected<json::Object> C = readConfiguration(ApplyConfig);
    if (!C)
      return C.takeError();
    Config = std::move(*C);
  }
  return applyConfiguration(Ctx, Config);
}

/// The first numeric option whose value means nothing (a negative
/// tolerance, no runs, a zero budget), said as the error; "" when all are
/// sensible. Zero stays the documented "default" where an option has one
/// (--rtol, --replays, --time-limit, --patience).
static std::string badNumericOption() {
  auto Given = [](const cl::Option &O) { return O.getNumOccurrences() > 0; };
  auto Num = [](double V) { // as short as %g: -1, 0.5, nan
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%g", V);
    return std::string(Buf);
  };
  if (Given(RelTolOpt) && !(RelTolOpt >= 0 && std::isfinite(RelTolOpt)))
    return "--rtol " + Num(RelTolOpt) +
           ": a relative tolerance is a finite number >= 0 (0: the default)";
  if (Given(RunTimeout) && !(RunTimeout > 0 && std::isfinite(RunTimeout)))
    return "--timeout " + Num(RunTimeout) + ": seconds must be > 0";
  if (Given(TimeLimit) && !(TimeLimit >= 0 && std::isfinite(TimeLimit)))
    return "--time-limit " + Num(TimeLimit) +
           ": seconds must be >= 0 (0: no limit)";
  if (Given(Runs) && Runs == 0)
    return "--runs 0: at least one run is needed to time anything";
  if (Given(RecordFormat) && RecordFormat != "cro" && RecordFormat != "t4")
    return "--record-format '" + RecordFormat +
           "': the formats are 'cro' and 't4'";
  if (Given(RecordFormat) && !Given(RecordSpaceFile))
    return "--record-format says how --record-space writes; give "
           "--record-space FILE too";
  if (Given(ObjectiveOpt) && !parseObjective(ObjectiveOpt))
    return "--objective '" + ObjectiveOpt +
           "': the objective is 'program' or 'per-launch'";
  if (Given(MinGain) &&
      !(MinGain >= 0 && MinGain < 10 && std::isfinite(MinGain)))
    return "--min-gain " + Num(MinGain) +
           ": a fraction >= 0 (0.02 = a 2% gain) and below 10";
  if (Given(Replays) && Replays < 0)
    return "--replays " + std::to_string(Replays) +
           ": replays per launch must be >= 0 (0: the default)";
  if (Given(Budget) && Budget == 0)
    return "--budget 0: the budget counts evaluations, the original "
           "included, so it is at least 1";
  if (Given(Batch) && Batch == 0)
    return "--batch 0: a batch holds at least one candidate";
  if (Given(MaxLaunches) && MaxLaunches < 1)
    return "--max-launches " + std::to_string(MaxLaunches) +
           ": at least one launch of each kernel must be timed";
  if (Given(MaxCaptures) && MaxCaptures < 1)
    return "--max-captures " + std::to_string(MaxCaptures) +
           ": at least one launch of each kernel must be compared with the "
           "original's, or nothing would be verified";
  return "";
}

/// What a command line asks for; an option means something in some of these.
enum CommandMode : unsigned {
  ModeAnalyze = 1u << 0,
  ModeApply = 1u << 1, ///< --apply, or --diff alone
  ModeApplyEach = 1u << 2,
  ModeMeasure = 1u << 3,
  ModeSearch = 1u << 4,
  ModeReplay = 1u << 5,
  ModeTune = 1u << 6, ///< the main command: an input and -o
  ModePrintSpace = 1u << 7,
  ModeSummary = 1u << 8, ///< an input and nothing else
};

const char *modeName(unsigned M) {
  switch (M) {
  case ModeAnalyze:
    return "--analyze";
  case ModeApply:
    return "--apply/--diff";
  case ModeApplyEach:
    return "--apply-each";
  case ModeMeasure:
    return "--measure";
  case ModeSearch:
    return "--search";
  case ModeReplay:
    return "--replay";
  case ModeTune:
    return "the main command (an input and -o)";
  case ModePrintSpace:
    return "--print-space";
  default:
    return "an input alone (the summary)";
  }
}

/// An option given where it does nothing (`--budget` with --analyze, `-o`
/// with --print-space), said as the error; "" when every option given
/// counts. A silently ignored option is a user's wrong belief about what
/// ran. (--quiet asks for less output, which every mode gives it.)
std::string optionWithoutEffect(unsigned Mode) {
  const unsigned Knobs = ModeAnalyze | ModeApply | ModeApplyEach | ModeMeasure |
                         ModeSearch | ModeReplay | ModeTune | ModePrintSpace;
  // What makes a workload the same tuning problem (the database identity):
  // a replay must be given it as the search was.
  const unsigned Workload = ModeMeasure | ModeSearch | ModeTune | ModeReplay;
  const unsigned Running = ModeMeasure | ModeSearch | ModeTune;
  const unsigned Strategy = ModeSearch | ModeTune;
  const std::pair<const cl::Option *, unsigned> Table[] = {
      {&ApplyConfig, ModeApply | ModeMeasure},
      {&Diff, ModeApply | ModeReplay | ModeTune},
      {&AssumeNoAlias, Knobs},
      {&AllowFastMath, Knobs},
      {&VariantFile, ModeMeasure},
      {std::addressof(RunArgs), Workload}, // (cl::list overloads &)
      {&BuildTemplateOpt, Workload},
      {&HarnessSpec, Knobs}, // (its launch is modelled: knobs change)
      {&CheckCommand, Running},
      {&Replays, Running},
      {&Runs, Running},
      {&ObjectiveOpt, Workload},
      {&MinGain, ModeTune | ModeMeasure},
      {&MaxLaunches, Running},
      {&MaxCaptures, Running},
      {&FlushL2, Running},
      {&CompareAllCaptures, Running},
      {&RunTimeout, Running},
      {&RelTolOpt, Running},
      {&CacheDir, Running},
      {&Profile, ModeMeasure | ModeTune},
      {&OutputFile, ~(ModePrintSpace | ModeSummary)},
      {&StrategyOpt, Strategy},
      {&Budget, Strategy},
      {&TimeLimit, Strategy},
      {&Seed, Strategy},
      {&Batch, Strategy},
      {&Patience, Strategy},
      {&DbPath, Strategy | ModeReplay},
      {&GpuName, ModeReplay | ModeTune},
      {&DepFile, ModeReplay},
      {&DepFileTarget, ModeReplay},
      {&SpaceFile, Strategy | ModePrintSpace},
      {&RecordSpaceFile, ModeSearch},
      {&RecordFormat, ModeSearch},
      {&RequireGpu, ModeTune},
  };
  std::vector<std::pair<const cl::Option *, unsigned>> All(std::begin(Table),
                                                           std::end(Table));
  // Where builds and runs happen matters only where something runs.
  for (const cl::Option *O : executorOptions())
    All.push_back({O, Running});
  for (const auto &[Opt, Modes] : All) {
    if (Opt->getNumOccurrences() == 0 || (Modes & Mode))
      continue;
    std::string Where;
    for (unsigned M = 1; M <= ModeSummary; M <<= 1)
      if ((Modes & M) && M != ModeSummary)
        Where += (Where.empty() ? "" : ", ") + std::string(modeName(M));
    std::string Name = Opt->ArgStr.size() == 1 ? "-" + Opt->ArgStr.str()
                                               : "--" + Opt->ArgStr.str();
    return Name + " does nothing with " + modeName(Mode) + " (it goes with " +
           Where + ")";
  }
  return "";
}

/// An output option naming a file that is also one of the inputs (`--apply
/// c.json -o c.json`, `--simulate s.json --report s.json`), said as the
/// error; "" when there is none. Checked before anything is read, so a
/// mistake never costs the user an input.
static std::string outputThatIsAnInput() {
  const std::pair<const char *, const cl::opt<std::string> *> Outputs[] = {
      {"-o", &OutputFile},
      {"--report", &ReportFile},
      {"--log-json", &LogJson},
      {"--record-space", &RecordSpaceFile}};
  const std::pair<const char *, const cl::opt<std::string> *> Inputs[] = {
      {"", &InputFile},
      {"--apply", &ApplyConfig},
      {"--apply-each", &ApplyEach},
      {"--space", &SpaceFile},
      {"--simulate", &Simulate},
      {"--harness", &HarnessSpec}};
  for (const auto &[OutName, Out] : Outputs) {
    StringRef O = Out->getValue();
    if (O.empty() || O == "-")
      continue;
    for (const auto &[InName, In] : Inputs) {
      StringRef I = In->getValue();
      if (I.empty() || !sys::fs::equivalent(O, I))
        continue;
      if (*InName == '\0' && StringRef(OutName) == "-o")
        return ("the output file is the input file '" + I +
                "'; refusing to overwrite it")
            .str();
      return (Twine(OutName) + " '" + O + "' is the " +
              (*InName ? Twine(InName) + " input" : Twine("input file")) +
              "; refusing to overwrite it")
          .str();
    }
  }
  return "";
}

/// The model of the parsed file; for a file Clang could not parse, the
/// model without kernels (only compiler flags are offered) when nvcc
/// compiles it with the flags its build uses, else the parse error.
Expected<KernelModel> modelOrFlagsOnly(const ParsedFile &PF,
                                       StringRef InputFile,
                                       ArrayRef<std::string> CompilerArgs) {
  if (PF.parsed())
    return buildKernelModel(PF, InputFile);
  std::string Errors = Twine(PF.NumErrors).str() + " error" +
                       (PF.NumErrors == 1 ? "" : "s") + " in '" +
                       InputFile.str() + "'";
  std::vector<std::string> Flags(CompilerArgs.begin(), CompilerArgs.end());
  if (Flags.empty())
    Flags = PF.NvccBuildFlags;
  if (Flags.empty())
    Flags = {"-O3", "-arch=" + PF.GpuArch};
  Expected<std::string> Why =
      whyNvccRejects(PF.Cuda.Root + "/bin/nvcc", PF.MainFile, Flags);
  if (!Why)
    return Why.takeError();
  if (!Why->empty())
    return makeToolError(ExitCode::ParseError,
                         Errors +
                             "; nothing was analyzed (nvcc does not "
                             "compile it either: " +
                             *Why + ")");
  errs() << "cuda-rewrite-opt: warning: " << Errors
         << ", which nvcc compiles: its kernels are not modelled, so only "
            "compiler flags are offered and its source is left as written\n";
  return buildUnparsedModel(PF, InputFile);
}

int run(int argc, char **argv) {
  // Arguments after `--` are compiler flags for the parse, not our options.
  std::vector<const char *> OwnArgs;
  std::vector<std::string> CompilerArgs;
  bool AfterDashDash = false;
  for (int I = 0; I < argc; ++I) {
    if (!AfterDashDash && StringRef(argv[I]) == "--") {
      AfterDashDash = true;
      continue;
    }
    if (AfterDashDash)
      CompilerArgs.push_back(argv[I]);
    else
      OwnArgs.push_back(argv[I]);
  }
  cl::HideUnrelatedOptions({&Category, &executorCategory()});
  cl::SetVersionPrinter(printVersion);
  std::string ParseErrors;
  raw_string_ostream ErrOS(ParseErrors);
  if (!cl::ParseCommandLineOptions(
          OwnArgs.size(), OwnArgs.data(),
          "cuda-rewrite-opt: analyze and rewrite CUDA kernels\n\n"
          "  cuda-rewrite-opt kernel.cu [--analyze] [-- <compiler flags>]\n",
          &ErrOS)) {
    // LLVM's parser says it in several lines ("Unknown command line
    // argument ...  Try: ...", "Did you mean ...?"); the tool's errors are
    // one line starting "cuda-rewrite-opt: error:".
    std::string Message = oneLineMessage(ParseErrors, [](StringRef L) {
      if (size_t Colon = L.find(": ");
          Colon != StringRef::npos && !L.take_front(Colon).contains(' '))
        L = L.drop_front(Colon + 2); // the program name LLVM prefixes
      return L.split("  Try: ").first.trim().rtrim('.');
    });
    // (An option's bad value is printed by LLVM itself, on the line above.)
    errs() << "cuda-rewrite-opt: error: "
           << (Message.empty() ? "bad command line" : Message)
           << " (see --help)\n";
    return static_cast<int>(ExitCode::Usage);
  }
  if (std::string Bad = badNumericOption(); !Bad.empty()) {
    errs() << "cuda-rewrite-opt: error: " << Bad << " (see --help)\n";
    return static_cast<int>(ExitCode::Usage);
  }
  if (std::string Same = outputThatIsAnInput(); !Same.empty()) {
    errs() << "cuda-rewrite-opt: error: " << Same << "\n";
    return static_cast<int>(ExitCode::Usage);
  }
  if (PrintInjectionLibrary) {
    std::string Lib = findInjectionLibrary(argv[0]);
    if (Lib.empty()) {
      Expected<CudaToolkit> Cuda = findCudaToolkit(CudaPath);
      if (!Cuda)
        return reportAndGetExitCode(Cuda.takeError(), errs());
      Expected<std::string> Built = buildInjectionLibrary(Cuda->Root, CacheDir);
      if (!Built)
        return reportAndGetExitCode(Built.takeError(), errs());
      Lib = *Built;
    }
    outs() << Lib << "\n";
    return 0;
  }
  SearchControl Control;
  Control.Strategy = StrategyOpt;
  Control.Budget = std::max(1u, Budget.getValue());
  Control.TimeLimitSeconds = TimeLimit;
  Control.Seed = Seed;
  Control.Batch = std::max(1u, Batch.getValue());
  Control.Patience = Patience;
  // Where builds and runs happen (--executor, --gpus), made once the mode
  // is known and before anything asks for the GPU (--gpus decides which);
  // a cluster that runs nothing fails the command then, not each
  // evaluation.
  std::unique_ptr<Executor> Exec;
  auto StartExecutor = [&](bool Measures) -> Error {
    Expected<std::unique_ptr<Executor>> E = executorFromOptions();
    if (!E)
      return E.takeError();
    Exec = std::move(*E);
    if (!Exec)
      return Error::success();
    Control.Batch = std::max(Control.Batch, Exec->slots()); // one per slot
    return Exec->remote() && Measures ? checkExecutor(*Exec) : Error::success();
  };
  if (!EvaluatePoint.empty() && Simulate.empty()) {
    errs() << "cuda-rewrite-opt: error: --evaluate-point goes with "
              "--simulate\n";
    return static_cast<int>(ExitCode::Usage);
  }
  if (!Simulate.empty()) {
    if (!InputFile.empty() || Search || Replay || Measure || Analyze) {
      errs() << "cuda-rewrite-opt: error: --simulate runs against a recorded "
                "space only: no input file, --search, --replay, --measure or "
                "--analyze\n";
      return static_cast<int>(ExitCode::Usage);
    }
    if (!LogJson.empty() || !OutputFile.empty()) {
      errs() << "cuda-rewrite-opt: error: a simulation prints its result as "
                "JSON on stdout: no -o or --log-json (redirect stdout, or "
                "--report FILE)\n";
      return static_cast<int>(ExitCode::Usage);
    }
    if (!EvaluatePoint.empty())
      return runEvaluatePoint(Simulate, EvaluatePoint, errs());
    if (Error E = StartExecutor(/*Measures=*/true))
      return reportAndGetExitCode(std::move(E), errs());
    SimulateRequest SR{Simulate.getValue(),
                       Control,
                       ReportFile.getValue(),
                       std::string("cuda-rewrite-opt ") + CRO_VERSION,
                       Exec.get(),
                       sys::fs::getMainExecutable(argv[0], (void *)&run)};
    return runSimulate(SR, errs());
  }
  if (int(Search) + int(Replay) + int(Measure) + int(Analyze) > 1) {
    errs() << "cuda-rewrite-opt: error: choose one of --search, --replay, "
              "--measure and --analyze\n";
    return static_cast<int>(ExitCode::Usage);
  }
  if (InputFile.empty()) {
    errs() << "cuda-rewrite-opt: error: no input file (usage: "
              "cuda-rewrite-opt kernel.cu [--analyze])\n";
    return static_cast<int>(ExitCode::Usage);
  }
  // The main command: `cuda-rewrite-opt kernel.cu -o kernel.opt.cu`.
  if (!ApplyEach.empty() &&
      (!ApplyConfig.empty() || Diff || Analyze || Measure || Search || Replay ||
       PrintSpace || OutputFile.empty() || OutputFile == "-")) {
    errs() << "cuda-rewrite-opt: error: --apply-each writes its variants "
              "under a directory: it needs -o DIR and goes with none of "
              "--apply, --diff, --analyze, --measure, --search, --replay and "
              "--print-space\n";
    return static_cast<int>(ExitCode::Usage);
  }
  const bool Tune = !OutputFile.empty() && !Analyze && ApplyConfig.empty() &&
                    ApplyEach.empty() &&
                    !Measure && !Search && !Replay && !PrintSpace;
  if ((!ReportFile.empty() || !LogJson.empty()) && !Tune) {
    errs() << "cuda-rewrite-opt: error: --report and --log-json go with the "
              "main command (an input file and -o; --report also with "
              "--simulate)\n";
    return static_cast<int>(ExitCode::Usage);
  }
  if (Analyze && (!ApplyConfig.empty() || Diff)) {
    errs() << "cuda-rewrite-opt: error: --analyze cannot be combined with "
              "--apply or --diff\n";
    return static_cast<int>(ExitCode::Usage);
  }
  const unsigned Mode = Analyze                        ? ModeAnalyze
                        : Measure                      ? ModeMeasure
                        : Search                       ? ModeSearch
                        : Replay                       ? ModeReplay
                        : PrintSpace                   ? ModePrintSpace
                        : !ApplyEach.empty()           ? ModeApplyEach
                        : Tune                         ? ModeTune
                        : !ApplyConfig.empty() || Diff ? ModeApply
                                                       : ModeSummary;
  if (std::string Idle = optionWithoutEffect(Mode); !Idle.empty()) {
    errs() << "cuda-rewrite-opt: error: " << Idle << "\n";
    return static_cast<int>(ExitCode::Usage);
  }
  if (Error E = StartExecutor(Mode == ModeMeasure || Mode == ModeSearch ||
                              Mode == ModeTune))
    return reportAndGetExitCode(std::move(E), errs());

  FrontendOptions Opts;
  Opts.InputFile = InputFile;
  Opts.BuildPath = BuildPath;
  Opts.ExtraArgs = CompilerArgs;
  Opts.CudaPath = CudaPath;
  Opts.GpuArch = GpuArch;
  Opts.KeepFailedParse = true;
  Expected<std::unique_ptr<ParsedFile>> Parsed = parseCudaFile(Opts, errs());
  if (!Parsed)
    return reportAndGetExitCode(Parsed.takeError(), errs());

  Expected<KernelModel> Built =
      modelOrFlagsOnly(**Parsed, InputFile, CompilerArgs);
  if (!Built)
    return reportAndGetExitCode(Built.takeError(), errs());
  KernelModel Model = std::move(*Built);
  // A file without main() tuned through a generated harness: the harness
  // is parsed with the file, so that its launch is modelled and the
  // transforms that need a launch site (block size, coarsening, ...) reach
  // the kernel; outputs are written without it (withoutHarness).
  std::string Harness;
  if (!HarnessSpec.empty()) {
    Expected<json::Object> Spec = readKernelSpec(HarnessSpec);
    if (!Spec)
      return reportAndGetExitCode(Spec.takeError(), errs());
    Expected<std::string> H = generateHarness(*Spec, Model);
    if (!H)
      return reportAndGetExitCode(H.takeError(), errs());
    Harness = std::move(*H);
    Opts.MainFileSuffix = Harness;
    Opts.KeepFailedParse = false; // the file parsed; the harness must too
    Parsed = parseCudaFile(Opts, errs());
    if (!Parsed)
      return reportAndGetExitCode(
          makeToolError(ExitCode::BadConfig,
                        "the harness generated from '" + HarnessSpec +
                            "' does not compile with the file (" +
                            toString(Parsed.takeError()) +
                            "): check the spec's expressions"),
          errs());
    Model = buildKernelModel(**Parsed, InputFile);
  }
  if (Model.Kernels.empty() && Model.Unparsed.empty())
    return reportAndGetExitCode(
        makeToolError(ExitCode::NoKernels,
                      "no __global__ function is defined in '" + InputFile +
                          "'; nothing to analyze"),
        errs());
  // The main file as the parse read it; transforms read and edit the
  // program text, the user's files one after another (ProgramText.h).
  StringRef Source = Model.Program.textOf(Model.Program.files().front());
  TransformOptions TOpts;
  TOpts.AssumeNoAlias = AssumeNoAlias;
  TOpts.AllowFastMath = AllowFastMath;
  // Knobs are judged against the whole file (a grid variable shared with a
  // kernel left out by --kernel still counts); then --kernel selects.
  TransformRegistry Transforms;
  registerBuiltinTransforms(Transforms);
  RewriteContext Ctx(Model, Transforms, Model.Program.text(), InputFile, TOpts);
  // Rewritten copies of included files are named after the main output.
  Ctx.IncludedFileTag = includedFileTag(
      ApplyEach.empty() && !Measure ? StringRef(OutputFile) : StringRef());
  // (--replay runs nothing: it must give the knobs the tuning run had on
  // any machine, so it takes the architecture's documented limits.)
  Ctx.Target =
      targetLimits(Model.GpuArch, Search || Measure || PrintSpace || Tune);
  describeKnobs(Ctx);
  if (Error E = selectKernels(Kernels, Model, Ctx.Knobs))
    return reportAndGetExitCode(std::move(E), errs());

  // How the original and its variants are built and run.
  MeasureRequest Req;
  Req.ToolPath = argv[0];
  Req.InputFile = InputFile;
  Req.ProgramFiles = includedProgramFiles(Model.Program);
  // The original's build flags: after `--`, else its nvcc command in
  // compile_commands.json, else -O3 for the local GPU.
  Req.NvccFlags =
      CompilerArgs.empty() ? (*Parsed)->NvccBuildFlags : CompilerArgs;
  Req.BuildTemplate = BuildTemplateOpt;
  Req.CacheDir = CacheDir;
  Req.RunArgs = RunArgs;
  Req.Check = CheckCommand;
  Req.Replays = Replays;
  Req.MaxLaunches = std::max(0, MaxLaunches.getValue());
  Req.MaxCaptures = std::max(0, MaxCaptures.getValue());
  Req.Profile = Profile;
  Req.Runs = std::max(1u, Runs.getValue());
  Req.Goal = parseObjective(ObjectiveOpt).value_or(Objective::ProgramTime);
  Req.MinGain = MinGain;
  Req.FlushL2 = FlushL2;
  Req.CompareAllCaptures = CompareAllCaptures;
  Req.TimeoutSeconds = RunTimeout;
  Req.Via = Exec.get();
  if (RelTolOpt > 0)
    Req.RelTol = RelTolOpt.getValue();

  SearchRequest SR;
  SR.Measure = Req;
  SR.Control = Control;
  SR.DbPath = DbPath;
  SR.SpaceFile = SpaceFile;
  SR.RecordSpace = RecordSpaceFile;
  SR.RecordT4 = RecordFormat == "t4";
  SR.OutputFile = OutputFile;
  SR.Quiet = Quiet;
  if (Tune) {
    TuneRequest TR;
    TR.Search = SR;
    TR.ReportFile = ReportFile;
    TR.LogJson = LogJson;
    TR.GpuName = GpuName;
    TR.Diff = Diff;
    TR.RequireGpu = RequireGpu;
    TR.ToolVersion = std::string("cuda-rewrite-opt ") + CRO_VERSION;
    return runTuneCommand(TR, **Parsed, Model, Ctx, errs());
  }
  if (PrintSpace)
    return runPrintSpace(SpaceFile, Ctx, errs());
  if (Search)
    return runSearchCommand(SR, **Parsed, Model, Ctx, errs());
  if (Replay) {
    ReplayRequest RR;
    RR.Measure = Req;
    RR.DbPath = DbPath;
    RR.Gpu = GpuName;
    RR.OutputFile = OutputFile;
    RR.Diff = Diff;
    RR.DepFile = DepFile;
    RR.DepFileTarget = DepFileTarget;
    return runReplay(RR, Model, Ctx, errs());
  }

  if (Measure) {
    if (!VariantFile.empty()) {
      auto V = MemoryBuffer::getFile(VariantFile);
      if (!V)
        return reportAndGetExitCode(
            makeToolError(ExitCode::InputUnreadable,
                          "cannot read '" + VariantFile +
                              "': " + V.getError().message()),
            errs());
      Req.VariantText = (*V)->getBuffer().str();
    } else {
      Expected<Variant> V = configuredVariant(Ctx);
      if (!V)
        return reportAndGetExitCode(V.takeError(), errs());
      Req.VariantText = V->Source;
      Req.VariantFlags = V->NvccFlags;
      Req.VariantFiles = copiesToBuild(*V);
    }
    // The parse had the harness: the program text (and so every variant)
    // holds it; a hand-written --variant gets the same one.
    if (!Harness.empty()) {
      Req.OriginalText = Source.str();
      if (!VariantFile.empty())
        Req.VariantText += Harness;
    }
    Req.ReportFile = OutputFile;
    return runMeasure(Req, **Parsed, Model, errs());
  }

  if (!ApplyEach.empty())
    return runApplyEach(ApplyEach, OutputFile, Ctx, outs(), errs());

  if (!ApplyConfig.empty() || Diff) {
    Expected<Variant> V = configuredVariant(Ctx);
    if (!V)
      return reportAndGetExitCode(V.takeError(), errs());
    // (With --harness, the harness is part of the text: an applied variant
    // builds and runs on its own.)
    std::string Text = variantFileText(*V);
    if (!V->NvccFlags.empty()) {
      std::string Flags;
      for (const std::string &F : V->NvccFlags)
        Flags += " " + F;
      errs() << "cuda-rewrite-opt: nvcc flags for this variant:" << Flags
             << "\n";
    }
    bool ToFile = !OutputFile.empty() && OutputFile != "-";
    if (Diff)
      outs() << variantDiff(*V, Source, Text, InputFile, Model.Program);
    if (ToFile || !Diff)
      if (Error E = writeVariant(*V, Text, ToFile ? OutputFile.getValue() : "-",
                                 Model.Program))
        return reportAndGetExitCode(std::move(E), errs());
    return 0;
  }

  if (Analyze) {
    // The model, and what the transforms offer for it.
    json::Value Doc = toJSON(Model);
    json::Object &O = *Doc.getAsObject();
    json::Array Offered, Refused;
    for (const Knob &K : Ctx.Knobs.Knobs)
      Offered.push_back(toJSON(K));
    for (const Refusal &R : Ctx.Knobs.Refused)
      Refused.push_back(toJSON(R));
    O["knobs"] = std::move(Offered);
    O["refused"] = std::move(Refused);
    std::string JSON = formatv("{0:2}", Doc).str() + "\n";
    if (Error E = writeOutput(OutputFile, JSON))
      return reportAndGetExitCode(std::move(E), errs());
    return 0;
  }
  printModelSummary(Model, probeLocalGpu(), outs());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // Valid CUDA nests deeper than an 8 MB stack follows: a 10,000-term sum
  // is a 10,000-deep tree that Clang's and the analyses' recursive walks
  // descend. The work runs on a thread with a deep stack (address space,
  // not memory, until it is used).
  int RC = 0;
  llvm::thread Worker(std::optional<unsigned>(cro::DeepStackBytes),
                      [&] { RC = run(argc, argv); });
  Worker.join();
  return RC;
}
