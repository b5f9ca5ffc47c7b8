// C and C++ resolution after an edit. A file's edges depend on its own facts, on the include
// graph, and on the definition indexes every file feeds (resolve.cpp). Each file's contribution
// to those indexes is summed up as its interface: its includes, its free functions and
// declarations (one record each, with the names it can be looked up by), and everything
// class-like. A changed file whose includes and class-like part are as before changes other
// files' edges only through the records it gained or lost, and only for files that call one of
// their names: those and the changed files are resolved, every other file keeps its edges. The
// tables (tables.h) are kept too, and only the changed files' entries in them are replaced.
#include "analysis/cfamily/incremental.h"

#include <tbb/parallel_for.h>
#include <xxhash.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "analysis/cfamily/includes.h"
#include "analysis/cfamily/resolve.h"
#include "analysis/code/code_facts.h"

namespace anchorfs::analysis::cfamily {
namespace {

class Hasher {
 public:
  Hasher& add(std::string_view text) {
    mix(XXH3_64bits(text.data(), text.size()));
    return mix(text.size());
  }
  Hasher& add(uint64_t value) { return mix(value); }
  uint64_t value() const { return hash_; }

 private:
  Hasher& mix(uint64_t value) {
    hash_ = XXH3_64bits_withSeed(&value, sizeof value, hash_);
    return *this;
  }
  uint64_t hash_ = 0;
};

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '~';
}

// Calls `take` with the hash of every identifier in `text` ("ns::A.f" -> ns, A, f): a name is
// looked up by its pieces, so a record is known by all of them.
template <typename Take>
void for_each_piece(std::string_view text, Take&& take) {
  size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && !is_identifier_char(text[at])) ++at;
    const size_t begin = at;
    while (at < text.size() && is_identifier_char(text[at])) ++at;
    if (at > begin) take(XXH3_64bits(text.data() + begin, at - begin));
  }
}

// The index key of a free function or a declaration, and what it is looked up by.
struct Record {
  uint64_t hash = 0;
  uint32_t token_begin = 0;
  uint32_t token_end = 0;
};

struct Interface {
  uint64_t includes = 0;
  uint64_t class_side = 0;       // every definition but free functions, fields, bases
  std::vector<Record> records;   // sorted by hash
  std::vector<uint64_t> tokens;  // of the records
};

bool is_free_function(const code::Definition& x) {
  return x.kind == EntityKind::Function && (x.role == "function" || x.role == "macro");
}

// The chain of scopes around `scope` as the resolver names it (resolve.cpp's scope_name).
void add_scope_chain(const code::CodeFacts& facts, uint32_t scope, Hasher& hash,
                     std::vector<uint64_t>& tokens) {
  const auto take = [&](uint64_t token) { tokens.push_back(token); };
  for (uint32_t at = scope, depth = 0; at != 0 && at < facts.definitions.size() && depth < 64;
       at = facts.definitions[at].parent, ++depth) {
    const code::Definition& y = facts.definitions[at];
    hash.add(at).add(y.name).add(static_cast<uint64_t>(y.kind)).add(y.role).add(y.owner);
    for_each_piece(y.name, take);
    for_each_piece(y.owner, take);
  }
}

Interface interface_of(const code::CodeFacts& facts) {
  Interface face;
  Hasher includes;
  // The dialect of a header goes with its includes: which indexes take its functions hangs on it.
  includes.add(facts.package);
  for (const code::Import& import : facts.imports) includes.add(import.source).add(import.name);
  face.includes = includes.add(facts.imports.size()).value();
  Hasher class_side;
  const auto take = [&](uint64_t token) { face.tokens.push_back(token); };
  const auto record = [&](Hasher& hash, size_t token_begin) {
    face.records.push_back({hash.value(), static_cast<uint32_t>(token_begin),
                            static_cast<uint32_t>(face.tokens.size())});
  };
  for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
    const code::Definition& x = facts.definitions[d];
    Hasher hash;
    hash.add(d).add(static_cast<uint64_t>(x.kind)).add(x.parent).add(x.name).add(x.role);
    hash.add(x.owner).add(x.arity).add(x.variadic).add(x.exported);
    if (!is_free_function(x)) {
      for (const std::string& base : x.bases) hash.add(base);
      for (const std::string& type : x.parameter_types) hash.add(type);
      class_side.add(hash.value());
      continue;
    }
    const size_t token_begin = face.tokens.size();
    for_each_piece(x.name, take);
    add_scope_chain(facts, x.parent, hash, face.tokens);
    record(hash, token_begin);
  }
  for (const code::Declaration& decl : facts.declarations) {
    Hasher hash;
    hash.add(uint64_t{0xdec1}).add(decl.scope).add(decl.name).add(decl.owner);
    const size_t token_begin = face.tokens.size();
    for_each_piece(decl.name, take);
    for_each_piece(decl.owner, take);
    add_scope_chain(facts, decl.scope, hash, face.tokens);
    record(hash, token_begin);
  }
  for (const code::TypedName& typed : facts.typed_names) {
    // Locals and parameters are read by their own file only; fields by every file.
    if (typed.scope == 0 || typed.scope >= facts.definitions.size() ||
        facts.definitions[typed.scope].kind == EntityKind::Function) {
      continue;
    }
    class_side.add(typed.scope).add(typed.name).add(typed.type);
  }
  face.class_side = class_side.value();
  std::sort(face.records.begin(), face.records.end(),
            [](const Record& a, const Record& b) { return a.hash < b.hash; });
  return face;
}

