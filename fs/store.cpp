// Storing a stage: version check, the store rule over mapped bytes, then an atomic replace.
#include "fs/store.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "analysis/unique_fd.h"
#include "fs/checkout_io.h"
#include "fs/source_file.h"

namespace anchorfs::fs {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

int64_t nanoseconds(const timespec& t) {
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

// A file's bytes mapped read-only (file-backed pages: a large stage costs page cache, not heap).
class Mapped {
 public:
  Mapped(int fd, uint64_t size) : size_(static_cast<size_t>(size)) {
    if (size_ == 0) return;
    void* data = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) {
      error_ = errno;
      return;
    }
    ::madvise(data, size_, MADV_SEQUENTIAL);
    data_ = static_cast<const char*>(data);
  }
  ~Mapped() {
    if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
  }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  int error() const { return error_; }
  std::string_view bytes() const { return data_ == nullptr ? std::string_view() : std::string_view(data_, size_); }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
  int error_ = 0;
};

// A buffer for copying `bytes` a chunk at a time: small files (a git checkout writes hundreds)
// must not pay for zeroing, and returning to the system, a whole chunk each.
std::vector<char> chunk_buffer(uint64_t bytes) {
  return std::vector<char>(static_cast<size_t>(std::clamp<uint64_t>(bytes, 1, kChunk)));
}

// Copies all of `from` (`size` bytes when it was looked at) into `to` at offset 0, a chunk at a
// time.
int copy_whole(int from, int to, uint64_t size) {
  std::vector<char> buffer = chunk_buffer(size);
  for (uint64_t offset = 0;;) {
    const ssize_t n = pread_fully(from, buffer.data(), buffer.size(), offset);
    if (n < 0) return errno;
    if (n == 0) return 0;
    if (const int error = write_at(to, std::string_view(buffer.data(), static_cast<size_t>(n)), offset);
        error != 0) {
      return error;
    }
    offset += static_cast<uint64_t>(n);
  }
}

// The layouts whose blocks the whole-block rule removes: every one the current generation
// serves, and those opens were served lately (a reader's view from before a re-tag, copied).
struct BlockSources {
  std::shared_ptr<const Generation> generation;
  std::vector<std::shared_ptr<const FileLayout>> recent;
};

BlockSources block_sources(const ServerState& state) {
  return {state.current(), state.served_layouts.all()};
}

// Views into `sources`, which must outlive the result.
render::ServedBlocks served_blocks(const BlockSources& sources) {
  render::ServedBlocks blocks;
  const auto add = [&](const FileLayout& layout) {
    for (size_t k = 0; k < layout.insertions(); ++k) blocks.add(layout.text(k));
  };
  for (const std::shared_ptr<const FileLayout>& layout : sources.generation->snapshot().layouts()) {
    add(*layout);
  }
  for (const std::shared_ptr<const FileLayout>& layout : sources.recent) add(*layout);
  return blocks;
}

// The plan `written` was made from, of `own` (the writer's) and the plans served for `path` at
// `version` lately (ServedLayouts): the one whose tag lines it holds most of.
render::TagPlan closest_plan(const ServerState& state, const std::string& path,
                             const render::FileVersion& version, render::TagPlan own,
                             std::string_view written) {
  std::vector<render::TagPlan> plans{std::move(own)};
  for (const std::shared_ptr<const FileLayout>& layout : state.served_layouts.of(path, version)) {
    render::TagPlan plan = layout->plan();
    const auto same = [&](const render::TagPlan& other) {
      return std::equal(plan.insertions.begin(), plan.insertions.end(), other.insertions.begin(),
                        other.insertions.end(), [](const auto& x, const auto& y) {
                          return x.offset == y.offset && x.text == y.text;
                        });
    };
    if (std::none_of(plans.begin(), plans.end(), same)) plans.push_back(std::move(plan));
  }
  std::vector<const render::TagPlan*> candidates;
  for (const render::TagPlan& plan : plans) candidates.push_back(&plan);
  return std::move(plans[render::closest_served_plan(candidates, written)]);
}

// Copies the pieces, in order, from the checkout file or the stage into `fd` from `offset` on, a
// chunk at a time (pread: a large file is never mapped for it).
int write_pieces(int fd, const std::vector<render::Piece>& pieces, int checkout_fd, int stage_fd,
                 uint64_t offset) {
  uint64_t total = 0;
  for (const render::Piece& piece : pieces) total += piece.end - piece.begin;
  std::vector<char> buffer = chunk_buffer(total);
  for (const render::Piece& piece : pieces) {
    const int from = piece.from_checkout ? checkout_fd : stage_fd;
    for (uint64_t at = piece.begin; at < piece.end;) {
      const size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size(), piece.end - at));
      const ssize_t n = pread_fully(from, buffer.data(), want, at);
      if (n < 0) return errno;
      if (static_cast<size_t>(n) != want) return EIO;  // the file shrank under the store
      if (const int error = write_at(fd, std::string_view(buffer.data(), want), offset);
          error != 0) {
        return error;
      }
      at += want;
      offset += want;
    }
  }
  return 0;
}

