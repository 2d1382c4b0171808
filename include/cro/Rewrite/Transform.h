//===- Transform.h - the interface every source transformation implements -===//
//
// A transform turns one of a kernel's hidden performance decisions into a
// knob. describe() reports, for each kernel, the knobs it offers (id, legal
// values, and the default: what the source does today) or a refusal with its
// reason. apply() turns one knob value into edits of the original source.
//
// apply() is called for every knob of every transform, with the default when
// the configuration does not set it, and sees the whole configuration: coupled
// knobs (launch bounds follow the block size) stay consistent, and applying
// every default changes nothing.
//
// Each transform names the role of the knobs it offers (Knob.h): the search
// reasons about roles, never about transform names. The limits of the target
// GPU come from the context (Target), not from constants in a transform.
//
// A new transform takes one .h/.cpp pair in transforms/ (and its line in
// transforms/CMakeLists.txt), one line in transforms/Registry.cpp and one lit
// test file in test/transforms/ (docs/transforms.md, "Adding a transform").
//
//===----------------------------------------------------------------------===//
#ifndef CRO_REWRITE_TRANSFORM_H
#define CRO_REWRITE_TRANSFORM_H

#include "cro/Analysis/KernelModel.h"
#include "cro/Rewrite/EditSet.h"
#include "cro/Rewrite/Knob.h"
#include "cro/Support/HardwareLimits.h"
#include "llvm/Support/JSON.h"
#include <map>

namespace cro {

struct TransformOptions {
  bool AssumeNoAlias = false; ///< --assume-no-alias
  bool AllowFastMath = false; ///< --allow-fast-math
};

class TransformRegistry;

/// What transforms read: the model, the original text of the user's files
/// (the program text: the main file, then the files it includes; the
/// model's offsets index it), the target GPU, and (once describeKnobs has
/// run) the knobs of every transform.
struct RewriteContext {
  RewriteContext(const KernelModel &Model, const TransformRegistry &Transforms,
                 llvm::StringRef Source, llvm::StringRef FilePath,
                 TransformOptions Options = {})
      : Model(Model), Transforms(Transforms), Source(Source),
        FilePath(FilePath), Options(Options),
        Target(tableLimits(Model.GpuArch)) {}

  const KernelModel &Model;
  const TransformRegistry &Transforms;
  /// The program text (ProgramText.h) when the model has one, else the
  /// main file; what transforms read and edit.
  llvm::StringRef Source;
  llvm::StringRef FilePath; ///< the main file, for messages
  /// The main file as on disk: what an unchanged output writes.
  llvm::StringRef mainSource() const {
    return Model.Program.files().empty()
               ? Source
               : Model.Program.textOf(Model.Program.files().front());
  }
  /// What the translation unit has before Offset, as far as the user's
  /// files tell (ProgramText::textBefore: for a kernel in an included file,
  /// the includer's text before the `#include` line, then the file's own).
  std::string textBefore(unsigned Offset) const {
    return Model.Program.files().empty() ? Source.take_front(Offset).str()
                                         : Model.Program.textBefore(Offset);
  }
  /// Names the rewritten copy of an included file: kernels/a.cu becomes
  /// kernels/a.<tag>.cu, written beside the rewritten main file (the CLI
  /// sets it from -o, so that outputs of different runs do not collide).
  std::string IncludedFileTag = "cro";
  TransformOptions Options;
  /// The GPU the variants are for: the model's architecture's documented
  /// limits unless the caller knows the device's.
  HardwareLimits Target;
  /// What the transforms offer (describeKnobs fills it).
  KnobSet Knobs;
};

/// Collects what describe() finds.
class KnobSink {
public:
  KnobSink(KnobSet &Out, llvm::StringRef Transform, KnobRole Role)
      : Out(Out), Transform(Transform.str()), Role(Role) {}
  /// Adds K; its default (what the source does today) is always one of its
  /// values, appended to the domain when the transform's list lacks it. K's
  /// role is the transform's unless K names another.
  void offer(Knob K) {
    K.Transform = Transform;
    if (K.Role == KnobRole::Other)
      K.Role = Role;
    bool Listed = false;
    for (const llvm::json::Value &V : K.Values)
      Listed |= V == K.Default;
    if (!Listed)
      K.Values.push_back(K.Default);
    Out.Knobs.push_back(std::move(K));
  }
  void refuse(llvm::StringRef Kernel, llvm::StringRef Reason,
              llvm::StringRef Location = "") {
    Out.Refused.push_back(
        {Kernel.str(), Transform, Reason.str(), Location.str()});
  }

private:
  KnobSet &Out;
  std::string Transform;
  KnobRole Role;
};

/// Every knob's value for one variant: the configuration's, else the default.
class ResolvedConfig {
public:
  explicit ResolvedConfig(const std::vector<Knob> &Knobs) : Knobs(Knobs) {}
  void set(const std::string &Id, llvm::json::Value V) {
    Values.insert_or_assign(Id, std::move(V));
  }
  const Knob *knob(llvm::StringRef Id) const;
  /// The value of knob Id, or nullptr when no such knob exists.
  const llvm::json::Value *value(llvm::StringRef Id) const;
  bool isDefault(const Knob &K) const;

private:
  const std::vector<Knob> &Knobs;
  std::map<std::string, llvm::json::Value> Values;
};

class Transform {
public:
  virtual ~Transform() = default;
  /// The name used in knob records and docs, e.g. "block-size".
  virtual llvm::StringRef name() const = 0;
  /// The role of the knobs it offers (a knob may name another).
  virtual KnobRole role() const = 0;
  /// Knobs for kernel K, or refusals with reasons.
  virtual void describe(const RewriteContext &Ctx, const KernelInfo &K,
                        KnobSink &Out) const {}
  /// File-wide knobs (compiler flags); called once per file.
  virtual void describeFile(const RewriteContext &Ctx, KnobSink &Out) const {}
  /// Adds the edits (and flags) that give knob K the value V.
  virtual llvm::Error apply(const RewriteContext &Ctx, const Knob &K,
                            const llvm::json::Value &V,
                            const ResolvedConfig &Config,
                            EditSet &Out) const = 0;
};

/// The kernel a knob belongs to, or nullptr for file-wide knobs.
const KernelInfo *kernelOf(const RewriteContext &Ctx, const Knob &K);

/// The loop of K whose id is Id ("L0"), or nullptr.
const LoopInfo *loopNamed(const KernelInfo &K, llvm::StringRef Id);

/// The loop of K a per-loop knob names by its last component
/// (`gemm.unroll.L0` -> L0), or nullptr.
const LoopInfo *loopOf(const KernelInfo &K, const Knob &Kn);

} // namespace cro

#endif
