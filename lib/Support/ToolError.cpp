#include "cro/Support/ToolError.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cro {

char ToolError::ID = 0;

int reportAndGetExitCode(Error E, raw_ostream &OS) {
  int Code = static_cast<int>(ExitCode::Internal);
  handleAllErrors(
      std::move(E),
      [&](const ToolError &TE) {
        Code = static_cast<int>(TE.code());
        OS << "cuda-rewrite-opt: error: " << TE.message() << "\n";
      },
      [&](const ErrorInfoBase &EI) {
        OS << "cuda-rewrite-opt: internal error: " << EI.message() << "\n";
      });
  return Code;
}

std::string oneLineMessage(StringRef Text,
                           function_ref<StringRef(StringRef)> Each) {
  SmallVector<StringRef> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::string Out;
  for (StringRef L : Lines) {
    L = Each(L.trim());
    if (!L.empty())
      Out += (Out.empty() ? "" : "; ") + L.str();
  }
  return Out;
}

} // namespace cro
