// Navigation traces: the server hands every traced request to a Tracer, which queues it without
// blocking and writes JSON lines from its own thread (docs/trace.md has the format).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "fs/generation.h"
#include "fs/inode_table.h"
#include "sync/cond_var.h"
#include "sync/mutex.h"

namespace anchorfs::fs {

struct TraceOptions {
  std::string path;                          // the JSON-lines file (created or truncated)
  uint64_t max_bytes = uint64_t{256} << 20;  // then PATH is renamed PATH.1 and a new PATH begun
  size_t queue_capacity = 65536;             // events waiting for the writer; more are dropped
  // false (default): the server answers open/opendir and drops a file's cached pages at every
  // open, so every read of the trace's processes reaches it; true: kernel caches as untraced
  // (only the first read of a file's pages is seen).
  bool keep_kernel_cache = false;
  std::string root;        // for the header: the repository served
  std::string mountpoint;  // for the header
  std::string view;        // for the header
  std::string style;       // for the header: the tag style served
  // For the header: the mount's options as given (name, value), so a trace says how its tags
  // were made (view asked for, style, caps, budget...).
  std::vector<std::pair<std::string, std::string>> mount_options;
};

enum class TraceOp : uint8_t { Lookup, Open, Read, Readdir };

// One request as the server saw it. The generation (or retired version) keeps what it names
// alive until the writer has turned it into text.
struct TraceEvent {
  TraceOp op = TraceOp::Read;
  int64_t time_ns = 0;  // CLOCK_REALTIME
  pid_t pid = 0;
  uint64_t ino = 0;  // the file or directory (lookups: the parent)
  std::shared_ptr<const Generation> generation;
  uint32_t entry = 0;                          // in generation's snapshot
  std::shared_ptr<const RetiredFile> retired;  // instead of generation, for an old version
  std::string name;                            // lookups: the name looked up
  bool found = false;                          // lookups: whether it exists
  uint64_t offset = 0;                         // reads: byte range; readdirs: listing offset
  uint64_t length = 0;
};

struct TraceStats {
  uint64_t recorded = 0;  // events queued
  uint64_t dropped = 0;   // events refused because the queue was full
  uint64_t written = 0;   // event lines written
  uint64_t rotations = 0;
};

// Thread-safety: record() and stats() from any thread; record() takes one short mutex to queue
// and never waits for I/O (it reads /proc once per new process id, to catch short-lived tools
// before they exit). Construction and destruction from the owning thread.
class Tracer {
 public:
  // Opens the trace file and starts the writer. Throws std::runtime_error (cannot create PATH).
  explicit Tracer(TraceOptions options);
  // Writes what is queued and an "end" record, then closes the file.
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  const TraceOptions& options() const { return options_; }
  void record(TraceEvent event);
  TraceStats stats() const;

  // Implementation details, defined in tracer.cpp.
  struct Process;
  struct Queued;

 private:
  class Writer;

  void run_writer();

  TraceOptions options_;
  std::unique_ptr<Writer> writer_;  // used by the writer thread only

  mutable sync::Mutex mutex_;
  sync::CondVar wake_writer_;
  std::vector<Queued> queue_ GUARDED_BY(mutex_);
  std::unordered_set<pid_t> seen_pids_ GUARDED_BY(mutex_);
  uint64_t queued_total_ GUARDED_BY(mutex_) = 0;
  uint64_t written_total_ GUARDED_BY(mutex_) = 0;
  bool stopping_ GUARDED_BY(mutex_) = false;
  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> rotations_{0};
  std::thread thread_;
};

}  // namespace anchorfs::fs
