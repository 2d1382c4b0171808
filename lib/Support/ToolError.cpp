#include "cro/Support/ToolError.h"
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

} // namespace cro
