//===- KernelTunerFormats.h - recorded spaces in Kernel Tuner's formats ---===//
//
// The auto-tuning community publishes brute-forced search spaces in Kernel
// Tuner's cache format and results in the T4 format (the Lorentz Center
// workshop's schema, version 1.0.0, written by Kernel Tuner >= 0.4.4). So
// that the tool's strategies can be compared on those spaces, and its own
// recordings used by others, --simulate reads both, plain or gzip-
// compressed, and --record-format t4 writes T4.
//
// Kernel Tuner cache -> recorded space:
//  - every tune_params entry is a knob (role "other": which parameter is a
//    block size is not stated, so no hardware limit is applied), values in
//    the cache's order;
//  - every cache entry is a point: a numeric objective ("time" unless the
//    file names another) is verified in ms; "CompilationFailedConfig" is
//    build-failed, "RuntimeFailedConfig" run-failed, any other failure
//    ("InvalidConfig") invalid -- the failure is read from "__error__"
//    (Kernel Tuner >= 1.4) or from the objective's field (before);
//  - configurations absent from the cache were Kernel Tuner's restrictions:
//    invalid;
//  - the original (every knob's default) is the verified configuration of
//    median time, so that no search starts at the optimum.
// T4 results -> recorded space: the same, from "configuration" (each
// parameter's values in order of first appearance, numbers sorted),
// "invalidity" ("correct" verified with the objective's measurement,
// "compile" build-failed, "runtime" and "timeout" run-failed, "correctness"
// rejected, "constraints" invalid) and metadata.timeunit (ms by default). A
// configuration listed twice keeps its first entry.
// Recorded space -> T4: one result a point, every knob's value in the
// configuration; verified points measure "time" in ms.
//
//===----------------------------------------------------------------------===//
#ifndef CRO_SEARCH_KERNELTUNERFORMATS_H
#define CRO_SEARCH_KERNELTUNERFORMATS_H

#include "cro/Search/SearchLoop.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <optional>

namespace cro {

/// The text of a file that may be gzip-compressed (.json.gz), inflated.
llvm::Expected<std::string> inflateIfGzip(llvm::StringRef Bytes,
                                          llvm::StringRef Where);

/// When V is a Kernel Tuner cache or a T4 results file, the recorded space
/// it describes (as RecordedSpace::fromJSON reads it), or why it cannot be
/// one; nullopt when V is neither (the tool's own format).
std::optional<llvm::Expected<llvm::json::Value>>
foreignRecording(const llvm::json::Value &V, llvm::StringRef Name);

/// The T4 results file of a search's evaluations (Trials, then Invalid).
/// StartUnixSeconds: when the search started, for the timestamps.
llvm::json::Value recordSpaceT4(const SearchSpace &Space,
                                const SearchResult &Result,
                                double StartUnixSeconds,
                                llvm::json::Object Metadata);

} // namespace cro

#endif
