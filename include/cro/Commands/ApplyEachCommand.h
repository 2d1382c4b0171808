//===- ApplyEachCommand.h - many configurations from one parse -----------===//
#ifndef CRO_COMMANDS_APPLYEACHCOMMAND_H
#define CRO_COMMANDS_APPLYEACHCOMMAND_H

#include "cro/Rewrite/Engine.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace cro {

/// --apply-each: ConfigsFile holds a JSON array of configurations; the
/// variant of each one is written to <OutputDir>/<index>/<input file name>
/// (a --harness included, as --apply writes it), all from the one parse in
/// Ctx. Prints one JSON
/// line per configuration on Out -- its index, the exit code --apply would
/// have ended with, the file or the error message, and the variant's nvcc
/// flags -- so that a configuration the tool rejects does not stop the
/// others. Returns 0 once every configuration was tried; BadConfig when the
/// file is not an array of objects, OutputError when OutputDir cannot be
/// made.
int runApplyEach(llvm::StringRef ConfigsFile, llvm::StringRef OutputDir,
                 const RewriteContext &Ctx, llvm::raw_ostream &Out,
                 llvm::raw_ostream &Err);

} // namespace cro

#endif
