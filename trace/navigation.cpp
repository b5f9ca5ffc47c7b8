// Sessions, steps and hop classification over one traced run (definitions in docs/study.md).
#include "trace/navigation.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace anchorfs::trace {

namespace {

bool is_identifier_start(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_identifier_char(char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}

std::optional<std::string> read_checked(const Run& run, const FileRecord& file) {
  const std::string path = run.root + "/" + file.path;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || static_cast<uint64_t>(st.st_size) != file.original_size) {
    return std::nullopt;
  }
  const int64_t mtime_ns = int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
  if (mtime_ns != file.mtime_ns) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in && !in.eof()) return std::nullopt;
  return std::move(bytes).str();
}

void add_range(std::vector<std::pair<uint64_t, uint64_t>>& ranges, uint64_t begin, uint64_t end) {
  ranges.emplace_back(begin, end);
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (const auto& range : ranges) {
    if (!merged.empty() && range.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, range.second);
    } else {
      merged.push_back(range);
    }
  }
  ranges = std::move(merged);
}

class SessionBuilder {
 public:
  SessionBuilder(const Run& run, const NavigationOptions& options, Session& session)
      : run_(run), options_(options), session_(session) {}

  void search(const Event& event, const ProcessRecord* process) {
    auto [found, inserted] = search_of_pid_.try_emplace(event.pid, session_.searches.size());
    if (inserted) {
      Search search;
      search.t = event.t;
      search.pid = event.pid;
      if (process != nullptr) {
        search.comm = process->comm;
        search.cmdline = process->cmdline;
      }
      session_.searches.push_back(std::move(search));
      session_.steps.emplace_back(true, found->second);
    }
    if (event.op == "read") {
      Search& search = session_.searches[found->second];
      if (search_files_[event.pid].insert(event.path).second) ++search.files;
      SearchRead& what = search_reads_[found->second][event.path];
      if (auto file = run_.files.find(event.ino); file != run_.files.end()) {
        what.file = &file->second;
      }
      what.tags.insert(what.tags.end(), event.tags.begin(), event.tags.end());
    }
  }

  void read(const Event& event, const ProcessRecord* process) {
    const bool continues = !session_.steps.empty() && !session_.steps.back().first &&
                           session_.visits.back().path == event.path;
    if (!continues) {
      Visit visit;
      visit.t = event.t;
      visit.pid = event.pid;
      if (process != nullptr) visit.comm = process->comm;
      visit.path = event.path;
      session_.visits.push_back(std::move(visit));
      files_.push_back(nullptr);
      session_.steps.emplace_back(false, session_.visits.size() - 1);
    }
    Visit& visit = session_.visits.back();
    if (auto file = run_.files.find(event.ino); file != run_.files.end()) {
      files_.back() = &file->second;
    }
    add_range(visit.ranges, event.offset, event.offset + event.length);
    for (const std::string& tag : event.tags) {
      if (std::find(visit.tags.begin(), visit.tags.end(), tag) == visit.tags.end()) {
        visit.tags.push_back(tag);
      }
    }
  }

  void classify() {
    std::unordered_set<std::string> tags_seen;
    std::unordered_set<std::string> words_seen;
    std::set<std::string> files_visited;
    std::vector<size_t> searches_so_far;
    size_t last_visit_step = 0;
    for (size_t step = 0; step < session_.steps.size(); ++step) {
      if (session_.steps[step].first) {
        searches_so_far.push_back(session_.steps[step].second);
        continue;
      }
      const size_t v = session_.steps[step].second;
      Visit& visit = session_.visits[v];
      const FileRecord* file = files_[v];
      if (file != nullptr) visit.entities = covered(*file, visit.ranges);
      visit.found_by_search = found_by_search(searches_so_far, visit.path);
      if (v > 0) {
        for (size_t s = last_visit_step + 1; s < step; ++s) {
          visit.after_search |= session_.steps[s].first;
        }
        visit.revisit = files_visited.count(visit.path) > 0;
        std::vector<std::string> targets{visit.path};
        targets.insert(targets.end(), visit.entities.begin(), visit.entities.end());
        visit.hop = HopKind::Exploratory;
        for (const std::string& target :
             visit.found_by_search ? std::vector<std::string>{} : targets) {
          if (tags_seen.count(target) > 0) {
            visit.hop = HopKind::Structural;
            visit.via = target;
            break;
          }
        }
        if (visit.hop == HopKind::Exploratory) {
          for (const std::string& target : targets) {
            if (words_seen.count(mention_name(target)) > 0) {
              visit.hop = HopKind::Lexical;
              visit.via = target;
              break;
            }
          }
        }
      }
      tags_seen.insert(visit.tags.begin(), visit.tags.end());
      files_visited.insert(visit.path);
      last_visit_step = step;
      std::optional<std::string> original = file == nullptr ? std::nullopt : original_of(*file);
      if (!original) {
        visit.text_unavailable = true;
        continue;
      }
      for (const auto& [begin, end] : visit.ranges) {
        for (const auto& [from, to] : original_ranges(*file, begin, end)) {
          if (from >= original->size()) continue;
          const std::string_view text = std::string_view(*original).substr(
              from, std::min<uint64_t>(to, original->size()) - from);
          for (std::string& word : identifiers(text)) words_seen.insert(std::move(word));
        }
      }
    }
  }

