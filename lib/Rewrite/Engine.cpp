#include "cro/Rewrite/Engine.h"
#include "cro/Rewrite/Registry.h"
#include "cro/Support/InputFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

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

const LoopInfo *loopNamed(const KernelInfo &K, StringRef Id) {
  for (const LoopInfo &L : K.Loops)
    if (L.Id == Id)
      return &L;
  return nullptr;
}

const LoopInfo *loopOf(const KernelInfo &K, const Knob &Kn) {
  return loopNamed(K, StringRef(Kn.Id).rsplit('.').second);
}

std::string taggedPath(StringRef Relative, StringRef Tag) {
  StringRef Dir = sys::path::parent_path(Relative);
  StringRef Name = sys::path::filename(Relative);
  StringRef Ext = sys::path::extension(Name);
  std::string Tagged = (sys::path::stem(Name) + "." + Tag + Ext).str();
  return Dir.empty() ? Tagged : (Dir + "/" + Tagged).str();
}

std::string whyFileCannotBeRewritten(const ProgramText &Program,
                                     unsigned Offset) {
  // Walks from the file up through its includers: each must be writable.
  std::vector<const ProgramFile *> Work{Program.fileAt(Offset)};
  std::set<const ProgramFile *> Seen;
  while (!Work.empty()) {
    const ProgramFile *F = Work.back();
    Work.pop_back();
    if (!F || !Seen.insert(F).second)
      continue;
    if (F == &Program.files().front())
      continue; // the main file
    if (F->RelativePath.empty())
      return "'" + F->Display +
             "' is outside the input file's directory, where the tool "
             "cannot place a rewritten copy that its includers find";
    if (F->IncludedWithoutDirective || F->IncludedAt.empty())
      return "'" + F->Display +
             "' is included other than by an `#include \"...\"` line of "
             "the program's own files (a macro, -include, a system header), "
             "which the tool cannot point at a rewritten copy";
    for (const IncludeDirective &D : F->IncludedAt)
      Work.push_back(&Program.files()[D.Includer]);
  }
  return "";
}

/// Why no transform may edit kernel K, or "": every transform edits the
/// kernel's definition, its launches or both, so the files holding them
/// must be ones the tool can write a rewritten copy of.
static std::string whyKernelCannotBeRewritten(const RewriteContext &Ctx,
                                              const KernelInfo &K) {
  const ProgramText &Program = Ctx.Model.Program;
  if (Program.files().empty()) // no program text: the main file only
    return K.InMainFile ? "" : "the kernel is not defined in the input file";
  if (std::string Why = whyFileCannotBeRewritten(Program, K.Span.BeginOffset);
      !Why.empty())
    return "the kernel is defined in a file the tool cannot rewrite: " + Why;
  for (const LaunchSite &L : K.Launches)
    if (std::string Why = whyFileCannotBeRewritten(Program, L.Span.BeginOffset);
        !Why.empty())
      return "the kernel is launched at " + L.Location +
             ", in a file the tool cannot rewrite: " + Why;
  return "";
}

namespace {

/// For a program Clang could not parse: what needs no model of the source
/// stays (a compiler flag is legal whatever the kernels do); everything
/// else -- none fires without kernels today, and none may if one learns to
/// -- is refused with the parse error as the reason.
void keepCompilerFlagsOnly(const KernelModel &Model,
                           const TransformRegistry &Transforms,
                           KnobSet &Offered) {
  auto IsFlag = [](KnobRole R) {
    return R == KnobRole::CompilerFlag || R == KnobRole::RegisterCap;
  };
  llvm::erase_if(Offered.Knobs, [&](const Knob &K) { return !IsFlag(K.Role); });
  for (const auto &T : Transforms.transforms())
    if (!IsFlag(T->role()))
      Offered.Refused.push_back(
          {"", std::string(T->name()),
           "Clang could not parse the program (" + Model.Unparsed +
               "), so its kernels are not modelled and no source is "
               "rewritten; only compiler flags are offered",
           ""});
}

} // namespace

