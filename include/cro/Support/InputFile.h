//===- InputFile.h - read a file the user names as an input ---------------===//
//
// Every file the user hands the tool (a configuration, a space, a recorded
// space, a kernel spec) is checked as the main input is: it must be a
// regular file -- a FIFO would block the tool forever, /dev/zero would grow
// its memory without limit -- of a sane size, and readable. Errors are
// ToolErrors with the caller's exit code and say which input it was.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SUPPORT_INPUTFILE_H
#define CRO_SUPPORT_INPUTFILE_H

#include "cro/Support/ToolError.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>

namespace cro {

/// The largest JSON input read (a recorded space of 100,000 points is a few
/// tens of MB).
constexpr uint64_t MaxJsonInputBytes = uint64_t(512) << 20;

/// Reads Path, described as What ("configuration", "the recorded space",
/// or "" for a file named by its path alone) in messages, failing with Code
/// unless it is a readable regular file of at most MaxBytes.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef Path, llvm::StringRef What, ExitCode Code,
              uint64_t MaxBytes = MaxJsonInputBytes);

/// The deepest nesting of arrays and objects a JSON input may have: the
/// tool's documents nest a few levels; LLVM's parser and json::Value recurse
/// once per level, so a hostile 50,000-deep document would overflow the
/// stack.
constexpr unsigned MaxJsonNesting = 256;

/// json::parse, after checking Text nests at most MaxJsonNesting levels
/// (counted outside strings); a deeper document is an error saying so.
llvm::Expected<llvm::json::Value> parseJsonBounded(llvm::StringRef Text);

} // namespace cro

#endif