 private:
  struct SearchRead {
    const FileRecord* file = nullptr;
    std::vector<std::string> tags;  // ids in the tag lines the search read there
  };

  std::optional<std::string> original_of(const FileRecord& file) const {
    return options_.original ? options_.original(run_, file) : read_checked(run_, file);
  }

  // Whether one of the given searches read `path` and may have listed it (docs/study.md): its
  // pattern matches the text it read (the original bytes and the tag ids in them), or the
  // text or the pattern cannot be had.
  bool found_by_search(const std::vector<size_t>& searches, const std::string& path) const {
    for (const size_t s : searches) {
      auto reads = search_reads_.find(s);
      if (reads == search_reads_.end()) continue;
      auto read = reads->second.find(path);
      if (read == reads->second.end()) continue;
      std::optional<std::string> text =
          read->second.file == nullptr ? std::nullopt : original_of(*read->second.file);
      if (!text) return true;
      for (const std::string& tag : read->second.tags) *text += "\n" + tag;
      const Search& search = session_.searches[s];
      if (search_may_list(search.comm, search.cmdline, *text)) return true;
    }
    return false;
  }

  static std::vector<std::string> covered(
      const FileRecord& file, const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
    std::vector<std::string> ids;
    for (const FileRecord::Span& span : file.entities) {
      if (span.kind == "file") continue;
      for (const auto& [begin, end] : ranges) {
        if (begin < span.end && span.begin < end) {
          ids.push_back(span.id);
          break;
        }
      }
    }
    return ids;
  }

  const Run& run_;
  const NavigationOptions& options_;
  Session& session_;
  std::vector<const FileRecord*> files_;  // by visit
  std::unordered_map<pid_t, size_t> search_of_pid_;
  std::unordered_map<pid_t, std::set<std::string>> search_files_;
  std::unordered_map<size_t, std::unordered_map<std::string, SearchRead>> search_reads_;
};

}  // namespace

std::string_view hop_name(HopKind kind) {
  switch (kind) {
    case HopKind::Structural:
      return "structural";
    case HopKind::Lexical:
      return "lexical";
    case HopKind::Exploratory:
      return "exploratory";
  }
  return "?";
}

std::string mention_name(std::string_view id) {
  const size_t colon = id.find(':');
  if (colon != std::string_view::npos) {
    std::string_view name = id.substr(colon + 1);
    const size_t dot = name.rfind('.');
    return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
  }
  std::string_view base = id;
  if (const size_t slash = base.rfind('/'); slash != std::string_view::npos) {
    base = base.substr(slash + 1);
  }
  if (base.substr(0, base.find('.')) == "__init__") {
    std::string_view dir = id.substr(0, id.size() - base.size());
    if (!dir.empty()) dir.remove_suffix(1);
    const size_t slash = dir.rfind('/');
    return std::string(slash == std::string_view::npos ? dir : dir.substr(slash + 1));
  }
  return std::string(base.substr(0, base.find('.')));
}

