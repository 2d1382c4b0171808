#include "cro/Measure/Profiler.h"
#include "cro/Analysis/KernelModel.h"
#include "cro/Support/Process.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include <algorithm>

using namespace llvm;

namespace cro {

const std::vector<std::string> &profilerMetrics() {
  static const std::vector<std::string> M = {
      "dram__throughput.avg.pct_of_peak_sustained_elapsed",
      "sm__throughput.avg.pct_of_peak_sustained_elapsed",
      "sm__warps_active.avg.pct_of_peak_sustained_active",
      "gpu__time_duration.sum"};
  return M;
}

namespace {

/// Splits one CSV line ("a","b,c",...) into fields.
std::vector<std::string> csvFields(StringRef Line) {
  std::vector<std::string> Out;
  std::string Cur;
  bool Quoted = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (Quoted) {
      if (C == '"' && I + 1 < Line.size() && Line[I + 1] == '"')
        Cur += '"', ++I;
      else if (C == '"')
        Quoted = false;
      else
        Cur += C;
    } else if (C == '"') {
      Quoted = true;
    } else if (C == ',') {
      Out.push_back(Cur);
      Cur.clear();
    } else if (C != '\r') {
      Cur += C;
    }
  }
  Out.push_back(Cur);
  return Out;
}

std::string baseName(StringRef Name) {
  Name = Name.split('(').first;
  std::string Out;
  int Depth = 0;
  for (char C : Name) {
    if (C == '<')
      ++Depth;
    else if (C == '>')
      --Depth;
    else if (Depth == 0)
      Out += C;
  }
  StringRef R = StringRef(Out).trim();
  size_t Space = R.rfind(' ');
  return (Space == StringRef::npos ? R : R.substr(Space + 1)).str();
}

} // namespace

KernelMetrics parseNcuCsv(StringRef Csv) {
  KernelMetrics Out;
  SmallVector<StringRef, 32> Lines;
  Csv.split(Lines, '\n', -1, false);
  std::vector<std::string> Header;
  int NameCol = -1;
  for (StringRef L : Lines) {
    if (!L.starts_with("\""))
      continue; // ==PROF== lines and program output
    std::vector<std::string> F = csvFields(L);
    if (Header.empty()) {
      for (size_t I = 0; I < F.size(); ++I)
        if (F[I] == "Kernel Name")
          NameCol = int(I);
      if (NameCol >= 0)
        Header = F;
      continue;
    }
    if (F.size() != Header.size() || F[NameCol].empty())
      continue;
    std::string Kernel = baseName(F[NameCol]);
    if (Out.count(Kernel))
      continue; // first launch only
    std::map<std::string, double> &M = Out[Kernel];
    for (const std::string &Metric : profilerMetrics())
      for (size_t I = 0; I < Header.size(); ++I)
        if (Header[I] == Metric) {
          std::string V = F[I];
          V.erase(std::remove(V.begin(), V.end(), ','), V.end());
          double D;
          if (!StringRef(V).trim().getAsDouble(D))
            M[Metric] = D;
        }
    if (M.empty())
      Out.erase(Kernel); // the units row
  }
  return Out;
}

std::string findNcu(StringRef CudaRoot) {
  std::string Ncu = (CudaRoot + "/bin/ncu").str();
  if (!sys::fs::exists(Ncu))
    if (ErrorOr<std::string> P = sys::findProgramByName("ncu"))
      Ncu = *P;
  return Ncu;
}

Expected<KernelMetrics> profileWithNcu(const std::string &Ncu,
                                       const std::string &Exe,
                                       const std::vector<std::string> &Args,
                                       const std::vector<std::string> &Kernels,
                                       double TimeoutSeconds) {
  std::string Metrics, Regex;
  for (const std::string &M : profilerMetrics())
    Metrics += (Metrics.empty() ? "" : ",") + M;
  for (const std::string &K : Kernels)
    Regex += (Regex.empty() ? "" : "|") + unqualifiedName(K).str();
  SmallString<128> Out;
  sys::fs::createTemporaryFile("cro-ncu", "csv", Out);
  std::vector<std::string> Cmd = {Ncu,
                                  "--csv",
                                  "--page",
                                  "raw",
                                  "--metrics",
                                  Metrics,
                                  "--kernel-name",
                                  "regex:^(" + Regex + ")$",
                                  "--launch-count",
                                  std::to_string(Kernels.size()),
                                  Exe};
  Cmd.insert(Cmd.end(), Args.begin(), Args.end());
  ProcessOptions P;
  P.StdoutFile = Out.str().str();
  P.StderrFile = P.StdoutFile;
  P.TimeoutSeconds = TimeoutSeconds;
  ProcessResult R = runProcess(Cmd, P);
  auto Text = MemoryBuffer::getFile(Out);
  sys::fs::remove(Out);
  if (!R.succeeded() || !Text)
    return makeToolError(
        ExitCode::Internal,
        "ncu failed: " + R.describe() +
            (Text ? ": " + (*Text)->getBuffer().take_back(400).str() : ""));
  KernelMetrics M = parseNcuCsv((*Text)->getBuffer());
  if (M.empty())
    return makeToolError(ExitCode::Internal,
                         "ncu reported no metrics: " +
                             (*Text)->getBuffer().take_back(400).str());
  return M;
}

} // namespace cro
