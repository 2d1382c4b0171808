#include "cro/Database/TuningDatabase.h"
#include "cro/Support/ToolError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <sqlite3.h>

using namespace llvm;

namespace cro {

namespace {

const char *Schema = R"sql(
CREATE TABLE IF NOT EXISTS evaluations (
  id INTEGER PRIMARY KEY,
  source_hash TEXT NOT NULL,
  file TEXT NOT NULL,
  kernel TEXT NOT NULL,
  config TEXT NOT NULL,
  sequence TEXT NOT NULL,
  gpu TEXT NOT NULL,
  compute_capability TEXT NOT NULL,
  driver TEXT NOT NULL,
  nvcc TEXT NOT NULL,
  flags TEXT NOT NULL,
  verdict TEXT NOT NULL,
  reason TEXT NOT NULL,
  median_ms REAL,
  spread_ms REAL,
  original_ms REAL,
  metrics TEXT NOT NULL,
  strategy TEXT NOT NULL,
  recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  UNIQUE (source_hash, kernel, config, gpu, driver, nvcc)
);
CREATE INDEX IF NOT EXISTS evaluations_by_source
  ON evaluations (source_hash, gpu, verdict, median_ms);
CREATE TABLE IF NOT EXISTS decisions (
  id INTEGER PRIMARY KEY,
  source_hash TEXT NOT NULL,
  gpu TEXT NOT NULL,
  config TEXT NOT NULL,
  speedup REAL,
  decided_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE IF NOT EXISTS sources (
  source_hash TEXT PRIMARY KEY,
  file TEXT NOT NULL,
  signature TEXT NOT NULL
);
)sql";

/// A prepared statement, finalized when it goes out of scope.
class Statement {
public:
  Statement(sqlite3 *Db, const char *Sql) : Db(Db) {
    Rc = sqlite3_prepare_v2(Db, Sql, -1, &S, nullptr);
  }
  ~Statement() { sqlite3_finalize(S); }
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;

