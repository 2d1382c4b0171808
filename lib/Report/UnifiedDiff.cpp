//===- UnifiedDiff.cpp - Myers' O(ND) line diff with unified hunks --------===//
#include "cro/Report/UnifiedDiff.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <vector>

using namespace llvm;

namespace cro {

namespace {

std::vector<StringRef> splitLines(StringRef Text) {
  std::vector<StringRef> Lines;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    if (NL == StringRef::npos) {
      Lines.push_back(Text);
      break;
    }
    Lines.push_back(Text.take_front(NL + 1));
    Text = Text.drop_front(NL + 1);
  }
  return Lines;
}

enum class Op { Keep, Del, Add };

/// Myers' greedy algorithm; returns the edit script from A to B.
std::vector<Op> diffLines(const std::vector<StringRef> &A,
                          const std::vector<StringRef> &B) {
  int N = A.size(), M = B.size(), Max = N + M;
  std::vector<int> V(2 * Max + 2, 0);
  std::vector<std::vector<int>> Trace;
  for (int D = 0; D <= Max; ++D) {
    Trace.push_back(V);
    for (int K = -D; K <= D; K += 2) {
      int X;
      if (K == -D || (K != D && V[Max + K - 1] < V[Max + K + 1]))
        X = V[Max + K + 1];
      else
        X = V[Max + K - 1] + 1;
      int Y = X - K;
      while (X < N && Y < M && A[X] == B[Y])
        ++X, ++Y;
      V[Max + K] = X;
      if (X >= N && Y >= M) {
        // Walk the trace back to recover the script.
        std::vector<Op> Script;
        int CX = N, CY = M;
        for (int DD = D; DD > 0; --DD) {
          const std::vector<int> &PV = Trace[DD];
          int CK = CX - CY;
          int PK =
              (CK == -DD || (CK != DD && PV[Max + CK - 1] < PV[Max + CK + 1]))
                  ? CK + 1
                  : CK - 1;
          int PX = PV[Max + PK], PY = PX - PK;
          while (CX > PX && CY > PY) {
            Script.push_back(Op::Keep);
            --CX, --CY;
          }
          if (CX == PX) {
            Script.push_back(Op::Add);
            --CY;
          } else {
            Script.push_back(Op::Del);
            --CX;
          }
        }
        while (CX > 0 && CY > 0) {
          Script.push_back(Op::Keep);
          --CX, --CY;
        }
        std::reverse(Script.begin(), Script.end());
        return Script;
      }
    }
  }
  return {};
}

} // namespace

namespace {
std::string diffWithHeaders(StringRef Before, StringRef After,
                            StringRef OldPath, StringRef NewPath,
                            unsigned Context);
} // namespace

std::string unifiedDiff(StringRef Before, StringRef After, StringRef Path,
                        unsigned Context) {
  return diffWithHeaders(Before, After, Path, Path, Context);
}

std::string unifiedCopyDiff(StringRef Before, StringRef After,
                            StringRef OldPath, StringRef NewPath,
                            unsigned Context) {
  if (Before == After)
    return "";
  // git's a/ and b/ prefixes take a relative path (see below).
  StringRef Old = OldPath.ltrim('/'), New = NewPath.ltrim('/');
  return ("diff --git a/" + Old + " b/" + New + "\ncopy from " + Old +
          "\ncopy to " + New + "\n")
             .str() +
         diffWithHeaders(Before, After, OldPath, NewPath, Context);
}

namespace {
std::string diffWithHeaders(StringRef Before, StringRef After,
                            StringRef OldPath, StringRef NewPath,
                            unsigned Context) {
  if (Before == After)
    return "";
  std::vector<StringRef> A = splitLines(Before), B = splitLines(After);
  // Trim the common prefix and suffix: edits are small, files are not.
  size_t Pre = 0;
  while (Pre < A.size() && Pre < B.size() && A[Pre] == B[Pre])
    ++Pre;
  size_t Suf = 0;
  while (Suf < A.size() - Pre && Suf < B.size() - Pre &&
         A[A.size() - 1 - Suf] == B[B.size() - 1 - Suf])
    ++Suf;
  std::vector<StringRef> MA(A.begin() + Pre, A.end() - Suf);
  std::vector<StringRef> MB(B.begin() + Pre, B.end() - Suf);
  std::vector<Op> Script(Pre, Op::Keep);
  for (Op O : diffLines(MA, MB))
    Script.push_back(O);
  Script.insert(Script.end(), Suf, Op::Keep);

  // Positions of each script entry in A and B.
  struct Entry {
    Op O;
    size_t AI, BI;
  };
  std::vector<Entry> Es;
  size_t AI = 0, BI = 0;
  for (Op O : Script) {
    Es.push_back({O, AI, BI});
    if (O != Op::Add)
      ++AI;
    if (O != Op::Del)
      ++BI;
  }

  // git's a/ and b/ prefixes take a relative path: an absolute one would
  // give "a//abs/path", which git apply rejects.
  std::string Out =
      ("--- a/" + OldPath.ltrim('/') + "\n+++ b/" + NewPath.ltrim('/') + "\n")
          .str();
  auto Line = [](StringRef L) {
    std::string S = L.str();
    if (S.empty() || S.back() != '\n')
      S += "\n\\ No newline at end of file\n";
    return S;
  };
  size_t I = 0;
  while (I < Es.size()) {
    if (Es[I].O == Op::Keep) {
      ++I;
      continue;
    }
    // A hunk: from Context lines before this change to Context lines after
    // the last change that is within 2*Context of the previous one.
    size_t Start = I >= Context ? I - Context : 0;
    size_t End = I;
    size_t LastChange = I;
    for (size_t J = I; J < Es.size(); ++J) {
      if (Es[J].O != Op::Keep)
        LastChange = J;
      else if (J - LastChange > 2 * Context)
        break;
      End = J;
    }
    End = std::min(Es.size() - 1, LastChange + Context);
    size_t ACount = 0, BCount = 0;
    for (size_t J = Start; J <= End; ++J) {
      ACount += Es[J].O != Op::Add;
      BCount += Es[J].O != Op::Del;
    }
    size_t AStart = Es[Start].AI + (ACount ? 1 : 0);
    size_t BStart = Es[Start].BI + (BCount ? 1 : 0);
    Out += "@@ -" + std::to_string(AStart);
    if (ACount != 1)
      Out += "," + std::to_string(ACount);
    Out += " +" + std::to_string(BStart);
    if (BCount != 1)
      Out += "," + std::to_string(BCount);
    Out += " @@\n";
    for (size_t J = Start; J <= End; ++J) {
      switch (Es[J].O) {
      case Op::Keep:
        Out += " " + Line(A[Es[J].AI]);
        break;
      case Op::Del:
        Out += "-" + Line(A[Es[J].AI]);
        break;
      case Op::Add:
        Out += "+" + Line(B[Es[J].BI]);
        break;
      }
    }
    I = End + 1;
  }
  return Out;
}
} // namespace

} // namespace cro
