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

/// A rewritten copy of a file the main file includes (directly or not).
struct RewrittenFile {
  std::string Original;         ///< the file, as locations name it
  std::string OriginalRelative; ///< its path from the main file's directory
  /// Where the copy goes, from the rewritten main file's directory
  /// ("kernels/a.cro.cu"); the rewritten includers name it.
  std::string Relative;
  std::string Text;
  /// Its `#include "..."` lines that name a user file the variant does not
  /// rewrite: the name as written (quotes included) and that file's path.
  /// Beside its original, the copy finds them as the original does; written
  /// elsewhere, writeVariant makes the lines name them from the copy.
  std::vector<std::pair<std::string, std::string>> UnchangedIncludes = {};
};

struct Variant {
  std::string Source;                 ///< the rewritten main file
  /// The other files the variant changes: an included file a knob edits,
  /// and every file between it and the main file, whose `#include` lines
  /// now name the copies. Empty when only the main file changes.
  std::vector<RewrittenFile> Files;
  std::vector<std::string> NvccFlags; ///< flags the variant must be built with
  std::vector<RewriteStep> Sequence;  ///< what was changed, in order
};

/// The name of the rewritten copy of the file at Relative (a path from the
/// main file's directory): "kernels/a.cu" with tag "opt" is
/// "kernels/a.opt.cu".
std::string taggedPath(llvm::StringRef Relative, llvm::StringRef Tag);

/// Why no rewrite may edit the user's file holding Offset (of the program
/// text), or "" when it may: the main file always may; an included file
/// when it is in the main file's directory or below (where its copy can be
/// written) and every inclusion of it is an `#include "..."` line of a file
/// that may be edited too (whose line can name the copy).
std::string whyFileCannotBeRewritten(const ProgramText &Program,
                                     unsigned Offset);

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
