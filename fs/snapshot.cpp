// Builds and queries the immutable snapshot a mount serves.
#include "fs/snapshot.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "fs/tree_recycling.h"

namespace anchorfs::fs {
namespace {

timespec from_ns(int64_t ns) {
  timespec t{};
  t.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
  t.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  if (t.tv_nsec < 0) {
    t.tv_nsec += 1'000'000'000;
    t.tv_sec -= 1;
  }
  return t;
}

void check_plan(const render::LaidOutPlan& plan, uint64_t size) {
  // Offsets are sorted (LaidOutPlans checked), so the last one is the largest.
  if (plan.insertions == 0 || plan.offset(plan.insertions - 1) <= size) return;
  size_t first = plan.insertions - 1;
  while (first > 0 && plan.offset(first - 1) > size) --first;
  throw std::invalid_argument("tag plan for " + std::string(plan.path) + " inserts at offset " +
                              std::to_string(plan.offset(first)) + " beyond the file's " +
                              std::to_string(size) + " bytes");
}

std::vector<std::shared_ptr<const FileLayout>> shared(std::vector<FileLayout> layouts) {
  if (layouts.empty()) layouts.emplace_back();
  std::vector<std::shared_ptr<const FileLayout>> out;
  out.reserve(layouts.size());
  for (FileLayout& layout : layouts) {
    out.push_back(std::make_shared<const FileLayout>(std::move(layout)));
  }
  return out;
}

}  // namespace

Snapshot::Snapshot(analysis::SourceTree tree, std::vector<FileLayout> layouts,
                   std::vector<uint32_t> layout_of_entry,
                   std::vector<std::shared_ptr<const FileTrace>> traces, VirtualFiles virtual_files)
    : Snapshot(std::move(tree), shared(std::move(layouts)), std::move(layout_of_entry),
               std::move(traces), std::move(virtual_files)) {}

Snapshot::Snapshot(analysis::SourceTree tree,
                   std::vector<std::shared_ptr<const FileLayout>> layouts,
                   std::vector<uint32_t> layout_of_entry,
                   std::vector<std::shared_ptr<const FileTrace>> traces, VirtualFiles virtual_files,
                   TreeStorage storage)
    : tree_(std::move(tree)),
      layouts_(std::move(layouts)),
      layout_of_entry_(std::move(layout_of_entry)),
      traces_(std::move(traces)),
      git_view_(std::move(virtual_files.options)),
      awaiting_analysis_(virtual_files.awaiting_analysis),
      storage_(storage) {
  if (tree_.entries.empty()) throw std::invalid_argument("snapshot of an empty tree");
  if (layouts_.empty()) layouts_.push_back(std::make_shared<const FileLayout>());
  layout_of_entry_.resize(tree_.entries.size(), 0);
  name_offset_.reserve(tree_.entries.size());
  // From the parent's path where it has one, not a search for the last slash: a writable mount
  // builds a snapshot per change.
  for (const analysis::TreeEntry& entry : tree_.entries) {
    const size_t parent_length = entry.parent < tree_.entries.size()
                                     ? tree_.entries[entry.parent].path.size()
                                     : std::string::npos;
    if (parent_length == 0) {
      name_offset_.push_back(0);
    } else if (parent_length < entry.path.size() && entry.path[parent_length] == '/') {
      name_offset_.push_back(static_cast<uint32_t>(parent_length + 1));
    } else {
      const size_t slash = entry.path.rfind('/');
      name_offset_.push_back(slash == std::string::npos ? 0 : static_cast<uint32_t>(slash + 1));
    }
  }
  for (size_t i = 1; i < layouts_.size(); ++i) {
    if (!layouts_[i]->empty()) {
      tag_bytes_ += layouts_[i]->added_bytes();
      ++tagged_files_;
    }
  }
  for (auto& [path, bytes] : virtual_files.files) {
    const std::optional<uint32_t> index = find(path);
    if (!index || !S_ISREG(tree_.entries[*index].mode) || !bytes ||
        bytes->size() != tree_.entries[*index].size || !layout(*index).empty()) {
      throw std::invalid_argument("virtual file " + path +
                                  " is not an untagged regular file of its size in " + tree_.root);
    }
    for (GitIndexFile& served : virtual_files.git_indexes) {
      if (served.path == path) git_indexes_.push_back({*index, std::move(served.worktree)});
    }
    contents_.emplace(*index, std::move(bytes));
  }
  serving_.reserve(tree_.entries.size());
  for (uint32_t i = 0; i < tree_.entries.size(); ++i) {
    serving_.push_back(serving_of(tree_.entries[i], layout(i), false));
  }
  for (const auto& [index, bytes] : contents_) serving_[index] = Serving::Memory;
}

Snapshot::~Snapshot() {
  if (storage_ == TreeStorage::Retire) retire_entries(std::move(tree_.entries));
}

Serving serving_of(const analysis::TreeEntry& entry, const FileLayout& layout, bool in_memory) {
  if (S_ISDIR(entry.mode)) return Serving::Directory;
  if (S_ISLNK(entry.mode)) return Serving::Symlink;
  if (!S_ISREG(entry.mode)) return Serving::Special;
  if (in_memory) return Serving::Memory;
  return layout.empty() ? Serving::Checkout : Serving::LaidOut;
}

std::string_view Snapshot::name(uint32_t index) const {
  return std::string_view(tree_.entries[index].path).substr(name_offset_[index]);
}

std::optional<uint32_t> Snapshot::child(uint32_t dir, std::string_view child_name) const {
  const analysis::TreeEntry& parent = tree_.entries[dir];
  if (!S_ISDIR(parent.mode) || parent.child_count == 0) return std::nullopt;
  uint32_t low = parent.first_child;
  uint32_t high = parent.first_child + parent.child_count;
  while (low < high) {
    const uint32_t middle = low + (high - low) / 2;
    const int order = name(middle).compare(child_name);
    if (order == 0) return middle;
    if (order < 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return std::nullopt;
}

std::optional<uint32_t> Snapshot::find(std::string_view path) const {
  uint32_t current = 0;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string_view component = path.substr(0, slash);
    std::optional<uint32_t> next = child(current, component);
    if (!next) return std::nullopt;
    current = *next;
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
  }
  return current;
}

const std::shared_ptr<const std::string> Snapshot::kNoContent;

const std::string* Snapshot::git_index_worktree(uint32_t index) const {
  for (const ServedIndex& served : git_indexes_) {
    if (served.entry == index) return &served.worktree;
  }
  return nullptr;
}

uint64_t Snapshot::view_size(uint32_t index) const {
  return fs::view_size(tree_.entries[index], layout(index));
}

struct stat Snapshot::attributes(uint32_t index) const {
  return served_attributes(tree_.entries[index], layout(index));
}

uint64_t view_size(const analysis::TreeEntry& entry, const FileLayout& layout) {
  return entry.size + layout.added_bytes();
}

struct stat served_attributes(const analysis::TreeEntry& entry, const FileLayout& layout) {
  const uint64_t size = view_size(entry, layout);
  struct stat st {};
  st.st_mode = entry.mode;
  st.st_nlink = entry.nlink;
  st.st_uid = entry.uid;
  st.st_gid = entry.gid;
  st.st_rdev = static_cast<dev_t>(entry.rdev);
  st.st_size = static_cast<off_t>(size);
  st.st_blksize = 4096;
  st.st_blocks = static_cast<blkcnt_t>((size + 511) / 512);
  st.st_atim = from_ns(entry.atime_ns);
  st.st_mtim = from_ns(entry.mtime_ns);
  st.st_ctim = from_ns(entry.ctime_ns);
  return st;
}

std::shared_ptr<const Snapshot> make_snapshot(
    analysis::SourceTree tree, std::vector<std::pair<std::string, render::TagPlan>> plans) {
  return make_snapshot(std::move(tree), std::move(plans), render::PlanMapsByPath{});
}

std::shared_ptr<const Snapshot> make_snapshot(
    analysis::SourceTree tree, std::vector<std::pair<std::string, render::TagPlan>> plans,
    const render::PlanMapsByPath& maps, VirtualFiles virtual_files) {
  return make_snapshot_from(std::move(tree), render::LaidOutPlans::lay_out(plans), maps,
                            std::move(virtual_files));
}

std::shared_ptr<const Snapshot> make_snapshot_from(
    analysis::SourceTree tree, const std::shared_ptr<const render::LaidOutPlans>& plans,
    const render::PlanMapsByPath& maps, VirtualFiles virtual_files) {
  if (tree.entries.empty()) throw std::invalid_argument("snapshot of an empty tree");
  std::unordered_map<std::string_view, uint32_t> index_of_path;
  index_of_path.reserve(tree.entries.size());
  for (uint32_t i = 0; i < tree.entries.size(); ++i) index_of_path.emplace(tree.entries[i].path, i);

  const std::shared_ptr<const void> owner = plans->owner();
  std::vector<std::shared_ptr<const FileLayout>> layouts{std::make_shared<const FileLayout>()};
  layouts.reserve(plans->size() + 1);
  std::vector<uint32_t> layout_of_entry(tree.entries.size(), 0);
  std::vector<const render::LaidOutPlan*> plan_of_entry(maps.empty() ? 0 : tree.entries.size());
  for (const render::LaidOutPlan& plan : plans->files()) {
    auto found = index_of_path.find(plan.path);
    if (found == index_of_path.end() || !S_ISREG(tree.entries[found->second].mode)) {
      throw std::invalid_argument("tag plan for " + std::string(plan.path) +
                                  ", which is not a regular file of " + tree.root);
    }
    const uint32_t index = found->second;
    check_plan(plan, tree.entries[index].size);
    if (plan.insertions == 0) continue;
    if (!plan_of_entry.empty()) plan_of_entry[index] = &plan;
    layout_of_entry[index] = static_cast<uint32_t>(layouts.size());
    layouts.push_back(std::make_shared<const FileLayout>(owner, plan, tree.entries[index].size));
  }
  std::vector<std::shared_ptr<const FileTrace>> traces(maps.empty() ? 0 : tree.entries.size());
  const render::TagPlan untagged;
  for (const auto& [path, map] : maps) {
    auto found = index_of_path.find(path);
    if (found == index_of_path.end() || !S_ISREG(tree.entries[found->second].mode)) continue;
    const uint32_t index = found->second;
    const render::LaidOutPlan* plan = plan_of_entry[index];
    traces[index] = std::make_shared<const FileTrace>(
        make_file_trace(plan != nullptr ? plan->plan() : untagged, map, tree.entries[index].size));
  }
  index_of_path.clear();
  return std::make_shared<const Snapshot>(std::move(tree), std::move(layouts),
                                          std::move(layout_of_entry), std::move(traces),
                                          std::move(virtual_files));
}

}  // namespace anchorfs::fs
