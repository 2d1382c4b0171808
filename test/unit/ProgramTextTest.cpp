// The program text of several files, and how a variant of it is cut back
// into files and written (ProgramText.h, Engine.h, VariantOutput.h).
#include "cro/Analysis/ProgramText.h"
#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/VariantOutput.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

using namespace cro;
using namespace llvm;

namespace {

/// main.cu includes kernels/a.cuh on its second line; a.cuh includes b.cuh.
ProgramText threeFiles() {
  ProgramText P;
  P.addFile("/src/main.cu", "main.cu", "main.cu",
            "int x;\n#include \"kernels/a.cuh\"\nint main() {}\n");
  P.addFile("/src/kernels/a.cuh", "kernels/a.cuh", "kernels/a.cuh",
            "#include \"b.cuh\"\nint a;\n");
  P.addFile("/src/kernels/b.cuh", "kernels/b.cuh", "kernels/b.cuh",
            "int b;\n");
  StringRef T = P.text();
  unsigned AName = T.find("\"kernels/a.cuh\"");
  P.addInclusion(1, {AName, AName + 15, 0});
  unsigned BName = T.find("\"b.cuh\"");
  P.addInclusion(2, {BName, BName + 7, 1});
  return P;
}

TEST(ProgramText, FilesFollowOneAnotherAfterANewline) {
  ProgramText P = threeFiles();
  ASSERT_EQ(P.files().size(), 3u);
  EXPECT_EQ(P.files()[0].Begin, 0u);
  EXPECT_EQ(P.files()[1].Begin, P.files()[0].Size + 1);
  EXPECT_EQ(P.textOf(P.files()[1]), "#include \"b.cuh\"\nint a;\n");
  unsigned A = P.text().find("int a;");
  EXPECT_EQ(P.fileAt(A), &P.files()[1]);
  EXPECT_EQ(P.location(A), "kernels/a.cuh:2:1");
  EXPECT_EQ(P.location(P.text().find("int main")), "main.cu:3:1");
}

TEST(ProgramText, TextBeforeFollowsTheIncludeChain) {
  ProgramText P = threeFiles();
  // b.cuh is entered from a.cuh's first line, itself from main.cu's second.
  EXPECT_EQ(P.textBefore(P.text().find("int b;")), "int x;\n");
  EXPECT_EQ(P.textBefore(P.text().find("int a;")), "int x;\n#include \"b.cuh\"\n");
  EXPECT_EQ(P.textBefore(P.text().find("int main")),
            "int x;\n#include \"kernels/a.cuh\"\n");
}

TEST(ProgramText, IdentityIsTheTextForOneFile) {
  ProgramText One;
  One.addFile("/src/k.cu", "k.cu", "k.cu", "int k;\n");
  EXPECT_EQ(One.identityText(), "int k;\n");
  ProgramText P = threeFiles();
  std::string Id = P.identityText();
  EXPECT_NE(Id.find(std::string("\0kernels/a.cuh\0", 15)), std::string::npos);
  // A file outside the main file's directory is named from it, so that the
  // identity does not depend on where the tree is checked out.
  P.addFile("/common/c.cuh", "/common/c.cuh", "", "int c;\n");
  Id = P.identityText();
  EXPECT_NE(Id.find(std::string("\0../common/c.cuh\0", 17)), std::string::npos);
  EXPECT_EQ(pathFrom("/a/b", "/a/c/d.h"), "../c/d.h");
  EXPECT_EQ(pathFrom("/a/b", "/a/b/d.h"), "d.h");
}

TEST(ProgramText, TaggedPaths) {
  EXPECT_EQ(taggedPath("kernels/a.cuh", "opt"), "kernels/a.opt.cuh");
  EXPECT_EQ(taggedPath("k.cu", "main.opt"), "k.main.opt.cu");
  EXPECT_EQ(includedFileTag("out/main.opt.cu"), "main.opt");
  EXPECT_EQ(includedFileTag("-"), "cro");
}

TEST(ProgramText, WhichFilesCanBeRewritten) {
  ProgramText P = threeFiles();
  unsigned B = P.text().find("int b;");
  EXPECT_EQ(whyFileCannotBeRewritten(P, B), "");
  ProgramText Outside = threeFiles();
  Outside.addFile("/common/c.cuh", "/common/c.cuh", "", "int c;\n");
  unsigned C = Outside.text().find("int c;");
  EXPECT_NE(whyFileCannotBeRewritten(Outside, C).find("outside the input"),
            std::string::npos);
  ProgramText Macro = threeFiles();
  Macro.markIncludedWithoutDirective(2);
  EXPECT_NE(whyFileCannotBeRewritten(Macro, B).find("other than by"),
            std::string::npos);
}

TEST(VariantOutput, CopiesGoBesideTheOutputAndNeverOverTheProgram) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("cro-variant-output", Dir));
  ProgramText P;
  std::string Main = (Dir + "/main.cu").str();
  P.addFile(Main, "main.cu", "main.cu", "#include \"a.cuh\"\n");
  Variant V;
  V.Source = "#include \"a.out.cuh\"\n";
  V.Files.push_back({"a.cuh", "a.cuh", "sub/a.out.cuh", "int a;\n"});
  // stdout holds one file.
  Error E = writeVariant(V, V.Source, "-", P);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
  std::string Out = (Dir + "/out/main.out.cu").str();
  // The output's directory must exist, and nothing is written otherwise.
  E = writeVariant(V, V.Source, Out, P);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
  EXPECT_FALSE(sys::fs::exists(Dir + "/out"));
  ASSERT_FALSE(sys::fs::create_directory(Dir + "/out"));
  E = writeVariant(V, V.Source, Out, P);
  ASSERT_FALSE(bool(E));
  auto Copy = MemoryBuffer::getFile(Dir + "/out/sub/a.out.cuh");
  ASSERT_TRUE(bool(Copy));
  EXPECT_EQ((*Copy)->getBuffer(), "int a;\n");
  // The input itself as the output: refused, nothing written.
  {
    std::error_code EC;
    raw_fd_ostream(Main, EC) << "#include \"a.cuh\"\n";
  }
  E = writeVariant(V, V.Source, Main, P);
  EXPECT_TRUE(bool(E));
  consumeError(std::move(E));
  EXPECT_EQ((*MemoryBuffer::getFile(Main))->getBuffer(), "#include \"a.cuh\"\n");
  sys::fs::remove_directories(Dir);
}

} // namespace
