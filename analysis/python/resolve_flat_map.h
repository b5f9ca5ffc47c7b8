// An open-addressing hash map from integer keys to ids: the resolver's lookup tables.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "analysis/python/resolve_ids.h"

namespace anchorfs::analysis::python {

// Linear probing over one flat array, Fibonacci hashing, no erase. Node-based maps cost a
// cache miss per lookup and 40+ bytes per entry; this costs one probe run and sizeof(Slot)
// at a load of at most 3/4. The all-ones key is reserved to mark empty slots. Pointers to
// values stay valid only until the next insertion.
template <class Key, class Value = uint32_t>
class FlatMap {
 public:
  static constexpr Key kEmpty = std::numeric_limits<Key>::max();

  size_t size() const { return size_; }
  size_t bytes() const { return slots_.capacity() * sizeof(Slot); }

  void reserve(size_t expected) {
    size_t capacity = 16;
    while (capacity * 3 < expected * 4) capacity *= 2;
    if (capacity > slots_.size()) rehash(capacity);
  }

  const Value* find(Key key) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.key == key) return &s.value;
      if (s.key == kEmpty) return nullptr;
    }
  }

  // The value under `key`, inserting `value` when there is none; second: whether it inserted.
  std::pair<Value*, bool> try_emplace(Key key, Value value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) rehash(slots_.empty() ? 16 : slots_.size() * 2);
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.key == key) return {&s.value, false};
      if (s.key == kEmpty) {
        s.key = key;
        s.value = value;
        ++size_;
        return {&s.value, true};
      }
    }
  }

  // Inserts or overwrites.
  void set(Key key, Value value) { *try_emplace(key, value).first = value; }

  // Asks for the cache line where a lookup of `key` starts (a hint: nothing changes).
  void prefetch(Key key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(key)]);
  }

  // Forgets every entry, keeping the capacity.
  void clear() {
    if (size_ == 0) return;
    std::fill(slots_.begin(), slots_.end(), Slot{});
    size_ = 0;
  }

  // Every entry, in no particular order.
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_) {
      if (s.key != kEmpty) f(s.key, s.value);
    }
  }

 private:
  struct Slot {
    Key key = kEmpty;
    Value value{};
  };

  size_t home(Key key) const {
    return static_cast<size_t>((static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void rehash(size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (const Slot& s : old) {
      if (s.key != kEmpty) try_emplace(s.key, s.value);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0;
  unsigned shift_ = 64;
};

// A FlatMap keyed by one id kind.
template <ResolverId Key, class Value>
class IdMap {
 public:
  size_t size() const { return map_.size(); }
  size_t bytes() const { return map_.bytes(); }
  const Value* find(Key key) const { return map_.find(raw(key)); }
  std::pair<Value*, bool> try_emplace(Key key, Value value) {
    return map_.try_emplace(raw(key), value);
  }

 private:
  FlatMap<uint32_t, Value> map_;
};

// A FlatMap keyed by a pair of ids (packed first-high, as pack() does).
template <ResolverId First, ResolverId Second, class Value>
class PairMap {
 public:
  size_t size() const { return map_.size(); }
  size_t bytes() const { return map_.bytes(); }
  const Value* find(First a, Second b) const { return map_.find(pack(a, b)); }
  std::pair<Value*, bool> try_emplace(First a, Second b, Value value) {
    return map_.try_emplace(pack(a, b), value);
  }
  void set(First a, Second b, Value value) { map_.set(pack(a, b), value); }
  void prefetch(First a, Second b) const { map_.prefetch(pack(a, b)); }
  void clear() { map_.clear(); }
  void reserve(size_t expected) { map_.reserve(expected); }

 private:
  FlatMap<uint64_t, Value> map_;
};

}  // namespace anchorfs::analysis::python
