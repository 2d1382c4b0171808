// Output comparison, statistics, and the injection library's record format.
#include "cro/Measure/Compare.h"
#include "cro/Measure/Evaluate.h"
#include "cro/Measure/Profiler.h"
#include "cro/Measure/Runner.h"
#include "cro/Measure/Statistics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace cro;

namespace {

template <typename T> std::string bytes(const std::vector<T> &V) {
  return std::string(reinterpret_cast<const char *>(V.data()),
                     V.size() * sizeof(T));
}

CompareResult cmpF(const std::vector<float> &A, const std::vector<float> &B) {
  return compareBuffers(bytes(A), bytes(B), ElementKind::Float32,
                        Tolerance::defaultFor(ElementKind::Float32));
}

TEST(Compare, ElementKinds) {
  EXPECT_EQ(elementKindOf("const float"), ElementKind::Float32);
  EXPECT_EQ(elementKindOf("float4"), ElementKind::Float32);
  EXPECT_EQ(elementKindOf("double"), ElementKind::Float64);
  EXPECT_EQ(elementKindOf("unsigned int"), ElementKind::Exact);
  EXPECT_EQ(elementKindOf("T"), ElementKind::Exact);
  EXPECT_EQ(elementKindOf("__half"), ElementKind::Exact);
}

TEST(Compare, ReorderedSumsPassWrongValuesFail) {
  std::vector<float> Ref = {1.0f, 2.0f, 3.0f, 1000.0f};
  std::vector<float> Reordered = Ref;
  Reordered[3] = std::nextafter(1000.0f, 2000.0f); // one ulp
  EXPECT_TRUE(cmpF(Ref, Reordered).Equal);
  std::vector<float> Wrong = Ref;
  Wrong[1] = 2.01f;
  CompareResult R = cmpF(Ref, Wrong);
  EXPECT_FALSE(R.Equal);
  EXPECT_EQ(R.FirstMismatch, 1u);
  EXPECT_EQ(R.Mismatches, 1u);
}

TEST(Compare, TheAbsoluteFloorScalesWithTheData) {
  // The floor is 1e-6 * max|ref|: an error of 5e-3 on a zero passes next
  // to a 1e4 (floor 1e-2), but the same error fails when the data is all
  // around 1 (floor 1e-6). Never a fixed absolute tolerance.
  EXPECT_TRUE(cmpF({1e4f, 0.0f}, {1e4f, 5e-3f}).Equal);
  EXPECT_FALSE(cmpF({1.0f, 0.0f}, {1.0f, 5e-3f}).Equal);
}

TEST(Compare, NaNsAndSizes) {
  float NaN = std::numeric_limits<float>::quiet_NaN();
  CompareResult R = cmpF({1.0f, 2.0f}, {1.0f, NaN});
  EXPECT_FALSE(R.Equal);
  EXPECT_NE(R.Reason.find("NaN where the original has none"),
            std::string::npos);
  EXPECT_TRUE(cmpF({1.0f, NaN}, {1.0f, NaN}).Equal);
  EXPECT_FALSE(compareBuffers("abcd", "abc", ElementKind::Exact, {0, 0}).Equal);
  CompareResult Ints = compareBuffers(bytes(std::vector<int>{1, 2, 3}),
                                      bytes(std::vector<int>{1, 2, 4}),
                                      ElementKind::Exact, {0, 0});
  EXPECT_FALSE(Ints.Equal);
}

TEST(Compare, IdenticalBuffersTakeTheFastPathWithTheSameVerdict) {
  // Bitwise-identical outputs (the common case) are settled by memcmp; the
  // verdict and the element count are those of the element loop.
  float NaN = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> A = {1.0f, NaN, -0.0f, 3.0f};
  CompareResult R = cmpF(A, A);
  EXPECT_TRUE(R.Equal);
  EXPECT_EQ(R.Elements, 4u);
  EXPECT_EQ(R.Mismatches, 0u);
  // -0 against +0 differs in its bytes but not in value: the slow path.
  std::vector<float> B = A;
  B[2] = 0.0f;
  EXPECT_TRUE(cmpF(A, B).Equal);
  EXPECT_TRUE(compareBuffers("", "", ElementKind::Exact, {0, 0}).Equal);
}

/// Captures written to a temporary directory (removed at the end), and a
/// model with one kernel whose only parameter is a float array.
class FloatCaptures {
public:
  /// Kernel's first Floats parameters are float pointers, then an int one.
  explicit FloatCaptures(const std::string &Kernel, int Floats = 1) {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("cro-verify", Dir));
    KernelInfo K;
    K.Name = Kernel;
    ParamInfo Out;
    Out.IsPointer = true;
    Out.PointeeType = "float";
    for (int I = 0; I < Floats; ++I)
      K.Params.push_back(Out);
    Out.PointeeType = "int";
    K.Params.push_back(Out);
    Model.Kernels.push_back(K);
  }
  ~FloatCaptures() { llvm::sys::fs::remove_directories(Dir); }
  /// The file holding V, named Name.
  std::string write(const std::string &Name, const std::vector<float> &V) {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << bytes(V);
    return P.str().str();
  }
  KernelModel Model;

private:
  llvm::SmallString<128> Dir;
};

