//===- TestInputs.h - parse a file of the lit corpus for a unit test ------===//
#ifndef CRO_TEST_UNIT_TESTINPUTS_H
#define CRO_TEST_UNIT_TESTINPUTS_H

#include "cro/Analysis/ModelBuilder.h"
#include "cro/Frontend/Frontend.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace cro {

/// A corpus file (path relative to test/), parsed for sm_90, with its model
/// and its text.
struct TestInput {
  std::unique_ptr<ParsedFile> Parsed;
  KernelModel Model;
  std::string Source;
};

inline TestInput loadTestInput(llvm::StringRef RelPath) {
  TestInput T;
  FrontendOptions Opts;
  Opts.InputFile = (llvm::Twine(CRO_TEST_INPUTS) + "/" + RelPath).str();
  Opts.GpuArch = "sm_90";
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  llvm::Expected<std::unique_ptr<ParsedFile>> PF = parseCudaFile(Opts, OS);
  if (!PF) {
    ADD_FAILURE() << llvm::toString(PF.takeError()) << "\n" << Diags;
    return T;
  }
  EXPECT_TRUE((*PF)->Host && (*PF)->Device);
  T.Parsed = std::move(*PF);
  T.Model = buildKernelModel(*T.Parsed, RelPath);
  T.Source = (*llvm::MemoryBuffer::getFile(Opts.InputFile))->getBuffer().str();
  return T;
}

} // namespace cro

#endif
