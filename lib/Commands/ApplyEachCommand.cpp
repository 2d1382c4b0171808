//===- ApplyEachCommand.cpp - many configurations from one parse ---------===//
//
// Parsing a CUDA file (its CUDA headers, host and device) is most of what
// --apply costs; a caller that wants many variants of one file -- a test
// that builds every knob's ends, an external tuner writing its own
// candidates -- gets them all from one parse here, each with the result
// --apply would have given it.
//
//===----------------------------------------------------------------------===//
#include "cro/Commands/ApplyEachCommand.h"
#include "cro/Rewrite/VariantOutput.h"
#include "cro/Support/AtomicFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cro {

namespace {

Expected<json::Array> readConfigurations(StringRef Path) {
  Expected<json::Value> V = readConfigurationDocument(Path, "configurations");
  if (!V)
    return V.takeError();
  json::Array *A = V->getAsArray();
  if (!A)
    return makeToolError(ExitCode::BadConfig,
                         "configurations '" + Path +
                             "' must be a JSON array of configurations "
                             "(objects mapping knob ids to values)");
  for (size_t I = 0; I < A->size(); ++I)
    if (!(*A)[I].getAsObject())
      return makeToolError(ExitCode::BadConfig,
                           "configuration " + Twine(I) + " of '" + Path +
                               "' is not a JSON object");
  return std::move(*A);
}

/// Writes V as <OutputDir>/<Index>/<FileName> (its rewritten copies of
/// included files beside it); the main file's path.
Expected<std::string> writeVariantInto(const Variant &V, StringRef OutputDir,
                                       size_t Index, StringRef FileName,
                                       const ProgramText &Program) {
  SmallString<256> Dir(OutputDir);
  sys::path::append(Dir, std::to_string(Index));
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return makeToolError(ExitCode::OutputError,
                         "cannot create '" + Dir + "': " + EC.message());
  SmallString<256> File(Dir);
  sys::path::append(File, FileName);
  if (Error E = writeVariant(V, variantFileText(V), File, Program))
    return std::move(E);
  return File.str().str();
}

/// The exit code and message of a failed configuration, as --apply would
/// have printed them.
std::pair<int, std::string> describeFailure(Error E) {
  int Code = static_cast<int>(ExitCode::Internal);
  std::string Message;
  handleAllErrors(
      std::move(E),
      [&](const ToolError &TE) {
        Code = static_cast<int>(TE.code());
        Message = TE.message();
      },
      [&](const ErrorInfoBase &EI) { Message = EI.message(); });
  return {Code, Message};
}

} // namespace

int runApplyEach(StringRef ConfigsFile, StringRef OutputDir,
                 const RewriteContext &Ctx, raw_ostream &Out,
                 raw_ostream &Err) {
  Expected<json::Array> Configs = readConfigurations(ConfigsFile);
  if (!Configs)
    return reportAndGetExitCode(Configs.takeError(), Err);
  // (create_directories succeeds on an existing file: ask first.)
  std::error_code EC =
      sys::fs::exists(OutputDir) && !sys::fs::is_directory(OutputDir)
          ? std::make_error_code(std::errc::not_a_directory)
          : sys::fs::create_directories(OutputDir);
  if (EC)
    return reportAndGetExitCode(
        makeToolError(ExitCode::OutputError, "cannot create the output "
                                             "directory '" +
                                                 OutputDir +
                                                 "': " + EC.message()),
        Err);
  StringRef FileName = sys::path::filename(Ctx.FilePath);
  for (size_t I = 0; I < Configs->size(); ++I) {
    json::Object Line{{"index", static_cast<int64_t>(I)}};
    Expected<Variant> V = applyConfiguration(Ctx, *(*Configs)[I].getAsObject());
    Expected<std::string> File =
        V ? writeVariantInto(*V, OutputDir, I, FileName, Ctx.Model.Program)
          : Expected<std::string>(V.takeError());
    if (File) {
      Line["exit_code"] = 0;
      Line["file"] = *File;
      json::Array Flags;
      for (const std::string &F : V->NvccFlags)
        Flags.push_back(F);
      Line["nvcc_flags"] = std::move(Flags);
    } else {
      auto [Code, Message] = describeFailure(File.takeError());
      Line["exit_code"] = Code;
      Line["error"] = Message;
    }
    Out << json::Value(std::move(Line)) << "\n";
  }
  return 0;
}

} // namespace cro
