// Python's refresh resolution: a whole-tree fixed point cut at kMaxRounds is not continued (see
// docs/resolver.md), so an edit either provably leaves the resolver's input as it was, and the
// last edges stand, or only appends a closed unit of functions to one file, and the last edges
// stand beside the unit's own, or the tree is resolved again.
#include "analysis/python/incremental.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "analysis/python/appended.h"
#include "analysis/python/refresh_memory.h"
#include "analysis/python/resolution.h"
#include "analysis/python/resolve.h"

namespace anchorfs::analysis::python {
namespace {

std::atomic<uint64_t> reused_count{0}, appended_count{0}, resolved_count{0};

bool same_file(const FileMemory& old, const analysis::ResolverFile& now) {
  if (old.path != now.path || old.facts == nullptr) return false;
  if (old.facts.get() == now.facts) return true;
  return same_for_resolution(static_cast<const FileFacts&>(*old.facts),
                             static_cast<const FileFacts&>(*now.facts));
}

constexpr size_t kNoneChanged = SIZE_MAX;
constexpr size_t kTooMany = SIZE_MAX - 1;

// The one file that reads differently from the last whole resolution (kNoneChanged when none does,
// kTooMany when the tree or more than one file changed).
size_t changed_file(const analysis::ResolverInput& input, const RefreshMemory* previous) {
  if (previous == nullptr || previous->root != input.root ||
      previous->files.size() != input.files.size()) {
    return kTooMany;
  }
  size_t changed = kNoneChanged;
  for (size_t f = 0; f < input.files.size(); ++f) {
    if (input.files[f].shared_facts == nullptr) return kTooMany;
    if (same_file(previous->files[f], input.files[f])) continue;
    if (changed != kNoneChanged || previous->files[f].path != input.files[f].path ||
        previous->files[f].facts == nullptr) {
      return kTooMany;
    }
    changed = f;
  }
  return changed;
}

void rebase(const analysis::ResolverInput& input, const RefreshMemory& previous,
            std::vector<Edge>& edges) {
  for (const LocalEdge& e : previous.edges) {
    edges.push_back({input.files[e.from.file].entity + e.from.local,
                     input.files[e.to.file].entity + e.to.local, e.relation});
  }
}

// Each resolved file's first entity, sorted, with a table per 256 entities of the files that
// start up to there: a lookup binary-searches the few files of one stretch rather than every file
// (sympy: ~150 k edges, two lookups each, on the cold mount's serial stretch after the rounds).
class FileLocator {
 public:
  explicit FileLocator(const analysis::ResolverInput& input) : input_(input) {
    bases_.reserve(input.files.size());
    for (size_t f = 0; f < input.files.size(); ++f) {
      bases_.emplace_back(input.files[f].entity, static_cast<uint32_t>(f));
    }
    std::sort(bases_.begin(), bases_.end());
    if (bases_.empty()) return;
    const EntityIndex first = bases_.front().first;
    stretches_.resize(((bases_.back().first - first) >> kShift) + 2);
    // stretches_[s]: the files whose first entity is below first + s * 256.
    size_t below = 0;
    for (size_t s = 0; s < stretches_.size(); ++s) {
      const uint64_t limit = uint64_t{first} + (uint64_t{s} << kShift);
      while (below < bases_.size() && bases_[below].first < limit) ++below;
      stretches_[s] = static_cast<uint32_t>(below);
    }
  }

  // The file holding entity `e` and its number there; false when no resolved file holds it.
  bool locate(EntityIndex e, LocalEnd& end) const {
    if (bases_.empty() || e < bases_.front().first) return false;
    const size_t s = (e - bases_.front().first) >> kShift;
    // The last file starting at or before e is among [stretches_[s] - 1, stretches_[s + 1]).
    const auto lo =
        bases_.begin() +
        (s < stretches_.size() ? std::max<uint32_t>(stretches_[s], 1) - 1 : bases_.size() - 1);
    const auto hi = s + 1 < stretches_.size() ? bases_.begin() + stretches_[s + 1] : bases_.end();
    const auto it = std::upper_bound(lo, hi, std::make_pair(e, UINT32_MAX));
    if (it == bases_.begin()) return false;
    const uint32_t f = std::prev(it)->second;
    const uint32_t local = e - input_.files[f].entity;
    if (local >= input_.files[f].facts->entity_count()) return false;
    end = {f, local};
    return true;
  }

