// The forked store walk behind check_store(): the child reports over a pipe, the parent waits.
#include "cache/store_check.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <lmdb.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>
#include <thread>

#include "cache/lru_index.h"
#include "cache/mdb_bytes.h"
#include "cache/page_walk.h"
#include "cache/record_codec.h"

namespace anchorfs::cache {

namespace {

// Checks every record of a keyed database (key length, magic, both ends of the value readable:
// a value past the end of the file faults here, in the child) and counts them; returns a
// problem description or "".
std::string walk_records(MDB_txn* txn, MDB_dbi dbi, std::string_view what, uint64_t& count) {
  MDB_cursor* cursor = nullptr;
  MDB_val key{};
  MDB_val value{};
  int rc = mdb_cursor_open(txn, dbi, &cursor);
  while (rc == 0 && (rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
    const volatile char* data = static_cast<const char*>(value.mv_data);
    if (value.mv_size > 0) static_cast<void>(data[value.mv_size - 1]);
    if (!key_version(as_view(key)) || !has_record_magic(as_view(value))) {
      mdb_cursor_close(cursor);
      return fmt::format("a {} record is malformed", what);
    }
    if (holds_analysis(key_version(as_view(key)))) ++count;  // aliases are no analyses
  }
  if (cursor != nullptr) mdb_cursor_close(cursor);
  if (rc != MDB_NOTFOUND) return fmt::format("{} walk failed: {}", what, mdb_strerror(rc));
  return "";
}

// Walks a bookkeeping database's keys; returns a problem description or "".
std::string walk_keys(MDB_txn* txn, MDB_dbi dbi, std::string_view what) {
  MDB_cursor* cursor = nullptr;
  MDB_val key{};
  MDB_val value{};
  int rc = mdb_cursor_open(txn, dbi, &cursor);
  while (rc == 0 && (rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
  }
  if (cursor != nullptr) mdb_cursor_close(cursor);
  if (rc != MDB_NOTFOUND) return fmt::format("{} walk failed: {}", what, mdb_strerror(rc));
  return "";
}

// Fills `report` from an opened transaction; returns a problem description or "".
std::string walk(MDB_txn* txn, StoreReport& report) {
  // The free list was checked page by page (verify_lmdb_pages), page numbers included.
  int rc = 0;
  StoreDbs dbs;
  rc = mdb_dbi_open(txn, "meta", 0, &dbs.meta);
  if (rc == MDB_NOTFOUND) {
    return "";  // created but never initialised (its first writer died): nothing to trust or lose
  }
  for (const auto& [name, dbi] : {std::pair{"facts", &dbs.facts}, std::pair{"graphs", &dbs.graphs},
                                  std::pair{"stamps", &dbs.stamps}, std::pair{"age", &dbs.age}}) {
    if (rc == 0) rc = mdb_dbi_open(txn, name, 0, dbi);
  }
  if (rc != 0) return fmt::format("databases unreadable: {}", mdb_strerror(rc));
  if (std::string problem = walk_keys(txn, dbs.meta, "metadata"); !problem.empty()) return problem;
  report.info.accounted_bytes = read_counter(txn, dbs, kBytesCounter);
  report.info.used_bytes = used_bytes(txn, dbs);
  report.info.counts = read_hit_counts(txn, dbs);
  if (std::string problem = walk_records(txn, dbs.facts, "fact", report.info.entries);
      !problem.empty()) {
    return problem;
  }
  if (std::string problem = walk_records(txn, dbs.graphs, "graph", report.info.graph_entries);
      !problem.empty()) {
    return problem;
  }
  if (std::string problem = walk_keys(txn, dbs.stamps, "recency"); !problem.empty()) return problem;
  return walk_keys(txn, dbs.age, "age index");
}

// The page-level check of the data file as it is now (see page_walk.h).
std::string verify_file_pages(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    if (fd >= 0) ::close(fd);
    return "data file unreadable";
  }
  const auto bytes = static_cast<size_t>(st.st_size);
  void* map = bytes == 0 ? MAP_FAILED : ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return "data file cannot be mapped";
  std::string problem = verify_lmdb_pages(static_cast<const char*>(map), bytes,
                                          static_cast<size_t>(::sysconf(_SC_PAGESIZE)));
  ::munmap(map, bytes);
  return problem;
}

// Runs in the child; never returns.
[[noreturn]] void child_check(const std::string& dir, int out_fd) {
  StoreReport report;
  report.exists = true;
  std::string problem;
  MDB_env* env = nullptr;
  MDB_txn* txn = nullptr;
  int rc = mdb_env_create(&env);
  if (rc == 0) {
    mdb_env_set_maxdbs(env, kMaxDbs);
    rc = mdb_env_open(env, dir.c_str(), 0, 0600);
  }
  // A write transaction (never committed) holds off every other writer sharing the store, so
  // the file is not rewritten while its pages are walked below LMDB.
  if (rc == 0) {
    rc = mdb_txn_begin(env, nullptr, 0, &txn);
  }
  if (rc != 0) {
    problem = fmt::format("cannot open: {}", mdb_strerror(rc));
  } else {
    problem = verify_file_pages(dir + "/" + kDataFile);
    if (problem.empty()) problem = walk(txn, report);
    mdb_txn_abort(txn);
  }
  mdb_env_close(env);
  const HitCounts& c = report.info.counts;
  const nlohmann::json out = {{"problem", problem},
                              {"entries", report.info.entries},
                              {"graphs", report.info.graph_entries},
                              {"bytes", report.info.accounted_bytes},
                              {"used", report.info.used_bytes},
                              {"counts",
                               {c.fact_hits, c.fact_remote_hits, c.fact_misses, c.graph_hits,
                                c.graph_remote_hits, c.graph_misses}}};
  const std::string text = out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(out_fd, text.data() + written, text.size() - written);
    if (n <= 0) {
      break;
    }
    written += static_cast<size_t>(n);
  }
  ::_exit(0);
}

}  // namespace

StoreReport check_store(const std::string& dir, std::chrono::milliseconds timeout) {
  StoreReport report;
  struct stat st {};
  const std::string data = dir + "/" + kDataFile;
  if (::stat(data.c_str(), &st) != 0) {
    report.healthy = errno == ENOENT;
    report.problem = report.healthy ? "" : "data file cannot be inspected";
    return report;
  }
  report.exists = true;
  // LMDB writes both meta pages when it creates a file, so a shorter file was cut short.
  if (st.st_size < 2 * ::sysconf(_SC_PAGESIZE)) {
    report.problem = fmt::format("data file is truncated ({} bytes)", st.st_size);
    return report;
  }

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    report.verified = false;
    report.problem = fmt::format("cannot verify it (pipe: {})", std::strerror(errno));
    return report;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    report.verified = false;
    report.problem = fmt::format("cannot verify it (fork: {})", std::strerror(error));
    return report;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_check(dir, fds[1]);
  }
  ::close(fds[1]);

  std::string text;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    char buffer[4096];
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (timed_out) {
    ::kill(pid, SIGKILL);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  if (timed_out) {
    report.problem = "verification did not finish (looping or unreadable pages)";
  } else if (WIFSIGNALED(status)) {
    report.problem = fmt::format("reading it crashes (signal {})", WTERMSIG(status));
  } else {
    const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      report.problem = "verification gave no answer";
    } else {
      report.problem = parsed.value("problem", std::string("verification gave no answer"));
      report.info.entries = parsed.value("entries", uint64_t{0});
      report.info.graph_entries = parsed.value("graphs", uint64_t{0});
      report.info.accounted_bytes = parsed.value("bytes", uint64_t{0});
      report.info.used_bytes = parsed.value("used", uint64_t{0});
      const auto counts = parsed.value("counts", std::vector<uint64_t>{});
      if (counts.size() == 6) {
        report.info.counts = {counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]};
      }
    }
  }
  report.healthy = report.problem.empty();
  return report;
}

}  // namespace anchorfs::cache
