// Every file's tag plan laid out in one buffer as the server reads it: what a view record stores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "render/tag_plan.h"
#include "render/view.h"

namespace anchorfs::render {

// One file's insertions inside a buffer: `insertions` offsets (little-endian u64, sorted), then
// as many cumulative text ends (u64, non-decreasing, the last one text_bytes), then the texts back
// to back. A view of memory its owner keeps alive; copying it copies no text.
struct LaidOutPlan {
  std::string_view path;
  size_t insertions = 0;
  uint64_t text_bytes = 0;
  const char* data = nullptr;

  uint64_t offset(size_t k) const { return load(k); }
  // Tag bytes of texts [0, k): 0 for k == 0, text_bytes for k == insertions.
  uint64_t text_end_before(size_t k) const { return k == 0 ? 0 : load(insertions + k - 1); }
  std::string_view text(size_t k) const {
    const uint64_t begin = text_end_before(k);
    return {texts() + begin, static_cast<size_t>(load(insertions + k) - begin)};
  }
  const char* texts() const { return data + 16 * insertions; }
  TagPlan plan() const;
  // Same insertions (paths aside).
  bool same_insertions(const LaidOutPlan& other) const;

 private:
  uint64_t load(size_t word) const {
    uint64_t v = 0;
    std::memcpy(&v, data + 8 * word, sizeof v);  // the buffer has no alignment to rely on
    return v;
  }
};

// The bytes of one plan laid out (as LaidOutPlan reads them), appended to `out`.
void append_laid_out(std::string& out, const TagPlan& plan);

// Plans by path, sorted by path, in one buffer (shared by every FileLayout serving them).
// Loading a stored one allocates once per file, never per insertion.
// Thread-safety: immutable once made.
class LaidOutPlans {
 public:
  using Buffers = std::vector<std::shared_ptr<const std::string>>;

  // An empty set.
  LaidOutPlans();
  // Lays out `plans` (sorted by path; empty plans kept, so callers still see their paths).
  static std::shared_ptr<const LaidOutPlans> lay_out(const PlansByPath& plans);
  // One path's plan for combine(): laid out afresh from `fresh`, or `kept` (a plan of the base,
  // taken as it is).
  struct Part {
    std::string_view path;
    const TagPlan* fresh = nullptr;
    const LaidOutPlan* kept = nullptr;
  };
  // `parts` (sorted by path, each path once) as one set: fresh plans laid out in a new buffer,
  // kept ones not copied (the result keeps `base`'s buffers alive) until the buffers held exceed
  // twice the bytes still served, when everything is laid out again in one buffer.
  static std::shared_ptr<const LaidOutPlans> combine(const LaidOutPlans& base,
                                                     const std::vector<Part>& parts);
  // Plans already laid out in `buffers` (each plan's path and data inside one of them), `files`
  // sorted by path: taken as they are, checked as read() checks them (std::logic_error if not).
  static std::shared_ptr<const LaidOutPlans> adopt(Buffers buffers, std::vector<LaidOutPlan> files);
  // Reads a section `append_bytes()` wrote, taken from `buffer` starting at byte `begin` and running to
  // its end. Every count, length and order is checked (a damaged record is rejected, nullptr):
  // paths strictly ascending, offsets sorted, text ends non-decreasing and within the section.
  static std::shared_ptr<const LaidOutPlans> read(std::shared_ptr<const std::string> buffer,
                                                 size_t begin);

  const std::vector<LaidOutPlan>& files() const { return files_; }
  size_t size() const { return files_.size(); }
  bool empty() const { return files_.empty(); }
  // Every plan, as render::plans_by_path gives them (for tests and tools; copies every text).
  PlansByPath plans() const;
  // The plan of `path`, or null when the file is served unchanged.
  const LaidOutPlan* find(std::string_view path) const;
  // Appends the section as stored (read() takes it back).
  void append_bytes(std::string& out) const;
  // How many bytes append_bytes() appends: a record reserves them first, so that the view's
  // bytes are written once into their final buffer instead of a string doubling its way up
  // (each step above jemalloc's 8 MiB oversize threshold is fresh pages, the old ones purged).
  size_t section_bytes() const;
  std::string bytes() const {
    std::string out;
    append_bytes(out);
    return out;
  }
  // What keeps every plan's bytes alive (for views that outlive this object).
  std::shared_ptr<const void> owner() const { return buffers_; }

 private:
  // Every buffer a plan points into: one, or those combine() kept.
  std::shared_ptr<const Buffers> buffers_;
  std::vector<LaidOutPlan> files_;
};

}  // namespace anchorfs::render