TEST(Verify, ComparesEveryCaptureAndReportsTheFirstDifferenceInOrder) {
  // The captures are compared in parallel; the verdict and the reason must
  // be those of comparing them one after the other.
  FloatCaptures F("k");
  auto Write = [&](const std::string &N, const std::vector<float> &V) {
    return F.write(N, V);
  };
  const KernelModel &Model = F.Model;
  std::vector<float> Data(100000, 1.5f), Off = Data;
  Off[77] = 2.0f;
  ProgramRun Original, Good, Bad;
  Original.Ok = Good.Ok = Bad.Ok = true;
  for (int L = 0; L < 24; ++L) {
    CaptureRecord C{"k", L, 0, {0}, Data.size() * 4, ""};
    C.File = Write("o" + std::to_string(L), Data);
    Original.Captures.push_back(C);
    C.File = Write("g" + std::to_string(L), Data);
    Good.Captures.push_back(C);
    // Launches 9 and 17 differ: 9 is the one to report.
    C.File = Write("b" + std::to_string(L), L == 9 || L == 17 ? Off : Data);
    Bad.Captures.push_back(C);
  }
  EvaluateOptions Opts;
  EXPECT_EQ(verify(Original, Good, Model, Opts), "");
  std::string Why = verify(Original, Bad, Model, Opts);
  EXPECT_NE(Why.find("k launch 9, allocation 0"), std::string::npos) << Why;
  EXPECT_NE(Why.find("1 of 100000 elements; first: element 77"),
            std::string::npos)
      << Why;
  // A launch missing from the variant is a difference in the launches.
  Bad.Captures[3].Launch = 40;
  EXPECT_NE(verify(Original, Bad, Model, Opts).find("launches differ"),
            std::string::npos);
}

/// Verifies a one-launch capture of 1,000 floats against one whose element
/// 5 is one ulp off (a reordered sum's last bit): "" when F's model has it
/// compared as floats, the reason otherwise.
static std::string verifyOneUlpOff(FloatCaptures &F) {
  std::vector<float> Data(1000, 3.0f), Near = Data;
  Near[5] = std::nextafter(3.0f, 4.0f);
  ProgramRun Original, Variant;
  Original.Ok = Variant.Ok = true;
  CaptureRecord C{"k", 0, 0, {0}, Data.size() * 4, ""};
  C.File = F.write("o", Data);
  Original.Captures.push_back(C);
  C.File = F.write("v", Near);
  Variant.Captures.push_back(C);
  return verify(Original, Variant, F.Model, EvaluateOptions());
}

TEST(Verify, ATypedefOfFloatIsComparedAsFloats) {
  // `typedef float DATA_TYPE;`: the spelled pointee is DATA_TYPE, the
  // canonical one float. A reordered sum (last bits differ) is within the
  // float tolerance; compared as bytes it would be rejected.
  FloatCaptures F("k");
  F.Model.Kernels[0].Params[0].PointeeType = "DATA_TYPE";
  F.Model.Kernels[0].Params[0].CanonicalPointeeType = "float";
  EXPECT_EQ(verifyOneUlpOff(F), "");
  // Without the canonical type it is compared exactly.
  F.Model.Kernels[0].Params[0].CanonicalPointeeType.clear();
  EXPECT_NE(verifyOneUlpOff(F), "");
}

