#include "NvccFlags.h"
#include "cro/Support/ToolError.h"

using namespace llvm;

namespace cro {

namespace {

struct FlagKnob {
  const char *Id;
  bool ChangesResults;
  std::vector<json::Value> Values; ///< the first is the default
  /// The flags for a value; none for the default.
  std::vector<std::string> (*Flags)(const json::Value &);
};

std::vector<std::string> boolFlag(const json::Value &V, const char *On,
                                  const char *Off) {
  std::optional<bool> B = V.getAsBoolean();
  if (!B)
    return {};
  return {*B ? On : Off};
}

const std::vector<FlagKnob> &flagKnobs() {
  static const std::vector<FlagKnob> Knobs = {
      {"nvcc.dlcm",
       false,
       {"default", "ca", "cg"},
       [](const json::Value &V) -> std::vector<std::string> {
         std::optional<StringRef> S = V.getAsString();
         if (!S || *S == "default")
           return {};
         return {("-Xptxas=-dlcm=" + *S).str()};
       }},
      {"nvcc.ptxas_opt",
       false,
       {3, 2, 1, 0},
       [](const json::Value &V) -> std::vector<std::string> {
         std::optional<int64_t> N = V.getAsInteger();
         if (!N || *N == 3)
           return {};
         return {"-Xptxas=-O" + std::to_string(*N)};
       }},
      {"nvcc.extra_device_vectorization",
       false,
       {false, true},
       [](const json::Value &V) -> std::vector<std::string> {
         if (V.getAsBoolean().value_or(false))
           return {"-extra-device-vectorization"};
         return {};
       }},
      {"nvcc.use_fast_math",
       true,
       {false, true},
       [](const json::Value &V) -> std::vector<std::string> {
         if (V.getAsBoolean().value_or(false))
           return {"-use_fast_math"};
         return {};
       }},
      {"nvcc.ftz",
       true,
       {false, true},
       [](const json::Value &V) {
         return boolFlag(V, "-ftz=true", "-ftz=false");
       }},
      {"nvcc.prec_div",
       true,
       {true, false},
       [](const json::Value &V) {
         return boolFlag(V, "-prec-div=true", "-prec-div=false");
       }},
      {"nvcc.prec_sqrt",
       true,
       {true, false},
       [](const json::Value &V) {
         return boolFlag(V, "-prec-sqrt=true", "-prec-sqrt=false");
       }},
      {"nvcc.fmad",
       true,
       {true, false},
       [](const json::Value &V) {
         return boolFlag(V, "-fmad=true", "-fmad=false");
       }},
  };
  return Knobs;
}

} // namespace

void NvccFlags::describeFile(const RewriteContext &Ctx, KnobSink &Out) const {
  for (const FlagKnob &F : flagKnobs()) {
    if (F.ChangesResults && !Ctx.Options.AllowFastMath) {
      Out.refuse("", std::string(F.Id) + " changes numerical results; pass "
                                         "--allow-fast-math to tune it");
      continue;
    }
    Knob Kn;
    Kn.Id = F.Id;
    Kn.Values = F.Values;
    Kn.Default = F.Values.front();
    Out.offer(std::move(Kn));
  }
}

Error NvccFlags::apply(const RewriteContext &, const Knob &K,
                       const json::Value &V, const ResolvedConfig &,
                       EditSet &Out) const {
  if (V == K.Default)
    return Error::success();
  for (const FlagKnob &F : flagKnobs())
    if (K.Id == F.Id) {
      for (const std::string &Flag : F.Flags(V))
        Out.addFlag(Flag);
      return Error::success();
    }
  return makeToolError(ExitCode::Internal, "no flag knob " + K.Id);
}

} // namespace cro
