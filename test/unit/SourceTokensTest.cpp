#include "cro/Rewrite/SourceTokens.h"
#include "cro/Report/UnifiedDiff.h"
#include "gtest/gtest.h"

using namespace cro;

TEST(SourceTokens, IdentifiersSkipCommentsAndStrings) {
  std::string S = "int B = 1; // B in a comment\nconst char *s = \"B\"; x = B;";
  std::vector<TokenRange> T = findIdentifier(S, 0, S.size(), "B");
  ASSERT_EQ(T.size(), 2u);
  EXPECT_EQ(S.substr(T[0].Offset, T[0].Length), "B");
  EXPECT_EQ(T[0].Offset, 4u);
  EXPECT_EQ(T[1].Offset, S.rfind('B'));
  EXPECT_TRUE(findIdentifier(S, 0, S.size(), "BB").empty());
  // A range limits the search.
  EXPECT_EQ(findIdentifier(S, 5, S.size(), "B").size(), 1u);
}

TEST(SourceTokens, FreshIdentifierAvoidsCollisions) {
  std::string S = "int k_B = 1; int k_B_2 = 2;";
  EXPECT_EQ(freshIdentifier(S, "k_X"), "k_X");
  EXPECT_EQ(freshIdentifier(S, "k_B"), "k_B_3");
}

TEST(SourceTokens, DefineLines) {
  std::string S =
      "#define A 1\n#  define LONG(x) \\\n  (x)\nint y;\n#define A 2\n";
  EXPECT_EQ(defineLineEnd(S, "A"), -1); // defined twice
  long End = defineLineEnd(S, "LONG");
  ASSERT_GT(End, 0);
  EXPECT_EQ(S.substr(End, 7), "\nint y;");
  EXPECT_EQ(defineLineEnd(S, "LON"), -1);
  EXPECT_TRUE(onDirectiveLine(S, S.find("(x)")));
  EXPECT_FALSE(onDirectiveLine(S, S.find("int y")));
}

TEST(UnifiedDiff, HunksAsGitPrintsThem) {
  std::string A = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
  std::string B = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n";
  EXPECT_EQ(unifiedDiff(A, B, "f.cu"),
            "--- a/f.cu\n+++ b/f.cu\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n"
            " 6\n 7\n 8\n");
  EXPECT_EQ(unifiedDiff(A, A, "f.cu"), "");
  // An insertion at the top, and a missing final newline.
  EXPECT_EQ(unifiedDiff("a\nb", "x\na\nb", "g.cu"),
            "--- a/g.cu\n+++ b/g.cu\n@@ -1,2 +1,3 @@\n+x\n a\n b\n"
            "\\ No newline at end of file\n");
}

TEST(UnifiedDiff, FarApartChangesMakeTwoHunks) {
  std::string A, B;
  for (int I = 1; I <= 30; ++I) {
    A += std::to_string(I) + "\n";
    B += (I == 3 || I == 25 ? "x" : std::to_string(I)) + "\n";
  }
  std::string D = unifiedDiff(A, B, "f");
  EXPECT_NE(D.find("@@ -1,6 +1,6 @@"), std::string::npos) << D;
  EXPECT_NE(D.find("@@ -22,7 +22,7 @@"), std::string::npos) << D;
}