TEST(Verify, AKernelTemplatesOutputsAreComparedAsItsInstantiationsType) {
  // `template <typename T> __global__ void k(T *out)` launched as k<float>:
  // the pattern's pointee is the template parameter, the instantiations
  // say float. When instantiations disagree (float and double) the capture
  // cannot tell which ran, and it is compared bit for bit.
  FloatCaptures F("k");
  ParamInfo &P = F.Model.Kernels[0].Params[0];
  P.PointeeType = "T";
  P.CanonicalPointeeType = "type-parameter-0-0";
  P.InstantiatedPointeeTypes = {"float"};
  EXPECT_EQ(verifyOneUlpOff(F), "");
  P.InstantiatedPointeeTypes = {"float", "float4"};
  EXPECT_EQ(verifyOneUlpOff(F), "");
  P.InstantiatedPointeeTypes = {"float", "double"};
  EXPECT_NE(verifyOneUlpOff(F), "");
  P.InstantiatedPointeeTypes.clear();
  EXPECT_NE(verifyOneUlpOff(F), "");
}

TEST(Verify, ARunKeepsItsDirectoriesSoTheSearchCanDeleteThem) {
  // Every run of a program gets a working directory (its captures go
  // there); the run says which, so the search can delete them once compared.
  llvm::SmallString<128> Dir, Lib;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cro-rundirs", Dir));
  Lib = Dir;
  llvm::sys::path::append(Lib, "libfake.so");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Lib, EC);
  }
  EvaluateOptions Opts;
  Opts.WorkDir = Dir.str().str();
  Opts.Run.InjectionLibrary = Lib.str().str();
  ProgramRun R = runProgram("/bin/true", Opts, "variant.0", true);
  // /bin/true does not load the measurement library: a problem, not a crash.
  EXPECT_FALSE(R.Ok);
  ASSERT_EQ(R.RunDirs.size(), 1u);
  EXPECT_TRUE(llvm::sys::fs::is_directory(R.RunDirs[0]));
  removeRunDirectories(R);
  EXPECT_FALSE(llvm::sys::fs::exists(R.RunDirs[0]));
  llvm::sys::fs::remove_directories(Dir);
}

TEST(Verify, ANonDeterministicOriginalSetsTheFloor) {
  // Runs of the original differ by up to 0.0005 on one element of data
  // whose largest value is 1 (float atomics): a variant off by 0.0008
  // there passes (within twice that), one off by 0.005 does not, and the
  // reason says how much the original varies.
  FloatCaptures F("dot");
  auto Write = [&](const std::string &N, const std::vector<float> &V) {
    return F.write(N, V);
  };
  const KernelModel &Model = F.Model;
  std::vector<float> Ref(1000, 1.0f);
  auto Off = [&](float D) {
    std::vector<float> V = Ref;
    V[5] += D;
    return V;
  };
  auto Run = [&](const std::string &Name, const std::vector<float> &V) {
    ProgramRun R;
    R.Ok = true;
    R.Captures.push_back({"dot", 0, 0, {0}, V.size() * 4, Write(Name, V)});
    return R;
  };
  const CaptureKey Key{"dot", 0, 0};
  ProgramRun O1 = Run("o1", Ref);
  // Of several runs, the largest difference counts, whichever comes first.
  std::vector<ProgramRun> Others;
  Others.push_back(Run("o2", Off(0.0005f)));
  Others.push_back(Run("o3", Off(0.0002f)));
  OriginalNoiseMap Noise = captureNoise(O1, Others, Model);
  ASSERT_EQ(Noise.size(), 1u);
  EXPECT_NEAR(Noise[Key], 0.0005, 1e-6);
  EXPECT_TRUE(captureNoise(O1, {O1}, Model).empty());
  // Different data, not rounding (inputs drawn anew each run): no allowance,
  // or every variant would pass -- not even from another run that differs
  // by rounding only.
  EXPECT_TRUE(captureNoise(O1, {Run("o4", Off(0.5f))}, Model).empty());
  std::vector<ProgramRun> Mixed;
  Mixed.push_back(Run("o5", Off(0.0005f)));
  Mixed.push_back(Run("o6", Off(0.5f)));
  EXPECT_TRUE(captureNoise(O1, Mixed, Model).empty());
  EvaluateOptions Opts;
  // Without the calibration, the default tolerance rejects both.
  EXPECT_NE(verify(O1, Run("v1", Off(0.0008f)), Model, Opts), "");
  Opts.OriginalNoise = Noise;
  EXPECT_EQ(verify(O1, Run("v2", Off(0.0008f)), Model, Opts), "");
  std::string Why = verify(O1, Run("v3", Off(0.005f)), Model, Opts);
  EXPECT_NE(Why.find("the original itself varies by up to 0.0005 of the "
                     "largest value"),
            std::string::npos)
      << Why;
  // The allowance belongs to its capture, not to a position: in a run
  // whose first capture is another launch, the same difference fails.
  ProgramRun Other = Run("o7", Ref), V4 = Run("v4", Off(0.0008f));
  Other.Captures[0].Launch = V4.Captures[0].Launch = 1;
  Why = verify(Other, V4, Model, Opts);
  EXPECT_NE(Why.find("outside the tolerance"), std::string::npos) << Why;
  EXPECT_EQ(Why.find("varies"), std::string::npos) << Why;
}

