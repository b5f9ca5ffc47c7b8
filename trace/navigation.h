// From a trace to what the study measures: per session (process tree), the visits and searches
// in order, each hop classified structural / lexical / exploratory, and Hops, Struct, Lex, LFR.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "trace/trace_file.h"

namespace anchorfs::trace {

enum class HopKind { Structural, Lexical, Exploratory };
std::string_view hop_name(HopKind kind);

// A maximal run of reads of one file by a session's non-search processes.
struct Visit {
  double t = 0;
  pid_t pid = 0;
  std::string comm;
  std::string path;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // served bytes read, [begin, end), merged
  std::vector<std::string> entities;                  // classes and functions the ranges cover
  std::vector<std::string> tags;                      // ids in tag lines of the bytes read
  std::optional<HopKind> hop;  // how the session came here; none for its first visit
  std::string via;             // the target that was named before (structural, lexical)
  bool after_search = false;   // a search step came between the previous visit and this one
  // An earlier search of the session read this file and may have listed it (its pattern
  // matches the file, or cannot be told): the visit is never structural.
  bool found_by_search = false;
  bool revisit = false;           // the session visited this file before
  bool text_unavailable = false;  // the original bytes could not be had: no lexical evidence
};

// A bulk scan: every request of one search process (rg, grep -r, ...), counted as one step.
struct Search {
  double t = 0;
  pid_t pid = 0;
  std::string comm;
  std::string cmdline;
  size_t files = 0;  // distinct files it read through the mount
};

struct SessionMetrics {
  size_t visits = 0;
  size_t searches = 0;
  size_t rounds = 0;  // visits + searches
  size_t hops = 0;    // visits after the first
  size_t structural = 0;
  size_t lexical = 0;
  size_t exploratory = 0;
  double lfr = 0;  // structural / hops (0 without hops)
};

struct Session {
  pid_t sid = 0;
  std::string leader;  // the session leader's command (or the first process seen)
  std::vector<Visit> visits;
  std::vector<Search> searches;
  // Steps in time order: (true, index into searches) or (false, index into visits).
  std::vector<std::pair<bool, size_t>> steps;
  SessionMetrics metrics;
};

struct NavigationOptions {
  // A process reading at least this many distinct files is a bulk scan.
  size_t bulk_files = 5;
  // Commands whose requests are always search steps.
  std::vector<std::string> search_commands{"rg",  "grep", "egrep", "fgrep", "ag",
                                           "ack", "git",  "find",  "fd",    "fdfind"};
  // The original bytes of a recorded file, or nullopt when they cannot be had. Default: read
  // root/path when its size and mtime still match the record.
  std::function<std::optional<std::string>(const Run& run, const FileRecord& file)> original;
};

// The sessions of a run, ordered by their first request. A session is a kernel session id
// (setsid): an agent started in its own session keeps every tool it runs in it.
std::vector<Session> sessions(const Run& run, const NavigationOptions& options = {});

// The name a lexical mention would use: a definition's last dotted component, a module's file
// stem (a package's directory for __init__), e.g. "pkg/a.py:C.run" -> "run", "pkg/b.py" -> "b".
std::string mention_name(std::string_view id);

// Whether a search process (`comm`, its `cmdline`) that read a file whose text (original bytes
// and the tag ids it read) is `text` may have listed it: the pattern of a content search (grep,
// egrep, fgrep, rg, ag, ack, git grep) is read from its command line (options skipped; `-e`
// patterns and `|` alternatives are alternatives; `-i`/`-S` fold case) and matches when every
// identifier of one alternative occurs in the text. Anything else that read the file (a name
// search's or a bulk reader's read, an inverted or file-given pattern) may have listed it.
bool search_may_list(std::string_view comm, std::string_view cmdline, std::string_view text);

// The identifiers ([A-Za-z_][A-Za-z0-9_]*) of a text.
std::vector<std::string> identifiers(std::string_view text);

// The original byte ranges behind served bytes [begin, end), tag texts left out.
std::vector<std::pair<uint64_t, uint64_t>> original_ranges(const FileRecord& file, uint64_t begin,
                                                           uint64_t end);

}  // namespace anchorfs::trace
