// The resolver's variables' value sets, packed: up to two values inline, larger ones in a pool.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "analysis/python/resolve_value_set.h"

namespace anchorfs::analysis::python {

// Most of the resolver's ~10^6 variables hold zero to two values; a std::vector each cost
// 24 bytes plus a heap block. Here a variable costs 9 bytes, and a larger set one pooled
// block of 4, 8 or 16 values; blocks a set outgrows are reused by the next set of their size.
class VarSets {
 public:
  void reserve(size_t vars) {
    slots_.reserve(vars);
    meta_.reserve(vars);
  }

  // A new, empty variable.
  uint32_t add() {
    slots_.push_back({{0, 0}});
    meta_.push_back(0);
    return static_cast<uint32_t>(slots_.size() - 1);
  }

  size_t size() const { return slots_.size(); }
  size_t count(uint32_t var) const { return meta_[var] & kSizeMask; }
  bool poisoned(uint32_t var) const { return (meta_[var] & kPoisoned) != 0; }
  void poison(uint32_t var) { meta_[var] |= kPoisoned; }

  ValueSet get(uint32_t var) const {
    ValueSet out;
    const size_t n = count(var);
    out.assign(n <= kInline ? slots_[var].words : &pool_[slots_[var].words[0]], n);
    return out;
  }

  void set(uint32_t var, const ValueSet& values) {
    Slot& slot = slots_[var];
    const size_t old_n = count(var), n = values.size();
    const int old_class = block_class(old_n), new_class = block_class(n);
    if (old_class != new_class) {
      if (old_class >= 0) release(old_class, slot.words[0]);
      if (new_class >= 0) slot.words[0] = acquire(new_class);
    }
    uint32_t* dst = new_class >= 0 ? &pool_[slot.words[0]] : slot.words;
    std::copy(values.begin(), values.end(), dst);
    meta_[var] = static_cast<uint8_t>((meta_[var] & kPoisoned) | n);
  }

 private:
  static constexpr uint8_t kPoisoned = 0x80, kSizeMask = 0x1f;
  static constexpr size_t kInline = 2;
  static constexpr uint32_t kNoBlock = UINT32_MAX;

  // The inline values, or in words[0] the offset of the pooled block.
  struct Slot {
    uint32_t words[kInline];
  };

  // -1: inline; 0, 1, 2: a block of 4, 8 or 16 values.
  static int block_class(size_t n) {
    if (n <= kInline) return -1;
    return n <= 4 ? 0 : n <= 8 ? 1 : 2;
  }

  uint32_t acquire(int c) {
    uint32_t& head = free_[c];
    if (head != kNoBlock) {
      const uint32_t block = head;
      head = pool_[block];
      return block;
    }
    const auto block = static_cast<uint32_t>(pool_.size());
    pool_.resize(pool_.size() + (size_t{4} << c));
    return block;
  }

  // A free block's first word links to the next free block of its class.
  void release(int c, uint32_t block) {
    pool_[block] = free_[c];
    free_[c] = block;
  }

  std::vector<Slot> slots_;
  std::vector<uint8_t> meta_;  // per variable: size | kPoisoned
  std::vector<uint32_t> pool_;
  uint32_t free_[3] = {kNoBlock, kNoBlock, kNoBlock};
};

}  // namespace anchorfs::analysis::python
