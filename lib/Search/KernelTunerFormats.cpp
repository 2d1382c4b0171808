#include "cro/Search/KernelTunerFormats.h"
#include "cro/Search/RecordedSpace.h"
#include "cro/Support/InputFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <zlib.h>

using namespace llvm;

namespace cro {

Expected<std::string> inflateIfGzip(StringRef Bytes, StringRef Where) {
  if (Bytes.size() < 2 || uint8_t(Bytes[0]) != 0x1f ||
      uint8_t(Bytes[1]) != 0x8b)
    return Bytes.str();
  z_stream Z{};
  // 16 + MAX_WBITS: a gzip header and trailer around the deflate stream.
  if (inflateInit2(&Z, 16 + MAX_WBITS) != Z_OK)
    return makeToolError(ExitCode::BadConfig,
                         Where.str() + ": cannot start gzip decompression");
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Bytes.data()));
  Z.avail_in = uInt(Bytes.size());
  std::string Out;
  char Chunk[1 << 16];
  int Rc = Z_OK;
  while (Rc != Z_STREAM_END) {
    Z.next_out = reinterpret_cast<Bytef *>(Chunk);
    Z.avail_out = sizeof(Chunk);
    Rc = inflate(&Z, Z_NO_FLUSH);
    if (Rc != Z_OK && Rc != Z_STREAM_END) {
      inflateEnd(&Z);
      return makeToolError(ExitCode::BadConfig,
                           Where.str() + ": not valid gzip data (" +
                               (Z.msg ? Z.msg : "truncated") + ")");
    }
    Out.append(Chunk, sizeof(Chunk) - Z.avail_out);
    // The same bound as an uncompressed input: a small bomb must not grow
    // the tool's memory without limit.
    if (Out.size() > MaxJsonInputBytes) {
      inflateEnd(&Z);
      return makeToolError(ExitCode::BadConfig,
                           Where.str() + ": decompresses to more than " +
                               Twine(MaxJsonInputBytes >> 20) + " MiB");
    }
    if (Rc == Z_OK && Z.avail_in == 0 && Z.avail_out != 0) {
      inflateEnd(&Z);
      return makeToolError(ExitCode::BadConfig,
                           Where.str() + ": truncated gzip data");
    }
  }
  inflateEnd(&Z);
  return Out;
}

