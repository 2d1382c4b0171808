//===- Harness.h - a main() for kernels that have none --------------------===//
//
// Libraries ship kernels without a program around them. A kernel spec (JSON)
// says how to call one:
//   {
//     "kernel": "saxpy",
//     "template_args": "<256>",                      (optional)
//     "scalars": {"n": 16777216, "a": 2.5},
//     "buffers": {"x": {"size": "n"},                elements, an expression
//                 "y": {"size": "n", "min": -1, "max": 1}},
//     "grid": ["(n + 255) / 256"], "block": [256],  (expressions; optional
//                                                     when the file launches
//                                                     the kernel itself)
//     "seed": 1
//   }
// From it the tool generates a harness appended to the kernel's file (for
// the parse, so that its launch is modelled, and for every build): it
// allocates the buffers, fills them with random values from a fixed seed
// (never all zeros; integers and floats alike), launches the kernel once,
// checks for CUDA errors, and prints a checksum of every buffer. Built and
// run like any program, the measurement library then times and verifies it.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_MEASURE_HARNESS_H
#define CRO_MEASURE_HARNESS_H

#include "cro/Analysis/KernelModel.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>

namespace cro {

/// The harness (a main() and helpers) for Spec, to append to the file that
/// defines the kernel. Errors (ExitCode::BadConfig) name what is missing or
/// wrong in the spec.
llvm::Expected<std::string> generateHarness(const llvm::json::Object &Spec,
                                            const KernelModel &Model);

/// The tool parses the file with its harness appended (so that the
/// harness's launch is modelled and rewritten like the file's own); what a
/// tuned file is written as is the text before the harness: Text without
/// its last harness, or Text when it has none.
llvm::StringRef withoutHarness(llvm::StringRef Text);

/// Reads a kernel spec file.
llvm::Expected<llvm::json::Object> readKernelSpec(llvm::StringRef Path);

} // namespace cro

#endif
