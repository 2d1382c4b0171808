//===- CompileCheck.h - does nvcc compile the file as its build does? -----===//
//
// The tool promises to handle what nvcc compiles. When Clang cannot parse a
// file, this question decides between the user's error (nvcc rejects it too:
// report it, exit 4) and the tool's limit (nvcc compiles it: tune what needs
// no model of the source, its compiler flags).
//
//===----------------------------------------------------------------------===//
#ifndef CRO_BUILD_COMPILECHECK_H
#define CRO_BUILD_COMPILECHECK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace cro {

/// Why `<Nvcc> <Flags> -c <File>` fails (the object is written to a
/// temporary directory and removed): "" when it compiles, else nvcc's first
/// error line, or how it ended (a signal, the time limit). An error only
/// when nvcc cannot be started.
llvm::Expected<std::string> whyNvccRejects(llvm::StringRef Nvcc,
                                           llvm::StringRef File,
                                           llvm::ArrayRef<std::string> Flags,
                                           double TimeoutSeconds = 600);

} // namespace cro

#endif
