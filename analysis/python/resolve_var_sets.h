// The resolver's variables' value sets, packed: up to two values inline, larger ones in a pool.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "analysis/page_prefault.h"
#include "analysis/python/resolve_ids.h"
#include "analysis/python/resolve_value_set.h"

namespace anchorfs::analysis::python {

// Most of the resolver's ~10^6 variables hold zero to two values; a std::vector each cost
// 24 bytes plus a heap block. Here a variable is one 16-byte record (four to a cache line, none
// straddling two), and a larger set one pooled block of 4, 8 or 16 values; blocks a set outgrows
// are reused by the next set of their size. The record also holds the read tick, so reading a
// variable touches one cache line. The change tick lives apart, 4 bytes per variable: the
// staleness scan reads it for every recently changed variable a statement read, and reads
// nothing else of the variable, so it walks a table a fifth of the records' size. Records and
// blocks hold plain numbers: a record's first word is a value or the offset of its block, and a
// free block's first word a link.
class VarSets {
 public:
  // Reserves address space only (see ReadLists): the tables then never reallocate, which
  // would briefly hold two copies of them, unless they outgrow the guess.
  void reserve(size_t vars, size_t pooled_values) {
    slots_.reserve(vars);
    changed_.reserve(vars);
    pool_.reserve(pooled_values);
  }
  // Has `prefault` fault in the pages the first `vars` records and `pooled_values` pooled values
  // will take (within the reservation).
  void prefault(analysis::PagePrefaulter& prefault, size_t vars, size_t pooled_values) const {
    prefault.add_reserved(slots_, vars);
    prefault.add_reserved(changed_, vars);
    prefault.add_reserved(pool_, pooled_values);
  }
  // A new, empty variable.
  VarId add() {
    const auto var = static_cast<uint32_t>(slots_.size());
    slots_.push_back({});
    changed_.push_back(0);
    if (var % 64 == 0) {
      current_.push_back(0);
      recent_.push_back(0);
    }
    return VarId{var};
  }

  size_t size() const { return slots_.size(); }
  size_t bytes() const {
    return slots_.size() * (sizeof(Slot) + sizeof(uint32_t)) + pool_.size() * sizeof(uint32_t) +
           (current_.capacity() + recent_.capacity()) * sizeof(uint64_t);
  }
  size_t count(VarId var) const { return slot(var).meta & kSizeMask; }
  bool poisoned(VarId var) const { return (slot(var).meta & kPoisoned) != 0; }
  void poison(VarId var) { slot(var).meta |= kPoisoned; }

  // The tick at which the variable last changed.
  uint32_t changed(VarId var) const { return changed_[raw(var)]; }
  void mark_changed(VarId var, uint32_t tick) {
    changed_[raw(var)] = tick;
    const uint32_t n = raw(var);
    current_[n / 64] |= uint64_t{1} << (n % 64);
    recent_[n / 64] |= uint64_t{1} << (n % 64);
  }

  // Whether the variable changed during this round or the previous one: a bit array small
  // enough to stay in cache, checked before changed() (see Resolver::stale).
  bool recently_changed(VarId var) const {
    const uint32_t n = raw(var);
    return ((recent_[n / 64] >> (n % 64)) & 1) != 0;
  }
  // Calls `fn` on every variable recently_changed() holds for.
  template <class Fn>
  void for_each_recently_changed(Fn&& fn) const {
    for (size_t w = 0; w < recent_.size(); ++w) {
      for (uint64_t bits = recent_[w]; bits != 0; bits &= bits - 1) {
        fn(VarId{static_cast<uint32_t>(w * 64 + static_cast<size_t>(std::countr_zero(bits)))});
      }
    }
  }
  void start_round() {
    recent_ = current_;
    std::fill(current_.begin(), current_.end(), 0);
  }
  // The evaluation that last listed the variable among its reads.
  uint32_t& read_tick(VarId var) { return slot(var).read_tick; }

  ValueSet get(VarId var) const {
    ValueSet out;
    const Slot& slot = this->slot(var);
    const size_t n = slot.meta & kSizeMask;
    out.assign(n <= kInline ? slot.words : &pool_[slot.words[0]], n);
    return out;
  }

  // out.unite(get(var)), without the copy.
  void unite_into(ValueSet& out, VarId var) const {
    const Slot& slot = this->slot(var);
    const size_t n = std::min<size_t>(slot.meta & kSizeMask, kMaxSet);
    out.unite(n <= kInline ? slot.words : &pool_[slot.words[0]], n);
  }

  // Whether the variable already holds every value of `values` (both sorted): most merges
  // bring nothing new, and this answers without copying the set out.
  bool contains_all(VarId var, const ValueSet& values) const {
    const Slot& slot = this->slot(var);
    const size_t n = slot.meta & kSizeMask;
    if (values.size() > n) return false;
    const uint32_t* have = n <= kInline ? slot.words : &pool_[slot.words[0]];
    const uint32_t* const end = have + n;
    for (ValueId v : values) {
      while (have != end && *have < raw(v)) ++have;
      if (have == end || *have != raw(v)) return false;
    }
    return true;
  }

  void set(VarId var, const ValueSet& values) {
    Slot& slot = this->slot(var);
    const size_t old_n = slot.meta & kSizeMask, n = values.size();
    const int old_class = block_class(old_n), new_class = block_class(n);
    if (old_class != new_class) {
      if (old_class >= 0) release(old_class, slot.words[0]);
      if (new_class >= 0) slot.words[0] = acquire(new_class);
    }
    uint32_t* dst = new_class >= 0 ? &pool_[slot.words[0]] : slot.words;
    for (ValueId v : values) *dst++ = raw(v);
    slot.meta = static_cast<uint8_t>((slot.meta & kPoisoned) | n);
  }

 private:
  static constexpr uint8_t kPoisoned = 0x80, kSizeMask = 0x1f;
  static constexpr size_t kInline = 2;
  static constexpr uint32_t kNoBlock = UINT32_MAX;

  struct Slot {
    uint32_t words[kInline] = {0, 0};  // the values, or in words[0] the offset of the block
    uint32_t read_tick = 0;
    uint8_t meta = 0;  // size | kPoisoned
  };

  Slot& slot(VarId var) { return slots_[raw(var)]; }
  const Slot& slot(VarId var) const { return slots_[raw(var)]; }

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

  static_assert(sizeof(Slot) == 16);
  std::vector<Slot> slots_;
  std::vector<uint32_t> changed_;  // per variable: the tick at which it last changed
  // Per variable, a bit: changed this round; changed this round or the last.
  std::vector<uint64_t> current_, recent_;
  std::vector<uint32_t> pool_;
  uint32_t free_[3] = {kNoBlock, kNoBlock, kNoBlock};
};

}  // namespace anchorfs::analysis::python
