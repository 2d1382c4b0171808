#include "cro/Report/TuningReport.h"
#include "cro/Support/AtomicFile.h"
#include "cro/Support/ToolError.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cmath>

using namespace llvm;

namespace cro {

namespace {

json::Value optional(std::optional<double> V) {
  return V ? json::Value(*V) : json::Value(nullptr);
}

std::string ms(std::optional<double> V) {
  return V ? formatv("{0:f4}", *V).str() : "-";
}

std::string html(StringRef S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

/// One sentence on where the time went, for the Markdown and HTML reports.
std::string timeSummary(const TuningReport &R) {
  std::string S =
      formatv("search {0:f0} s (running the variants {1:f0} s, "
              "waiting for output comparisons {6:f0} s of {5:f0} s run "
              "beside the next variant, "
              "waiting for nvcc {2:f0} s of {3:f0} s compiled "
              "in parallel, strategy {4:f2} s)",
              R.TotalSeconds, R.MeasureSeconds, R.CompileWaitSeconds,
              R.CompileSeconds, R.StrategySeconds, R.VerifySeconds,
              R.VerifyWaitSeconds)
          .str();
  if (R.ConfirmSeconds > 0)
    S += formatv(", confirmation {0:f0} s", R.ConfirmSeconds).str();
  if (R.WallSeconds > 0)
    S += formatv("; {0:f0} s in all", R.WallSeconds).str();
  return S;
}

std::string mdCell(StringRef S) {
  std::string Out;
  for (char C : S)
    Out += C == '|'    ? std::string("\\|")
           : C == '\n' ? std::string(" ")
                       : std::string(1, C);
  return Out;
}

/// A step plot of best-so-far speedup in SVG: X is the evaluation number or
/// the elapsed time.
std::string svgPlot(const TuningReport &R, bool AgainstTime, StringRef Id) {
  const double W = 640, H = 280, L = 56, B = 40, T = 16, Rt = 16;
  double MaxX = 1, MaxY = 1;
  for (size_t I = 0; I < R.Evaluations.size(); ++I) {
    const ReportEvaluation &E = R.Evaluations[I];
    MaxX = std::max(MaxX, AgainstTime ? E.ElapsedSeconds : double(I + 1));
    MaxY = std::max(MaxY, E.BestSpeedup);
  }
  MaxY = std::ceil(MaxY * 1.1 * 10) / 10;
  auto X = [&](double V) { return L + (W - L - Rt) * V / MaxX; };
  auto Y = [&](double V) { return H - B - (H - B - T) * V / MaxY; };
  std::string S =
      formatv("<svg id=\"{0}\" xmlns=\"http://www.w3.org/2000/svg\" "
              "width=\"{1}\" height=\"{2}\" viewBox=\"0 0 {1} {2}\" "
              "role=\"img\">",
              Id, W, H)
          .str();
  S += formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
               "stroke=\"#444\"/><line x1=\"{0}\" y1=\"{3}\" x2=\"{0}\" "
               "y2=\"{1}\" stroke=\"#444\"/>",
               L, H - B, W - Rt, T)
           .str();
  for (int K = 0; K <= 4; ++K) {
    double V = MaxY * K / 4;
    S += formatv("<text x=\"{0}\" y=\"{1}\" font-size=\"11\" "
                 "text-anchor=\"end\">{2:f2}x</text>",
                 L - 6, Y(V) + 4, V)
             .str();
    double XV = MaxX * K / 4;
    S += formatv("<text x=\"{0}\" y=\"{1}\" font-size=\"11\" "
                 "text-anchor=\"middle\">{2}</text>",
                 X(XV), H - B + 16,
                 AgainstTime ? formatv("{0:f0} s", XV).str()
                             : formatv("{0:f0}", XV).str())
             .str();
  }
  S += formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
               "stroke=\"#bbb\" stroke-dasharray=\"4 3\"/>",
               L, Y(1), W - Rt)
           .str();
  std::string Points;
  double PrevY = 0;
  for (size_t I = 0; I < R.Evaluations.size(); ++I) {
    const ReportEvaluation &E = R.Evaluations[I];
    double XV = AgainstTime ? E.ElapsedSeconds : double(I + 1);
    if (I > 0)
      Points += formatv("{0:f1},{1:f1} ", X(XV), Y(PrevY)).str();
    Points += formatv("{0:f1},{1:f1} ", X(XV), Y(E.BestSpeedup)).str();
    PrevY = E.BestSpeedup;
  }
  S += "<polyline fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2\" "
       "points=\"" +
       Points + "\"/>";
  S += formatv("<text x=\"{0}\" y=\"{1}\" font-size=\"12\" "
               "text-anchor=\"middle\">{2}</text>",
               (L + W - Rt) / 2, H - 6,
               AgainstTime ? "wall time since the start"
                           : "evaluations (the original is 1)")
           .str();
  S += formatv("<text x=\"14\" y=\"{0}\" font-size=\"12\" "
               "transform=\"rotate(-90 14 {0})\" text-anchor=\"middle\">"
               "best speedup so far</text>",
               (T + H - B) / 2)
           .str();
  return S + "</svg>";
}

} // namespace

