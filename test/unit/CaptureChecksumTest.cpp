// Checksums of captured outputs (issue 18): the measurement library's XXH64
// is the standard one (checked against LLVM's), a run given the original's
// captures as its reference gets them in the form the library reads, per
// argument set, and verification takes equal checksums as equal outputs
// without any file -- but never a capture it has neither bytes nor an equal
// checksum for. The "programs" are shell scripts that write the records the
// library would, so runProgram runs for real without a GPU.
#include "../../lib/Measure/injection/CaptureChecksum.h"
#include "ScriptedRuns.h"
#include "cro/Measure/Evaluate.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "gtest/gtest.h"
#include <random>
#include <string>
#include <vector>

using namespace cro;

namespace {

std::string hexOf(const std::string &Bytes) {
  char Sum[17];
  cro_checksum::toHex(cro_checksum::xxh64(Bytes.data(), Bytes.size()), Sum);
  return Sum;
}

TEST(CaptureChecksum, IsXXH64AtEverySizeAndAlignment) {
  std::mt19937_64 Rng(7);
  std::vector<unsigned char> Data(1 << 20);
  for (unsigned char &B : Data)
    B = static_cast<unsigned char>(Rng());
  // Every tail length of the 32-byte stripes, the 8- and 4-byte steps and
  // the single bytes, at every offset within a word.
  for (size_t Offset = 0; Offset < 8; ++Offset)
    for (size_t Size = 0; Size <= 100; ++Size) {
      llvm::ArrayRef<uint8_t> Slice(Data.data() + Offset, Size);
      EXPECT_EQ(cro_checksum::xxh64(Slice.data(), Size), llvm::xxHash64(Slice))
          << "offset " << Offset << ", size " << Size;
    }
  llvm::ArrayRef<uint8_t> All(Data.data(), Data.size());
  EXPECT_EQ(cro_checksum::xxh64(All.data(), All.size()), llvm::xxHash64(All));
  EXPECT_EQ(cro_checksum::xxh64("abc", 3),
            llvm::xxHash64(llvm::StringRef("abc")));
}

TEST(CaptureChecksum, PrintsSixteenHexDigits) {
  char Sum[17];
  cro_checksum::toHex(0x0123456789abcdefULL, Sum);
  EXPECT_STREQ(Sum, "0123456789abcdef");
  cro_checksum::toHex(0, Sum);
  EXPECT_STREQ(Sum, "0000000000000000");
}

class ReferenceRuns : public ScriptedRuns {
protected:
  void SetUp() override {
    ScriptedRuns::SetUp();
    Opts.Run.TargetKernels = {"k"};
  }

  std::string write(const std::string &Name, const std::string &Text) {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << Text;
    return P.str().str();
  }

  /// The library's capture record of launch 0, allocation 0 of "k".
  static std::string captureLine(const std::string &Bytes,
                                 const std::string &File) {
    return "{\"event\":\"capture\",\"kernel\":\"k\",\"launch\":0,"
           "\"allocation\":0,\"args\":[0],\"bytes\":" +
           std::to_string(Bytes.size()) + ",\"checksum\":\"" + hexOf(Bytes) +
           "\",\"file\":\"" + File + "\"}\n";
  }

  /// A program that keeps the reference it was given (reference.seen, in
  /// its run directory) and reports Records.
  std::string program(const std::string &Name, const std::string &Records) {
    std::string Data =
        write(Name + ".jsonl", "{\"event\":\"start\",\"version\":1}\n" +
                                   Records + "{\"event\":\"exit\"}\n");
    std::string Exe =
        write(Name + ".sh", "#!/bin/sh\n"
                            "[ -n \"$CRO_CAPTURE_REFERENCE\" ] && "
                            "cp \"$CRO_CAPTURE_REFERENCE\" reference.seen\n"
                            "cat '" +
                                Data + "' > \"$CRO_OUT\"\n");
    llvm::sys::fs::setPermissions(Exe, llvm::sys::fs::all_exe |
                                           llvm::sys::fs::owner_all);
    return Exe;
  }

