// Reading a trace written by `anchorfs mount --trace` (JSON lines; format in docs/study.md).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace anchorfs::trace {

// A served file version as the trace recorded it, once per inode number.
struct FileRecord {
  struct Insertion {
    uint64_t original = 0;  // original offset the tag text is inserted before
    uint64_t view = 0;      // where it starts in the served bytes
    uint64_t length = 0;
  };
  struct Span {
    uint64_t begin = 0;  // served (view) offsets, [begin, end)
    uint64_t end = 0;
    std::string kind;  // "file", "class", "function"
    std::string id;
  };
  std::string path;
  uint64_t size = 0;  // as served
  uint64_t original_size = 0;
  int64_t mtime_ns = 0;
  bool mapped = false;  // false: no entity spans or tag references were available
  std::vector<Insertion> insertions;
  std::vector<Span> entities;
};

struct ProcessRecord {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t sid = 0;
  std::string comm;
  std::string cmdline;
  std::vector<std::pair<pid_t, std::string>> chain;  // parent first
};

struct Event {
  double t = 0;
  std::string op;  // "lookup", "open", "read", "readdir"
  pid_t pid = 0;
  uint64_t ino = 0;
  std::string path;
  uint64_t offset = 0;
  uint64_t length = 0;
  bool found = false;             // lookups
  std::vector<std::string> tags;  // reads: ids named in tag lines within the bytes returned
};

struct Run {
  std::string name;  // the trace path given
  std::string root;  // the repository the mount served
  std::string view;
  std::string style;  // the tag style (empty in traces older than the field)
  // The mount's options as the header gives them (name, value), by name.
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<Event> events;  // in file order (the writer's order: time order per request)
  std::unordered_map<uint64_t, FileRecord> files;  // by inode number
  std::unordered_map<pid_t, ProcessRecord> processes;
  uint64_t dropped = 0;   // events the mount could not queue
  bool complete = false;  // the trace has its "end" record (the mount was unmounted)
};

// Reads one traced run: PATH, preceded by PATH.1 when rotation left one. Throws
// std::runtime_error naming the file and line when it cannot be read or is not a trace.
Run read_run(const std::string& path);

}  // namespace anchorfs::trace
