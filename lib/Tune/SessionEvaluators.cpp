#include "cro/Tune/SessionEvaluators.h"
#include "cro/Rewrite/VariantOutput.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>

using namespace llvm;

namespace cro {

GpuTuningEvaluator::GpuTuningEvaluator(const RewriteContext &Ctx,
                                       const SearchSpace &Space,
                                       GpuEvaluatorOptions Opts)
    : Ctx(Ctx), Space(Space), Opts(Opts), Gpu(Ctx, Space, std::move(Opts)) {}

Confirmation GpuTuningEvaluator::confirm(const Point &P, unsigned Runs) {
  Confirmation C;
  Expected<Variant> V = applyConfiguration(Ctx, Space.config(P));
  if (!V) {
    C.Rejection = toString(V.takeError());
    return C;
  }
  Builder B(Opts.Build);
  Expected<std::vector<BuildResult>> Built =
      B.build({{Ctx.mainSource().str(), {}},
               {V->Source, V->NvccFlags, copiesToBuild(*V)}});
  if (!Built) {
    C.Rejection = toString(Built.takeError());
    return C;
  }
  if (!(*Built)[0].Ok || !(*Built)[1].Ok) {
    C.Rejection =
        "does not compile any more: " + (*Built)[(*Built)[0].Ok ? 1 : 0].Log;
    return C;
  }
  OriginalExe = (*Built)[0].Executable;
  VariantExe = (*Built)[1].Executable;
  EvaluateOptions EO = Opts.Eval;
  EO.Runs = std::max(2u, Runs);
  // Held to the same standard as in the search: the original's own
  // run-to-run differences, measured when the search began.
  EO.OriginalNoise = Gpu.originalNoise();
  C.Detail = cro::evaluate(OriginalExe, VariantExe, Ctx.Model, EO);
  C.Verified = C.Detail.Verified;
  C.Rejection = C.Detail.Rejection;
  C.OriginalMs = runObjectivesMs(C.Detail.Original);
  C.VariantMs = runObjectivesMs(C.Detail.Variant);
  return C;
}

RecordedTuningEvaluator::RecordedTuningEvaluator(RecordedSpace &Recording,
                                                 TuningDatabase *Db,
                                                 std::string Hash,
                                                 Platform Where, Noise N)
    : Recording(Recording), Db(Db), Hash(std::move(Hash)),
      Where(std::move(Where)), N(N), Rng(N.Seed) {}

double RecordedTuningEvaluator::draw(double Ms) {
  if (N.Relative <= 0)
    return Ms;
  std::normal_distribution<double> D(0.0, N.Relative);
  return Ms * std::exp(D(Rng));
}

Error RecordedTuningEvaluator::measureOriginal() {
  const SearchSpace &Space = Recording.space();
  std::optional<Trial> T = Recording.result(Space.defaultPoint());
  if (!T || !T->ok())
    return makeToolError(ExitCode::NotVerified,
                         "the recording '" + Recording.name() +
                             "' has no verified result for the original "
                             "(the space's default point)");
  Original = *T;
  Original.P = Space.defaultPoint();
  Original.Key = Space.key(Original.P);
  // A resumed session keeps the original's recorded time, as on the GPU:
  // the strategy sees the history it saw before.
  if (Db) {
    Expected<std::optional<EvaluationRecord>> R =
        Db->find(Hash, Original.Key, Where);
    if (!R)
      DbProblem = toString(R.takeError());
    else if (*R && (*R)->Verdict == "verified" && (*R)->MedianMs) {
      Original.Time = (*R)->MedianMs;
      return Error::success();
    }
  }
  record(Original);
  return Error::success();
}

json::Value recordedPointJSON(RecordedSpace &Recording, const Point &P) {
  std::optional<Trial> R = Recording.result(P);
  if (!R) {
    R = Trial();
    R->Verdict = "invalid";
    R->Reason = "not in the recorded space";
  }
  R->P = P;
  return toJSON(*R, Recording.space());
}

void RecordedTuningEvaluator::evaluateThrough(Executor &E,
                                              std::vector<std::string> W,
                                              std::string Dir) {
  Via = &E;
  Worker = std::move(W);
  WorkDir = std::move(Dir);
}

std::vector<Trial>
RecordedTuningEvaluator::evaluateRemotely(ArrayRef<Proposal> Batch) {
  const SearchSpace &Space = Recording.space();
  std::vector<Trial> Got(Batch.size());
  runOnSlots(Via->slots(), Batch.size(), [&](size_t I, unsigned Slot) {
    Trial &T = Got[I];
    std::string Name = WorkDir + "/point." + std::to_string(Jobs + I);
    ProcessOptions PO;
    PO.StdoutFile = Name + ".json";
    PO.StderrFile = Name + ".err";
    PO.TimeoutSeconds = 600;
    std::vector<std::string> Argv = Worker;
    Argv.push_back("--evaluate-point=" + Space.key(Batch[I].P));
    ProcessResult R = Via->run(Argv, PO, JobKind::Run, Slot);
    auto Out = MemoryBuffer::getFile(PO.StdoutFile);
    auto ErrText = MemoryBuffer::getFile(PO.StderrFile);
    sys::fs::remove(PO.StdoutFile);
    sys::fs::remove(PO.StderrFile);
    T.Verdict = "run-failed";
    if (!R.succeeded()) {
      T.Reason = R.describe();
      // A program's own failure says more in its stderr; the executor's
      // reasons (not started, lost) already quote what it said.
      if (R.Started && R.Lost.empty() && ErrText &&
          !(*ErrText)->getBuffer().trim().empty())
        T.Reason += ": " + (*ErrText)->getBuffer().trim().take_back(500).str();
      return;
    }
    Expected<json::Value> V =
        json::parse(Out ? (*Out)->getBuffer() : StringRef());
    const json::Object *O = V ? V->getAsObject() : nullptr;
    if (!O) {
      if (!V)
        consumeError(V.takeError());
      T.Reason = "the evaluation printed no result";
      return;
    }
    T.Verdict = O->getString("verdict").value_or("run-failed").str();
    T.Reason = O->getString("reason").value_or("").str();
    if (std::optional<double> Ms = O->getNumber("time_ms"))
      T.Time = *Ms;
    T.Spread = O->getNumber("spread_ms").value_or(0);
    T.Registers = O->getNumber("registers");
    T.Occupancy = O->getNumber("occupancy");
  });
  Jobs += Batch.size();
  return Got;
}

std::vector<Trial> RecordedTuningEvaluator::evaluate(ArrayRef<Proposal> Batch) {
  const SearchSpace &Space = Recording.space();
  std::vector<Trial> Out;
  std::vector<Trial> Remote;
  if (Via)
    Remote = evaluateRemotely(Batch);
  for (size_t I = 0; I < Batch.size(); ++I) {
    const Proposal &P = Batch[I];
    Trial T;
    if (Via) {
      T = std::move(Remote[I]);
      if (T.Time)
        T.Time = draw(*T.Time);
    } else if (std::optional<Trial> R = Recording.result(P.P)) {
      T = *R;
      if (T.Time)
        T.Time = draw(*T.Time);
    } else {
      T.Verdict = "invalid";
      T.Reason = "not in the recorded space";
    }
    T.P = P.P;
    T.Key = Space.key(P.P);
    ++Measured;
    record(T);
    Out.push_back(std::move(T));
  }
  return Out;
}

std::optional<Trial> RecordedTuningEvaluator::known(const Point &P) {
  const SearchSpace &Space = Recording.space();
  if (Original.Time && P == Space.defaultPoint())
    return Original;
  if (!Db)
    return std::nullopt;
  Expected<std::optional<EvaluationRecord>> R =
      Db->find(Hash, Space.key(P), Where);
  if (!R) {
    DbProblem = toString(R.takeError());
    return std::nullopt;
  }
  if (!*R)
    return std::nullopt;
  Trial T;
  T.P = P;
  T.Key = (*R)->Config;
  T.Verdict = (*R)->Verdict;
  T.Reason = (*R)->Reason;
  T.Time = (*R)->Verdict == "verified" ? (*R)->MedianMs : std::nullopt;
  T.Resumed = true;
  return T;
}

Confirmation RecordedTuningEvaluator::confirm(const Point &P, unsigned Runs) {
  Confirmation C;
  std::optional<Trial> R = Recording.result(P);
  if (!R || !R->ok()) {
    C.Rejection = R ? R->Verdict + (R->Reason.empty() ? "" : ": " + R->Reason)
                    : "not in the recorded space";
    return C;
  }
  std::optional<Trial> O = Recording.result(Recording.space().defaultPoint());
  for (unsigned I = 0; I < Runs; ++I) {
    C.OriginalMs.push_back(draw(*O->Time));
    C.VariantMs.push_back(draw(*R->Time));
  }
  C.Verified = true;
  return C;
}

void RecordedTuningEvaluator::record(const Trial &T) {
  if (!Db)
    return;
  EvaluationRecord E;
  E.SourceHash = Hash;
  E.File = Recording.name();
  E.Config = T.Key;
  E.Sequence = "[]";
  E.Where = Where;
  E.Verdict = T.Verdict;
  E.Reason = T.Reason;
  E.MedianMs = T.Time;
  E.SpreadMs = T.Spread;
  E.OriginalMs = Original.Time;
  E.Strategy = "recorded";
  if (Error Err = Db->record(E))
    DbProblem = toString(std::move(Err));
}

} // namespace cro
