//===- Engine.h - knobs of a file, and variants from configurations -------===//
#ifndef CRO_REWRITE_ENGINE_H
#define CRO_REWRITE_ENGINE_H

#include "cro/Rewrite/Transform.h"
#include "llvm/Support/Error.h"

namespace cro {

/// Fills Ctx.Knobs with what every transform of Ctx.Transforms offers for
/// Ctx.Model, and why the others refuse.
void describeKnobs(RewriteContext &Ctx);

/// One step of a rewrite sequence: a knob set to a value other than its
/// default.
struct RewriteStep {
  std::string Knob;
  std::string Transform;
  llvm::json::Value Value = nullptr;
};

struct Variant {
  std::string Source;                 ///< the rewritten main file
  std::vector<std::string> NvccFlags; ///< flags the variant must be built with
  std::vector<RewriteStep> Sequence;  ///< what was changed, in order
};

/// Checks Config (knob id -> value) against the model's knobs: unknown ids
/// and values outside a knob's domain are ToolErrors (ExitCode::BadConfig).
llvm::Error validateConfiguration(const KnobSet &Knobs,
                                  const llvm::json::Object &Config);

/// Applies Config to the original source, with the knobs of Ctx.Knobs. The
/// default configuration gives back the source byte for byte.
llvm::Expected<Variant> applyConfiguration(const RewriteContext &Ctx,
                                           const llvm::json::Object &Config);

/// The variant as a file: its source, headed by a comment naming the nvcc
/// flags it must be built with when it has any. What --apply, --search -o
/// and --replay write, byte for byte the same for the same configuration.
std::string variantFileText(const Variant &V);

/// Reads a JSON file of configurations (What: "configuration" for the
/// messages); unreadable or malformed, a ToolError (ExitCode::BadConfig).
llvm::Expected<llvm::json::Value>
readConfigurationDocument(llvm::StringRef Path, llvm::StringRef What);

/// Reads a configuration file: a JSON object mapping knob ids to values.
llvm::Expected<llvm::json::Object> readConfiguration(llvm::StringRef Path);

} // namespace cro

#endif
