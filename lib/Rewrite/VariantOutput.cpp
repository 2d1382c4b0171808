#include "cro/Rewrite/VariantOutput.h"
#include "cro/Report/UnifiedDiff.h"
#include "cro/Support/AtomicFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cro {

std::string includedFileTag(StringRef MainOutput) {
  if (MainOutput.empty() || MainOutput == "-")
    return "cro";
  std::string Stem = sys::path::stem(MainOutput).str();
  return Stem.empty() ? "cro" : Stem;
}

std::vector<std::pair<std::string, std::string>>
includedProgramFiles(const ProgramText &Program) {
  std::vector<std::pair<std::string, std::string>> Out;
  for (size_t I = 1; I < Program.files().size(); ++I) {
    const ProgramFile &F = Program.files()[I];
    if (!F.RelativePath.empty())
      Out.push_back({F.RelativePath, Program.textOf(F).str()});
  }
  return Out;
}

std::vector<std::pair<std::string, std::string>>
copiesToBuild(const Variant &V) {
  std::vector<std::pair<std::string, std::string>> Out;
  for (const RewrittenFile &F : V.Files)
    Out.push_back({F.Relative, F.Text});
  return Out;
}

/// Where the copy at Relative goes beside MainOutput.
static std::string copyPath(StringRef MainOutput, StringRef Relative) {
  SmallString<256> P(sys::path::parent_path(MainOutput));
  sys::path::append(P, Relative);
  return P.str().str();
}

std::vector<std::string> variantOutputPaths(const Variant &V,
                                            StringRef MainOutput) {
  std::vector<std::string> Out;
  for (const RewrittenFile &F : V.Files)
    Out.push_back(copyPath(MainOutput, F.Relative));
  Out.push_back(MainOutput.str());
  return Out;
}

/// Copy's text with each `#include` of an unchanged user file naming it
/// from CopyDir, where the copy is written.
static std::string repointIncludes(const RewrittenFile &Copy,
                                   StringRef CopyDir) {
  std::string Text = Copy.Text;
  for (const auto &[Written, Target] : Copy.UnchangedIncludes) {
    // The directive's line, as the original spelled it: `#include "x.h"`.
    for (size_t At = Text.find(Written); At != std::string::npos;
         At = Text.find(Written, At + 1)) {
      size_t LineBegin = Text.rfind('\n', At);
      LineBegin = LineBegin == std::string::npos ? 0 : LineBegin + 1;
      StringRef Before = StringRef(Text).slice(LineBegin, At).trim();
      if (!Before.consume_front("#") || Before.ltrim() != "include")
        continue;
      Text.replace(At, Written.size(), "\"" + pathFrom(CopyDir, Target) + "\"");
      break;
    }
  }
  return Text;
}

/// Writes Text to Path unless Path already holds exactly Text (a build
/// system then sees no change and recompiles nothing).
static Error writeIfChanged(StringRef Path, StringRef Text) {
  if (sys::fs::is_regular_file(Path))
    if (auto Old = MemoryBuffer::getFile(Path);
        Old && (*Old)->getBuffer() == Text)
      return Error::success();
  return writeFileAtomically(Path, Text);
}

Error writeVariant(const Variant &V, StringRef MainText, StringRef MainOutput,
                   const ProgramText &Program) {
  bool ToStdout = MainOutput.empty() || MainOutput == "-";
  if (ToStdout && !V.Files.empty()) {
    std::string Names;
    for (const RewrittenFile &F : V.Files)
      Names += (Names.empty() ? "'" : ", '") + F.Original + "'";
    return makeToolError(
        ExitCode::Usage,
        "this variant also rewrites " + Names +
            ", which the input includes; give -o FILE so that the rewritten "
            "copies can be written beside it (stdout holds one file)");
  }
  std::vector<std::string> Paths = variantOutputPaths(V, MainOutput);
  if (ToStdout)
    Paths.pop_back();
  // The output's directory must exist (as for any -o): checked before a
  // copy is written, so that a failure leaves no part of the variant.
  if (!ToStdout && !V.Files.empty()) {
    SmallString<256> OutDir(sys::path::parent_path(MainOutput));
    if (!OutDir.empty() && !sys::fs::is_directory(OutDir))
      return makeToolError(ExitCode::OutputError,
                           "cannot write '" + MainOutput +
                               "': no directory '" + OutDir + "'");
  }
  // Never over a file of the program: checked for every output before any
  // is written.
  for (const std::string &P : Paths)
    for (const ProgramFile &F : Program.files())
      if (sys::fs::equivalent(P, F.Path))
        return makeToolError(ExitCode::OutputError,
                             "the output '" + P + "' is the program's file '" +
                                 F.Display + "'; refusing to overwrite it");
  // Beside the input, a copy's includes of unchanged files find them as
  // the original's do; elsewhere they must name them from the copy.
  bool BesideInput = true;
  if (!V.Files.empty() && !Program.files().empty()) {
    SmallString<256> OutDir(sys::path::parent_path(MainOutput));
    if (OutDir.empty())
      OutDir = ".";
    BesideInput = sys::fs::equivalent(
        OutDir, sys::path::parent_path(Program.files().front().Path));
  }
  for (size_t I = 0; I < V.Files.size(); ++I) {
    SmallString<256> Dir(sys::path::parent_path(Paths[I]));
    if (std::error_code EC = sys::fs::create_directories(Dir))
      return makeToolError(ExitCode::OutputError,
                           "cannot create the directory of '" + Paths[I] +
                               "': " + EC.message());
    std::string Text = V.Files[I].Text;
    if (!BesideInput) {
      sys::fs::make_absolute(Dir);
      sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
      Text = repointIncludes(V.Files[I], Dir);
    }
    if (Error E = writeIfChanged(Paths[I], Text))
      return E;
  }
  if (ToStdout)
    return writeOutput(MainOutput, MainText);
  return writeIfChanged(MainOutput, MainText);
}

std::string variantDiff(const Variant &V, StringRef OriginalMain,
                        StringRef MainText, StringRef MainPath,
                        const ProgramText &Program) {
  std::string Out = unifiedDiff(OriginalMain, MainText, MainPath);
  StringRef Dir = sys::path::parent_path(MainPath);
  auto FromMainDir = [&](StringRef Relative) {
    SmallString<256> P(Dir);
    sys::path::append(P, Relative);
    return P.str().str();
  };
  for (const RewrittenFile &F : V.Files) {
    StringRef Before;
    for (const ProgramFile &PF : Program.files())
      if (!PF.RelativePath.empty() && PF.RelativePath == F.OriginalRelative &&
          &PF != &Program.files().front())
        Before = Program.textOf(PF);
    Out += unifiedCopyDiff(Before, F.Text, FromMainDir(F.OriginalRelative),
                           FromMainDir(F.Relative));
  }
  return Out;
}

} // namespace cro
