#include "cro/Tune/Replay.h"
#include "cro/Rewrite/VariantOutput.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace cro {

Expected<ReplayChoice> chooseReplay(TuningDatabase &Db, StringRef Hash,
                                    StringRef Gpu) {
  ReplayChoice C;
  C.Gpu = Gpu.str();
  if (C.Gpu.empty()) {
    Expected<std::vector<std::string>> Gpus = Db.gpusWithResults(Hash);
    if (!Gpus)
      return Gpus.takeError();
    if (Gpus->size() > 1)
      return makeToolError(ExitCode::Usage,
                           "no GPU here, and the database has results for "
                           "several GPUs (" +
                               join(*Gpus, ", ") + "): choose one with --gpu");
    if (Gpus->size() == 1)
      C.Gpu = Gpus->front();
  }
  if (C.Gpu.empty())
    return C;
  // The main command's confirmed choice wins over the fastest single
  // measurement: it was re-measured against the original, and it is the
  // original when nothing beat it beyond the noise.
  Expected<std::optional<DecisionRecord>> D = Db.latestDecision(Hash, C.Gpu);
  if (!D)
    return D.takeError();
  if (*D) {
    EvaluationRecord Chosen;
    Chosen.SourceHash = Hash.str();
    Chosen.Config = (*D)->Config;
    Chosen.Verdict = "verified";
    Chosen.Where.Gpu = C.Gpu;
    if ((*D)->OriginalMs && (*D)->VariantMs) {
      Chosen.OriginalMs = (*D)->OriginalMs;
      Chosen.MedianMs = (*D)->VariantMs;
    } else {
      // A decision recorded before its times were kept: the speed-up is
      // all there is, as a ratio of times.
      Chosen.OriginalMs = 1.0;
      Chosen.MedianMs = 1.0 / (*D)->Speedup;
    }
    C.Best = std::move(Chosen);
    C.Confirmed = true;
    return C;
  }
  Expected<std::optional<EvaluationRecord>> B = Db.bestVerified(Hash, C.Gpu);
  if (!B)
    return B.takeError();
  C.Best = std::move(*B);
  return C;
}

namespace {

/// A database row's configuration applied to today's knobs: malformed, or
/// refused by them (the transforms changed since it was tuned), it is an
/// error, never guessed at.
Expected<Variant> replayed(const RewriteContext &Ctx, StringRef Config) {
  Expected<json::Value> C = json::parse(Config);
  if (!C)
    return makeToolError(ExitCode::BadConfig,
                         "its configuration " + Config +
                             " is not valid JSON (" + toString(C.takeError()) +
                             ")");
  if (!C->getAsObject())
    return makeToolError(ExitCode::BadConfig, "its configuration " + Config +
                                                  " is not a JSON object");
  if (Error E = validateConfiguration(Ctx.Knobs, *C->getAsObject()))
    return std::move(E);
  return applyConfiguration(Ctx, *C->getAsObject());
}

} // namespace

Expected<ReplayOutcome> replayFromDatabase(const RewriteContext &Ctx,
                                           StringRef DbPath, StringRef Hash,
                                           StringRef Gpu) {
  ReplayOutcome R;
  R.Chosen.Source = Ctx.mainSource().str();
  R.Text = R.Chosen.Source;
  auto Unchanged = [&](const Twine &Why) {
    R.Note = (Why + "; wrote the original unchanged").str();
    return std::move(R);
  };
  // No database yet is the ordinary state of a fresh build machine; one
  // that exists is opened for reading only (a replay never creates one).
  if (!sys::fs::exists(DbPath))
    return Unchanged("no tuned result for '" + Ctx.FilePath +
                     "': the tuning database " + DbPath +
                     " does not exist (yet)");
  std::unique_ptr<TuningDatabase> Db;
  Expected<ReplayChoice> Choice = [&]() -> Expected<ReplayChoice> {
    Expected<std::unique_ptr<TuningDatabase>> Opened =
        TuningDatabase::openForReading(DbPath);
    if (!Opened)
      return Opened.takeError();
    Db = std::move(*Opened);
    return chooseReplay(*Db, Hash, Gpu);
  }();
  if (!Choice) {
    // A database the replay cannot read must not break the build: the
    // original is a correct program. A command line it cannot serve
    // (several GPUs, none chosen) is still an error.
    ExitCode Code = ExitCode::OutputError;
    std::string Message;
    handleAllErrors(
        Choice.takeError(),
        [&](const ToolError &T) {
          Code = T.code();
          Message = T.message();
        },
        [&](const ErrorInfoBase &B) { Message = B.message(); });
    if (Code == ExitCode::Usage)
      return makeToolError(Code, Message);
    return Unchanged("warning: " + Message + ": no tuned result to replay");
  }
  if (!Choice->Best)
    return Unchanged("no tuned result for '" + Ctx.FilePath + "'" +
                     (Choice->Gpu.empty() ? "" : " on " + Choice->Gpu) +
                     " in the tuning database (with these build flags and "
                     "arguments)");
  const EvaluationRecord &Best = *Choice->Best;
  Expected<Variant> V = replayed(Ctx, Best.Config);
  if (!V)
    return Unchanged("warning: the tuning database's result for '" +
                     Ctx.FilePath + "' on " + Choice->Gpu +
                     " cannot be replayed: " + toString(V.takeError()));
  R.Text = variantFileText(*V);
  R.Chosen = std::move(*V);
  R.Tuned = true;
  double Speedup = Best.OriginalMs && Best.MedianMs && *Best.MedianMs > 0
                       ? *Best.OriginalMs / *Best.MedianMs
                       : 1.0;
  if (!Choice->Confirmed)
    R.Note = formatv("replayed the best verified variant on {0}: {1:f4} ms, "
                     "{2:f2}x the original ({3})",
                     Choice->Gpu, Best.MedianMs.value_or(0), Speedup,
                     Best.Config)
                 .str();
  else
    R.Note = formatv("replayed the confirmed choice of the last tuning run "
                     "on {0}: {1:f2}x the original ({2})",
                     Choice->Gpu, Speedup,
                     Best.Config == "{}" ? "the original itself" : Best.Config)
                 .str();
  return std::move(R);
}

} // namespace cro
