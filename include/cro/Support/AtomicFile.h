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
/// A symbolic link is written through (the link stays, its target gets the
/// contents); an existing file keeps its permissions; a path that names a
/// device or a FIFO (/dev/null, /dev/stdout, a pipe) is written in place,
/// never replaced by a regular file; a directory is an error.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// The tool's -o: stdout when Path is empty or "-" (a failed write there is
/// an OutputError too), else writeFileAtomically.
llvm::Error writeOutput(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace cro

#endif
