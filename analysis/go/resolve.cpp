// Go resolution: imports to the files of the imported package that declare what the importer
// uses, embedding, and calls whose callee is evident (containment is the core's).
#include "analysis/go/resolve.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <set>
#include <string>

#include "analysis/code/code_facts.h"
#include "analysis/file_edges.h"
#include "analysis/go/package_index.h"
#include "analysis/go/types.h"

namespace anchorfs::analysis::go {
namespace {

// Resolves one file at a time; its edges read only the index and the shared members, so files
// resolve on any thread in any order (one Resolver per thread).
class Resolver {
 public:
  Resolver(const PackageIndex& index, const TypeMembers& members)
      : index_(index), types_(index, members) {}

  // File `f`'s edges, appended to `out`.
  void resolve_file(uint32_t f, std::vector<Edge>& out) {
    out_ = &out;
    types_.enter_file(f);
    embedding(f);
    callee_files_.clear();
    calls(f);
    imports(f);
  }

 private:
  EntityIndex file_entity(uint32_t f) const { return index_.files[f].input->entity; }

  // The non-test files of a package (what an importer compiles against).
  std::vector<uint32_t> product_files(const Package& package) const {
    std::vector<uint32_t> files;
    for (const uint32_t f : package.files) {
      if (!index_.files[f].test) files.push_back(f);
    }
    return files;
  }

  // Whether an importer in file `from` compiles against file `f` of the imported package: its
  // non-test files, and its test files too for the package's own external test package (Go
  // builds `foo_test` against `foo` with foo's _test.go files, e.g. export_test.go).
  bool compiled_with(uint32_t f, uint32_t from) const {
    const GoFile& file = index_.files[f];
    const GoFile& importer = index_.files[from];
    const bool own_tests =
        importer.test && index_.packages[importer.package].dir == index_.packages[file.package].dir;
    return (!file.test || own_tests) && index_.visible_file(f, from);
  }

  // The files of `package` declaring `member` at package level that `from` compiles against.
  void declaring_files(const Package& package, std::string_view member, uint32_t from,
                       std::set<uint32_t>& files) const {
    auto add = [&](uint32_t f) {
      if (compiled_with(f, from)) files.insert(f);
    };
    if (const auto it = package.functions.find(member); it != package.functions.end()) {
      for (const DefRef& def : it->second) add(def.file);
    }
    if (const auto it = package.types.find(member); it != package.types.end()) {
      for (const DefRef& def : it->second) add(def.file);
    }
    if (const auto it = package.vars.find(member); it != package.vars.end()) {
      for (const VarRef& var : it->second) add(var.file);
    }
  }

  // An import reaches the files of the package declaring the members the importer uses
  // (`pkg.X`) or the methods it calls (`s.M()` on a type of the package); a blank import the
  // files with an init function. When the importer names no member at all (a dot import, a
  // package used for its methods only through values), every non-test file of the package;
  // when it names members no file declares (another implementation, such as gccgo's runtime),
  // no file.
  void imports(uint32_t f) {
    const GoFile& file = index_.files[f];
    for (const FileImport& import : file.imports) {
      if (!import.package || *import.package == file.package) continue;
      const Package& package = index_.packages[*import.package];
      std::set<uint32_t> targets;
      for (const uint32_t callee : callee_files_) {
        if (index_.files[callee].package == *import.package && compiled_with(callee, f)) {
          targets.insert(callee);
        }
      }
      bool names_members = false;
      if (import.spec->alias == "_") {
        declaring_files(package, "init", f, targets);
      } else if (!import.local.empty()) {
        for (const code::Import& use : file.facts->imports) {
          if (!use.name.empty() && use.alias == import.local && use.source == import.spec->source) {
            names_members = true;
            declaring_files(package, use.name, f, targets);
          }
        }
      }
      if (names_members && targets.empty()) continue;
      if (targets.empty()) {
        for (const uint32_t target : product_files(package)) {
          if (index_.visible_file(target, f)) targets.insert(target);
        }
      }
      for (const uint32_t target : targets) {
        out_->push_back({file_entity(f), file_entity(target), Relation::Imports});
      }
    }
  }