namespace {

Error bad(StringRef Name, const Twine &Why) {
  return makeToolError(ExitCode::BadConfig, Name.str() + ": " + Why.str());
}

/// A point of a foreign file, before the knobs' defaults are known.
struct ForeignPoint {
  json::Object Config; ///< every parameter's value
  std::string Verdict, Reason;
  std::optional<double> TimeMs;
};

/// The recorded space of knobs Params (name -> values, in order) and the
/// points; the original is the verified point of median time.
Expected<json::Value>
assemble(StringRef Name, StringRef Kernel, StringRef Gpu, StringRef Source,
         const std::vector<std::pair<std::string, json::Array>> &Params,
         std::vector<ForeignPoint> Points) {
  std::vector<const ForeignPoint *> Verified;
  for (const ForeignPoint &P : Points)
    if (P.TimeMs)
      Verified.push_back(&P);
  if (Verified.empty())
    return bad(Name, "no configuration with a time: nothing to search");
  std::stable_sort(Verified.begin(), Verified.end(),
                   [](const ForeignPoint *A, const ForeignPoint *B) {
                     return *A->TimeMs < *B->TimeMs;
                   });
  const json::Object &Original = Verified[(Verified.size() - 1) / 2]->Config;
  json::Array Knobs;
  for (const auto &[Param, Values] : Params)
    Knobs.push_back(
        json::Object{{"id", Param},
                     {"kernel", Kernel.str()},
                     {"transform", "kernel-tuner"},
                     {"role", "other"},
                     {"values", json::Array(Values)},
                     {"default", json::Value(*Original.get(Param))}});
  json::Array Out;
  for (ForeignPoint &P : Points) {
    json::Object O{{"config", std::move(P.Config)}, {"verdict", P.Verdict}};
    if (P.TimeMs)
      O["time_ms"] = *P.TimeMs;
    if (!P.Reason.empty())
      O["reason"] = P.Reason;
    Out.push_back(std::move(O));
  }
  return json::Object{{"name", Name.str()},        {"file", Kernel.str()},
                      {"gpu", Gpu.str()},          {"source", Source.str()},
                      {"knobs", std::move(Knobs)}, {"points", std::move(Out)}};
}

/// Kernel Tuner's failure strings as verdicts.
std::string verdictOfFailure(StringRef Failure) {
  if (Failure == "CompilationFailedConfig")
    return "build-failed";
  if (Failure == "RuntimeFailedConfig")
    return "run-failed";
  return "invalid";
}

Expected<json::Value> fromKernelTunerCache(const json::Object &O,
                                           StringRef Name) {
  const json::Object *Params = O.getObject("tune_params");
  const json::Object *Cache = O.getObject("cache");
  const json::Array *Keys = O.getArray("tune_params_keys");
  if (!Params || !Cache)
    return bad(Name, "a Kernel Tuner cache needs \"tune_params\" and "
                     "\"cache\" objects");
  std::vector<std::pair<std::string, json::Array>> Knobs;
  std::vector<std::string> Order;
  if (Keys) {
    for (const json::Value &K : *Keys)
      if (auto S = K.getAsString())
        Order.push_back(S->str());
  } else {
    for (const auto &[K, V] : *Params)
      Order.push_back(K.str());
  }
  for (const std::string &K : Order) {
    const json::Array *Values = Params->getArray(K);
    if (!Values || Values->empty())
      return bad(Name, "tune_params['" + K + "'] is not a non-empty list");
    Knobs.push_back({K, *Values});
  }
  std::string Objective = O.getString("objective").value_or("time").str();
  std::vector<ForeignPoint> Points;
  for (const auto &[Key, Entry] : *Cache) {
    const json::Object *E = Entry.getAsObject();
    if (!E)
      return bad(Name, "cache entry '" + Key.str() + "' is not an object");
    ForeignPoint P;
    for (const std::string &K : Order) {
      const json::Value *V = E->get(K);
      if (!V)
        return bad(Name, "cache entry '" + Key.str() + "' has no value for '" +
                             K + "'");
      P.Config[K] = *V;
    }
    std::optional<StringRef> Error = E->getString("__error__");
    const json::Value *T = E->get(Objective);
    std::optional<double> Time = T ? T->getAsNumber() : std::nullopt;
    if (!Error && Time && *Time > 0) {
      P.Verdict = "verified";
      P.TimeMs = *Time;
    } else {
      std::string Failure =
          Error ? Error->str()
                : (T && T->getAsString() ? T->getAsString()->str()
                                         : std::string("no ") + Objective);
      P.Verdict = verdictOfFailure(Failure);
      P.Reason = "Kernel Tuner: " + Failure;
    }
    Points.push_back(std::move(P));
  }
  return assemble(Name, O.getString("kernel_name").value_or(""),
                  O.getString("device_name").value_or(""), "Kernel Tuner cache",
                  Knobs, std::move(Points));
}

/// Milliseconds per unit of a T4 metadata.timeunit.
std::optional<double> millisecondsPer(StringRef Unit) {
  if (Unit == "ms" || Unit == "milliseconds" || Unit == "miliseconds")
    return 1.0;
  if (Unit == "s" || Unit == "seconds")
    return 1000.0;
  if (Unit == "us" || Unit == "microseconds")
    return 1e-3;
  if (Unit == "ns" || Unit == "nanoseconds")
    return 1e-6;
  return std::nullopt;
}

Expected<json::Value> fromT4(const json::Object &O, StringRef Name) {
  const json::Array *Results = O.getArray("results");
  if (!Results)
    return bad(Name, "a T4 file needs a \"results\" array");
  double Scale = 1;
  if (const json::Object *M = O.getObject("metadata"))
    if (auto Unit = M->getString("timeunit")) {
      std::optional<double> S = millisecondsPer(*Unit);
      if (!S)
        return bad(Name, "unknown metadata.timeunit \"" + *Unit + "\"");
      Scale = *S;
    }
  std::vector<std::pair<std::string, json::Array>> Knobs;
  std::map<std::string, size_t> KnobIndex;
  std::set<std::string> Configs;
  std::vector<ForeignPoint> Points;
  for (const auto &[Index, RV] : llvm::enumerate(*Results)) {
    const json::Object *R = RV.getAsObject();
    const json::Object *Config = R ? R->getObject("configuration") : nullptr;
    auto Invalidity = R ? R->getString("invalidity") : std::nullopt;
    if (!Config || !Invalidity)
      return bad(Name, formatv("result {0} needs \"configuration\" and "
                               "\"invalidity\"",
                               Index));
    std::string Key = formatv("{0}", json::Value(json::Object(*Config))).str();
    if (!Configs.insert(Key).second)
      continue; // measured again: the first result stands
    ForeignPoint P;
    for (const auto &[K, V] : *Config) {
      auto [It, New] = KnobIndex.try_emplace(K.str(), Knobs.size());
      if (New)
        Knobs.push_back({K.str(), {}});
      json::Array &Values = Knobs[It->second].second;
      if (llvm::find(Values, V) == Values.end())
        Values.push_back(V);
      P.Config[K] = V;
    }
    std::string Objective = "time";
    if (const json::Array *Objs = R->getArray("objectives"))
      if (!Objs->empty() && (*Objs)[0].getAsString())
        Objective = (*Objs)[0].getAsString()->str();
    std::optional<double> Value;
    if (const json::Array *Ms = R->getArray("measurements"))
      for (const json::Value &MV : *Ms)
        if (const json::Object *M = MV.getAsObject())
          if (M->getString("name") == std::optional<StringRef>(Objective))
            Value = M->getNumber("value");
    if (*Invalidity == "correct" && Value && *Value > 0) {
      P.Verdict = "verified";
      P.TimeMs = *Value * Scale;
    } else {
      P.Verdict = *Invalidity == "compile" ? "build-failed"
                  : *Invalidity == "runtime" || *Invalidity == "timeout"
                      ? "run-failed"
                  : *Invalidity == "correctness" ? "rejected"
                  : *Invalidity == "correct"     ? "run-failed"
                                                 : "invalid";
      P.Reason = *Invalidity == "correct"
                     ? "T4: no measurement of the objective '" + Objective + "'"
                     : "T4 invalidity: " + Invalidity->str();
    }
    Points.push_back(std::move(P));
  }
  // Every configuration must name every parameter.
  for (ForeignPoint &P : Points)
    if (P.Config.size() != Knobs.size())
      return bad(Name, "a configuration does not name every parameter");
  // Numbers in ascending order: neighbouring values are neighbours.
  for (auto &[K, Values] : Knobs)
    if (llvm::all_of(Values, [](const json::Value &V) {
          return V.getAsNumber().has_value();
        }))
      std::stable_sort(Values.begin(), Values.end(),
                       [](const json::Value &A, const json::Value &B) {
                         return *A.getAsNumber() < *B.getAsNumber();
                       });
  return assemble(Name, "", "", "T4 results", Knobs, std::move(Points));
}

} // namespace

