// The forked store walk behind check_store(): the child reports over a pipe, the parent waits.
#include "cache/store_check.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <lmdb.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>
#include <thread>

#include "cache/record_codec.h"

namespace anchorfs::cache {

namespace {

std::string_view as_view(const MDB_val& v) {
  return {static_cast<const char*>(v.mv_data), v.mv_size};
}

// Checks every record of a keyed database (key length, checksum) and counts them; returns a
// problem description or "".
std::string walk_records(MDB_txn* txn, MDB_dbi dbi, std::string_view what, uint64_t& count) {
  MDB_cursor* cursor = nullptr;
  MDB_val key{};
  MDB_val value{};
  int rc = mdb_cursor_open(txn, dbi, &cursor);
  while (rc == 0 && (rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
    if (!key_version(as_view(key)) || !decode_value(as_view(key), as_view(value))) {
      mdb_cursor_close(cursor);
      return fmt::format("a {} record fails its checksum", what);
    }
    ++count;
  }
  if (cursor != nullptr) {
    mdb_cursor_close(cursor);
  }
  if (rc != MDB_NOTFOUND) {
    return fmt::format("{} walk failed: {}", what, mdb_strerror(rc));
  }
  return "";
}

// Fills `report` from an opened read transaction; returns a problem description or "".
std::string walk(MDB_env* env, MDB_txn* txn, uint64_t file_bytes, StoreReport& report) {
  MDB_envinfo info{};
  MDB_stat env_stat{};
  mdb_env_info(env, &info);
  mdb_env_stat(env, &env_stat);
  const uint64_t pages_needed = (static_cast<uint64_t>(info.me_last_pgno) + 1) * env_stat.ms_psize;
  if (pages_needed > file_bytes) {
    return fmt::format("data file is truncated ({} of {} bytes)", file_bytes, pages_needed);
  }

  MDB_cursor* cursor = nullptr;
  MDB_val key{};
  MDB_val value{};
  int rc = mdb_cursor_open(txn, 0, &cursor);  // dbi 0 is LMDB's free-page list
  if (rc != 0) {
    return fmt::format("free list unreadable: {}", mdb_strerror(rc));
  }
  while ((rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
    if (value.mv_size < sizeof(size_t) || value.mv_size % sizeof(size_t) != 0) {
      mdb_cursor_close(cursor);
      return "free list record malformed";
    }
    const auto* ids = static_cast<const size_t*>(value.mv_data);
    const size_t count = value.mv_size / sizeof(size_t) - 1;
    if (ids[0] != count) {
      mdb_cursor_close(cursor);
      return "free list record malformed";
    }
    for (size_t i = 1; i <= count; ++i) {
      if (ids[i] > info.me_last_pgno) {
        mdb_cursor_close(cursor);
        return "free list names a page past the end";
      }
    }
  }
  mdb_cursor_close(cursor);
  if (rc != MDB_NOTFOUND) {
    return fmt::format("free list walk failed: {}", mdb_strerror(rc));
  }

  MDB_dbi meta = 0;
  MDB_dbi facts = 0;
  rc = mdb_dbi_open(txn, kMetaDb, 0, &meta);
  if (rc == MDB_NOTFOUND) {
    return "";  // created but never initialised (its first writer died): nothing to trust or lose
  }
  if (rc != 0 || (rc = mdb_dbi_open(txn, kFactsDb, 0, &facts)) != 0) {
    return fmt::format("databases unreadable: {}", mdb_strerror(rc));
  }

  rc = mdb_cursor_open(txn, meta, &cursor);
  while (rc == 0 && (rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
    if (as_view(key) == kRepoKey) {
      report.repo_path = as_view(value);
    } else if (as_view(key) == kVersionKey) {
      report.analyser_version = as_view(value);
    }
  }
  mdb_cursor_close(cursor);
  if (rc != MDB_NOTFOUND) {
    return fmt::format("metadata walk failed: {}", mdb_strerror(rc));
  }

  if (std::string problem = walk_records(txn, facts, "fact", report.entries); !problem.empty()) {
    return problem;
  }
  MDB_dbi graphs = 0;
  rc = mdb_dbi_open(txn, kGraphsDb, 0, &graphs);
  if (rc == MDB_NOTFOUND) {
    return "";  // written before the graph cache existed
  }
  if (rc != 0) {
    return fmt::format("graph database unreadable: {}", mdb_strerror(rc));
  }
  return walk_records(txn, graphs, "graph", report.graph_entries);
}

// Runs in the child; never returns.
[[noreturn]] void child_check(const std::string& dir, uint64_t file_bytes, int out_fd) {
  StoreReport report;
  report.exists = true;
  std::string problem;
  MDB_env* env = nullptr;
  MDB_txn* txn = nullptr;
  int rc = mdb_env_create(&env);
  if (rc == 0) {
    mdb_env_set_maxdbs(env, kMaxDbs);
    rc = mdb_env_open(env, dir.c_str(), MDB_RDONLY, 0600);
  }
  if (rc == 0) {
    rc = mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn);
  }
  if (rc != 0) {
    problem = fmt::format("cannot open: {}", mdb_strerror(rc));
  } else {
    problem = walk(env, txn, file_bytes, report);
    mdb_txn_abort(txn);
  }
  mdb_env_close(env);
  const nlohmann::json out = {{"problem", problem},
                              {"repo", report.repo_path},
                              {"version", report.analyser_version},
                              {"entries", report.entries},
                              {"graphs", report.graph_entries}};
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
    child_check(dir, static_cast<uint64_t>(st.st_size), fds[1]);
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
      report.repo_path = parsed.value("repo", std::string());
      report.analyser_version = parsed.value("version", std::string());
      report.entries = parsed.value("entries", uint64_t{0});
      report.graph_entries = parsed.value("graphs", uint64_t{0});
    }
  }
  report.healthy = report.problem.empty();
  return report;
}

}  // namespace anchorfs::cache
