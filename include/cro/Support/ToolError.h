//===- ToolError.h - errors that end the tool with a documented exit code -===//
//
// Every way the tool can refuse its input maps to one exit code, listed in
// docs/exit-codes.md. Library code returns llvm::Error built with
// makeToolError(); the CLI prints the message and exits with the code.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SUPPORT_TOOLERROR_H
#define CRO_SUPPORT_TOOLERROR_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <string>

namespace cro {

enum class ExitCode : int {
  Success = 0,
  Internal = 1,        ///< a bug in the tool (should never happen)
  Usage = 2,           ///< bad command-line options
  InputUnreadable = 3, ///< input file missing, unreadable or not a file
  ParseError = 4,      ///< Clang reported errors in the input
  NoKernels = 5,       ///< the file defines no __global__ function
  CudaNotFound = 6,    ///< no usable CUDA toolkit
  UnknownKernel = 7,   ///< --kernel names a kernel the file does not define
  OutputError = 8,     ///< the output file could not be written
  BadBuildConfig = 9,  ///< compile_commands.json missing or without the file
  BadConfig = 10,      ///< --apply: unknown knob, illegal value, conflict
  NoGpu = 11,          ///< --measure on a machine without an NVIDIA GPU
  NotVerified = 12,    ///< --measure: the variant failed verification
  SearchFailed = 13,   ///< the search strategy broke (external policy)
  ExecutorFailed = 14, ///< the executor (a Slurm cluster) runs no job
};

class ToolError : public llvm::ErrorInfo<ToolError> {
public:
  static char ID;
  ToolError(ExitCode Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}
  ExitCode code() const { return Code; }
  std::string message() const override { return Message; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  ExitCode Code;
  std::string Message;
};

inline llvm::Error makeToolError(ExitCode Code, const llvm::Twine &Message) {
  return llvm::make_error<ToolError>(Code, Message.str());
}

/// Prints "cuda-rewrite-opt: error: <message>" for E and returns its exit
/// code (Internal for errors that are not ToolErrors).
int reportAndGetExitCode(llvm::Error E, llvm::raw_ostream &OS);

/// A library's several-line explanation as one line of a tool message: the
/// non-empty lines, trimmed and passed through Each, joined with "; ".
std::string oneLineMessage(
    llvm::StringRef Text,
    llvm::function_ref<llvm::StringRef(llvm::StringRef)> Each =
        [](llvm::StringRef L) { return L; });

} // namespace cro

#endif