std::optional<Expected<json::Value>> foreignRecording(const json::Value &V,
                                                      StringRef Name) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  if (O->get("tune_params") && O->get("cache"))
    return fromKernelTunerCache(*O, Name);
  if (O->get("results") && O->get("schema_version") && !O->get("knobs"))
    return fromT4(*O, Name);
  return std::nullopt;
}

json::Value recordSpaceT4(const SearchSpace &Space, const SearchResult &Result,
                          double StartUnixSeconds, json::Object Metadata) {
  const auto &Dims = Space.dimensions();
  auto Timestamp = [&](double Seconds) {
    // Kernel Tuner's spelling: str(datetime.now(timezone.utc)).
    double T = StartUnixSeconds + Seconds;
    std::time_t Whole = std::time_t(T);
    std::tm Utc;
    gmtime_r(&Whole, &Utc);
    char Buf[64], Out[96];
    std::strftime(Buf, sizeof(Buf), "%Y-%m-%d %H:%M:%S", &Utc);
    std::snprintf(Out, sizeof(Out), "%s.%06u+00:00", Buf,
                  unsigned((T - double(Whole)) * 1e6) % 1000000);
    return std::string(Out);
  };
  auto Entry = [&](const Trial &T, double Seconds) {
    json::Object Config;
    for (size_t I = 0; I < Dims.size(); ++I)
      Config[Dims[I].Knob] = Dims[I].Values[T.P[I]];
    StringRef Invalidity = T.Verdict == "verified"       ? "correct"
                           : T.Verdict == "build-failed" ? "compile"
                           : T.Verdict == "run-failed"   ? "runtime"
                           : T.Verdict == "rejected"     ? "correctness"
                                                         : "constraints";
    json::Array Measurements;
    if (T.Time)
      Measurements.push_back(
          json::Object{{"name", "time"}, {"value", *T.Time}, {"unit", "ms"}});
    json::Object R{{"timestamp", Timestamp(Seconds)},
                   {"configuration", std::move(Config)},
                   {"times", json::Object{}},
                   {"invalidity", Invalidity},
                   {"correctness", T.Verdict == "rejected" ? 0 : 1},
                   {"measurements", std::move(Measurements)},
                   {"objectives", json::Array{"time"}}};
    return R;
  };
  json::Array Results;
  for (size_t I = 0; I < Result.Trials.size(); ++I)
    Results.push_back(Entry(
        Result.Trials[I], I < Result.Elapsed.size() ? Result.Elapsed[I] : 0.0));
  // Refused points are "constraints" in T4, as Kernel Tuner's restrictions.
  for (const Trial &T : refusedPoints(Space, Result))
    Results.push_back(Entry(T, 0.0));
  Metadata["timeunit"] = "milliseconds";
  return json::Object{{"results", std::move(Results)},
                      {"schema_version", "1.0.0"},
                      {"metadata", std::move(Metadata)}};
}

} // namespace cro
