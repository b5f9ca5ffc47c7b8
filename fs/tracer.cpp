// Tracer: a short-mutex queue in front of one writer thread that formats JSON lines, records
// each process and each file version once per output file, and rotates at a size bound.
#include "fs/tracer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "fs/private_file.h"

namespace anchorfs::fs {

using nlohmann::json;

// A process as /proc showed it when it first reached the mount.
struct Tracer::Process {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t sid = 0;  // session id: what the report groups by
  std::string comm;
  std::string cmdline;                               // argv joined by spaces, capped
  std::vector<std::pair<pid_t, std::string>> chain;  // parent, grandparent, ... up to pid 1
};

struct Tracer::Queued {
  TraceEvent event;
  std::shared_ptr<const Process> process;  // set: a process record, not a request
};

namespace {

constexpr size_t kMaxCmdline = 512;
constexpr size_t kMaxChain = 32;

std::string read_small(const std::string& path, size_t limit) {
  std::ifstream in(path, std::ios::binary);
  std::string text;
  text.resize(limit);
  in.read(text.data(), static_cast<std::streamsize>(limit));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

// /proc/PID/stat: "pid (comm) state ppid pgrp session ..."; comm may hold spaces and parens.
bool read_stat(pid_t pid, std::string& comm, pid_t& ppid, pid_t& sid) {
  const std::string stat = read_small("/proc/" + std::to_string(pid) + "/stat", 1024);
  const size_t open = stat.find('(');
  const size_t close = stat.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  comm = stat.substr(open + 1, close - open - 1);
  char state = 0;
  int parent = 0;
  int group = 0;
  int session = 0;
  if (std::sscanf(stat.c_str() + close + 1, " %c %d %d %d", &state, &parent, &group, &session) !=
      4) {
    return false;
  }
  ppid = parent;
  sid = session;
  return true;
}

json time_value(int64_t ns) {
  return static_cast<double>(ns) / 1e9;
}

int64_t now_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_REALTIME, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

const char* op_name(TraceOp op) {
  switch (op) {
    case TraceOp::Lookup:
      return "lookup";
    case TraceOp::Open:
      return "open";
    case TraceOp::Read:
      return "read";
    case TraceOp::Readdir:
      return "readdir";
  }
  return "?";
}

std::shared_ptr<const Tracer::Process> describe_process(pid_t pid) {
  auto process = std::make_shared<Tracer::Process>();
  process->pid = pid;
  if (!read_stat(pid, process->comm, process->ppid, process->sid)) return process;
  std::string cmdline = read_small("/proc/" + std::to_string(pid) + "/cmdline", kMaxCmdline);
  while (!cmdline.empty() && cmdline.back() == '\0') cmdline.pop_back();
  for (char& c : cmdline) {
    if (c == '\0') c = ' ';
  }
  process->cmdline = std::move(cmdline);
  pid_t parent = process->ppid;
  while (parent > 0 && process->chain.size() < kMaxChain) {
    std::string comm;
    pid_t grandparent = 0;
    pid_t session = 0;
    if (!read_stat(parent, comm, grandparent, session)) break;
    process->chain.emplace_back(parent, std::move(comm));
    if (parent == 1) break;
    parent = grandparent;
  }
  return process;
}

}  // namespace

// Everything the writer thread owns: the output file and what it already recorded in it.
class Tracer::Writer {
 public:
  explicit Writer(const TraceOptions& options) : options_(options) {
    if (const std::string problem = open_file(); !problem.empty()) {
      throw std::runtime_error("cannot write trace " + options_.path + ": " + problem);
    }
  }
  ~Writer() {
    if (file_ != nullptr) std::fclose(file_);
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void write(const Queued& item, uint64_t& rotations) {
    if (item.process) {
      processes_[item.process->pid] = item.process;
      return;
    }
    const TraceEvent& event = item.event;
    write_process(event.pid);
    json line{{"t", time_value(event.time_ns)},
              {"op", op_name(event.op)},
              {"pid", event.pid},
              {"ino", event.ino}};
    if (auto found = processes_.find(event.pid); found != processes_.end()) {
      line["comm"] = found->second->comm;
    }
    const analysis::TreeEntry* entry = nullptr;
    const FileTrace* trace = nullptr;
    if (event.generation) {
      entry = &event.generation->snapshot().entry(event.entry);
      trace = event.generation->snapshot().trace(event.entry);
    } else if (event.retired) {
      entry = &event.retired->entry;
    }
    if (entry != nullptr) {
      if (event.op == TraceOp::Lookup) {
        line["path"] = entry->path.empty() ? event.name : entry->path + "/" + event.name;
        line["found"] = event.found;
      } else {
        line["path"] = entry->path;
      }
    }
    if (event.op == TraceOp::Read || event.op == TraceOp::Open) write_file(event, entry, trace);
    if (event.op == TraceOp::Read) {
      line["off"] = event.offset;
      line["len"] = event.length;
      json tags = json::array();
      if (trace != nullptr) {
        for (const FileTrace::Reference& ref :
             trace->references_in(event.offset, event.offset + event.length)) {
          tags.push_back(ref.id);
        }
      }
      line["tags"] = std::move(tags);
    } else if (event.op == TraceOp::Readdir) {
      line["off"] = event.offset;
    }
    emit(line);
    if (bytes_ >= options_.max_bytes) {
      rotate();
      ++rotations;
    }
  }

  void write_dropped(uint64_t dropped) {
    emit(json{{"type", "dropped"}, {"t", time_value(now_ns())}, {"count", dropped}});
  }

  void write_end(uint64_t written, uint64_t dropped) {
    emit(json{
        {"type", "end"}, {"t", time_value(now_ns())}, {"events", written}, {"dropped", dropped}});
  }

  void flush() {
    if (file_ != nullptr) std::fflush(file_);
  }

 private:
  // Starts PATH afresh (private: the trace holds paths and command lines); "" or why not.
  std::string open_file() {
    const PrivateFile opened = open_private_file(options_.path, PrivateOpen::Truncate);
    if (opened.fd < 0) return opened.problem;
    file_ = ::fdopen(opened.fd, "w");
    if (file_ == nullptr) {
      const std::string problem = std::strerror(errno);
      ::close(opened.fd);
      return problem;
    }
    bytes_ = 0;
    written_processes_.clear();
    written_files_.clear();
    json mount_options = json::object();
    for (const auto& [name, value] : options_.mount_options) mount_options[name] = value;
    emit(json{{"type", "header"},
              {"format", "anchorfs-trace"},
              {"version", 1},
              {"t", time_value(now_ns())},
              {"root", options_.root},
              {"mountpoint", options_.mountpoint},
              {"view", options_.view},
              {"style", options_.style},
              {"options", std::move(mount_options)},
              {"kernel_cache", options_.keep_kernel_cache ? "kept" : "dropped at open"}});
    return {};
  }

  // The current file becomes PATH.1 (replacing an older one) and a self-contained PATH starts.
  // Should PATH be taken meanwhile (a symlink planted there), tracing stops rather than follow it.
  void rotate() {
    if (file_ == nullptr) return;
    std::fclose(file_);
    file_ = nullptr;
    const std::string older = options_.path + ".1";
    std::rename(options_.path.c_str(), older.c_str());
    open_file();
  }

  void write_process(pid_t pid) {
    if (!written_processes_.insert(pid).second) return;
    auto found = processes_.find(pid);
    if (found == processes_.end()) return;
    const Process& process = *found->second;
    json chain = json::array();
    for (const auto& [ancestor, comm] : process.chain) chain.push_back(json{ancestor, comm});
    emit(json{{"type", "process"},
              {"pid", process.pid},
              {"ppid", process.ppid},
              {"sid", process.sid},
              {"comm", process.comm},
              {"cmdline", process.cmdline},
              {"chain", std::move(chain)}});
  }

  void write_file(const TraceEvent& event, const analysis::TreeEntry* entry,
                  const FileTrace* trace) {
    if (entry == nullptr || !written_files_.insert(event.ino).second) return;
    uint64_t view_size = entry->size;
    json insertions = json::array();
    json entities = json::array();
    if (trace != nullptr) {
      for (const FileTrace::Insertion& insertion : trace->insertions) {
        insertions.push_back(
            json{insertion.original_offset, insertion.view_offset, insertion.length});
        view_size += insertion.length;
      }
      for (const FileTrace::Span& span : trace->entities) {
        entities.push_back(json{span.begin, span.end, span.kind, span.id});
      }
    } else if (event.generation) {
      view_size = event.generation->snapshot().view_size(event.entry);
    } else if (event.retired) {
      view_size = fs::view_size(*entry, *event.retired->layout);
    }
    emit(json{{"type", "file"},
              {"ino", event.ino},
              {"path", entry->path},
              {"size", view_size},
              {"original_size", entry->size},
              {"mtime_ns", entry->mtime_ns},
              {"mapped", trace != nullptr},
              {"insertions", std::move(insertions)},
              {"entities", std::move(entities)}});
  }

  void emit(const json& line) {
    std::string text = line.dump(-1, ' ', false, json::error_handler_t::replace);
    text += '\n';
    if (file_ != nullptr) bytes_ += std::fwrite(text.data(), 1, text.size(), file_);
  }

  const TraceOptions& options_;
  std::FILE* file_ = nullptr;
  uint64_t bytes_ = 0;
  std::unordered_map<pid_t, std::shared_ptr<const Process>> processes_;
  std::unordered_set<pid_t> written_processes_;  // in the current output file
  std::unordered_set<uint64_t> written_files_;   // inode numbers, in the current output file
};

Tracer::Tracer(TraceOptions options)
    : options_(std::move(options)), writer_(std::make_unique<Writer>(options_)) {
  queue_.reserve(options_.queue_capacity);
  thread_ = std::thread([this] { run_writer(); });
}

Tracer::~Tracer() {
  {
    const sync::MutexLock lock(mutex_);
    stopping_ = true;
  }
  wake_writer_.notify_one();
  thread_.join();
}

void Tracer::record(TraceEvent event) {
  std::shared_ptr<const Process> process;
  bool new_pid = false;
  {
    const sync::MutexLock lock(mutex_);
    new_pid = seen_pids_.insert(event.pid).second;
  }
  if (new_pid) process = describe_process(event.pid);
  {
    const sync::MutexLock lock(mutex_);
    const size_t needed = process ? 2 : 1;
    if (queue_.size() + needed > options_.queue_capacity) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      if (process) seen_pids_.erase(event.pid);  // describe it again next time
      return;
    }
    if (process) queue_.push_back({TraceEvent{}, std::move(process)});
    queue_.push_back({std::move(event), nullptr});
    ++queued_total_;
  }
  wake_writer_.notify_one();
}

TraceStats Tracer::stats() const {
  const sync::MutexLock lock(mutex_);
  return {queued_total_, dropped_.load(std::memory_order_relaxed), written_total_,
          rotations_.load(std::memory_order_relaxed)};
}

void Tracer::run_writer() {
  std::vector<Queued> batch;
  batch.reserve(options_.queue_capacity);
  uint64_t reported_drops = 0;
  for (;;) {
    bool stop = false;
    {
      const sync::MutexLock lock(mutex_);
      while (!stopping_ && queue_.empty()) wake_writer_.wait(mutex_);
      batch.swap(queue_);
      stop = stopping_ && batch.empty();
    }
    uint64_t events = 0;
    uint64_t rotations = 0;
    for (const Queued& item : batch) {
      writer_->write(item, rotations);
      if (!item.process) ++events;
    }
    batch.clear();
    const uint64_t dropped = dropped_.load(std::memory_order_relaxed);
    if (dropped != reported_drops) {
      writer_->write_dropped(dropped);
      reported_drops = dropped;
    }
    if (stop) {
      uint64_t written = 0;
      {
        const sync::MutexLock lock(mutex_);
        written = written_total_ + events;
      }
      writer_->write_end(written, dropped);
    }
    writer_->flush();
    rotations_.fetch_add(rotations, std::memory_order_relaxed);
    {
      const sync::MutexLock lock(mutex_);
      written_total_ += events;
    }
    if (stop) return;
  }
}

}  // namespace anchorfs::fs