TEST(Verify, OriginalNoiseCoversEveryLaunchOnTheSameParameters) {
  // sum(a, b, out), float parameters 0-2. Launch 0 of the original happened
  // to agree bit for bit between runs, launch 1 did not: both launches get
  // launch 1's variation on the same parameter, relative to their own data
  // (launch 0's values are ten times smaller). The allocation slot is not
  // the buffer: launch 0 is sum(x, x, s) (slot 1 = parameter 2), launch 1
  // sum(y, z, s) (slot 1 = parameter 1, slot 2 = parameter 2), and only
  // parameter 2 varies. A run with other launches, or another argument
  // set, tells nothing.
  FloatCaptures F("sum", 3);
  const KernelModel &Model = F.Model;
  auto Capture = [&](const std::string &Name, int Launch, int Allocation,
                     std::vector<int> Args, float Scale, float Delta) {
    std::vector<float> V(100, Scale);
    V[7] += Delta;
    return CaptureRecord{"sum", Launch,       Allocation,
                         Args,  V.size() * 4, F.write(Name, V)};
  };
  auto Launches = [&](const std::string &Tag, float Delta) {
    ProgramRun R;
    R.Ok = true;
    R.Captures = {Capture(Tag + "00", 0, 0, {0, 1}, 1, 0),
                  Capture(Tag + "01", 0, 1, {2}, 0.1f, 0),
                  Capture(Tag + "10", 1, 0, {0}, 1, 0),
                  Capture(Tag + "11", 1, 1, {1}, 1, 0),
                  Capture(Tag + "12", 1, 2, {2}, 1, Delta)};
    return R;
  };
  ProgramRun A = Launches("a", 0), B = Launches("b", 0.001f);
  OriginalNoiseMap Noise = captureNoise(A, {B}, Model);
  ASSERT_EQ(Noise.size(), 2u);
  EXPECT_NEAR((Noise[{"sum", 0, 1}]), 0.001, 1e-6);
  EXPECT_NEAR((Noise[{"sum", 1, 2}]), 0.001, 1e-6);
  // A variant off by 0.0015 of the data at launch 0's sum passes; off by
  // 0.003 there, or off at all on the other parameters, it does not.
  EvaluateOptions Opts;
  Opts.OriginalNoise = Noise;
  ProgramRun V = A;
  V.Captures[1] = Capture("v01", 0, 1, {2}, 0.1f, 0.00015f);
  EXPECT_EQ(verify(A, V, Model, Opts), "");
  V.Captures[1] = Capture("v01b", 0, 1, {2}, 0.1f, 0.0003f);
  EXPECT_NE(verify(A, V, Model, Opts), "");
  V = A;
  V.Captures[3] = Capture("v11", 1, 1, {1}, 1, 0.0005f);
  EXPECT_NE(verify(A, V, Model, Opts), "");
  // Other launches (one fewer capture, or the same count in another
  // order) are skipped; a run that matches still counts.
  ProgramRun Fewer = B;
  Fewer.Captures.pop_back();
  ProgramRun Swapped = B;
  std::swap(Swapped.Captures[3], Swapped.Captures[4]);
  EXPECT_TRUE(captureNoise(A, {Fewer}, Model).empty());
  EXPECT_TRUE(captureNoise(A, {Swapped}, Model).empty());
  std::vector<ProgramRun> Some;
  Some.push_back(Swapped);
  Some.push_back(B);
  EXPECT_EQ(captureNoise(A, Some, Model).size(), 2u);
  // Launches of another argument set (bits above 20) keep their own.
  ProgramRun A2 = A, B2 = B;
  for (ProgramRun *R : {&A2, &B2})
    R->Captures[1].Launch |= 1 << 20;
  OriginalNoiseMap Sets = captureNoise(A2, {B2}, Model);
  EXPECT_EQ(Sets.size(), 1u);
  EXPECT_EQ(Sets.count({"sum", 1, 2}), 1u);
}

