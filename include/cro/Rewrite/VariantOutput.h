//===- VariantOutput.h - a variant as files: written, built, diffed -------===//
//
// A variant is the rewritten main file and, when a knob edits a file the
// main file includes, rewritten copies of that file and of each file between
// it and the main file (Engine.h). The copies are named after the original
// with the run's tag (kernels/a.cu -> kernels/a.opt.cu) and placed at the
// same path from the rewritten main file as the original from the input, so
// the rewritten `#include` lines find them and every other include resolves
// as before. Nothing here ever writes over a file of the user's program.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_REWRITE_VARIANTOUTPUT_H
#define CRO_REWRITE_VARIANTOUTPUT_H

#include "cro/Analysis/ProgramText.h"
#include "cro/Rewrite/Engine.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace cro {

/// The tag of the copies for a main output: the output file's name without
/// its extension ("main.opt" for -o out/main.opt.cu, so copies of two
/// outputs never collide); "cro" when the output is stdout.
std::string includedFileTag(llvm::StringRef MainOutput);

/// The user's files below the main file's directory, other than the main
/// file (path from that directory, text): what a build of a variant writes
/// beside it (BuildOptions::ProgramFiles).
std::vector<std::pair<std::string, std::string>>
includedProgramFiles(const ProgramText &Program);

/// V's rewritten copies as build inputs (BuildRequest::Files).
std::vector<std::pair<std::string, std::string>>
copiesToBuild(const Variant &V);

/// Writes the variant: MainText (the main file as it is to be written) to
/// MainOutput, stdout when it is "" or "-", and each rewritten copy at its
/// path from MainOutput's directory, the copies first, each atomically and
/// only when its text differs from what the file holds (a build system sees
/// no change then). When MainOutput is not in the input's directory, a
/// copy's `#include "..."` lines of files the variant leaves unchanged name
/// them by their path from the copy, so that the output builds with the
/// flags a single-file output needs (-I of the input's directory).
/// Errors (ToolErrors): copies with stdout as the output (ExitCode::Usage:
/// they need a directory); an output that is one of the program's files
/// (ExitCode::OutputError, nothing written); a failed write (OutputError).
llvm::Error writeVariant(const Variant &V, llvm::StringRef MainText,
                         llvm::StringRef MainOutput,
                         const ProgramText &Program);

/// The paths writeVariant would write, the main output last.
std::vector<std::string> variantOutputPaths(const Variant &V,
                                            llvm::StringRef MainOutput);

/// The diff from the program to the variant: the main file in place
/// (--- a/MainPath +++ b/MainPath, MainText against OriginalMain), then
/// each copy as a git copy of its original, paths from MainPath's
/// directory, so that `git apply` gives the variant's files.
std::string variantDiff(const Variant &V, llvm::StringRef OriginalMain,
                        llvm::StringRef MainText, llvm::StringRef MainPath,
                        const ProgramText &Program);

} // namespace cro

#endif
