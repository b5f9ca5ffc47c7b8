// NameTable: the resolver's string interning, ids in first-seen order, in one flat array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "analysis/python/resolve_ids.h"

namespace anchorfs::analysis::python {

// Every string of every file is interned once while indexing (about half a million on sympy):
// a node-based map costs a bucket and a node per lookup, both cache misses. Here a slot holds
// the string's hash and its id, so a probe compares the text only when the hashes agree. Ids
// are given in the order strings are first seen, as the map gave them.
class NameTable {
 public:
  // The id of `s`, the next one when it is new. `s` must outlive the table.
  NameId intern(std::string_view s) {
    if ((by_id_.size() + 1) * 4 > slots_.size() * 3) grow();
    const uint64_t hash = std::hash<std::string_view>{}(s);
    for (size_t i = home(hash);; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.id == kEmpty) {
        slot = {hash, static_cast<uint32_t>(by_id_.size())};
        by_id_.push_back(s);
        return NameId{slot.id};
      }
      if (slot.hash == hash && by_id_[NameId{slot.id}] == s) return NameId{slot.id};
    }
  }

  size_t size() const { return by_id_.size(); }
  // The strings by id (the table keeps them after release()).
  const IdVector<NameId, std::string_view>& by_id() const { return by_id_; }
  // Drops the lookup slots once every string is interned.
  void release() { std::vector<Slot>().swap(slots_); }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    uint64_t hash = 0;
    uint32_t id = kEmpty;
  };

  size_t home(uint64_t hash) const {
    return static_cast<size_t>((hash * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void grow() {
    const size_t capacity = slots_.empty() ? 1024 : 2 * slots_.size();
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    for (const Slot& s : old) {
      if (s.id == kEmpty) continue;
      size_t i = home(s.hash);
      while (slots_[i].id != kEmpty) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  IdVector<NameId, std::string_view> by_id_;
};

}  // namespace anchorfs::analysis::python
