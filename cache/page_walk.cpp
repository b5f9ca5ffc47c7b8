// A page-level walker over LMDB's on-disk format (see lmdb's mdb.c: MDB_page, MDB_node,
// MDB_meta, MDB_db), reading only bytes it has checked lie inside the file.
#include "cache/page_walk.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace anchorfs::cache {
namespace {

constexpr uint32_t kLmdbMagic = 0xBEEFC0DE;
constexpr uint32_t kDataVersion = 1;
constexpr size_t kPageHeaderBytes = 16;  // pgno (8), pad (2), flags (2), lower/upper or pages (4)
constexpr size_t kNodeHeaderBytes = 8;   // lo, hi, flags, key size (2 each)
constexpr size_t kDbBytes = 48;          // MDB_db
constexpr size_t kMetaDbsOffset = kPageHeaderBytes + 24;  // magic, version, address, map size
constexpr uint64_t kInvalidPage = ~uint64_t{0};
constexpr unsigned kMaxDepth = 32;  // LMDB's cursor stack

constexpr uint16_t kBranch = 0x01;
constexpr uint16_t kLeaf = 0x02;
constexpr uint16_t kOverflow = 0x04;
constexpr uint16_t kMeta = 0x08;
constexpr uint16_t kTransientFlags = 0x10 | 0x4000 | 0x8000;  // dirty, loose, keep
constexpr uint16_t kBigData = 0x01;
constexpr uint16_t kSubData = 0x02;
constexpr uint16_t kDupData = 0x04;

template <typename T>
T load(const char* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

struct Db {
  uint64_t root = kInvalidPage;
};

Db read_db(const char* at) {
  return {load<uint64_t>(at + 40)};
}

class Walker {
 public:
  Walker(const char* file, size_t file_bytes, size_t page_size)
      : file_(file), file_bytes_(file_bytes), page_(page_size) {}

  std::string run() {
    if (file_bytes_ < 2 * page_) return "data file is shorter than its two meta pages";
    const char* newest = nullptr;
    uint64_t newest_txn = 0;
    for (uint64_t p = 0; p < 2; ++p) {
      const char* meta = file_ + p * page_;
      if (load<uint64_t>(meta) != p || (load<uint16_t>(meta + 10) & kMeta) == 0 ||
          load<uint32_t>(meta + kPageHeaderBytes) != kLmdbMagic ||
          load<uint32_t>(meta + kPageHeaderBytes + 4) != kDataVersion) {
        return fmt::format("meta page {} is damaged", p);
      }
      const uint64_t txn = load<uint64_t>(meta + kMetaDbsOffset + 2 * kDbBytes + 8);
      if (newest == nullptr || txn > newest_txn) {
        newest = meta;
        newest_txn = txn;
      }
    }
    last_page_ = load<uint64_t>(newest + kMetaDbsOffset + 2 * kDbBytes);
    // Pages allocated and freed again within one commit ("loose") count in the last page number
    // but are never written: the file may end before it. Every page a tree reaches must lie
    // inside the file; free-list entries only below the last page number.
    if (last_page_ < 1) return "data file is truncated";
    reachable_limit_ = std::min<uint64_t>(last_page_, file_bytes_ / page_ - 1);
    if (load<uint32_t>(newest + kMetaDbsOffset) != page_) {
      return "the store was written with another page size";
    }
    seen_.assign(last_page_ + 1, false);
    const Db free_db = read_db(newest + kMetaDbsOffset);
    const Db main_db = read_db(newest + kMetaDbsOffset + kDbBytes);
    free_list_ = true;
    if (std::string problem = walk_tree(free_db, /*integer_keys=*/true, /*main=*/false);
        !problem.empty()) {
      return problem;
    }
    free_list_ = false;
    return walk_tree(main_db, false, true);
  }

 private:
  std::string walk_tree(const Db& db, bool integer_keys, bool main) {
    if (db.root == kInvalidPage) return "";
    return walk_page(db.root, 0, integer_keys, main);
  }

  std::string claim(uint64_t pgno) {
    if (pgno < 2 || pgno > reachable_limit_)
      return fmt::format("a reference to page {} lies outside the store", pgno);
    if (seen_[pgno]) return fmt::format("page {} is reached twice", pgno);
    seen_[pgno] = true;
    return "";
  }

  bool ascending(std::string_view previous, std::string_view key, bool integer_keys) const {
    if (integer_keys && previous.size() == 8 && key.size() == 8) {
      return load<uint64_t>(previous.data()) < load<uint64_t>(key.data());
    }
    return previous < key;
  }

  std::string walk_page(uint64_t pgno, unsigned depth, bool integer_keys, bool main) {
    if (depth >= kMaxDepth) return "the tree is deeper than LMDB allows";
    if (std::string problem = claim(pgno); !problem.empty()) return problem;
    const char* page = file_ + pgno * page_;
    const uint16_t flags = load<uint16_t>(page + 10) & ~kTransientFlags;
    const uint16_t lower = load<uint16_t>(page + 12);
    const uint16_t upper = load<uint16_t>(page + 14);
    if (load<uint64_t>(page) != pgno) return fmt::format("page {} names another page", pgno);
    if (flags != kBranch && flags != kLeaf) return fmt::format("page {} has an invalid kind", pgno);
    if (lower < kPageHeaderBytes || (lower - kPageHeaderBytes) % 2 != 0 || lower > upper ||
        upper > page_) {
      return fmt::format("page {} has invalid bounds", pgno);
    }
    const size_t keys = (lower - kPageHeaderBytes) / 2;
    std::string_view previous;
    for (size_t i = 0; i < keys; ++i) {
      const uint16_t offset = load<uint16_t>(page + kPageHeaderBytes + 2 * i);
      if (offset < upper || offset % 2 != 0 || offset + kNodeHeaderBytes > page_) {
        return fmt::format("page {} has a node outside its bounds", pgno);
      }
      const char* node = page + offset;
      const uint16_t lo = load<uint16_t>(node);
      const uint16_t hi = load<uint16_t>(node + 2);
      const uint16_t node_flags = load<uint16_t>(node + 4);
      const uint16_t key_size = load<uint16_t>(node + 6);
      if (offset + kNodeHeaderBytes + key_size > page_) {
        return fmt::format("page {} has a key outside its bounds", pgno);
      }
      const std::string_view key(node + kNodeHeaderBytes, key_size);
      // A branch page's first key is implicit (empty); every other key must ascend.
      if (i > 0 && !(flags == kBranch && i == 1) && !ascending(previous, key, integer_keys)) {
        return fmt::format("page {} has keys out of order", pgno);
      }
      previous = key;
      if (flags == kBranch) {
        const uint64_t child = uint64_t{lo} | uint64_t{hi} << 16 | uint64_t{node_flags} << 32;
        if (std::string problem = walk_page(child, depth + 1, integer_keys, main);
            !problem.empty()) {
          return problem;
        }
        continue;
      }
      const uint64_t data_size = uint64_t{lo} | uint64_t{hi} << 16;
      const char* data = node + kNodeHeaderBytes + key_size;
      if ((node_flags & kDupData) != 0 || (node_flags & ~(kBigData | kSubData)) != 0) {
        return fmt::format("page {} has a node of an unexpected kind", pgno);
      }
      if ((node_flags & kBigData) != 0) {
        if (offset + kNodeHeaderBytes + key_size + 8 > page_) {
          return fmt::format("page {} has a node outside its bounds", pgno);
        }
        const uint64_t first = load<uint64_t>(data);
        if (std::string problem = check_overflow(first, data_size); !problem.empty()) {
          return problem;
        }
        if (free_list_) {
          if (std::string problem =
                  check_free_ids(file_ + first * page_ + kPageHeaderBytes, data_size);
              !problem.empty()) {
            return problem;
          }
        }
        continue;
      }
      if (offset + kNodeHeaderBytes + key_size + data_size > page_) {
        return fmt::format("page {} has a value outside its bounds", pgno);
      }
      if (free_list_) {
        if (std::string problem = check_free_ids(data, data_size); !problem.empty()) return problem;
      }
      if ((node_flags & kSubData) != 0) {
        if (!main || data_size != kDbBytes)
          return fmt::format("page {} has a bad sub-database", pgno);
        if (std::string problem = walk_tree(read_db(data), false, false); !problem.empty()) {
          return problem;
        }
      }
    }
    return "";
  }

  // A free-list record: a count, then that many page numbers, all inside the used file.
  std::string check_free_ids(const char* data, uint64_t data_size) const {
    if (data_size < 8 || data_size % 8 != 0 || load<uint64_t>(data) != data_size / 8 - 1) {
      return "free list record malformed";
    }
    for (uint64_t i = 1; i < data_size / 8; ++i) {
      if (load<uint64_t>(data + 8 * i) > last_page_) return "free list names a page past the end";
    }
    return "";
  }

  std::string check_overflow(uint64_t first, uint64_t data_size) {
    if (first < 2 || first > reachable_limit_) {
      return fmt::format("a reference to page {} lies outside the store", first);
    }
    const char* page = file_ + first * page_;
    const uint32_t pages = load<uint32_t>(page + 12);
    if (load<uint64_t>(page) != first ||
        (load<uint16_t>(page + 10) & ~kTransientFlags) != kOverflow || pages == 0 ||
        first + pages - 1 > reachable_limit_ || uint64_t{pages} * page_ < data_size + kPageHeaderBytes) {
      return fmt::format("overflow page {} is damaged", first);
    }
    for (uint64_t p = first; p < first + pages; ++p) {
      if (seen_[p]) return fmt::format("page {} is reached twice", p);
      seen_[p] = true;
    }
    return "";
  }

  const char* file_;
  size_t file_bytes_;
  size_t page_;
  uint64_t last_page_ = 0;
  uint64_t reachable_limit_ = 0;  // the last page both used and inside the file
  std::vector<bool> seen_;
  bool free_list_ = false;  // walking the free-page tree: its values are page-number lists
};

}  // namespace

std::string verify_lmdb_pages(const char* file, size_t file_bytes, size_t page_size) {
  return Walker(file, file_bytes, page_size).run();
}

}  // namespace anchorfs::cache