  /// The original's run: one capture of "k" per argument set.
  ProgramRun original(const std::string &Bytes, unsigned Sets) {
    ProgramRun R;
    R.Ok = true;
    for (unsigned S = 0; S < Sets; ++S) {
      CaptureRecord C{"k",
                      int(S << 20),
                      0,
                      {0},
                      Bytes.size(),
                      write("original." + std::to_string(S) + ".bin", Bytes),
                      hexOf(Bytes)};
      R.Captures.push_back(C);
    }
    return R;
  }

  KernelModel Model; // no kernels: captures compare exactly
};

TEST_F(ReferenceRuns, EachArgumentSetGetsTheOriginalsCapturesOfThatSet) {
  Opts.ArgSets = {{"a"}, {"b"}};
  const std::string Bytes = "0123456789abcdef";
  ProgramRun Original = original(Bytes, 2);
  // The second set's capture differs in the original, so the two reference
  // files must differ too.
  const std::string Other = "fedcba9876543210";
  Original.Captures[1].Checksum = hexOf(Other);
  ProgramRun V = runProgram(program("same", captureLine(Bytes, "")), Opts,
                            "variant", true, &Original);
  ASSERT_EQ(V.RunDirs.size(), 2u);
  for (unsigned S = 0; S < 2; ++S) {
    llvm::SmallString<128> Seen(V.RunDirs[S]);
    llvm::sys::path::append(Seen, "reference.seen");
    auto B = llvm::MemoryBuffer::getFile(Seen);
    ASSERT_TRUE(bool(B)) << "set " << S << " got no reference";
    // Launches as the library numbers them within one process.
    EXPECT_EQ((*B)->getBuffer().str(),
              "0 0 16 " + hexOf(S ? Other : Bytes) + " k\n");
  }
  // Without a reference, nothing is passed.
  ProgramRun O = runProgram(program("plain", captureLine(Bytes, "")), Opts,
                            "original", true);
  llvm::SmallString<128> Seen(O.RunDirs[0]);
  llvm::sys::path::append(Seen, "reference.seen");
  EXPECT_FALSE(llvm::sys::fs::exists(Seen));
}

TEST_F(ReferenceRuns, EqualChecksumsVerifyWithoutFiles) {
  const std::string Bytes = "0123456789abcdef";
  ProgramRun Original = original(Bytes, 1);
  ProgramRun V = runProgram(program("same", captureLine(Bytes, "")), Opts,
                            "variant", true, &Original);
  ASSERT_TRUE(V.Ok) << V.Problem;
  ASSERT_EQ(V.Captures.size(), 1u);
  EXPECT_EQ(V.Captures[0].Checksum, hexOf(Bytes));
  EXPECT_EQ(verify(Original, V, Model, Opts), "");
}

TEST_F(ReferenceRuns, DifferentOutputsAreStillComparedAndReported) {
  const std::string Bytes = "0123456789abcdef";
  const std::string Changed = "0123456789abcdeX";
  ProgramRun Original = original(Bytes, 1);
  std::string File = write("variant.bin", Changed);
  ProgramRun V = runProgram(program("changed", captureLine(Changed, File)),
                            Opts, "variant", true, &Original);
  ASSERT_TRUE(V.Ok) << V.Problem;
  std::string Why = verify(Original, V, Model, Opts);
  EXPECT_NE(Why.find("output differs"), std::string::npos) << Why;
  EXPECT_NE(Why.find("byte 15"), std::string::npos) << Why;
}

TEST_F(ReferenceRuns, ACaptureWithNeitherBytesNorAnEqualChecksumFails) {
  // A library that skipped a capture it should have written: the outputs
  // are unknown, which is never taken as equal.
  const std::string Bytes = "0123456789abcdef";
  ProgramRun Original = original(Bytes, 1);
  ProgramRun V =
      runProgram(program("lost", captureLine("something else!!", "")), Opts,
                 "variant", true, &Original);
  ASSERT_TRUE(V.Ok) << V.Problem;
  std::string Why = verify(Original, V, Model, Opts);
  EXPECT_NE(Why.find("could not be read"), std::string::npos) << Why;
}

} // namespace