TEST(Verify, LaunchWideFloatAtomicSumsGetSqrtTermsTolerance) {
  // dot(a, b, result): parameter 2 is updated by atomicAdd(result, a[i] *
  // b[i]) in every thread. 16 Mi threads: a reordered sum may differ by
  // sqrt(2^24) * 2^-24 = 2^-12 (2.44e-4) of the value; the default 1e-4
  // would reject 1.5e-4 (dot_atomic on the H100: 419655.6 vs 419718.6).
  FloatCaptures F("dot", 3);
  KernelModel &Model = F.Model;
  KernelInfo &K = Model.Kernels[0];
  K.Params[2].Name = "result";
  K.Params[2].Atomic = true;
  AtomicUpdateInfo U;
  U.Function = "atomicAdd";
  U.ValueType = "float";
  U.TargetParam = "result";
  U.UniformTargetWhy = "";
  U.LaunchUniformTargetWhy = "";
  K.Atomics.push_back(U);
  auto Run = [&](const std::string &Name, float V, uint64_t Threads) {
    ProgramRun R;
    R.Ok = true;
    CaptureRecord C{"dot", 0, 0, {2}, 4, F.write(Name, {V})};
    C.Threads = Threads;
    R.Captures.push_back(C);
    return R;
  };
  EvaluateOptions Opts;
  ProgramRun O = Run("o", 419655.562f, 1u << 24);
  EXPECT_EQ(verify(O, Run("v", 419718.562f, 1u << 24), Model, Opts), "");
  std::vector<std::string> Notes = widenedTolerances(O, Model, Opts);
  ASSERT_EQ(Notes.size(), 1u);
  EXPECT_NE(Notes[0].find("16777216 float atomicAdd terms"), std::string::npos)
      << Notes[0];
  // 3e-4 is beyond sqrt(T) units in the last place: rejected, and the
  // reason names the tolerance it was held to.
  std::string Why = verify(O, Run("w", 419781.5f, 1u << 24), Model, Opts);
  EXPECT_NE(Why.find("sqrt(terms)"), std::string::npos) << Why;
  // A launch of 1 Mi threads: sqrt(T) u = 6.1e-5 is below the default,
  // which holds.
  ProgramRun Small = Run("s", 419655.562f, 1u << 20);
  EXPECT_NE(verify(Small, Run("sv", 419718.562f, 1u << 20), Model, Opts), "");
  EXPECT_TRUE(widenedTolerances(Small, Model, Opts).empty());
  // Threads unknown (an older measurement library): the default.
  EXPECT_NE(
      verify(Run("u", 419655.562f, 0), Run("uv", 419718.562f, 0), Model, Opts),
      "");
  // The user's --rtol is used as given.
  EvaluateOptions Strict;
  Strict.RelTol = 1e-4;
  EXPECT_NE(verify(O, Run("r", 419718.562f, 1u << 24), Model, Strict), "");
  EXPECT_TRUE(widenedTolerances(O, Model, Strict).empty());
  // Per-block sums (&out[blockIdx.x]) or a scatter: each element sums far
  // fewer terms than the launch has threads; an integer sum is exact; an
  // atomicMax is not a sum. Each keeps the default.
  for (int Case = 0; Case < 3; ++Case) {
    KernelModel M = Model;
    AtomicUpdateInfo &A = M.Kernels[0].Atomics[0];
    if (Case == 0)
      A.LaunchUniformTargetWhy = "it depends on blockIdx.x";
    else if (Case == 1)
      A.ValueType = "unsigned int";
    else
      A.Function = "atomicMax";
    EXPECT_NE(verify(O, Run("c" + std::to_string(Case), 419718.562f, 1u << 24),
                     M, Opts),
              "")
        << Case;
  }
  // After a block's tree, one thread of each 256-thread block adds
  // (`if (threadIdx.x == 0)`): 65536 terms, sqrt(T) u = 1.5e-5, below the
  // default, which holds. With the block's extents unknown (an older
  // library) every thread counts.
  {
    KernelModel PerBlock = Model;
    PerBlock.Kernels[0].Atomics[0].FixedThreadDims = {"x"};
    ProgramRun B = Run("b", 419655.562f, 1u << 24);
    B.Captures[0].Block[0] = 256, B.Captures[0].Block[1] = 1,
    B.Captures[0].Block[2] = 1;
    EXPECT_NE(verify(B, Run("bv", 419718.562f, 1u << 24), PerBlock, Opts), "");
    EXPECT_TRUE(widenedTolerances(B, PerBlock, Opts).empty());
    EXPECT_EQ(verify(O, Run("bu", 419718.562f, 1u << 24), PerBlock, Opts), "");
    // 2^26 threads in blocks of 4 along x: 2^24 terms, and the note names
    // the terms, not the threads.
    ProgramRun Big = Run("g", 419655.562f, 1u << 26);
    Big.Captures[0].Block[0] = 4, Big.Captures[0].Block[1] = 1,
    Big.Captures[0].Block[2] = 1;
    std::vector<std::string> BigNotes = widenedTolerances(Big, PerBlock, Opts);
    ASSERT_EQ(BigNotes.size(), 1u);
    EXPECT_NE(BigNotes[0].find("up to 16777216 float atomicAdd terms"),
              std::string::npos)
        << BigNotes[0];
  }
  // Another atomic through the same parameter that is not launch-wide
  // takes the allowance away from the buffer.
  KernelModel Mixed = Model;
  AtomicUpdateInfo Scatter = U;
  Scatter.LaunchUniformTargetWhy = "it depends on threadIdx.x";
  Mixed.Kernels[0].Atomics.push_back(Scatter);
  EXPECT_NE(verify(O, Run("m", 419718.562f, 1u << 24), Mixed, Opts), "");
}