namespace {

bool one_of(std::string_view word, std::initializer_list<std::string_view> words) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

// Short options that take a value (the rest of the bundle, or the next word), per tool.
std::string_view short_options_with_value(std::string_view tool) {
  if (tool == "rg") return "efmABCgtTjMEr";
  if (tool == "ag" || tool == "ack") return "ABCGgm";
  return "efmABCdD";  // grep, egrep, fgrep, git grep
}

bool long_option_takes_value(std::string_view tool, std::string_view name) {
  if (tool == "rg" &&
      one_of(name, {"color", "colors", "sort", "sortr", "type-add", "pre", "pre-glob",
                    "max-filesize", "path-separator", "ignore-file", "iglob", "type-not", "threads",
                    "max-columns", "encoding", "replace"})) {
    return true;
  }
  return one_of(name, {"regexp", "file", "glob", "type", "max-count", "context", "after-context",
                       "before-context", "max-depth", "label", "group-separator"});
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == separator) {
      if (i > start) parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

std::string lowered(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

// The identifiers each alternative of a pattern requires: alternatives split at `|` (and BRE's
// `\|`) and newlines; regular-expression escapes (`\b`, `\.`) cut words rather than join them.
std::vector<std::vector<std::string>> required_words(std::string_view pattern, bool fixed) {
  std::vector<std::vector<std::string>> alternatives;
  std::string current;
  auto close = [&] {
    alternatives.push_back(identifiers(current));
    current.clear();
  };
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\n' || (!fixed && c == '|')) {
      close();
    } else if (!fixed && c == '\\' && i + 1 < pattern.size()) {
      if (pattern[i + 1] == '|') close();
      current += ' ';
      ++i;
    } else {
      current += c;
    }
  }
  close();
  return alternatives;
}

}  // namespace

bool search_may_list(std::string_view comm, std::string_view cmdline, std::string_view text) {
  const std::vector<std::string_view> words = split(cmdline, ' ');
  size_t i = 1;
  if (comm == "git") {
    if (words.size() < 2 || words[1] != "grep") return true;
    i = 2;
  } else if (!one_of(comm, {"grep", "egrep", "fgrep", "rg", "ag", "ack"})) {
    return true;  // not a content search with a pattern on its command line
  }
  bool fixed = comm == "fgrep";
  bool fold_case = false;
  bool options_done = false;
  std::vector<std::string_view> patterns;  // -e / --regexp
  std::optional<std::string_view> positional;
  for (; i < words.size(); ++i) {
    const std::string_view word = words[i];
    if (options_done || word.size() < 2 || word[0] != '-') {
      if (!positional) positional = word;
      continue;
    }
    if (word == "--") {
      options_done = true;
    } else if (word[1] == '-') {
      std::string_view name = word.substr(2);
      std::optional<std::string_view> value;
      if (const size_t eq = name.find('='); eq != std::string_view::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
      } else if (long_option_takes_value(comm, name) && i + 1 < words.size()) {
        value = words[++i];
      }
      if (name == "regexp" && value) patterns.push_back(*value);
      if (one_of(name, {"file", "invert-match", "files", "files-without-match"})) return true;
      fold_case |= one_of(name, {"ignore-case", "smart-case"});
      fixed |= name == "fixed-strings";
    } else {
      for (size_t c = 1; c < word.size(); ++c) {
        const char flag = word[c];
        if (short_options_with_value(comm).find(flag) != std::string_view::npos) {
          const std::string_view value =
              c + 1 < word.size() ? word.substr(c + 1) : (i + 1 < words.size() ? words[++i] : "");
          if (flag == 'e') patterns.push_back(value);
          if (flag == 'f') return true;  // patterns from a file
          break;
        }
        if (flag == 'v' || flag == 'L') return true;  // inverted: any file may be listed
        fold_case |= flag == 'i' || flag == 'S';
        fixed |= flag == 'F';
      }
    }
  }
  if (patterns.empty() && positional) patterns.push_back(*positional);
  if (patterns.empty()) return true;
  const std::string haystack = fold_case ? lowered(text) : std::string(text);
  for (const std::string_view pattern : patterns) {
    for (const std::vector<std::string>& required : required_words(pattern, fixed)) {
      if (std::all_of(required.begin(), required.end(), [&](const std::string& word) {
            return haystack.find(fold_case ? lowered(word) : word) != std::string::npos;
          })) {
        return true;  // an alternative without identifiers matches anything
      }
    }
  }
  return false;
}

std::vector<std::string> identifiers(std::string_view text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    if (!is_identifier_start(text[i]) || (i > 0 && is_identifier_char(text[i - 1]))) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < text.size() && is_identifier_char(text[j])) ++j;
    words.emplace_back(text.substr(i, j - i));
    i = j;
  }
  return words;
}

