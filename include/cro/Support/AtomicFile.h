//===- AtomicFile.h - write a file through a temporary and a rename -------===//
#ifndef CRO_SUPPORT_ATOMICFILE_H
#define CRO_SUPPORT_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace cro {

/// Writes Contents to Path so that readers see either the old file or the
/// complete new one, never a partial write: the data goes to a temporary file
/// in the same directory, which is then renamed over Path. On failure Path is
/// untouched and the temporary is removed. Errors are ToolErrors (OutputError).
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// The tool's -o: stdout when Path is empty or "-", else writeFileAtomically.
llvm::Error writeOutput(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace cro

#endif
