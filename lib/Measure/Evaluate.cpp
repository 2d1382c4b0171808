#include "cro/Measure/Evaluate.h"
#include "cro/Measure/AtomicSumTolerance.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

using namespace llvm;

namespace cro {

StringRef objectiveName(Objective O) {
  return O == Objective::ProgramTime ? "program" : "per-launch";
}

std::optional<Objective> parseObjective(StringRef Name) {
  if (Name == "program")
    return Objective::ProgramTime;
  if (Name == "per-launch")
    return Objective::PerLaunch;
  return std::nullopt;
}

double kernelObjectiveMs(const KernelTiming &T, Objective O) {
  if (O == Objective::ProgramTime)
    return T.ProgramMs;
  return T.Replayed ? T.Time.Median : 0.0;
}

void addProgramTime(const RunResult &Res,
                    std::map<std::string, KernelProgramTime> &Into) {
  std::map<std::string, std::vector<const KernelRecord *>> Own;
  for (const KernelRecord &K : Res.Kernels)
    if (!K.Replay)
      Own[K.Kernel].push_back(&K);
  std::map<std::pair<std::string, int>, double> Replayed;
  for (const ReplayRecord &X : Res.Replays)
    if (!X.TimesMs.empty())
      Replayed[{X.Kernel, X.Launch}] = summarize(X.TimesMs).Median;
  for (auto &[Kernel, Records] : Own) {
    // Launch order: the library numbers a kernel's launches as the program
    // makes them, and they start in that order on the GPU.
    std::stable_sort(Records.begin(), Records.end(),
                     [](const KernelRecord *A, const KernelRecord *B) {
                       return A->StartNs < B->StartNs;
                     });
    KernelProgramTime &T = Into[Kernel];
    for (size_t I = 0; I < Records.size(); ++I) {
      auto It = Replayed.find({Kernel, int(I)});
      T.Ms += It != Replayed.end() ? It->second : Records[I]->ms();
      T.RecordMs.push_back(Records[I]->ms());
      T.Registers = Records[I]->Registers;
    }
    T.Launches += Records.size();
  }
}

ProgramRun runProgram(const std::string &Exe, const EvaluateOptions &Opts,
                      StringRef Tag, bool Capture,
                      const ProgramRun *Reference) {
  ProgramRun P;
  P.Goal = Opts.Goal;
  std::vector<std::vector<std::string>> Sets = Opts.ArgSets;
  if (Sets.empty())
    Sets.push_back({});
  std::map<std::string, std::vector<double>> Samples;
  std::map<std::string, KernelProgramTime> Program;
  for (size_t S = 0; S < Sets.size(); ++S) {
    SmallString<256> Dir(Opts.WorkDir);
    sys::path::append(Dir, (Tag + "." + Twine(S)).str());
    sys::fs::remove_directories(Dir);
    sys::fs::create_directories(Dir);
    P.RunDirs.push_back(Dir.str().str());
    RunOptions R = Opts.Run;
    R.Args = Sets[S];
    R.WorkDir = Dir.str().str();
    R.CaptureDir = Capture ? Dir.str().str() : "";
    if (Capture && Reference && Opts.CaptureChecksums) {
      // The reference's captures of this argument set, numbered as the
      // library numbers this run's launches.
      std::vector<CaptureRecord> Same;
      for (CaptureRecord C : Reference->Captures)
        if ((C.Launch >> 20) == int(S)) {
          C.Launch &= 0xfffff;
          Same.push_back(std::move(C));
        }
      SmallString<256> File(Dir);
      sys::path::append(File, "capture-reference.txt");
      if (Error E = writeCaptureReference(Same, File))
        consumeError(std::move(E)); // every capture is then written: safe
      else
        R.CaptureReference = File.str().str();
    }
    Expected<RunResult> Res = runUnderInjection(Exe, R);
    if (!Res) {
      P.Problem = toString(Res.takeError());
      return P;
    }
    P.Output += Res->Output;
    if (!Res->Process.succeeded()) {
      P.Problem =
          "the program " + Res->Process.describe() +
          (Sets.size() > 1 ? " on argument set " + std::to_string(S) : "");
      std::string Tail =
          StringRef(Res->Output).rtrim().rsplit('\n').second.str();
      if (Tail.empty())
        Tail = StringRef(Res->Output).rtrim().str();
      if (!Tail.empty())
        P.Problem += ": " + Tail;
      return P;
    }
    if (!Res->InjectionStarted) {
      P.Problem = "the measurement library did not load into the program";
      return P;
    }
    if (!Res->Errors.empty()) {
      P.Problem = "measurement error: " + Res->Errors.front();
      return P;
    }
    for (CaptureRecord C : Res->Captures) {
      C.Launch += int(S) << 20; // keep launches of argument sets apart
      P.Captures.push_back(C);
    }
    for (const ReplayRecord &X : Res->Replays) {
      Samples[X.Kernel].insert(Samples[X.Kernel].end(), X.TimesMs.begin(),
                               X.TimesMs.end());
      P.Timings[X.Kernel].Registers = X.Registers;
      P.Timings[X.Kernel].Occupancy = X.Occupancy;
    }
    addProgramTime(*Res, Program);
  }
  for (auto &[K, V] : Samples) {
    KernelTiming &T = P.Timings[K];
    T.Kernel = K;
    T.Samples = V;
    T.Time = summarize(V);
    T.RunMedians = {T.Time.Median};
    T.Replayed = true;
  }
  for (auto &[K, L] : Program) {
    KernelTiming &T = P.Timings[K];
    T.Kernel = K;
    T.Launches = L.Launches;
    T.RunProgramMs = {L.Ms};
    T.ProgramMs = L.Ms;
    if (!T.Replayed) {
      // Not a target: its own launches describe it.
      T.Time = summarize(L.RecordMs);
      T.RunMedians = {T.Time.Median};
      T.Registers = L.Registers;
    }
  }
  P.Ok = true;
  return P;
}

void removeRunDirectories(const ProgramRun &R) {
  for (const std::string &D : R.RunDirs)
    sys::fs::remove_directories(D);
}

namespace {

/// The element type of an allocation, from the parameters pointing into it.
/// The measurement library names a launch by the kernel's name, which
/// overloads share: their parameters together must agree on the type.
ElementKind kindOf(const CaptureRecord &C, const KernelModel &Model) {
  std::set<ElementKind> Kinds;
  for (const KernelInfo &K : Model.Kernels) {
    if (!isKernelNamed(K, C.Kernel))
      continue;
    for (int A : C.Args)
      if (A >= 0 && size_t(A) < K.Params.size() && K.Params[A].IsPointer) {
        // The spelled type names float4 and friends; typedefs of float
        // (`DATA_TYPE`, `real_t`) are floats by their canonical type.
        const ParamInfo &P = K.Params[A];
        ElementKind Kind = elementKindOf(P.PointeeType);
        if (Kind == ElementKind::Exact && !P.CanonicalPointeeType.empty())
          Kind = elementKindOf(P.CanonicalPointeeType);
        // A kernel template's `T *`: the launch names the kernel, not the
        // instantiation, so every instantiation's type must agree.
        if (Kind == ElementKind::Exact && !P.InstantiatedPointeeTypes.empty()) {
          for (const std::string &T : P.InstantiatedPointeeTypes)
            Kinds.insert(elementKindOf(T));
          continue;
        }
        Kinds.insert(Kind);
      }
  }
  return Kinds.size() == 1 ? *Kinds.begin() : ElementKind::Exact;
}

/// Where the captures of two runs of the same program stop matching
/// launch for launch (kernel, launch, allocation), or nullopt when they all
/// match; both lists must be as long.
std::optional<size_t> firstDifferentLaunch(const ProgramRun &A,
                                           const ProgramRun &B) {
  for (size_t I = 0; I < A.Captures.size(); ++I)
    if (A.Captures[I].Kernel != B.Captures[I].Kernel ||
        A.Captures[I].Launch != B.Captures[I].Launch ||
        A.Captures[I].Allocation != B.Captures[I].Allocation)
      return I;
  return std::nullopt;
}

/// Compares two captures of the same launch and allocation; nullopt when
/// a file cannot be read.
std::optional<CompareResult> compareCaptures(const CaptureRecord &A,
                                             const CaptureRecord &B,
                                             ElementKind Kind,
                                             const Tolerance &Tol,
                                             bool TrustChecksums = true) {
  // Bit-identical by their checksums, the common case (a run given the
  // other as its reference did not even write its file).
  if (TrustChecksums && sameBytes(A, B)) {
    CompareResult Same;
    Same.Equal = true;
    Same.Elements = A.Bytes / (Kind == ElementKind::Float32   ? 4
                               : Kind == ElementKind::Float64 ? 8
                                                              : 1);
    return Same;
  }
  if (A.File.empty() || B.File.empty())
    return std::nullopt;
  auto RA = MemoryBuffer::getFile(A.File), RB = MemoryBuffer::getFile(B.File);
  if (!RA || !RB)
    return std::nullopt;
  return compareBuffers((*RA)->getBuffer(), (*RB)->getBuffer(), Kind, Tol);
}

std::string whereOf(const CaptureRecord &A) {
  return A.Kernel + " launch " + std::to_string(A.Launch & 0xfffff) +
         ", allocation " + std::to_string(A.Allocation);
}

} // namespace

CaptureKey captureKey(const CaptureRecord &C) {
  return {C.Kernel, C.Launch, C.Allocation};
}

OriginalNoiseMap captureNoise(const ProgramRun &Reference,
                              ArrayRef<ProgramRun> Others,
                              const KernelModel &Model) {
  const size_t N = Reference.Captures.size();
  std::vector<double> Noise(N, 0.0);
  // Beyond MaxOriginalNoiseFraction in some run: other data, no allowance
  // (not even one inherited from other launches below).
  std::vector<char> OtherData(N, 0);
  for (const ProgramRun &B : Others) {
    if (B.Captures.size() != N || firstDifferentLaunch(Reference, B))
      continue;
    parallelFor(0, N, [&](size_t I) {
      ElementKind Kind = kindOf(Reference.Captures[I], Model);
      if (Kind == ElementKind::Exact)
        return;
      std::optional<CompareResult> C =
          compareCaptures(Reference.Captures[I], B.Captures[I], Kind,
                          Tolerance::defaultFor(Kind));
      if (!C)
        return;
      if (C->MaxRelError <= MaxOriginalNoiseFraction)
        Noise[I] = std::max(Noise[I], C->MaxRelError);
      else
        OtherData[I] = 1;
    });
  }
  // One pair of runs under-estimates the variation: on the H200, cg's
  // variants differed from the original by up to 3.3x what two of its own
  // runs did in the same capture, and early launches often agree bit for
  // bit by chance while later ones do not. So every launch of a kernel gets
  // the largest variation seen in any of its captured launches on the same
  // parameters (the allocation slot is only the order in which a launch's
  // arguments reach distinct allocations, so it names different buffers
  // when a kernel is called with different aliasing: dot(r, r, sum) and
  // dot(p, q, sum)) and argument set.
  using Parameters = std::tuple<std::string, int, std::vector<int>>;
  auto ParametersOf = [](const CaptureRecord &C) {
    return Parameters{C.Kernel, C.Launch >> 20, C.Args};
  };
  std::map<Parameters, double> Largest;
  for (size_t I = 0; I < N; ++I) {
    double &M = Largest[ParametersOf(Reference.Captures[I])];
    M = std::max(M, Noise[I]);
  }
  OriginalNoiseMap Result;
  for (size_t I = 0; I < N; ++I) {
    double V = Largest[ParametersOf(Reference.Captures[I])];
    if (V > 0 && !OtherData[I])
      Result[captureKey(Reference.Captures[I])] = V;
  }
  return Result;
}

std::string verify(const ProgramRun &Original, const ProgramRun &Variant,
                   const KernelModel &Model, const EvaluateOptions &Opts) {
  if (!Variant.Ok)
    return Variant.Problem;
  if (Original.Captures.size() != Variant.Captures.size())
    return "the variant made " + std::to_string(Variant.Captures.size()) +
           " captures of target launches, the original " +
           std::to_string(Original.Captures.size());
  if (std::optional<size_t> I = firstDifferentLaunch(Original, Variant))
    return "the variant's launches differ from the original's at " +
           whereOf(Original.Captures[*I]);
  // The captures are compared on every core at once: a program can capture
  // gigabytes per run (8 launches x every buffer), and this comparison is
  // the tool's own time between two GPU runs. The first difference in
  // capture order is the one reported, as with one thread; captures after
  // a known difference are not compared.
  const size_t N = Original.Captures.size();
  std::vector<std::string> Problems(N);
  std::atomic<size_t> FirstProblem{N};
  parallelFor(0, N, [&](size_t I) {
    if (I > FirstProblem.load())
      return;
    const CaptureRecord &A = Original.Captures[I];
    ElementKind Kind = kindOf(A, Model);
    Tolerance Tol = Tolerance::defaultFor(Kind);
    std::optional<AtomicSumTolerance> Sum;
    if (Opts.RelTol && Kind != ElementKind::Exact)
      Tol.RelTol = *Opts.RelTol;
    else if ((Sum = atomicSumTolerance(A, Model, Kind, Tol.RelTol)))
      Tol.RelTol = Sum->RelTol;
    auto Known = Opts.OriginalNoise.find(captureKey(A));
    double Noise = Known == Opts.OriginalNoise.end() ? 0.0 : Known->second;
    if (Kind != ElementKind::Exact)
      Tol.AbsFloorScale =
          std::max(Tol.AbsFloorScale, OriginalNoiseFactor * Noise);
    std::optional<CompareResult> C = compareCaptures(
        A, Variant.Captures[I], Kind, Tol, Opts.CaptureChecksums);
    if (!C) {
      Problems[I] = "a capture of " + whereOf(A) + " could not be read";
    } else if (!C->Equal) {
      std::ostringstream Varies;
      Varies.precision(3);
      if (Noise > 0)
        Varies << "; the original itself varies by up to " << Noise
               << " of the largest value between runs";
      if (Sum)
        Varies << "; " << Sum->Why;
      Problems[I] = "output differs from the original's (" + whereOf(A) + ", " +
                    std::to_string(C->Mismatches) + " of " +
                    std::to_string(C->Elements) +
                    " elements; first: " + C->Reason + Varies.str() + ")";
    } else {
      return;
    }
    size_t Seen = FirstProblem.load();
    while (I < Seen && !FirstProblem.compare_exchange_weak(Seen, I))
      ;
  });
  for (const std::string &P : Problems)
    if (!P.empty())
      return P;
  if (!Opts.CheckCommand.empty()) {
    ProcessOptions P;
    P.TimeoutSeconds = Opts.Run.TimeoutSeconds;
    ProcessResult R = runProcess(Opts.CheckCommand, P);
    if (!R.succeeded())
      return "the --check command failed: " + R.describe();
  }
  return "";
}

bool fasterAcrossRuns(const KernelTiming &A, const KernelTiming &B) {
  if (A.RunMedians.empty() || B.RunMedians.empty())
    return false;
  return *std::max_element(A.RunMedians.begin(), A.RunMedians.end()) <
         *std::min_element(B.RunMedians.begin(), B.RunMedians.end());
}

namespace {

/// Adds a later run's times to the first run's.
void merge(ProgramRun &Into, const ProgramRun &Run) {
  for (const auto &[K, T] : Run.Timings) {
    KernelTiming &M = Into.Timings[K];
    M.Kernel = K;
    M.Samples.insert(M.Samples.end(), T.Samples.begin(), T.Samples.end());
    M.RunMedians.push_back(T.Time.Median);
    // A kernel some run did not launch at all counts 0 ms there.
    M.RunProgramMs.resize(Into.RunCount, 0.0);
    M.RunProgramMs.push_back(T.ProgramMs);
    M.Replayed |= T.Replayed;
    M.Launches = std::max(M.Launches, T.Launches);
  }
  ++Into.RunCount;
  for (auto &[K, M] : Into.Timings)
    M.RunProgramMs.resize(Into.RunCount, 0.0);
}

void finish(ProgramRun &P) {
  for (auto &[K, T] : P.Timings) {
    if (T.Replayed)
      T.Time = summarize(T.Samples);
    T.Time.Median = summarize(T.RunMedians).Median;
    T.ProgramMs = summarize(T.RunProgramMs).Median;
  }
}

} // namespace

std::vector<std::string> widenedTolerances(const ProgramRun &Original,
                                           const KernelModel &Model,
                                           const EvaluateOptions &Opts) {
  std::vector<std::string> Notes;
  if (Opts.RelTol)
    return Notes;
  for (const CaptureRecord &C : Original.Captures) {
    ElementKind Kind = kindOf(C, Model);
    std::optional<AtomicSumTolerance> Sum =
        atomicSumTolerance(C, Model, Kind, Tolerance::defaultFor(Kind).RelTol);
    if (Sum && !llvm::is_contained(Notes, Sum->Why))
      Notes.push_back(Sum->Why);
  }
  return Notes;
}

Evaluation evaluate(const std::string &OriginalExe,
                    const std::string &VariantExe, const KernelModel &Model,
                    const EvaluateOptions &Opts) {
  Evaluation E;
  E.Original = runProgram(OriginalExe, Opts, "original");
  if (!E.Original.Ok) {
    E.Rejection = "the original program does not run cleanly, so nothing "
                  "can be verified: " +
                  E.Original.Problem;
    return E;
  }
  // The original's own run-to-run differences (float atomics), where the
  // caller did not measure them: a variant may differ as much.
  EvaluateOptions Checked = Opts;
  if (Checked.OriginalNoise.empty() && Opts.NoiseRuns) {
    std::vector<ProgramRun> Others;
    for (unsigned I = 0; I < Opts.NoiseRuns; ++I) {
      Others.push_back(runProgram(OriginalExe, Opts,
                                  "original.n" + std::to_string(I), true,
                                  &E.Original));
      if (!Others.back().Ok) {
        E.Rejection = "the original program does not run cleanly every "
                      "time, so nothing can be verified: " +
                      Others.back().Problem;
        for (ProgramRun &R : Others)
          removeRunDirectories(R);
        removeRunDirectories(E.Original);
        return E;
      }
    }
    Checked.OriginalNoise = captureNoise(E.Original, Others, Model);
    for (ProgramRun &R : Others)
      removeRunDirectories(R);
  }
  E.Variant = runProgram(VariantExe, Opts, "variant", true, &E.Original);
  E.Rejection = verify(E.Original, E.Variant, Model, Checked);
  E.Verified = E.Rejection.empty();
  // As in the search: the captures were only needed for the comparison, and
  // the timing runs below should not share the disk with gigabytes of them.
  removeRunDirectories(E.Original);
  removeRunDirectories(E.Variant);
  // More runs for timing only, interleaved so that drift hits both alike.
  for (unsigned R = 1; E.Verified && R < Opts.Runs; ++R) {
    ProgramRun O = runProgram(OriginalExe, Opts, "original.t", false);
    ProgramRun V = runProgram(VariantExe, Opts, "variant.t", false);
    if (!O.Ok || !V.Ok) {
      E.Verified = false;
      E.Rejection = "a timing run failed: " + (O.Ok ? V.Problem : O.Problem);
      break;
    }
    merge(E.Original, O);
    merge(E.Variant, V);
    removeRunDirectories(O);
    removeRunDirectories(V);
  }
  finish(E.Original);
  finish(E.Variant);
  return E;
}

std::optional<double> objectiveMs(const ProgramRun &R) {
  std::vector<double> Runs = runObjectivesMs(R);
  if (Runs.empty())
    return std::nullopt;
  double M = summarize(Runs).Median;
  if (M <= 0)
    return std::nullopt;
  return M;
}

std::vector<double> runObjectivesMs(const ProgramRun &R) {
  std::vector<double> Out;
  for (const auto &[K, T] : R.Timings) {
    if (R.Goal == Objective::PerLaunch && !T.Replayed)
      continue;
    const std::vector<double> &V =
        R.Goal == Objective::ProgramTime ? T.RunProgramMs : T.RunMedians;
    if (Out.size() < V.size())
      Out.resize(V.size(), 0.0);
    for (size_t I = 0; I < V.size(); ++I)
      Out[I] += V[I];
  }
  return Out;
}

double totalSpreadMs(const ProgramRun &R) {
  std::vector<double> Runs = runObjectivesMs(R);
  if (R.Goal == Objective::ProgramTime && Runs.size() > 1) {
    Summary S = summarize(Runs);
    return S.P75 - S.P25;
  }
  // One run: the spread of its replays is what it knows of its noise.
  double S = 0;
  for (const auto &[K, T] : R.Timings)
    if (T.Replayed)
      S += T.Time.P75 - T.Time.P25;
  return S;
}

void kernelResources(const ProgramRun &R, std::optional<double> &Registers,
                     std::optional<double> &Occupancy) {
  for (const auto &[K, T] : R.Timings) {
    Registers = std::max(Registers.value_or(0), double(T.Registers));
    if (T.Occupancy >= 0)
      Occupancy = std::min(Occupancy.value_or(1e9), T.Occupancy);
  }
}

} // namespace cro
