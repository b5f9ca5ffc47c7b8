// XXH3-128 of many small pieces, gathered into chunks: the same hash as feeding each piece.
#pragma once

#include <xxhash.h>

#include <cstddef>
#include <cstring>
#include <utility>

namespace anchorfs::analysis {

// XXH3's streaming hash depends only on the bytes fed, not on how they were split, so gathering
// pieces into a buffer first gives the same value. It is worth it where the pieces are a path and
// a few numbers per entry of a whole tree: each XXH3_128bits_update call costs ~80 instructions
// before it hashes a byte, and the kernel's keys and signatures made ~1.5 M of them a refresh.
class ChunkedXxh128 {
 public:
  ChunkedXxh128() : state_(XXH3_createState()) { XXH3_128bits_reset(state_); }
  ~ChunkedXxh128() { XXH3_freeState(state_); }
  ChunkedXxh128(const ChunkedXxh128&) = delete;
  ChunkedXxh128& operator=(const ChunkedXxh128&) = delete;

  void update(const void* data, size_t size) {
    if (size > kChunk - used_) {
      flush();
      if (size >= kChunk) {
        XXH3_128bits_update(state_, data, size);
        return;
      }
    }
    std::memcpy(buffer_ + used_, data, size);
    used_ += size;
  }
  // The hash of every byte fed so far, as (low, high).
  std::pair<uint64_t, uint64_t> digest() {
    flush();
    const XXH128_hash_t hash = XXH3_128bits_digest(state_);
    return {hash.low64, hash.high64};
  }

 private:
  static constexpr size_t kChunk = 16 << 10;
  void flush() {
    if (used_ != 0) XXH3_128bits_update(state_, buffer_, used_);
    used_ = 0;
  }

  XXH3_state_t* state_;
  size_t used_ = 0;
  char buffer_[kChunk];
};

}  // namespace anchorfs::analysis