 private:
  static constexpr int kShift = 8;
  const analysis::ResolverInput& input_;
  std::vector<std::pair<EntityIndex, uint32_t>> bases_;
  std::vector<uint32_t> stretches_;
};

// `edges` from `begin` in local form, or false when an end lies outside the files (kept nothing).
bool localize(const analysis::ResolverInput& input, const std::vector<Edge>& edges, size_t begin,
              std::vector<LocalEdge>& out) {
  const FileLocator locator(input);
  out.reserve(edges.size() - begin);
  for (size_t i = begin; i < edges.size(); ++i) {
    LocalEdge e{.from = {}, .to = {}, .relation = edges[i].relation};
    if (!locator.locate(edges[i].from, e.from) || !locator.locate(edges[i].to, e.to)) return false;
    out.push_back(e);
  }
  return true;
}

// The files `file` imports: the targets of its Imports edges.
std::vector<uint32_t> imported_by(const RefreshMemory& memory, size_t file) {
  std::vector<uint32_t> files;
  for (const LocalEdge& e : memory.edges) {
    if (e.relation == Relation::Imports && e.from.file == file) files.push_back(e.to.file);
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool appended(const Resolution& resolution, size_t file, const RefreshMemory& last,
              std::vector<Edge>& edges) {
  const AppendBase base{
      .facts = static_cast<const FileFacts&>(*last.files[file].facts),
      .quiet_round = last.quiet_round,
      .calls = last.base != nullptr && file < last.base->files.size() ? &last.base->files[file]
                                                                      : nullptr,
      .imported = imported_by(last, file),
  };
  return appended_edges(resolution.input(), resolution.imports(), file, base, edges);
}

}  // namespace

bool same_for_resolution(const Scope& a, const Scope& b) {
  return a.kind == b.kind && a.flags == b.flags && a.parent == b.parent && a.name == b.name &&
         a.params_begin == b.params_begin && a.params_count == b.params_count &&
         a.decorators_begin == b.decorators_begin && a.decorators_count == b.decorators_count &&
         a.bases_begin == b.bases_begin && a.bases_count == b.bases_count;
}

bool same_for_resolution(const FileFacts& a, const FileFacts& b) {
  return a.has_all == b.has_all && a.all_names == b.all_names && a.strings == b.strings &&
         a.params == b.params && a.exprs == b.exprs && a.lists == b.lists && a.stmts == b.stmts &&
         std::equal(a.scopes.begin(), a.scopes.end(), b.scopes.begin(), b.scopes.end(),
                    [](const Scope& x, const Scope& y) { return same_for_resolution(x, y); });
}

void resolve_again(const analysis::ResolverInput& input, std::unique_ptr<ResolutionMemory>& memory,
                   std::vector<Edge>& edges) {
  std::unique_ptr<ResolutionMemory> previous = std::move(memory);
  auto* last = dynamic_cast<RefreshMemory*>(previous.get());
  const auto& resolution = static_cast<const Resolution&>(*input.state);
  const size_t changed = changed_file(input, last);
  const size_t begin = edges.size();
  auto next = std::make_unique<RefreshMemory>();
  if (changed == kNoneChanged) {
    ++reused_count;
    rebase(input, *last, edges);
  } else if (changed != kTooMany && appended(resolution, changed, *last, edges)) {
    ++appended_count;
    rebase(input, *last, edges);
  } else {
    ++resolved_count;
    last = nullptr;
    auto base = std::make_shared<ResolutionBase>();
    next->quiet_round =
        resolve(resolution.input(), resolution.imports(), edges, base.get(), input.threads);
    next->base = std::move(base);
    if (!localize(input, edges, begin, next->edges)) return;
  }
  next->root = input.root;
  next->files.reserve(input.files.size());
  for (size_t f = 0; f < input.files.size(); ++f) {
    const analysis::ResolverFile& file = input.files[f];
    next->files.push_back({std::string(file.path), file.shared_facts,
                           file.digest != nullptr ? std::optional(*file.digest) : std::nullopt});
  }
  if (last != nullptr) {
    next->edges = std::move(last->edges);
    next->quiet_round = last->quiet_round;
    next->base = std::move(last->base);
    // The unit's edges are made again from the facts its file had when the edges were.
    if (changed != kNoneChanged) next->files[changed] = std::move(last->files[changed]);
  }
  memory = std::move(next);
}

RefreshCounts refresh_counts() {
  return {reused_count.load(), appended_count.load(), resolved_count.load()};
}

}  // namespace anchorfs::analysis::python