void describeKnobs(RewriteContext &Ctx) {
  // Transforms describe against a context without knobs (what one offers
  // does not depend on what another does); the set is filled at the end.
  KnobSet Offered;
  Ctx.Knobs = {};
  for (const auto &T : Ctx.Transforms.transforms()) {
    KnobSink Sink(Offered, T->name(), T->role());
    for (const KernelInfo &K : Ctx.Model.Kernels) {
      if (std::string Why = whyKernelCannotBeRewritten(Ctx, K); !Why.empty()) {
        Sink.refuse(K.Id, Why, K.Location);
        continue;
      }
      T->describe(Ctx, K, Sink);
    }
    T->describeFile(Ctx, Sink);
  }
  if (!Ctx.Model.Unparsed.empty())
    keepCompilerFlagsOnly(Ctx.Model, Ctx.Transforms, Offered);
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

/// Cuts the edits of the program text into files: Out.Source is the main
/// file with its edits; Out.Files the rewritten copies of the other files
/// edited, and of every file on the way from each up to the main file,
/// whose `#include` lines are changed to name the copies.
static Error splitIntoFiles(const RewriteContext &Ctx, const EditSet &Edits,
                            Variant &Out) {
  const ProgramText &Program = Ctx.Model.Program;
  auto Failed = [](const Twine &Why) {
    return makeToolError(ExitCode::Internal,
                         "could not apply the edits: " + Why);
  };
  if (Program.files().empty()) { // no program text: Source is the main file
    Expected<std::string> Text = Edits.apply();
    if (!Text)
      return Failed(toString(Text.takeError()));
    Out.Source = std::move(*Text);
    return Error::success();
  }
  const std::vector<ProgramFile> &Files = Program.files();
  std::vector<std::vector<const Edit *>> ByFile(Files.size());
  for (const Edit &E : Edits.edits()) {
    const ProgramFile *F = Program.fileAt(E.Offset);
    if (!F || E.Offset + E.Length > F->Begin + F->Size)
      return Failed("knob '" + E.Origin + "' edits the text at offset " +
                    Twine(E.Offset) + ", which is not within one file");
    ByFile[Program.indexOf(*F)].push_back(&E);
  }
  // The files to write: those edited, and their includers up to the main
  // file (each includer's line must name the copy).
  std::vector<bool> Rewritten(Files.size(), false);
  std::vector<unsigned> Work;
  for (unsigned I = 1; I < Files.size(); ++I)
    if (!ByFile[I].empty())
      Work.push_back(I);
  while (!Work.empty()) {
    unsigned I = Work.back();
    Work.pop_back();
    if (I == 0 || Rewritten[I])
      continue;
    std::string Origin =
        ByFile[I].empty() ? "an #include line" : ByFile[I].front()->Origin;
    if (std::string Why = whyFileCannotBeRewritten(Program, Files[I].Begin);
        !Why.empty())
      return makeToolError(ExitCode::BadConfig,
                           "knob '" + Origin + "' would change '" +
                               Files[I].Display + "', but " + Why);
    Rewritten[I] = true;
    for (const IncludeDirective &D : Files[I].IncludedAt)
      Work.push_back(D.Includer);
  }
  // The `#include` lines that name a rewritten file name its copy instead.
  std::vector<Edit> Renames;
  for (unsigned I = 1; I < Files.size(); ++I) {
    if (!Rewritten[I])
      continue;
    for (const IncludeDirective &D : Files[I].IncludedAt) {
      StringRef Written = Program.text().slice(D.NameBegin, D.NameEnd);
      StringRef Name = Written.drop_front().drop_back(); // quotes, <>
      size_t Slash = Name.rfind('/');
      StringRef Dir =
          Slash == StringRef::npos ? "" : Name.take_front(Slash + 1);
      StringRef Leaf =
          Slash == StringRef::npos ? Name : Name.drop_front(Slash + 1);
      std::string New = Written.take_front(1).str() + Dir.str() +
                        taggedPath(Leaf, Ctx.IncludedFileTag) +
                        Written.take_back(1).str();
      Renames.push_back({D.NameBegin, D.NameEnd - D.NameBegin, New,
                         "the #include of " + Files[I].Display});
    }
  }
  for (const Edit &E : Renames)
    ByFile[Program.fileAt(E.Offset) - Files.data()].push_back(&E);

  for (unsigned I = 0; I < Files.size(); ++I) {
    if (I != 0 && !Rewritten[I])
      continue;
    const ProgramFile &F = Files[I];
    EditSet FileEdits(Program.textOf(F), F.Display);
    for (const Edit *E : ByFile[I]) {
      FileEdits.setOrigin(E->Origin);
      if (Error Err =
              FileEdits.replace(E->Offset - F.Begin, E->Length, E->Text))
        return Err;
    }
    Expected<std::string> Text = FileEdits.apply();
    if (!Text)
      return Failed(toString(Text.takeError()));
    if (I == 0) {
      Out.Source = std::move(*Text);
      continue;
    }
    RewrittenFile Copy{F.Display, F.RelativePath,
                       taggedPath(F.RelativePath, Ctx.IncludedFileTag),
                       std::move(*Text)};
    for (unsigned J = 1; J < Files.size(); ++J)
      if (!Rewritten[J])
        for (const IncludeDirective &D : Files[J].IncludedAt)
          if (D.Includer == I)
            Copy.UnchangedIncludes.push_back(
                {Program.text().slice(D.NameBegin, D.NameEnd).str(),
                 Files[J].Path});
    Out.Files.push_back(std::move(Copy));
  }
  return Error::success();
}

Expected<Variant> applyConfiguration(const RewriteContext &Ctx,
                                     const json::Object &Config) {
  if (Error E = validateConfiguration(Ctx.Knobs, Config)) {
    if (Ctx.Model.Unparsed.empty())
      return std::move(E);
    return makeToolError(
        ExitCode::BadConfig,
        toString(std::move(E)) + "; Clang could not parse the program (" +
            Ctx.Model.Unparsed + "), so only compiler flags are offered");
  }
  ResolvedConfig Resolved(Ctx.Knobs.Knobs);
  for (const auto &KV : Config)
    Resolved.set(KV.first.str(), KV.second);

  EditSet Edits = Ctx.Model.Program.files().empty()
                      ? EditSet(Ctx.Source, Ctx.FilePath)
                      : EditSet(Ctx.Model.Program);
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
  if (Error E = splitIntoFiles(Ctx, Edits, Out))
    return std::move(E);
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
  if (V.NvccFlags.empty() && V.Files.empty())
    return V.Source;
  // A UTF-8 byte-order mark stays the file's first bytes (nvcc reads one
  // elsewhere as an identifier); the lines end as the file's lines do.
  StringRef Src = V.Source;
  StringRef BOM = Src.starts_with("\xEF\xBB\xBF") ? Src.take_front(3) : "";
  StringRef EOL = usesCRLF(Src) ? "\r\n" : "\n";
  std::string Header;
  if (!V.NvccFlags.empty()) {
    Header += "// cuda-rewrite-opt: build this variant with nvcc";
    for (const std::string &F : V.NvccFlags)
      Header += " " + F;
    Header += EOL;
  }
  for (const RewrittenFile &F : V.Files)
    Header += "// cuda-rewrite-opt: this variant also rewrites " +
              F.OriginalRelative + ", as " + F.Relative + " beside this file" +
              EOL.str();
  return BOM.str() + Header + Src.drop_front(BOM.size()).str();
}

} // namespace cro