TEST(Statistics, MedianSpreadAndNoise) {
  Summary S = summarize({5, 1, 3, 2, 4});
  EXPECT_EQ(S.Median, 3);
  EXPECT_EQ(S.Min, 1);
  EXPECT_EQ(S.Max, 5);
  EXPECT_EQ(S.P25, 2);
  EXPECT_EQ(S.P75, 4);
  std::vector<double> A, B, C;
  for (int I = 0; I < 30; ++I) {
    A.push_back(1.00 + 0.001 * (I % 5));
    B.push_back(1.20 + 0.001 * (I % 7));
    C.push_back(1.001 + 0.001 * (I % 4));
  }
  EXPECT_TRUE(fasterBeyondNoise(A, B));
  EXPECT_FALSE(fasterBeyondNoise(B, A));
  EXPECT_FALSE(fasterBeyondNoise(A, C));     // within the noise
  EXPECT_FALSE(fasterBeyondNoise({1}, {2})); // too few samples to say
}

TEST(Runner, ParsesInjectionRecords) {
  RunResult R;
  parseInjectionOutput(
      "{\"event\":\"start\",\"version\":1}\n"
      "{\"event\":\"replay\",\"kernel\":\"saxpy\",\"launch\":0,\"grid\":[4,1,1]"
      ","
      "\"block\":[256,1,1],\"dynamic_smem\":0,\"registers\":16,"
      "\"flush_l2\":false,\"times_ms\":[0.5,0.25]}\n"
      "{\"event\":\"capture\",\"kernel\":\"saxpy\",\"launch\":0,"
      "\"allocation\":1,\"args\":[3],\"bytes\":1024,\"file\":\"/t/x.bin\"}\n"
      "{\"event\":\"kernel\",\"kernel\":\"saxpy\",\"start_ns\":100,"
      "\"end_ns\":600,\"grid\":[4,1,1],\"block\":[256,1,1],\"registers\":16}\n"
      "{\"event\":\"error\",\"message\":\"boom\"}\n"
      "not json\n",
      R);
  EXPECT_TRUE(R.InjectionStarted);
  ASSERT_EQ(R.Replays.size(), 1u);
  EXPECT_EQ(R.Replays[0].TimesMs, (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(R.Replays[0].Block[0], 256u);
  ASSERT_EQ(R.Captures.size(), 1u);
  EXPECT_EQ(R.Captures[0].Args, std::vector<int>{3});
  EXPECT_EQ(R.Captures[0].File, "/t/x.bin");
  ASSERT_EQ(R.Kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(R.Kernels[0].ms(), 0.0005);
  ASSERT_EQ(R.Errors.size(), 2u);
  EXPECT_EQ(R.Errors[0], "boom");
}

TEST(Profiler, ParsesNcuRawCsv) {
  const char *Csv =
      "==PROF== Connected to process 1234\n"
      "PASSED\n"
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Block Size\","
      "\"dram__throughput.avg.pct_of_peak_sustained_elapsed\","
      "\"gpu__time_duration.sum\","
      "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\"\n"
      "\"\",\"\",\"\",\"\",\"%\",\"nsecond\",\"%\"\n"
      "\"0\",\"1234\",\"void ns::scale<256>(float *, const float *)\","
      "\"(256, 1, 1)\",\"91.52\",\"264,160\",\"18.3\"\n"
      "\"1\",\"1234\",\"void ns::scale<256>(float *, const float *)\","
      "\"(256, 1, 1)\",\"10\",\"1\",\"1\"\n";
  KernelMetrics M = parseNcuCsv(Csv);
  ASSERT_EQ(M.size(), 1u);
  ASSERT_TRUE(M.count("ns::scale"));
  EXPECT_DOUBLE_EQ(
      M["ns::scale"]["dram__throughput.avg.pct_of_peak_sustained_elapsed"],
      91.52);
  EXPECT_DOUBLE_EQ(M["ns::scale"]["gpu__time_duration.sum"], 264160);
  EXPECT_DOUBLE_EQ(
      M["ns::scale"]["sm__throughput.avg.pct_of_peak_sustained_elapsed"], 18.3);
}

} // namespace

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace {

TEST(Runner, BuildsTheInjectionLibraryFromItsEmbeddedSource) {
  if (!llvm::sys::fs::exists("/usr/local/cuda/include/cupti.h"))
    GTEST_SKIP() << "no CUDA toolkit with CUPTI at /usr/local/cuda";
  llvm::SmallString<128> Cache;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cro-inject-cache", Cache));
  llvm::Expected<std::string> Lib =
      buildInjectionLibrary("/usr/local/cuda", Cache);
  ASSERT_TRUE(bool(Lib)) << llvm::toString(Lib.takeError());
  auto Buf = llvm::MemoryBuffer::getFile(*Lib);
  ASSERT_TRUE(bool(Buf));
  llvm::StringRef Bytes = (*Buf)->getBuffer();
  EXPECT_TRUE(Bytes.starts_with("\x7f"
                                "ELF"));
  EXPECT_NE(Bytes.find("InitializeInjection"), llvm::StringRef::npos);
  // The second time it comes from the cache.
  llvm::Expected<std::string> Again =
      buildInjectionLibrary("/usr/local/cuda", Cache);
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(*Again, *Lib);
  llvm::sys::fs::remove_directories(Cache);
}

} // namespace