std::string objectiveDescription(StringRef Objective) {
  if (Objective == "program")
    return "the program's GPU time (every launch of every kernel)";
  if (Objective == "per-launch")
    return "the sum of the kernels' median times per launch";
  return Objective.str();
}

json::Value toJSON(const TuningReport &R) {
  json::Array Evals;
  for (const ReportEvaluation &E : R.Evaluations)
    Evals.push_back(json::Object{{"elapsed_s", E.ElapsedSeconds},
                                 {"config", E.Config},
                                 {"sequence", E.Sequence},
                                 {"verdict", E.Verdict},
                                 {"reason", E.Reason},
                                 {"why", E.Why},
                                 {"move", E.Move},
                                 {"time_ms", optional(E.TimeMs)},
                                 {"spread_ms", optional(E.SpreadMs)},
                                 {"resumed", E.Resumed},
                                 {"best_speedup", E.BestSpeedup}});
  json::Array Metrics;
  for (const ReportMetric &M : R.Metrics)
    Metrics.push_back(json::Object{{"kernel", M.Kernel},
                                   {"metric", M.Name},
                                   {"original", optional(M.Original)},
                                   {"best", optional(M.Best)}});
  return json::Object{
      {"tool", R.Tool},
      {"file", R.File},
      {"gpu", R.Gpu},
      {"arch", R.Arch},
      {"driver", R.Driver},
      {"nvcc", R.Nvcc},
      {"date", R.Date},
      {"strategy", R.Strategy},
      {"budget", R.Budget},
      {"seed", int64_t(R.Seed)},
      {"stop_reason", R.StopReason},
      {"original_ms", R.OriginalMs},
      {"original_spread_ms", R.OriginalSpreadMs},
      {"best_ms", optional(R.BestMs)},
      {"best_spread_ms", R.BestSpreadMs},
      {"speedup",
       R.BestMs ? json::Value(R.OriginalMs / *R.BestMs) : json::Value(nullptr)},
      {"confirm_runs", R.ConfirmRuns},
      {"faster_beyond_noise", R.FasterBeyondNoise},
      {"speedup_lower_bound", optional(R.SpeedupLowerBound)},
      {"confidence", R.Confidence},
      {"min_gain", R.MinGain},
      {"objective", R.Objective},
      {"decision", R.Decision},
      {"tolerances", json::Array(std::vector<json::Value>(R.Tolerances.begin(),
                                                          R.Tolerances.end()))},
      {"best_config", R.BestConfig},
      {"best_sequence", json::Array(std::vector<json::Value>(
                            R.BestSequence.begin(), R.BestSequence.end()))},
      {"evaluations", std::move(Evals)},
      {"metrics", std::move(Metrics)},
      {"seconds", json::Object{{"total", R.TotalSeconds},
                               {"compile", R.CompileSeconds},
                               {"compile_wait", R.CompileWaitSeconds},
                               {"measure", R.MeasureSeconds},
                               {"verify", R.VerifySeconds},
                               {"verify_wait", R.VerifyWaitSeconds},
                               {"strategy", R.StrategySeconds},
                               {"confirm", R.ConfirmSeconds},
                               {"wall", R.WallSeconds}}}};
}

