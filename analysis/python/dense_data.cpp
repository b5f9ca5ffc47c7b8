// DataDep: functions writing a module global or class attribute -> functions reading it.
#include <map>
#include <set>
#include <string>

#include "analysis/python/dense_names.h"
#include "analysis/python/dense_parts.h"

namespace anchorfs::analysis::python {
namespace {

// Ancestor classes followed when matching a read `Sub.x` with a write `Base.x`.
constexpr int kMaxClassDepth = 8;

// What is written or read: a module global (owner = its File entity) or a class attribute
// (owner = the class).
struct Slot {
  EntityIndex owner;
  std::string name;
  friend bool operator<(const Slot& a, const Slot& b) {
    return a.owner != b.owner ? a.owner < b.owner : a.name < b.name;
  }
};

struct Access {
  std::set<EntityIndex> writers, readers;
};

class DataDependencies {
 public:
  DataDependencies(const ResolverInput& input, const Graph& graph, SymbolResolver& symbols)
      : input_(input), graph_(graph), symbols_(symbols) {}

  void run(std::vector<Edge>& out) {
    for (int pass = 0; pass < 2; ++pass) {
      for (uint32_t fi = 0; fi < input_.files.size(); ++fi) {
        const FileFacts& f = *input_.files[fi].facts;
        for (const DenseFact& d : f.dense) {
          if (f.scopes[d.scope].kind != ScopeKind::Function) continue;
          if (pass == 0 && d.kind == DenseKind::Write) write(fi, f, d);
          if (pass == 1 && d.kind == DenseKind::Read) read(fi, f, d);
        }
      }
    }
    for (const auto& [slot, access] : slots_) {
      if (access.writers.size() > kMaxDataWriters || access.readers.size() > kMaxDataReaders) {
        continue;
      }
      for (EntityIndex w : access.writers) {
        for (EntityIndex r : access.readers) {
          if (w != r) out.push_back({w, r, Relation::DataDep});
        }
      }
    }
  }

 private:
  // The class `root` names in `scope`: `cls` in a classmethod, or a repository class.
  EntityIndex class_of(uint32_t fi, const FileFacts& f, uint32_t scope, std::string_view root) {
    if (root == "cls") {
      const Scope& s = f.scopes[scope];
      if ((s.flags & kClassMethod) != 0 && s.parent != kNone &&
          f.scopes[s.parent].kind == ScopeKind::Class) {
        return symbols_.entity_of(fi, s.parent);
      }
      return kNoEntity;
    }
    const Symbol s = symbols_.name(fi, scope, root);
    if (s.kind == Symbol::Kind::Entity && graph_.entities[s.entity].kind == EntityKind::Class) {
      return s.entity;
    }
    return kNoEntity;
  }

  void write(uint32_t fi, const FileFacts& f, const DenseFact& d) {
    const std::vector<std::string_view> parts = split_chain(f.strings[d.path]);
    const EntityIndex writer = symbols_.entity_of(fi, d.scope);
    if (parts.size() == 1) {
      slots_[{input_.files[fi].entity, std::string(parts[0])}].writers.insert(writer);
    } else if (parts.size() == 2) {
      const EntityIndex cls = class_of(fi, f, d.scope, parts[0]);
      if (cls != kNoEntity) slots_[{cls, std::string(parts[1])}].writers.insert(writer);
    }
  }

  void read(uint32_t fi, const FileFacts& f, const DenseFact& d) {
    const std::vector<std::string_view> parts = split_chain(f.strings[d.path]);
    const EntityIndex reader = symbols_.entity_of(fi, d.scope);
    if (parts.size() == 1) {
      const uint32_t bound = symbols_.binding_scope(fi, d.scope, parts[0]);
      if (bound != 0 && bound != kNone) return;  // a local of the reader
      add_reader({input_.files[fi].entity, std::string(parts[0])}, reader);
    } else if (parts.size() == 2) {
      const EntityIndex cls = class_of(fi, f, d.scope, parts[0]);
      if (cls == kNoEntity) return;
      // The class and its ancestors, breadth first.
      std::vector<EntityIndex> level{cls};
      std::set<EntityIndex> seen{cls};
      for (int depth = 0; depth <= kMaxClassDepth && !level.empty(); ++depth) {
        std::vector<EntityIndex> next;
        for (EntityIndex c : level) {
          add_reader({c, std::string(parts[1])}, reader);
          for (EntityIndex b : symbols_.bases(c)) {
            if (seen.insert(b).second) next.push_back(b);
          }
        }
        level = std::move(next);
      }
    }
  }

  void add_reader(const Slot& slot, EntityIndex reader) {
    const auto it = slots_.find(slot);
    if (it != slots_.end()) it->second.readers.insert(reader);
  }

  const ResolverInput& input_;
  const Graph& graph_;
  SymbolResolver& symbols_;
  std::map<Slot, Access> slots_;
};

}  // namespace

void add_data_dependencies(const ResolverInput& input, const Graph& graph, SymbolResolver& symbols,
                           std::vector<Edge>& out) {
  DataDependencies(input, graph, symbols).run(out);
}

}  // namespace anchorfs::analysis::python
