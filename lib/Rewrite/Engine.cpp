#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/Registry.h"
#include "cro/Support/InputFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/MemoryBuffer.h"

#include <set>

using namespace llvm;

namespace cro {

const Knob *ResolvedConfig::knob(StringRef Id) const {
  for (const Knob &K : Knobs)
    if (K.Id == Id)
      return &K;
  return nullptr;
}

const json::Value *ResolvedConfig::value(StringRef Id) const {
  auto It = Values.find(Id.str());
  if (It != Values.end())
    return &It->second;
  const Knob *K = knob(Id);
  return K ? &K->Default : nullptr;
}

bool ResolvedConfig::isDefault(const Knob &K) const {
  const json::Value *V = value(K.Id);
  return !V || *V == K.Default;
}

const KernelInfo *kernelOf(const RewriteContext &Ctx, const Knob &K) {
  for (const KernelInfo &KI : Ctx.Model.Kernels)
    if (KI.Id == K.Kernel)
      return &KI;
  return nullptr;
}

/// Why no transform may edit kernel K yet, or "": every transform edits
/// the kernel's definition, its launches or both, and the rewrite engine
/// edits one file, the main one. A kernel defined, or launched, in a file
/// the main file includes is modelled (--analyze shows it) and left as it is.
static std::string outsideTheEditedFile(const KernelInfo &K) {
  auto FileOf = [](StringRef Location) {
    // "path:line:col"
    return Location.rsplit(':').first.rsplit(':').first.str();
  };
  if (!K.InMainFile)
    return "the kernel is defined in '" + FileOf(K.Location) +
           "', which the input file includes; the tool rewrites only the "
           "input file, so it leaves the kernel as it is";
  for (const LaunchSite &L : K.Launches)
    if (!L.InMainFile)
      return "the kernel is launched at " + L.Location +
             ", in a file the input file includes; the tool rewrites only "
             "the input file, so it leaves the kernel and its launches as "
             "they are";
  return "";
}

void describeKnobs(RewriteContext &Ctx) {
  // Transforms describe against a context without knobs (what one offers
  // does not depend on what another does); the set is filled at the end.
  KnobSet Offered;
  Ctx.Knobs = {};
  for (const auto &T : Ctx.Transforms.transforms()) {
    KnobSink Sink(Offered, T->name(), T->role());
    for (const KernelInfo &K : Ctx.Model.Kernels) {
      if (std::string Why = outsideTheEditedFile(K); !Why.empty()) {
        Sink.refuse(K.Id, Why, K.Location);
        continue;
      }
      T->describe(Ctx, K, Sink);
    }
    T->describeFile(Ctx, Sink);
  }
  Ctx.Knobs = std::move(Offered);
}

Error validateConfiguration(const KnobSet &Knobs, const json::Object &Config) {
  for (const auto &KV : Config) {
    StringRef Id = KV.first;
    const Knob *Found = Knobs.find(Id);
    if (!Found) {
      std::string Why;
      for (const Refusal &R : Knobs.Refused)
        if (!R.Kernel.empty() && Id.starts_with(R.Kernel + "."))
          Why += "; " + R.Transform + " refused " + R.Kernel + ": " + R.Reason;
      // "over.block" where the file overloads `over`: name the overloads.
      StringRef Kernel = Id.substr(0, Id.find('.'));
      std::set<std::string> Overloads;
      for (const Knob &K : Knobs.Knobs)
        if (StringRef(K.Kernel).starts_with((Kernel + "(").str()))
          Overloads.insert(K.Kernel);
      if (!Overloads.empty()) {
        Why += "; '" + Kernel.str() + "' is overloaded in this file, so its "
               "knobs name the overload:";
        for (const std::string &O : Overloads)
          Why += " " + O + Id.substr(Kernel.size()).str();
      }
      return makeToolError(ExitCode::BadConfig,
                           "unknown knob '" + Id +
                               "' (see the \"knobs\" of --analyze)" + Why);
    }
    bool Legal = false;
    for (const json::Value &V : Found->Values)
      Legal |= V == KV.second;
    if (!Legal) {
      std::string Domain;
      for (const json::Value &V : Found->Values) {
        std::string S;
        raw_string_ostream OS(S);
        OS << V;
        Domain += (Domain.empty() ? "" : ", ") + S;
      }
      std::string Got;
      raw_string_ostream OS(Got);
      OS << KV.second;
      return makeToolError(ExitCode::BadConfig,
                           "illegal value " + Got + " for knob '" + Id +
                               "' (legal: " + Domain + ")");
    }
  }
  return Error::success();
}

Expected<Variant> applyConfiguration(const RewriteContext &Ctx,
                                     const json::Object &Config) {
  if (Error E = validateConfiguration(Ctx.Knobs, Config))
    return std::move(E);
  ResolvedConfig Resolved(Ctx.Knobs.Knobs);
  for (const auto &KV : Config)
    Resolved.set(KV.first.str(), KV.second);

  EditSet Edits(Ctx.Source, Ctx.FilePath);
  Variant Out;
  for (const Knob &K : Ctx.Knobs.Knobs) {
    const Transform *T = Ctx.Transforms.find(K.Transform);
    if (!T)
      return makeToolError(ExitCode::Internal,
                           "no transform named '" + K.Transform + "'");
    const json::Value &V = *Resolved.value(K.Id);
    Edits.setOrigin(K.Id);
    if (Error E = T->apply(Ctx, K, V, Resolved, Edits))
      return std::move(E);
    if (!(V == K.Default))
      Out.Sequence.push_back({K.Id, K.Transform, V});
  }
  Expected<std::string> Text = Edits.apply();
  if (!Text)
    return makeToolError(ExitCode::Internal, "could not apply the edits: " +
                                                 toString(Text.takeError()));
  Out.Source = std::move(*Text);
  Out.NvccFlags = Edits.flags();
  return Out;
}

Expected<json::Value> readConfigurationDocument(StringRef Path,
                                                StringRef What) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf =
      readInputFile(Path, What, ExitCode::BadConfig);
  if (!Buf)
    return Buf.takeError();
  Expected<json::Value> V = parseJsonBounded((*Buf)->getBuffer());
  if (!V)
    return makeToolError(ExitCode::BadConfig,
                         What + " '" + Path + "' " +
                             (What.ends_with("s") ? "are" : "is") +
                             " not valid JSON: " + toString(V.takeError()));
  return V;
}

Expected<json::Object> readConfiguration(StringRef Path) {
  Expected<json::Value> V = readConfigurationDocument(Path, "configuration");
  if (!V)
    return V.takeError();
  json::Object *O = V->getAsObject();
  if (!O)
    return makeToolError(ExitCode::BadConfig,
                         "configuration '" + Path +
                             "' must be a JSON object mapping knob ids to "
                             "values");
  return std::move(*O);
}

std::string variantFileText(const Variant &V) {
  if (V.NvccFlags.empty())
    return V.Source;
  std::string Flags;
  for (const std::string &F : V.NvccFlags)
    Flags += " " + F;
  // A UTF-8 byte-order mark stays the file's first bytes (nvcc reads one
  // elsewhere as an identifier); the line ends as the file's lines do.
  StringRef Src = V.Source;
  StringRef BOM = Src.starts_with("\xEF\xBB\xBF") ? Src.take_front(3) : "";
  return BOM.str() + "// cuda-rewrite-opt: build this variant with nvcc" +
         Flags + (usesCRLF(Src) ? "\r\n" : "\n") +
         Src.drop_front(BOM.size()).str();
}

} // namespace cro