  bool ok() const { return Rc == SQLITE_OK; }
  void bind(int I, StringRef V) {
    sqlite3_bind_text(S, I, V.data(), V.size(), SQLITE_TRANSIENT);
  }
  void bind(int I, std::optional<double> V) {
    if (V)
      sqlite3_bind_double(S, I, *V);
    else
      sqlite3_bind_null(S, I);
  }
  int step() { return Rc = sqlite3_step(S); }
  std::string text(int I) const {
    const unsigned char *T = sqlite3_column_text(S, I);
    return T ? reinterpret_cast<const char *>(T) : "";
  }
  std::optional<double> real(int I) const {
    if (sqlite3_column_type(S, I) == SQLITE_NULL)
      return std::nullopt;
    return sqlite3_column_double(S, I);
  }
  int64_t integer(int I) const { return sqlite3_column_int64(S, I); }
  void bind(int I, int64_t V) { sqlite3_bind_int64(S, I, V); }
  /// Every remaining row, each made into a T by Row(*this).
  template <typename T, typename F>
  Expected<std::vector<T>> rows(StringRef What, F Row) {
    std::vector<T> Out;
    while (step() == SQLITE_ROW)
      Out.push_back(Row(*this));
    if (Rc != SQLITE_DONE)
      return error(What);
    return Out;
  }
  Error error(StringRef What) const {
    return makeToolError(ExitCode::Internal, "tuning database: " + What + ": " +
                                                 sqlite3_errmsg(Db));
  }

private:
  sqlite3 *Db;
  sqlite3_stmt *S = nullptr;
  int Rc;
};

const char *Columns =
    "id, source_hash, file, kernel, config, sequence, gpu, "
    "compute_capability, driver, nvcc, flags, verdict, reason, median_ms, "
    "spread_ms, original_ms, metrics, strategy";

EvaluationRecord readRow(const Statement &S) {
  EvaluationRecord R;
  R.Id = S.integer(0);
  R.SourceHash = S.text(1);
  R.File = S.text(2);
  R.Kernel = S.text(3);
  R.Config = S.text(4);
  R.Sequence = S.text(5);
  R.Where = {S.text(6), S.text(7), S.text(8), S.text(9)};
  R.Flags = S.text(10);
  R.Verdict = S.text(11);
  R.Reason = S.text(12);
  R.MedianMs = S.real(13);
  R.SpreadMs = S.real(14);
  R.OriginalMs = S.real(15);
  R.Metrics = S.text(16);
  R.Strategy = S.text(17);
  return R;
}

} // namespace

namespace {

/// sqlite3_open_v2 with the tool's error; Verb says what failed ("open",
/// "read"). Readers and writers wait up to 30 s for another's transaction.
Expected<sqlite3 *> connect(const std::string &P, int Flags, StringRef Verb) {
  sqlite3 *Db = nullptr;
  if (sqlite3_open_v2(P.c_str(), &Db, Flags | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    std::string Msg = Db ? sqlite3_errmsg(Db) : "out of memory";
    sqlite3_close(Db);
    return makeToolError(ExitCode::OutputError, "cannot " + Verb +
                                                    " the tuning database " +
                                                    P + ": " + Msg);
  }
  sqlite3_busy_timeout(Db, 30000);
  return Db;
}

/// The URI that opens Path as an immutable snapshot: "file:" and the path
/// with the characters a URI reserves percent-encoded.
std::string immutableUri(StringRef Path) {
  std::string Uri = "file:";
  for (unsigned char C : Path) {
    if (isAlnum(C) || StringRef("/-._~").contains(C)) {
      Uri += C;
    } else {
      Uri += '%';
      Uri += hexdigit(C >> 4, /*LowerCase=*/false);
      Uri += hexdigit(C & 15, /*LowerCase=*/false);
    }
  }
  return Uri + "?immutable=1";
}

} // namespace

Expected<std::unique_ptr<TuningDatabase>> TuningDatabase::open(StringRef Path) {
  std::string P = Path.str();
  if (StringRef Dir = sys::path::parent_path(P); !Dir.empty())
    sys::fs::create_directories(Dir); // a failure shows in the open below
  Expected<sqlite3 *> Db =
      connect(P, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "open");
  if (!Db)
    return Db.takeError();
  std::unique_ptr<TuningDatabase> T(new TuningDatabase(*Db));
  // Several searches may write at once: readers never block the writer in
  // WAL mode.
  if (Error E = T->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"))
    return std::move(E);
  if (Error E = T->exec(Schema))
    return std::move(E);
  // Decisions record the confirmation's times since 2026-12-05; a database
  // from before gets the columns (its old rows keep the speed-up alone).
  if (!T->hasColumn("decisions", "original_ms"))
    if (Error E = T->exec("ALTER TABLE decisions ADD COLUMN original_ms REAL; "
                          "ALTER TABLE decisions ADD COLUMN variant_ms REAL;"))
      return std::move(E);
  return std::move(T);
}

bool TuningDatabase::hasColumn(StringRef Table, StringRef Column) {
  Statement S(Db, ("SELECT 1 FROM pragma_table_info('" + Table.str() +
                   "') WHERE name = ?")
                      .c_str());
  if (!S.ok())
    return false;
  S.bind(1, Column);
  return S.step() == SQLITE_ROW;
}

Expected<std::unique_ptr<TuningDatabase>>
TuningDatabase::openForReading(StringRef Path) {
  std::string P = Path.str();
  if (!sys::fs::exists(P))
    return makeToolError(ExitCode::OutputError,
                         "the tuning database " + P + " does not exist");
  Expected<sqlite3 *> Db = connect(P, SQLITE_OPEN_READONLY, "read");
  if (!Db)
    return Db.takeError();
  std::unique_ptr<TuningDatabase> T(new TuningDatabase(*Db));
  // A reader (a build's replay) waits for a writer a few seconds, not the
  // half minute a search's writes may wait for each other.
  constexpr int ReadBusyMs = 5000;
  sqlite3_busy_timeout(*Db, ReadBusyMs);
  // A file that is not a database, or one without our tables, fails here
  // rather than at the first query; Code is SQLite's primary result code.
  int Code = SQLITE_OK;
  auto ProbeTables = [&Code](TuningDatabase &D, sqlite3 *Handle) {
    Error E = D.exec("SELECT 1 FROM evaluations LIMIT 1;");
    Code = E ? sqlite3_errcode(Handle) & 0xff : SQLITE_OK;
    return E;
  };
  Error Probe = ProbeTables(*T, *Db);
  if (Code == SQLITE_READONLY || Code == SQLITE_CANTOPEN) {
    // The search wrote it in WAL mode, and reading WAL needs a shared-memory
    // file beside the database: in a directory this process may not write
    // (a checked-in database in a read-only checkout, a build sandbox) that
    // fails. Nobody can be writing there either, so the file is read as an
    // immutable snapshot, without locks or that file.
    consumeError(std::move(Probe));
    T.reset();
    Expected<sqlite3 *> Snapshot = connect(
        immutableUri(P), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, "read");
    if (!Snapshot)
      return Snapshot.takeError();
    T.reset(new TuningDatabase(*Snapshot));
    Probe = ProbeTables(*T, *Snapshot);
  }
  if (Error E = std::move(Probe)) {
    if (Code == SQLITE_BUSY || Code == SQLITE_LOCKED) {
      consumeError(std::move(E));
      return makeToolError(ExitCode::OutputError,
                           P + " is locked by another process (waited " +
                               std::to_string(ReadBusyMs / 1000) + " s)");
    }
    return makeToolError(ExitCode::OutputError,
                         P + " is not a cuda-rewrite-opt tuning database (" +
                             toString(std::move(E)) + ")");
  }
  return std::move(T);
}

TuningDatabase::~TuningDatabase() { sqlite3_close(Db); }

Error TuningDatabase::exec(const char *Sql) {
  char *Msg = nullptr;
  if (sqlite3_exec(Db, Sql, nullptr, nullptr, &Msg) != SQLITE_OK) {
    std::string M = Msg ? Msg : sqlite3_errmsg(Db);
    sqlite3_free(Msg);
    return makeToolError(ExitCode::OutputError, "tuning database: " + M);
  }
  return Error::success();
}

Error TuningDatabase::record(const EvaluationRecord &R) {
  Statement S(Db, "INSERT OR REPLACE INTO evaluations (source_hash, file, "
                  "kernel, config, sequence, gpu, compute_capability, driver, "
                  "nvcc, flags, verdict, reason, median_ms, spread_ms, "
                  "original_ms, metrics, strategy) VALUES (?, ?, ?, ?, ?, ?, "
                  "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!S.ok())
    return S.error("prepare insert");
  int I = 1;
  for (StringRef V :
       {StringRef(R.SourceHash), StringRef(R.File), StringRef(R.Kernel),
        StringRef(R.Config), StringRef(R.Sequence), StringRef(R.Where.Gpu),
        StringRef(R.Where.ComputeCapability), StringRef(R.Where.Driver),
        StringRef(R.Where.Nvcc), StringRef(R.Flags), StringRef(R.Verdict),
        StringRef(R.Reason)})
    S.bind(I++, V);
  S.bind(I++, R.MedianMs);
  S.bind(I++, R.SpreadMs);
  S.bind(I++, R.OriginalMs);
  S.bind(I++, StringRef(R.Metrics));
  S.bind(I++, StringRef(R.Strategy));
  // One statement is one (implicit) transaction: a crash leaves the row
  // whole or absent.
  if (S.step() != SQLITE_DONE)
    return S.error("insert");
  return Error::success();
}

Expected<std::optional<EvaluationRecord>>
TuningDatabase::find(StringRef SourceHash, StringRef Config,
                     const Platform &Where) {
  std::string Sql = std::string("SELECT ") + Columns +
                    " FROM evaluations WHERE source_hash = ? AND config = ? "
                    "AND gpu = ? AND driver = ? AND nvcc = ?";
  Statement S(Db, Sql.c_str());
  if (!S.ok())
    return S.error("prepare find");
  S.bind(1, SourceHash);
  S.bind(2, Config);
  S.bind(3, StringRef(Where.Gpu));
  S.bind(4, StringRef(Where.Driver));
  S.bind(5, StringRef(Where.Nvcc));
  int Rc = S.step();
  if (Rc == SQLITE_ROW)
    return std::optional<EvaluationRecord>(readRow(S));
  if (Rc != SQLITE_DONE)
    return S.error("find");
  return std::optional<EvaluationRecord>();
}

Expected<std::vector<EvaluationRecord>>
TuningDatabase::evaluations(StringRef SourceHash, StringRef Gpu) {
  std::string Sql = std::string("SELECT ") + Columns +
                    " FROM evaluations WHERE source_hash = ? AND gpu = ? "
                    "ORDER BY id";
  Statement S(Db, Sql.c_str());
  if (!S.ok())
    return S.error("prepare list");
  S.bind(1, SourceHash);
  S.bind(2, Gpu);
  return S.rows<EvaluationRecord>("list", readRow);
}

Expected<std::optional<EvaluationRecord>>
TuningDatabase::bestVerified(StringRef SourceHash, StringRef Gpu) {
  std::string Sql = std::string("SELECT ") + Columns +
                    " FROM evaluations WHERE source_hash = ? AND gpu = ? AND "
                    "verdict = 'verified' AND median_ms IS NOT NULL ORDER BY "
                    "median_ms, id LIMIT 1";
  Statement S(Db, Sql.c_str());
  if (!S.ok())
    return S.error("prepare best");
  S.bind(1, SourceHash);
  S.bind(2, Gpu);
  int Rc = S.step();
  if (Rc == SQLITE_ROW)
    return std::optional<EvaluationRecord>(readRow(S));
  if (Rc != SQLITE_DONE)
    return S.error("best");
  return std::optional<EvaluationRecord>();
}

Error TuningDatabase::describeSource(StringRef SourceHash, StringRef File,
                                     StringRef Signature) {
  Statement S(Db, "INSERT OR REPLACE INTO sources (source_hash, file, "
                  "signature) VALUES (?, ?, ?)");
  if (!S.ok())
    return S.error("prepare source");
  S.bind(1, SourceHash);
  S.bind(2, File);
  S.bind(3, Signature);
  if (S.step() != SQLITE_DONE)
    return S.error("source");
  return Error::success();
}

Expected<std::vector<EvaluationRecord>>
TuningDatabase::bestOfSimilar(StringRef Signature, StringRef Gpu,
                              StringRef ExcludeSourceHash, unsigned Limit) {
  // The fastest verified variant of each other source with this signature.
  std::string Sql =
      std::string("SELECT ") + Columns +
      " FROM evaluations e WHERE e.gpu = ? AND e.verdict = 'verified' AND "
      "e.median_ms IS NOT NULL AND e.source_hash != ? AND e.source_hash IN "
      "(SELECT source_hash FROM sources WHERE signature = ?) AND "
      "e.median_ms = (SELECT MIN(f.median_ms) FROM evaluations f WHERE "
      "f.source_hash = e.source_hash AND f.gpu = e.gpu AND f.verdict = "
      "'verified') ORDER BY e.original_ms / e.median_ms DESC LIMIT ?";
  Statement S(Db, Sql.c_str());
  if (!S.ok())
    return S.error("prepare similar");
  S.bind(1, Gpu);
  S.bind(2, ExcludeSourceHash);
  S.bind(3, Signature);
  S.bind(4, int64_t(Limit));
  return S.rows<EvaluationRecord>("similar", readRow);
}

Expected<std::vector<std::string>>
TuningDatabase::gpusWithResults(StringRef SourceHash) {
  Statement S(Db, "SELECT DISTINCT gpu FROM evaluations WHERE source_hash = ? "
                  "AND verdict = 'verified' ORDER BY gpu");
  if (!S.ok())
    return S.error("prepare gpus");
  S.bind(1, SourceHash);
  return S.rows<std::string>("gpus",
                             [](const Statement &Row) { return Row.text(0); });
}

Error TuningDatabase::recordDecision(StringRef SourceHash, StringRef Gpu,
                                     const DecisionRecord &D) {
  Statement S(Db, "INSERT INTO decisions (source_hash, gpu, config, speedup, "
                  "original_ms, variant_ms) VALUES (?, ?, ?, ?, ?, ?)");
  if (!S.ok())
    return S.error("prepare decision");
  S.bind(1, SourceHash);
  S.bind(2, Gpu);
  S.bind(3, D.Config);
  S.bind(4, std::optional<double>(D.Speedup));
  S.bind(5, D.OriginalMs);
  S.bind(6, D.VariantMs);
  if (S.step() != SQLITE_DONE)
    return S.error("decision");
  return Error::success();
}

Expected<std::optional<DecisionRecord>>
TuningDatabase::latestDecision(StringRef SourceHash, StringRef Gpu) {
  // A database opened for reading is never migrated: one from before the
  // times were kept is read without them.
  bool Times = hasColumn("decisions", "original_ms");
  Statement S(Db, Times ? "SELECT config, speedup, original_ms, variant_ms "
                          "FROM decisions WHERE source_hash = ? AND gpu = ? "
                          "ORDER BY id DESC LIMIT 1"
                        : "SELECT config, speedup FROM decisions WHERE "
                          "source_hash = ? AND gpu = ? ORDER BY id DESC "
                          "LIMIT 1");
  if (!S.ok())
    return S.error("prepare latest decision");
  S.bind(1, SourceHash);
  S.bind(2, Gpu);
  int Rc = S.step();
  if (Rc == SQLITE_ROW) {
    DecisionRecord D;
    D.Config = S.text(0);
    D.Speedup = S.real(1).value_or(1.0);
    if (Times) {
      D.OriginalMs = S.real(2);
      D.VariantMs = S.real(3);
    }
    return std::optional<DecisionRecord>(std::move(D));
  }
  if (Rc != SQLITE_DONE)
    return S.error("latest decision");
  return std::optional<DecisionRecord>();
}

} // namespace cro
