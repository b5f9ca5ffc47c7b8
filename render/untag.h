// The store rule of a writable view: untag what a writer wrote by provenance (what was served).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "render/tag_plan.h"

namespace anchorfs::render {

// The identity of one version of a checkout file (what the kernel changes on any write).
struct FileVersion {
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  bool operator==(const FileVersion&) const = default;
};

// Every tag block a view served (one plan insertion = one block), to recognise a block copied
// whole into another file (`cp a.py b.py` in the mount). Views into texts owned elsewhere: the
// plans (or layouts) added must outlive the index. Thread-safety: immutable after the adds.
class ServedBlocks {
 public:
  void add(std::string_view block);
  void add(const TagPlan& plan);
  // The length of the longest served block that `text` holds at `pos` (a line start), or 0.
  size_t match_at(std::string_view text, size_t pos) const;
  bool empty() const { return by_first_line_.empty(); }
  // Whether some served block starts with `line` (its terminator included), and the longest
  // such first line: a file can be searched for blocks a chunk at a time, never mapped whole.
  bool starts_block(std::string_view line) const { return by_first_line_.contains(line); }
  size_t longest_first_line() const { return longest_first_line_; }

 private:
  std::unordered_map<std::string_view, std::vector<std::string_view>> by_first_line_;
  size_t longest_first_line_ = 0;
};

// Bytes [begin, end) of the written file, or of the checkout file as it is now.
struct Piece {
  bool from_checkout = false;
  uint64_t begin = 0;
  uint64_t end = 0;
};

struct StoreInput {
  // What the writer was served: `plan` applied to the checkout file at version `served`
  // (nullopt: there was no file, e.g. one the writer created). An empty plan: served untagged.
  const TagPlan* plan = nullptr;
  std::optional<FileVersion> served;
  // The checkout file now (nullopt: gone) and its bytes: the bytes `plan` applies to when
  // `current == served`, the bytes the appends go after for an append.
  std::optional<FileVersion> current;
  std::string_view checkout;
  // The writer's bytes, whole.
  std::string_view written;
  // An O_APPEND writer: written[*appended_from, end) are its appends since its last store; they
  // go to the end of the checkout as it is at store time, whatever happened to it meanwhile.
  std::optional<uint64_t> appended_from;
  // Blocks served anywhere in the view (may be null).
  const ServedBlocks* blocks = nullptr;
  // The writer's file did not start as the served bytes (it truncated at open, or replaces the
  // file by a rename): the view is its provenance only if the written file still holds most of
  // the view's code lines (an agent's read-edit-write, sed -i); otherwise (`cp` from elsewhere)
  // only whole served blocks are removed.
  bool rewritten = false;
};

struct StoreResult {
  enum class Status {
    kStore,  // store the pieces
    kStale,  // the checkout file changed since it was served: refuse (the writer gets an error)
  };
  Status status = Status::kStore;
  // The bytes to store, in order (contiguous pieces are merged).
  std::vector<Piece> pieces;
  // The written bytes as a plan over the stored ones: apply(stored, provenance) == written. It
  // is what the writer was served from now on (its next store is aligned with it). Not set for
  // an append, which stores the checkout's bytes and not the writer's.
  std::optional<TagPlan> provenance;
};

// The store rule (docs/filesystem.md, "The store rule"). A written byte is removed only if
// the daemon served it as a tag:
//  1. a line of `written` aligned by a line diff with a line of the served view is kept or
//     removed as the view's bytes of that line were code or tag;
//  2. in a changed run, a written line that is the join of consecutive served lines (with
//     blanks between them) keeps the code lines' bytes and its terminator;
//  3. in a changed run that replaced served tag lines only, a written line that keeps at least
//     half of one of them (common prefix + suffix), or its first two words (comment marker and
//     field name: "# CALLED_BY:"), matched in order, is that tag line edited:
//     still a tag, removed; so is a last line without terminator that is a prefix of a served
//     tag line it alone replaced (a file cut inside a block);
//  4. any run of lines byte-identical to a whole block served anywhere (`blocks`) is removed.
// Rules 1-3 apply to a `rewritten` file only if at least half of the view's non-blank code lines,
// or of all its non-blank lines, are aligned with it (a view without code: one of its lines).
// Nothing else is removed, whatever it looks like. Pure: no I/O.
StoreResult untag_written(const StoreInput& input);

// Which of several plans served for one checkout version (a refresh re-tagged the file between
// a writer's read and its write, and both views were served) `written` was made from: the one
// whose tag lines it holds most of, counting repeats; the first on a tie (put the writer's own
// first). Returns an index into `plans` (0 when it is empty). Reads `written` once, in place.
size_t closest_served_plan(std::span<const TagPlan* const> plans, std::string_view written);

// The stored bytes of a result, in memory (tests and small files; the mount streams pieces).
std::string assemble(const StoreResult& result, std::string_view checkout,
                     std::string_view written);

// The stored bytes for `written`, made from `apply(checkout, plan)` (the caller has checked that
// `checkout` is the version `plan` was made for). Throws std::invalid_argument for a plan that
// does not fit `checkout` (unsorted, or past its end).
std::string untag_with_plan(std::string_view checkout, const TagPlan& plan,
                            std::string_view written, const ServedBlocks* blocks = nullptr);

}  // namespace anchorfs::render