// Whether [from, size) of `fd` holds, at a line start, the first line of a block in `blocks` or
// `own`, read a chunk at a time. When it does not, the store rule removes nothing from it unless
// a view is aligned with it.
bool may_hold_block(int fd, uint64_t from, uint64_t size, const render::ServedBlocks& blocks,
                    const render::ServedBlocks& own) {
  const size_t longest = std::max(blocks.longest_first_line(), own.longest_first_line());
  if (longest == 0 || from >= size) return false;
  std::vector<char> buffer = chunk_buffer(size - from);
  std::string line;        // the current line's start, while it may still be a first line
  bool line_long = false;  // the current line is longer than any first line
  for (uint64_t at = from; at < size;) {
    const ssize_t n = pread_fully(fd, buffer.data(), static_cast<size_t>(std::min<uint64_t>(buffer.size(), size - at)), at);
    if (n <= 0) return true;  // unreadable here: let the mapped path decide (and fail)
    const std::string_view chunk(buffer.data(), static_cast<size_t>(n));
    for (size_t pos = 0; pos < chunk.size();) {
      const size_t newline = chunk.find('\n', pos);
      const size_t end = newline == std::string_view::npos ? chunk.size() : newline + 1;
      if (!line_long) {
        line.append(chunk.substr(pos, end - pos));
        line_long = line.size() > longest;
      }
      if (newline != std::string_view::npos) {
        if (!line_long && (blocks.starts_block(line) || own.starts_block(line))) return true;
        line.clear();
        line_long = false;
      }
      pos = end;
    }
    at += static_cast<uint64_t>(n);
  }
  return !line_long && !line.empty() && (blocks.starts_block(line) || own.starts_block(line));
}

// Calls `visit` with each line of `text`, without its line break.
template <typename Visit>
void for_each_line(std::string_view text, Visit visit) {
  for (size_t begin = 0; begin < text.size();) {
    const size_t newline = text.find('\n', begin);
    const size_t end = newline == std::string_view::npos ? text.size() : newline;
    if (visit(text.substr(begin, end - begin))) return;
    begin = end + 1;
  }
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// The non-blank lines of `text`, indexed once: a rename checks every served block against them,
// and a scan of the whole text per block line would grow with blocks times size.
std::unordered_set<std::string_view> non_blank_lines(std::string_view text) {
  std::unordered_set<std::string_view> lines;
  for_each_line(text, [&](std::string_view line) {
    if (!blank(line)) lines.insert(line);
    return false;
  });
  return lines;
}

// Whether `lines` holds one of the non-blank lines of `block` (a blank line ties nothing to it).
bool holds_a_line_of(const std::unordered_set<std::string_view>& lines, std::string_view block) {
  bool held = false;
  for_each_line(block, [&](std::string_view line) {
    held = !blank(line) && lines.contains(line);
    return held;
  });
  return held;
}

}  // namespace