// The names of the records one interface has and the other has not.
void add_changed_names(const Interface& a, const Interface& b,
                       std::unordered_set<uint64_t>& names) {
  const auto take = [&](const Interface& face, const Record& r) {
    names.insert(face.tokens.begin() + r.token_begin, face.tokens.begin() + r.token_end);
  };
  size_t i = 0, j = 0;
  while (i < a.records.size() || j < b.records.size()) {
    if (j == b.records.size() || (i < a.records.size() && a.records[i].hash < b.records[j].hash)) {
      take(a, a.records[i++]);
    } else if (i == a.records.size() || b.records[j].hash < a.records[i].hash) {
      take(b, b.records[j++]);
    } else {
      ++i;
      ++j;
    }
  }
}

// Every identifier piece the file's calls name (callee or receiver), sorted, once.
std::vector<uint64_t> call_pieces(const code::CodeFacts& facts) {
  std::vector<uint64_t> pieces;
  const auto take = [&](uint64_t token) { pieces.push_back(token); };
  for (const code::Call& call : facts.calls) {
    for_each_piece(call.name, take);
    for_each_piece(call.receiver, take);
  }
  std::sort(pieces.begin(), pieces.end());
  pieces.erase(std::unique(pieces.begin(), pieces.end()), pieces.end());
  return pieces;
}

bool calls_any(const std::vector<uint64_t>& pieces, const std::unordered_set<uint64_t>& names) {
  return std::any_of(names.begin(), names.end(), [&](uint64_t name) {
    return std::binary_search(pieces.begin(), pieces.end(), name);
  });
}

// An edge by file and definition number, which an edit elsewhere does not shift.
struct LocalEdge {
  uint32_t from = 0;
  uint32_t to_file = 0;
  uint32_t to = 0;
  Relation relation = Relation::Calls;
};

struct FileMemory {
  ContentDigest digest;
  std::shared_ptr<const LanguageFacts> facts;  // what its entries in the tables were made from
  Interface face;
  std::vector<LocalEdge> edges;  // the edges leaving its definitions
  // call_pieces of its facts, made when every file is resolved and kept from then on (on the
  // kernel, hashing every call of every file again took a sixth of a refresh).
  std::optional<std::vector<uint64_t>> call_pieces;
};

class Memory final : public ResolutionMemory {
 public:
  std::string root;
  uint64_t paths = 0;
  std::vector<std::string> include_dirs;
  std::vector<FileMemory> files;
  // The files of the memory before this one, emptied: the next resolution's `files` (on the
  // kernel 8 MB, which fresh would be pages the kernel zeroes on every refresh).
  std::vector<FileMemory> spare_files;
  std::unique_ptr<Tables> tables;
};

const code::CodeFacts& facts_of(const ResolverInput& input, size_t f) {
  return *static_cast<const code::CodeFacts*>(input.files[f].facts);
}

uint32_t file_of_entity(const ResolverInput& input, EntityIndex e) {
  const auto it = std::upper_bound(
      input.files.begin(), input.files.end(), e,
      [](EntityIndex value, const ResolverFile& file) { return value < file.entity; });
  return static_cast<uint32_t>(it - input.files.begin() - 1);
}