std::string toMarkdown(const TuningReport &R) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "# cuda-rewrite-opt report: " << R.File << "\n\n";
  OS << "- " << R.Tool << (R.Date.empty() ? "" : ", " + R.Date) << "\n";
  OS << "- GPU: " << R.Gpu;
  if (!R.Arch.empty())
    OS << " (" << R.Arch << ", driver " << R.Driver << "), nvcc " << R.Nvcc;
  OS << "\n";
  OS << "- Strategy: " << R.Strategy << ", budget " << R.Budget << ", seed "
     << R.Seed << "; stopped: " << R.StopReason << "\n";
  OS << "- Time: " << timeSummary(R) << "\n";
  OS << "- Objective: " << objectiveDescription(R.Objective)
     << formatv("; a variant is written when faster by at least {0:P1}",
                R.MinGain)
     << "\n";
  OS << "\n## Result\n\n" << R.Decision << "\n\n";
  for (const std::string &T : R.Tolerances)
    OS << "- Verification: " << T << "\n";
  if (!R.Tolerances.empty())
    OS << "\n";
  OS << formatv("| | median | spread (IQR) |\n|---|---|---|\n| original | "
                "{0:f4} ms | {1:f4} ms |\n",
                R.OriginalMs, R.OriginalSpreadMs);
  if (R.BestMs)
    OS << formatv(
        "| best | {0:f4} ms | {1:f4} ms |\n| speedup | {2:f2}x | "
        "{3} |\n",
        *R.BestMs, R.BestSpreadMs, R.OriginalMs / *R.BestMs,
        R.ConfirmRuns
            ? formatv("{0} interleaved runs each", R.ConfirmRuns).str()
            : std::string("as recorded"));
  if (!R.BestSequence.empty()) {
    OS << "\nRewrite sequence:\n\n";
    for (const std::string &L : R.BestSequence)
      OS << "- " << L << "\n";
  }
  if (!R.Metrics.empty()) {
    OS << "\n## Profiler metrics\n\n| kernel | metric | original | best "
          "|\n|---|---|---|---|\n";
    for (const ReportMetric &M : R.Metrics)
      OS << "| " << M.Kernel << " | " << M.Name << " | "
         << (M.Original ? formatv("{0:g}", *M.Original).str() : "-") << " | "
         << (M.Best ? formatv("{0:g}", *M.Best).str() : "-") << " |\n";
  }
  OS << "\n## Best speedup so far\n\n| evaluation | elapsed | best speedup "
        "|\n|---|---|---|\n";
  for (size_t I = 0; I < R.Evaluations.size(); ++I)
    if (I == 0 ||
        R.Evaluations[I].BestSpeedup > R.Evaluations[I - 1].BestSpeedup + 1e-12)
      OS << formatv("| {0} | {1:f1} s | {2:f3}x |\n", I + 1,
                    R.Evaluations[I].ElapsedSeconds,
                    R.Evaluations[I].BestSpeedup);
  OS << "\n## Every evaluation\n\n| # | configuration | verdict | time | "
        "why it was tried |\n|---|---|---|---|---|\n";
  for (size_t I = 0; I < R.Evaluations.size(); ++I) {
    const ReportEvaluation &E = R.Evaluations[I];
    std::string Verdict = E.Verdict;
    if (!E.Reason.empty())
      Verdict += ": " + E.Reason.substr(0, 200);
    if (E.Resumed)
      Verdict += " (from the tuning database)";
    OS << "| " << I + 1 << " | `" << mdCell(E.Config) << "` | "
       << mdCell(Verdict) << " | " << ms(E.TimeMs) << " | " << mdCell(E.Why)
       << " |\n";
  }
  return S;
}