render::FileVersion version_of(const struct stat& st) {
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
          static_cast<uint64_t>(st.st_size), nanoseconds(st.st_mtim), nanoseconds(st.st_ctim)};
}

void remember_served(ServerState& state, const Served& served) {
  if (served.serving != Serving::LaidOut && served.serving != Serving::Checkout) return;
  const analysis::TreeEntry& entry = *served.entry;
  const render::FileVersion version{entry.device, entry.inode, entry.size, entry.mtime_ns,
                                    entry.ctime_ns};
  if (served.serving == Serving::Checkout) {
    return state.served_layouts.record_last(entry.path, version, nullptr);
  }
  std::shared_ptr<const FileLayout> layout =
      served.retired ? served.retired->layout
                     : served.generation->snapshot().layout_ptr(served.index);
  state.served_layouts.record(entry.path, version, layout);
  state.served_layouts.record_last(entry.path, version, std::move(layout));
}

std::optional<std::shared_ptr<const FileLayout>> writer_view(const ServerState& state,
                                                             const Served& served,
                                                             const struct stat& st) {
  if (auto last = state.served_layouts.last(served.entry->path, version_of(st))) return last;
  if (served.layout->empty()) return nullptr;
  if (!is_scanned_version(*served.entry, st)) return std::nullopt;
  return served.retired ? served.retired->layout
                        : served.generation->snapshot().layout_ptr(served.index);
}

bool is_scanned_version(const analysis::TreeEntry& entry, const struct stat& st) {
  return S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) == entry.size &&
         st.st_ino == entry.inode && st.st_dev == entry.device &&
         nanoseconds(st.st_mtim) == entry.mtime_ns && nanoseconds(st.st_ctim) == entry.ctime_ns;
}

