// Computing the resolution key (see resolution_key.h for what it covers and why).
#include "analysis/resolution_key.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string_view>

#include "analysis/build_identity.h"
#include "analysis/chunked_hash.h"
#include "analysis/graph_serialize.h"
#include "analysis/language.h"
#include "analysis/resolution_input.h"
#include "analysis/source_files.h"
#include "analysis/stat_identity.h"

namespace anchorfs::analysis {
namespace {

// Streams length-prefixed fields, so no two different field sequences hash the same bytes.
class KeyHasher {
 public:
  void number(uint64_t v) { state_.update(&v, sizeof v); }
  void text(std::string_view s) {
    number(s.size());
    state_.update(s.data(), s.size());
  }
  void digest(const ContentDigest& d) {
    number(d.low);
    number(d.high);
  }
  ResolutionKey finish() {
    const auto [low, high] = state_.digest();
    return {low, high};
  }

 private:
  ChunkedXxh128 state_;  // a field at a time per source of a whole tree: gathered, not streamed
};

void add_state(KeyHasher& h, bool ok, const ContentDigest& digest, std::string_view problem) {
  h.number(ok);
  if (ok) {
    h.digest(digest);
  } else {
    h.text(problem);
  }
}

// Whether a repository-relative path lies below a directory the analysis never enters.
bool in_excluded_directory(std::string_view path) {
  size_t start = 0;
  for (size_t slash = path.find('/'); slash != std::string_view::npos;
       slash = path.find('/', start)) {
    if (is_excluded_directory_name(path.substr(start, slash - start))) return true;
    start = slash + 1;
  }
  return false;
}

}  // namespace

std::vector<std::string> resolution_input_paths(const SourceTree& tree,
                                                const std::vector<std::string_view>& names) {
  std::vector<std::string> paths;
  for (const std::string_view name : names) {
    if (name.find('/') != std::string_view::npos) {
      paths.emplace_back(name);
      continue;
    }
    bool found = false;
    for (const TreeEntry& entry : tree.entries) {
      // The base name compared from the end: no search for the last slash in every path (this
      // runs per input name of every front end, twice a build, over the whole tree).
      const std::string_view path = entry.path;
      if (!path.ends_with(name) ||
          (path.size() > name.size() && path[path.size() - name.size() - 1] != '/') ||
          !S_ISREG(entry.mode) || in_excluded_directory(path)) {
        continue;
      }
      paths.emplace_back(path);
      found |= path == name;
    }
    // The top-level one is always named, so its appearing later changes the key.
    if (!found) paths.emplace_back(name);
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

namespace {

// The parts of both keys that are not per file: versions, build, options, root.
void add_analyser(KeyHasher& h, const SourceTree& tree, const AnalysisOptions& options) {
  h.number(kGraphFormatVersion);
  for (const auto& front_end : front_ends()) {
    h.text(front_end->name());
    h.text(front_end->facts_version());
  }
  h.text(analyser_build_id());
  h.number(options.dense);
  h.text(tree.root);
}

void add_stat(KeyHasher& h, const TreeEntry& entry) {
  const StatIdentity id = stat_identity(entry);
  for (const uint64_t field : {id.mode, id.size, static_cast<uint64_t>(id.mtime_ns),
                               static_cast<uint64_t>(id.ctime_ns), id.inode, id.device, id.uid,
                               id.gid}) {
    h.number(field);
  }
}

}  // namespace

std::optional<ResolutionKey> stat_alias_key(const SourceTree& tree,
                                            const std::vector<SourceFile>& sources,
                                            const AnalysisOptions& options,
                                            std::chrono::system_clock::time_point now) {
  if (analyser_build_id().empty()) return std::nullopt;
  KeyHasher h;
  h.text("anchorfs stat alias 2");  // 2: survey records keep problems
  add_analyser(h, tree, options);
  h.number(options.max_file_bytes);
  h.number(static_cast<bool>(options.keep_unchanged));
  h.number(sources.size());
  const std::vector<const TreeEntry*> entries = regular_entries(tree, sources);
  for (size_t i = 0; i < sources.size(); ++i) {
    if (entries[i] == nullptr || racily_clean(*entries[i], now)) return std::nullopt;
    h.text(sources[i].path);
    h.text(front_ends()[sources[i].front_end]->name());
    add_stat(h, *entries[i]);
  }
  const FrontEndOptions front_end_options{.dense = options.dense};
  for (const auto& front_end : front_ends()) {
    for (const std::string& path :
         resolution_input_paths(tree, front_end->resolution_inputs(front_end_options))) {
      h.text(path);
      const TreeEntry* entry = find_entry(tree, path);
      h.number(entry != nullptr);
      if (entry == nullptr) continue;
      if (!S_ISREG(entry->mode) || racily_clean(*entry, now)) return std::nullopt;
      add_stat(h, *entry);
    }
  }
  return h.finish();
}

std::optional<ResolutionKey> survey_memo_key(const SourceTree& tree,
                                             const AnalysisOptions& options) {
  const std::string_view build_id = analyser_build_id();
  if (build_id.empty()) return std::nullopt;
  KeyHasher h;
  h.text("anchorfs survey memo 1");
  h.text(build_id);
  h.text(tree.root);
  h.number(options.max_file_bytes);
  h.number(static_cast<bool>(options.keep_unchanged));
  return h.finish();
}

std::optional<ResolutionKey> resolution_key(const SourceTree& tree,
                                            const std::vector<SourceFile>& sources,
                                            const std::vector<SourceState>& states,
                                            const AnalysisOptions& options) {
  const std::string_view build_id = analyser_build_id();
  if (build_id.empty() || states.size() != sources.size()) return std::nullopt;
  KeyHasher h;
  h.text("anchorfs resolution");
  add_analyser(h, tree, options);
  h.number(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    h.text(sources[i].path);
    h.text(front_ends()[sources[i].front_end]->name());
    add_state(h, states[i].ok, states[i].digest, states[i].problem);
    h.number(states[i].keep_unchanged);
  }
  const FrontEndOptions front_end_options{.dense = options.dense};
  for (const auto& front_end : front_ends()) {
    for (const std::string& path :
         resolution_input_paths(tree, front_end->resolution_inputs(front_end_options))) {
      const SourceBytes input = read_resolution_input(tree.root, path);
      h.text(path);
      add_state(h, input.ok, input.ok ? digest_of(input.bytes) : ContentDigest{}, input.problem);
    }
  }
  return h.finish();
}

}  // namespace anchorfs::analysis