void resolve_changed(const ResolverInput& input, Memory* previous, Memory& next,
                     std::vector<Edge>& edges) {
  const size_t n = input.files.size();
  bool whole = previous == nullptr || previous->tables == nullptr || previous->root != next.root ||
               previous->paths != next.paths || previous->files.size() != n ||
               previous->include_dirs != next.include_dirs;
  FileSelection selection;
  std::vector<uint32_t> edited;
  if (!whole) {
    selection.only.assign(n, false);
    std::vector<bool> changed(n, false);
    std::unordered_set<uint64_t> names;
    for (size_t f = 0; f < n && !whole; ++f) {
      if (*input.files[f].digest == previous->files[f].digest) continue;
      changed[f] = selection.only[f] = true;
      edited.push_back(static_cast<uint32_t>(f));
      next.files[f].face = interface_of(facts_of(input, f));
      const Interface& old = previous->files[f].face;
      whole = next.files[f].face.includes != old.includes ||
              next.files[f].face.class_side != old.class_side ||
              previous->files[f].facts == nullptr || input.files[f].shared_facts == nullptr;
      add_changed_names(old, next.files[f].face, names);
    }
    for (size_t f = 0; f < n && !whole; ++f) {
      if (!changed[f]) {
        FileMemory& file = next.files[f];
        file.face = std::move(previous->files[f].face);
        file.call_pieces = std::move(previous->files[f].call_pieces);
        if (names.empty()) continue;
        if (!file.call_pieces) file.call_pieces = call_pieces(facts_of(input, f));
        if (calls_any(*file.call_pieces, names)) selection.only[f] = true;
      }
    }
  }
  if (whole) {
    selection.only.clear();
    // Each file's call pieces too, here where every file is resolved anyway (a cold build, or a
    // warm mount's priming) rather than inside the first refresh that asks, whose latency they
    // were (on the kernel, every call of 55 k files hashed). Files are independent: in parallel.
    tbb::parallel_for(size_t{0}, n, [&](size_t f) {
      next.files[f].face = interface_of(facts_of(input, f));
      next.files[f].call_pieces = call_pieces(facts_of(input, f));
    });
    next.tables = make_tables(input);
  } else {
    next.tables = std::move(previous->tables);
    for (const uint32_t f : edited) {
      update_tables(*next.tables, f,
                    *static_cast<const code::CodeFacts*>(previous->files[f].facts.get()),
                    facts_of(input, f));
    }
  }
  std::vector<std::pair<uint32_t, size_t>> ends;
  selection.ends = &ends;
  size_t begin = edges.size();
  resolve(input, *next.tables, edges, selection);
  for (const auto& [f, end] : ends) {
    std::vector<LocalEdge>& kept = next.files[f].edges;
    for (size_t e = begin; e < end; ++e) {
      const uint32_t to_file = file_of_entity(input, edges[e].to);
      kept.push_back({edges[e].from - input.files[f].entity, to_file,
                      edges[e].to - input.files[to_file].entity, edges[e].relation});
    }
    begin = end;
  }
  if (whole) return;
  size_t kept_edges = 0;
  for (size_t f = 0; f < n; ++f) {
    if (!selection.only[f]) kept_edges += previous->files[f].edges.size();
  }
  edges.reserve(edges.size() + kept_edges);
  for (size_t f = 0; f < n; ++f) {
    if (selection.only[f]) continue;
    next.files[f].edges = std::move(previous->files[f].edges);
    for (const LocalEdge& e : next.files[f].edges) {
      edges.push_back(
          {input.files[f].entity + e.from, input.files[e.to_file].entity + e.to, e.relation});
    }
  }
}

}  // namespace

void resolve_again(const ResolverInput& input, std::unique_ptr<ResolutionMemory>& memory,
                   std::vector<Edge>& edges) {
  const bool digests = std::all_of(input.files.begin(), input.files.end(),
                                   [](const ResolverFile& file) { return file.digest != nullptr; });
  if (!digests) {
    memory.reset();
    resolve(input, *make_tables(input), edges);
    return;
  }
  std::unique_ptr<ResolutionMemory> previous = std::move(memory);
  auto* const previous_memory = dynamic_cast<Memory*>(previous.get());
  auto next = std::make_unique<Memory>();
  if (previous_memory != nullptr) next->files = std::move(previous_memory->spare_files);
  next->files.clear();
  Hasher paths;
  for (const ResolverFile& file : input.files) paths.add(file.path);
  next->root = input.root;
  next->paths = paths.value();
  next->include_dirs = IncludeResolver::compile_command_dirs(input.root);
  next->files.resize(input.files.size());
  for (size_t f = 0; f < input.files.size(); ++f) {
    next->files[f].digest = *input.files[f].digest;
    next->files[f].facts = input.files[f].shared_facts;
  }
  resolve_changed(input, previous_memory, *next, edges);
  if (previous_memory != nullptr) {
    next->spare_files = std::move(previous_memory->files);
    next->spare_files.clear();
  }
  memory = std::move(next);
}

}  // namespace anchorfs::analysis::cfamily