int fill_stage(ServerState& state, const Served& served, int flags, OpenFile& file,
               const std::function<int(const struct stat&)>& may_open) {
  UniqueFd source(open_source(state.root()->fd, served.entry->path));
  if (source.get() < 0) return errno;
  struct stat st {};
  if (::fstat(source.get(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return EINVAL;
  if (const int error = may_open(st); error != 0) return error;
  file.version = version_of(st);
  file.plan = {};
  file.appended_from.reset();
  // A version the tags were not made for is served as it is, untagged: never a stale plan.
  const std::shared_ptr<const FileLayout> view = writer_view(state, served, st).value_or(nullptr);
  const bool tagged = view != nullptr;
  if (tagged) state.served_layouts.record(served.entry->path, *file.version, view);
  state.served_layouts.record_last(served.entry->path, *file.version, view);
  if ((flags & O_TRUNC) != 0) {
    // The writer starts empty, but what it writes was made from what the path served (an agent
    // reads the view, edits it, writes it back whole): that view is its provenance.
    if (tagged) file.plan = view->plan();
    file.rewritten = true;
    file.dirty = true;  // `: > file` truncates even without a write
    return 0;
  }
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (tagged) {
    // The tagged view, a chunk at a time; its plan is the writer's provenance.
    const FileLayout& layout = *view;
    const uint64_t view_size = layout.view_size();
    std::vector<char> buffer = chunk_buffer(view_size);
    for (uint64_t offset = 0; offset < view_size; offset += buffer.size()) {
      const auto span = std::span<char>(buffer.data(), static_cast<size_t>(std::min<uint64_t>(buffer.size(), view_size - offset)));
      if (!layout.read(source.get(), offset, span)) return errno;
      if (const int error = write_at(file.fd, std::string_view(span.data(), span.size()), offset);
          error != 0) {
        return error;
      }
    }
    file.plan = layout.plan();
    size = view_size;
  } else if (const int error = copy_whole(source.get(), file.fd, size); error != 0) {
    return error;
  }
  if ((flags & O_APPEND) != 0) file.appended_from = size;
  return 0;
}

int untag_for_rename(const ServerState& state, const std::string& from, const std::string& to,
                     const render::FileVersion& made) {
  const std::shared_ptr<const Generation> generation = state.current();
  const Snapshot& snapshot = generation->snapshot();
  const std::optional<uint32_t> index = snapshot.find(to);
  if (!index || snapshot.content(*index)) return 0;
  const int root = state.root()->fd;
  UniqueFd target(open_source(root, to));
  UniqueFd source(open_source(root, from));
  struct stat target_st {};
  struct stat source_st {};
  if (target.get() < 0 || source.get() < 0 || ::fstat(target.get(), &target_st) != 0 ||
      ::fstat(source.get(), &source_st) != 0) {
    return 0;  // the rename itself reports what is wrong
  }
  if (version_of(source_st) != made) return 0;  // bytes written behind the mount
  const render::FileVersion version = version_of(target_st);
  // The view of `to` now, if it is of this version; else nothing the current view served.
  render::TagPlan own;
  if (!snapshot.layout(*index).empty() && is_scanned_version(snapshot.entry(*index), target_st)) {
    own = snapshot.layout(*index).plan();
  }
  const Mapped checkout(target.get(), static_cast<uint64_t>(target_st.st_size));
  const Mapped written(source.get(), static_cast<uint64_t>(source_st.st_size));
  if (checkout.error() != 0 || written.error() != 0) return EIO;
  render::TagPlan plan = closest_plan(state, to, version, std::move(own), written.bytes());
  // The temporary's own store already removed the blocks it held whole (rule 4): aligned with
  // them still in the view, a small file would seem not made from it (render/untag.h).
  const std::unordered_set<std::string_view> written_lines = non_blank_lines(written.bytes());
  std::erase_if(plan.insertions, [&](const render::Insertion& insertion) {
    return !holds_a_line_of(written_lines, insertion.text);
  });
  if (plan.insertions.empty()) return 0;  // `to` was not served tagged at this version
  const BlockSources sources = block_sources(state);
  const render::ServedBlocks blocks = served_blocks(sources);
  const render::StoreResult result = render::untag_written({.plan = &plan,
                                                            .served = version,
                                                            .current = version,
                                                            .checkout = checkout.bytes(),
                                                            .written = written.bytes(),
                                                            .appended_from = std::nullopt,
                                                            .blocks = &blocks,
                                                            .rewritten = true});
  if (result.pieces.size() == 1 && result.pieces[0].begin == 0 &&
      result.pieces[0].end == written.bytes().size()) {
    return 0;  // nothing served as a tag in it
  }
  return replace_file_with(
      root, from,
      {.fill = [&](int fd) { return write_pieces(fd, result.pieces, target.get(), source.get(), 0); },
       .atime = &source_st.st_atim,
       .mtime = &source_st.st_mtim,
       .expected = &source_st});
}

int store_stage(ServerState& state, const std::string& target, OpenFile& file) {
  if (file.provenance_lost && !file.appended_from) return ESTALE;
  struct stat stage {};
  if (::fstat(file.fd, &stage) != 0) return errno;
  const int root = state.root()->fd;
  UniqueFd checkout_fd(open_source(root, target));
  struct stat now {};
  std::optional<render::FileVersion> current;
  if (checkout_fd.get() >= 0) {
    if (::fstat(checkout_fd.get(), &now) != 0) return errno;
    if (!S_ISREG(now.st_mode)) return ESTALE;
    current = version_of(now);
  } else if (errno != ENOENT) {
    return errno;
  }
  if (!current) return ESTALE;  // renamed or removed behind the mount: close must not succeed
  const uint64_t size = static_cast<uint64_t>(stage.st_size);
  const BlockSources sources = block_sources(state);
  const render::ServedBlocks blocks = served_blocks(sources);
  render::ServedBlocks own;
  own.add(file.plan);
  const bool aligned = !file.appended_from && current == file.version;
  render::StoreResult result;
  if (file.appended_from && *file.appended_from <= size &&
      !may_hold_block(file.fd, *file.appended_from, size, blocks, own)) {
    // Appends with no served block in them: after the checkout as it is, as they are.
    result.pieces = {{true, 0, static_cast<uint64_t>(now.st_size)}, {false, *file.appended_from, size}};
  } else if (aligned && file.plan.insertions.empty() &&
             state.served_layouts.of(target, *file.version).empty() &&
             !may_hold_block(file.fd, 0, size, blocks, own)) {
    // Served untagged (or new) and no served block in it: stored as written (a 1 GiB write is
    // copied a chunk at a time, never mapped).
    result.pieces = {{false, 0, size}};
    result.provenance = render::TagPlan{};
  } else {
    const Mapped written(file.fd, size);
    if (written.error() != 0) return written.error();
    const bool need_checkout = file.appended_from || current == file.version;
    const Mapped checkout(checkout_fd.get(), need_checkout ? static_cast<uint64_t>(now.st_size) : 0);
    if (checkout.error() != 0) return checkout.error();
    if (aligned) {
      // The writer may hold a view served before a refresh re-tagged the file: align with that.
      file.plan = closest_plan(state, target, *file.version, std::move(file.plan), written.bytes());
    }
    try {
      result = render::untag_written({.plan = &file.plan,
                                      .served = file.version,
                                      .current = current,
                                      .checkout = checkout.bytes(),
                                      .written = written.bytes(),
                                      .appended_from = file.appended_from,
                                      .blocks = &blocks,
                                      .rewritten = file.rewritten});
    } catch (const std::invalid_argument&) {
      return EIO;  // a plan that does not fit the version it was recorded with: never guess
    }
    if (result.status == render::StoreResult::Status::kStale) return ESTALE;
  }
  // Other names share this inode: written in place so they keep seeing the file. An empty file
  // (one just created: git checkout, cp, a redirect) is written in place too: it holds no byte a
  // crash could lose, which is what a replacement's atomic rename is for, and a plain write into
  // it in the checkout would leave the same states; an fsync of the writer syncs it
  // (store_and_reply).
  if (now.st_nlink > 1 || now.st_size == 0) {
    UniqueFd out(open_beneath(root, target, O_WRONLY | O_NOFOLLOW | O_NONBLOCK));
    if (out.get() < 0) return errno;
    std::vector<render::Piece> pieces = result.pieces;
    uint64_t offset = 0;
    if (!pieces.empty() && pieces.front().from_checkout && pieces.front().begin == 0 &&
        pieces.front().end == static_cast<uint64_t>(now.st_size)) {
      offset = pieces.front().end;  // an append: the checkout's bytes are already there
      pieces.erase(pieces.begin());
    }
    if (const int error = write_pieces(out.get(), pieces, checkout_fd.get(), file.fd, offset);
        error != 0) {
      return error;
    }
    uint64_t total = offset;
    for (const render::Piece& piece : pieces) total += piece.end - piece.begin;
    if (::ftruncate(out.get(), static_cast<off_t>(total)) != 0) return errno;
    const timespec times[2] = {stage.st_atim, stage.st_mtim};
    if (::futimens(out.get(), times) != 0) return errno;
    if (now.st_nlink > 1 && ::fdatasync(out.get()) != 0) return errno;
  } else {
    // The stored file was last modified when the writer last wrote (or set its times), not
    // when it was copied: git records the time it saw through the mount.
    const int error = replace_file_with(
        root, target,
        {.fill = [&](int fd) { return write_pieces(fd, result.pieces, checkout_fd.get(), file.fd, 0); },
         .atime = &stage.st_atim,
         .mtime = &stage.st_mtim,
         .expected = &now});
    if (error != 0) return error == ENOENT ? ESTALE : error;
  }

  UniqueFd stored(open_source(root, target));
  struct stat after {};
  if (stored.get() < 0 || ::fstat(stored.get(), &after) != 0) return errno;
  file.version = version_of(after);
  file.rewritten = false;  // its next store is aligned with what it holds now, exactly
  if (file.created) state.open_files.stored_new(target, *file.version);
  if (result.provenance) {
    file.plan = std::move(*result.provenance);
  } else {
    file.appended_from = static_cast<uint64_t>(stage.st_size);
    file.provenance_lost = true;
  }
  return 0;
}

}  // namespace anchorfs::fs