std::vector<std::pair<uint64_t, uint64_t>> original_ranges(const FileRecord& file, uint64_t begin,
                                                           uint64_t end) {
  std::vector<std::pair<uint64_t, uint64_t>> pieces;
  uint64_t position = begin;
  uint64_t added = 0;  // tag bytes before `position`
  auto emit = [&](uint64_t to) {
    if (position < to) pieces.emplace_back(position - added, to - added);
  };
  for (const FileRecord::Insertion& insertion : file.insertions) {
    const uint64_t text_end = insertion.view + insertion.length;
    if (insertion.view >= end) break;
    if (text_end <= position) {
      added += insertion.length;
      continue;
    }
    emit(std::min(insertion.view, end));
    position = std::max(position, text_end);
    added += insertion.length;
  }
  emit(end);
  return pieces;
}

namespace {

// The session a process belongs to. /proc reports session 0 when the session leader lives
// outside the daemon's pid namespace (a container started without setsid); the outermost
// visible ancestor below init (or init, for its own children) then stands for the session, so
// one shell's commands stay together.
pid_t session_key(pid_t pid, const ProcessRecord* process) {
  if (process == nullptr) return pid;
  if (process->sid > 0) return process->sid;
  if (process->chain.empty()) return pid;
  pid_t outermost = process->chain.back().first;
  for (const auto& [ancestor, comm] : process->chain) {
    if (ancestor > 1) outermost = ancestor;
  }
  return outermost;
}

}  // namespace

std::vector<Session> sessions(const Run& run, const NavigationOptions& options) {
  std::vector<const Event*> events;
  for (const Event& event : run.events) events.push_back(&event);
  std::stable_sort(events.begin(), events.end(),
                   [](const Event* a, const Event* b) { return a->t < b->t; });

  auto process_of = [&](pid_t pid) -> const ProcessRecord* {
    auto found = run.processes.find(pid);
    return found == run.processes.end() ? nullptr : &found->second;
  };
  std::unordered_map<pid_t, std::set<std::string>> files_read;
  for (const Event* event : events) {
    if (event->op == "read") files_read[event->pid].insert(event->path);
  }
  auto searching = [&](pid_t pid) {
    const ProcessRecord* process = process_of(pid);
    if (process != nullptr &&
        std::find(options.search_commands.begin(), options.search_commands.end(), process->comm) !=
            options.search_commands.end()) {
      return true;
    }
    return files_read[pid].size() >= options.bulk_files;
  };

  std::vector<Session> result;
  std::map<pid_t, size_t> session_of_sid;
  std::vector<std::unique_ptr<SessionBuilder>> builders;
  for (const Event* event : events) {
    const ProcessRecord* process = process_of(event->pid);
    const pid_t sid = session_key(event->pid, process);
    auto [found, inserted] = session_of_sid.try_emplace(sid, result.size());
    if (inserted) {
      Session session;
      session.sid = sid;
      session.leader = process != nullptr ? process->comm : "";
      if (const ProcessRecord* leader = process_of(sid)) {
        session.leader = leader->comm;
      } else if (process != nullptr) {
        for (const auto& [ancestor, comm] : process->chain) {
          if (ancestor == sid) session.leader = comm;
        }
      }
      result.push_back(std::move(session));
    }
  }
  for (Session& session : result)
    builders.push_back(std::make_unique<SessionBuilder>(run, options, session));
  for (const Event* event : events) {
    const ProcessRecord* process = process_of(event->pid);
    const pid_t sid = session_key(event->pid, process);
    SessionBuilder& builder = *builders[session_of_sid[sid]];
    if (searching(event->pid)) {
      builder.search(*event, process);
    } else if (event->op == "read") {
      builder.read(*event, process);
    }
  }
  for (size_t i = 0; i < result.size(); ++i) {
    builders[i]->classify();
    Session& session = result[i];
    SessionMetrics& m = session.metrics;
    m.visits = session.visits.size();
    m.searches = session.searches.size();
    m.rounds = m.visits + m.searches;
    for (const Visit& visit : session.visits) {
      if (!visit.hop) continue;
      ++m.hops;
      m.structural += *visit.hop == HopKind::Structural;
      m.lexical += *visit.hop == HopKind::Lexical;
      m.exploratory += *visit.hop == HopKind::Exploratory;
    }
    m.lfr = m.hops == 0 ? 0 : static_cast<double>(m.structural) / static_cast<double>(m.hops);
  }
  // Sessions that only looked things up or listed directories have nothing to report.
  std::erase_if(result, [](const Session& s) { return s.steps.empty(); });
  return result;
}

}  // namespace anchorfs::trace