  void embedding(uint32_t f) {
    const code::CodeFacts& facts = *index_.files[f].facts;
    for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
      for (const std::string& base : facts.definitions[d].bases) {
        if (const std::optional<TypeRef> type = types_.named(f, base)) {
          out_->push_back({file_entity(f) + d, index_.entity(type->def), Relation::Inherits});
        }
      }
    }
  }

  void calls(uint32_t f) {
    const GoFile& file = index_.files[f];
    for (const code::Call& call : file.facts->calls) {
      std::vector<DefRef> callees;
      if (call.form == code::CallForm::Plain) {
        plain_callees(f, call, callees);
      } else if (call.form == code::CallForm::Member) {
        member_callees(f, call, callees);
      }
      for (const DefRef& callee : callees) {
        if (!index_.visible(callee, f)) continue;
        callee_files_.insert(callee.file);
        out_->push_back({file_entity(f) + call.scope, index_.entity(callee), Relation::Calls});
      }
    }
  }

  static void append(std::vector<DefRef>& to, const Package& package, std::string_view name) {
    const auto it = package.functions.find(name);
    if (it != package.functions.end()) to.insert(to.end(), it->second.begin(), it->second.end());
  }

  // f(): a function of the file's package (every build variant of it), else of a dot-imported
  // package; nothing for a local func value, a builtin or a conversion.
  void plain_callees(uint32_t f, const code::Call& call, std::vector<DefRef>& callees) const {
    if (types_.local(call.scope, call.name)) return;
    const GoFile& file = index_.files[f];
    append(callees, index_.packages[file.package], call.name);
    // A function the caller's own file declares is the one it calls: other declarations of the
    // name are build variants or, in directories of independent files (testdata), other programs.
    const auto own = std::find_if(callees.begin(), callees.end(),
                                  [&](const DefRef& callee) { return callee.file == f; });
    if (own != callees.end()) {
      callees = {*own};
      return;
    }
    if (!callees.empty()) return;
    for (const FileImport& import : file.imports) {
      if (import.package && import.spec->alias == ".") {
        append(callees, index_.packages[*import.package], call.name);
      }
    }
  }

  // pkg.F(), or a method of the receiver's evident type (declared or promoted).
  void member_callees(uint32_t f, const code::Call& call, std::vector<DefRef>& callees) const {
    const std::string_view receiver = call.receiver;
    if (receiver.find('.') == std::string_view::npos && !receiver.ends_with("()") &&
        !types_.local(call.scope, receiver)) {
      if (const FileImport* import = index_.import_named(f, receiver)) {
        if (import->package) append(callees, index_.packages[*import->package], call.name);
        return;
      }
    }
    if (const std::optional<TypeRef> type = types_.of_chain(call.scope, receiver)) {
      callees = types_.methods(*type, call.name);
    }
  }

  const PackageIndex& index_;
  Types types_;
  std::vector<Edge>* out_ = nullptr;
  std::set<uint32_t> callee_files_;  // of the file being resolved
};

}  // namespace

// Files resolve side by side, each into its own slot; the slots are joined in file order, so
// the edges are the same whatever the thread count.
void resolve(const ResolverInput& input, std::vector<Edge>& edges) {
  const PackageIndex index(input);
  const TypeMembers members = type_members(index);
  const auto n = static_cast<uint32_t>(index.files.size());
  tbb::enumerable_thread_specific<Resolver> resolvers([&] { return Resolver(index, members); });
  std::vector<std::vector<Edge>> by_file(n);
  tbb::parallel_for(uint32_t{0}, n,
                    [&](uint32_t f) { resolvers.local().resolve_file(f, by_file[f]); });
  join_file_edges(by_file, edges);
}

}  // namespace anchorfs::analysis::go
