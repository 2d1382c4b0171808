#include "cro/Search/RecordedSpace.h"
#include "cro/Search/KernelTunerFormats.h"
#include "cro/Support/InputFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

using namespace llvm;

namespace cro {

Expected<RecordedSpace> RecordedSpace::load(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf =
      readInputFile(Path, "the recorded space", ExitCode::InputUnreadable);
  if (!Buf)
    return Buf.takeError();
  Expected<std::string> Text = inflateIfGzip((*Buf)->getBuffer(), Path);
  if (!Text)
    return Text.takeError();
  Expected<json::Value> V = parseJsonBounded(*Text);
  if (!V)
    return makeToolError(ExitCode::BadConfig,
                         Path.str() + ": not JSON: " + toString(V.takeError()));
  // A Kernel Tuner cache or T4 results file is converted first.
  StringRef Name = sys::path::filename(Path);
  for (StringRef Suffix : {".gz", ".json"})
    Name.consume_back(Suffix);
  if (std::optional<Expected<json::Value>> Foreign =
          foreignRecording(*V, Name)) {
    if (!*Foreign)
      return Foreign->takeError();
    return fromJSON(**Foreign, Path);
  }
  return fromJSON(*V, Path);
}

Expected<RecordedSpace> RecordedSpace::fromJSON(const json::Value &V,
                                                StringRef Where) {
  auto Bad = [&](const Twine &Why) {
    return makeToolError(ExitCode::BadConfig, Where.str() + ": " + Why.str());
  };
  Expected<SearchSpace> S = SearchSpace::fromJSON(V);
  if (!S)
    return S.takeError();
  RecordedSpace R;
  R.Space = std::make_unique<SearchSpace>(std::move(*S));
  const json::Object &O = *V.getAsObject();
  // Absent in hand-converted spaces; present, it must be this format.
  if (const json::Value *F = O.get("format");
      F && F->getAsString() != std::optional<StringRef>(RecordedSpaceFormat))
    return Bad("\"format\" is not \"" + Twine(RecordedSpaceFormat) +
               "\" (a file of another kind or version)");
  R.Name = O.getString("name").value_or(Where).str();
  R.Gpu = O.getString("gpu").value_or("").str();
  if (const json::Value *F = O.get("features")) {
    json::Path::Root Root;
    if (!cro::fromJSON(*F, R.Features, Root))
      return Bad("malformed \"features\"");
  }
  const json::Array *Points = O.getArray("points");
  if (!Points)
    return Bad("no \"points\" array");
  // Where each configuration was first listed: a second listing would
  // leave the simulation one of two results, and the optimum maybe a point
  // the search can never see.
  std::map<Point, size_t> Listed;
  for (const auto &[Index, PV] : enumerate(*Points)) {
    const json::Object *PO = PV.getAsObject();
    const json::Object *Config = PO ? PO->getObject("config") : nullptr;
    auto Verdict = PO ? PO->getString("verdict") : std::nullopt;
    if (!Config || !Verdict)
      return Bad("every point needs a \"config\" object and a \"verdict\"");
    Expected<Point> P = R.Space->pointOf(*Config);
    if (!P)
      return Bad("a point outside the knobs: " + toString(P.takeError()));
    if (auto [It, New] = Listed.try_emplace(*P, Index); !New)
      return Bad("point " + Twine(Index) + " has the configuration of point " +
                 Twine(It->second) + " (each configuration once)");
    if (!isTrialVerdict(*Verdict))
      return Bad("point " + Twine(Index) + " has the unknown verdict \"" +
                 *Verdict +
                 "\" (one of verified, rejected, build-failed, "
                 "run-failed, invalid)");
    Trial T;
    T.P = *P;
    T.Verdict = Verdict->str();
    T.Reason = PO->getString("reason").value_or("").str();
    if (T.Verdict == "verified") {
      auto Time = PO->getNumber("time_ms");
      if (!Time || *Time <= 0)
        return Bad("a verified point needs a positive \"time_ms\"");
      T.Time = *Time;
    }
    T.Spread = PO->getNumber("spread_ms").value_or(0);
    if (auto X = PO->getNumber("registers"))
      T.Registers = *X;
    if (auto X = PO->getNumber("occupancy"))
      T.Occupancy = *X;
    if (T.Verdict != "invalid")
      (*R.Results)[T.P] = T;
  }
  if (R.Results->empty())
    return Bad("the recording has no evaluated point");
  // Every recording measures the original first: speedups, the search's
  // baseline and the simulation's start are relative to it.
  auto Original = R.Results->find(R.Space->defaultPoint());
  if (Original == R.Results->end() || !Original->second.ok())
    return Bad("no verified point for the original (the configuration of "
               "every knob's default, {} for short)");
  std::shared_ptr<std::map<Point, Trial>> Results = R.Results;
  R.Space->setLegalityOracle([Results](const json::Object &,
                                       const Point &P) -> std::string {
    return Results->count(P) ? ""
                             : "not in the recorded space (the tool refused "
                               "it when the space was recorded)";
  });
  // The recording lists every valid point: strategies sample from them.
  std::vector<Point> Valid;
  for (const auto &[P, T] : *Results)
    Valid.push_back(P);
  R.Space->setValidPoints(Valid);
  return std::move(R);
}

std::optional<double> RecordedSpace::optimum() const {
  std::optional<double> Best;
  for (const auto &[P, T] : *Results)
    if (T.ok() && (!Best || *T.Time < *Best))
      Best = *T.Time;
  return Best;
}

std::optional<Trial> RecordedSpace::result(const Point &P) const {
  auto It = Results->find(P);
  if (It == Results->end())
    return std::nullopt;
  return It->second;
}

std::vector<Trial> SimulatedEvaluator::evaluate(ArrayRef<Proposal> Batch) {
  std::vector<Trial> Out;
  for (const Proposal &P : Batch) {
    std::optional<Trial> T = S.result(P.P);
    if (!T) {
      // The loop checks validity first, so this is not reached.
      Trial Missing;
      Missing.P = P.P;
      Missing.Verdict = "invalid";
      Missing.Reason = "not in the recorded space";
      Out.push_back(Missing);
      continue;
    }
    Out.push_back(*T);
  }
  return Out;
}

std::vector<Trial> refusedPoints(const SearchSpace &Space,
                                 const SearchResult &Result) {
  std::vector<Trial> Out = Result.Invalid;
  std::set<Point> Listed;
  for (const Trial &T : Out)
    Listed.insert(T.P);
  for (const auto &[P, Why] : Space.knownInvalid())
    if (Listed.insert(P).second) {
      Trial T;
      T.P = P;
      T.Key = Space.key(P);
      T.Verdict = "invalid";
      T.Reason = Why;
      Out.push_back(std::move(T));
    }
  return Out;
}

json::Value recordSpace(const SearchSpace &Space, const SearchResult &Result,
                        const KernelFeatures &Features, json::Object Meta) {
  json::Object O = std::move(Meta);
  O["format"] = RecordedSpaceFormat;
  json::Object S = std::move(*Space.toJSON().getAsObject());
  O["knobs"] = std::move(S["knobs"]);
  O["hardware"] = std::move(S["hardware"]);
  O["features"] = toJSON(Features);
  json::Array Points;
  for (const Trial &T : Result.Trials)
    Points.push_back(toJSON(T, Space));
  for (const Trial &T : refusedPoints(Space, Result))
    Points.push_back(toJSON(T, Space));
  // The strategy's words are not part of the measurement.
  for (json::Value &P : Points) {
    P.getAsObject()->erase("why");
    P.getAsObject()->erase("move");
  }
  O["points"] = std::move(Points);
  return O;
}

} // namespace cro