std::string toHTML(const TuningReport &R) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<title>cuda-rewrite-opt: " << html(R.File) << "</title>"
     << "<style>body{font:14px/1.4 system-ui,sans-serif;margin:24px;"
        "max-width:1100px}table{border-collapse:collapse;margin:8px 0}"
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;"
        "vertical-align:top}th{background:#f3f3f3}code{font-size:12px}"
        ".ok{color:#1b5e20}.bad{color:#b71c1c}.plots{display:flex;"
        "flex-wrap:wrap;gap:16px}</style></head><body>\n";
  OS << "<h1>cuda-rewrite-opt report: " << html(R.File) << "</h1>\n";
  OS << "<p>" << html(R.Tool) << ", " << html(R.Date)
     << ". GPU: " << html(R.Gpu);
  if (!R.Arch.empty())
    OS << " (" << html(R.Arch) << ", driver " << html(R.Driver) << "), nvcc "
       << html(R.Nvcc);
  OS << ". Strategy " << html(R.Strategy) << ", budget " << R.Budget
     << ", seed " << R.Seed << "; stopped: " << html(R.StopReason)
     << ". Time: " << html(timeSummary(R))
     << ". Objective: " << html(objectiveDescription(R.Objective))
     << formatv("; a variant is written when faster by at least {0:P1}",
                R.MinGain)
            .str()
     << ".</p>\n";
  OS << "<h2>Result</h2><p id=\"decision\">" << html(R.Decision) << "</p>\n";
  for (const std::string &T : R.Tolerances)
    OS << "<p class=\"tolerance\">Verification: " << html(T) << "</p>\n";
  OS << "<table id=\"result\"><tr><th></th><th>median</th><th>spread "
        "(IQR)</th></tr>"
     << formatv("<tr><td>original</td><td>{0:f4} ms</td><td>{1:f4} "
                "ms</td></tr>",
                R.OriginalMs, R.OriginalSpreadMs);
  if (R.BestMs)
    OS << formatv(
        "<tr><td>best</td><td>{0:f4} ms</td><td>{1:f4} "
        "ms</td></tr><tr><td>speedup</td><td>{2:f2}x</td><td>{3}"
        "</td></tr>",
        *R.BestMs, R.BestSpreadMs, R.OriginalMs / *R.BestMs,
        R.ConfirmRuns
            ? formatv("{0} interleaved runs each", R.ConfirmRuns).str()
            : std::string("as recorded"));
  OS << "</table>\n";
  if (!R.BestSequence.empty()) {
    OS << "<p>Rewrite sequence:</p><ul>";
    for (const std::string &L : R.BestSequence)
      OS << "<li><code>" << html(L) << "</code></li>";
    OS << "</ul>\n";
  }
  if (!R.Metrics.empty()) {
    OS << "<h2>Profiler metrics</h2><table id=\"metrics\"><tr><th>kernel</th>"
          "<th>metric</th><th>original</th><th>best</th></tr>";
    for (const ReportMetric &M : R.Metrics)
      OS << "<tr><td>" << html(M.Kernel) << "</td><td>" << html(M.Name)
         << "</td><td>"
         << (M.Original ? formatv("{0:g}", *M.Original).str() : "-")
         << "</td><td>" << (M.Best ? formatv("{0:g}", *M.Best).str() : "-")
         << "</td></tr>";
    OS << "</table>\n";
  }
  OS << "<h2>Best speedup so far</h2><div class=\"plots\">"
     << svgPlot(R, false, "plot-evaluations") << svgPlot(R, true, "plot-time")
     << "</div>\n";
  OS << "<h2>Every evaluation</h2><table id=\"evaluations\"><tr><th>#</th>"
        "<th>configuration</th><th>rewrite sequence</th><th>verdict</th>"
        "<th>time</th><th>why it was tried</th></tr>\n";
  for (size_t I = 0; I < R.Evaluations.size(); ++I) {
    const ReportEvaluation &E = R.Evaluations[I];
    bool Ok = E.Verdict == "verified";
    OS << "<tr><td>" << I + 1 << "</td><td><code>" << html(E.Config)
       << "</code></td><td>" << html(E.Sequence) << "</td><td class=\""
       << (Ok ? "ok" : "bad") << "\">" << html(E.Verdict)
       << (E.Reason.empty() ? "" : ": " + html(E.Reason.substr(0, 300)))
       << (E.Resumed ? " (from the tuning database)" : "") << "</td><td>"
       << ms(E.TimeMs) << "</td><td>" << html(E.Why) << "</td></tr>\n";
  }
  OS << "</table>\n</body></html>\n";
  return S;
}

Error checkReportPath(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  if (Ext == ".json" || Ext == ".md" || Ext == ".html" || Ext == ".htm")
    return Error::success();
  return makeToolError(ExitCode::Usage,
                       "--report: '" + Path.str() +
                           "' must end in .json, .md or .html");
}

Expected<std::string> renderReport(const TuningReport &R, StringRef Path) {
  if (Error E = checkReportPath(Path))
    return std::move(E);
  StringRef Ext = sys::path::extension(Path);
  if (Ext == ".json")
    return formatv("{0:2}", toJSON(R)).str() + "\n";
  if (Ext == ".md")
    return toMarkdown(R);
  return toHTML(R);
}

Error writeReport(const TuningReport &R, StringRef Path) {
  Expected<std::string> Text = renderReport(R, Path);
  if (!Text)
    return Text.takeError();
  return writeFileAtomically(Path, *Text);
}

} // namespace cro
