//===- ScriptedRuns.h - runProgram without a GPU --------------------------===//
//
// A fixture for tests of the measurement path: a scratch directory, an
// EvaluateOptions whose measurement library is an empty file there, so that
// runProgram runs "programs" that are shell scripts writing the records the
// library would ($CRO_OUT), for real, on a machine without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_TEST_UNIT_SCRIPTEDRUNS_H
#define CRO_TEST_UNIT_SCRIPTEDRUNS_H

#include "cro/Measure/Evaluate.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace cro {

class ScriptedRuns : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cro-scripted", Dir));
    llvm::SmallString<128> Lib(Dir);
    llvm::sys::path::append(Lib, "libfake.so");
    std::error_code EC;
    llvm::raw_fd_ostream(Lib, EC);
    Opts.WorkDir = Dir.str().str();
    Opts.Run.InjectionLibrary = Lib.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  llvm::SmallString<128> Dir;
  EvaluateOptions Opts;
};

} // namespace cro

#endif
