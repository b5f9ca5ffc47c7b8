// The resolver's sets of abstract values: sorted, capped at kMaxSet, held inline (no allocation).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "analysis/python/resolve_ids.h"

namespace anchorfs::analysis::python {

// Values per variable beyond which further ones are dropped (keeps rounds near-linear).
inline constexpr size_t kMaxSet = 16;

// Every set the resolver builds holds at most kMaxSet values (insert and unite enforce it), so
// a fixed inline array serves them all: evaluation allocates nothing. Entries past size() are
// left uninitialised (sets are made and copied constantly) and never read.
class ValueSet {
 public:
  ValueSet() = default;
  ValueSet(std::initializer_list<ValueId> values) {
    for (ValueId v : values) insert(v);
  }
  ValueSet(const ValueSet& other) : size_(other.size_) { copy_from(other.values_); }
  ValueSet& operator=(const ValueSet& other) {
    size_ = other.size_;
    copy_from(other.values_);
    return *this;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const ValueId* begin() const { return values_; }
  const ValueId* end() const { return values_ + size_; }
  ValueId operator[](size_t i) const { return values_[i]; }

  void clear() { size_ = 0; }
  // The first kMaxSet of `count` sorted values (ValueIds, or their numbers as VarSets packs them).
  template <class T>
  void assign(const T* first, size_t count) {
    size_ = static_cast<uint32_t>(std::min(count, kMaxSet));
    copy_from(first);
  }

  // Sets stay sorted and never grow beyond kMaxSet: a value set that large says nothing precise.
  void insert(ValueId v) {
    // Most sets are built in increasing order: appending needs no search.
    if (size_ == 0 || values_[size_ - 1] < v) {
      if (size_ >= kMaxSet) return;
      values_[size_++] = v;
      return;
    }
    ValueId* const end = values_ + size_;
    ValueId* const it = std::lower_bound(values_, end, v);
    if (it != end && *it == v) return;
    if (size_ >= kMaxSet) return;
    std::copy_backward(it, end, end + 1);
    *it = v;
    ++size_;
  }

  // Adds `src` one by one for up to two values (a full set keeps what it has), otherwise keeps
  // the smallest kMaxSet of the union. The two differ on which values survive the cap, and
  // those flow on: the resolver's results depend on keeping exactly this rule.
  void unite(const ValueSet& src) { unite(src.values_, src.size_); }
  // The same rule for `count` (at most kMaxSet) sorted values held elsewhere (ValueIds, or their
  // numbers as VarSets packs them): a variable's set is united without being copied out first.
  template <class T>
  void unite(const T* src, size_t count) {
    if (count == 0) return;
    if (size_ == 0) {
      assign(src, count);
      return;
    }
    if (count <= 2) {
      for (size_t i = 0; i < count; ++i) insert(static_cast<ValueId>(src[i]));
      return;
    }
    ValueId merged[kMaxSet];
    size_t n = 0;
    const ValueId *a = values_, *a_end = values_ + size_;
    const T *b = src, *b_end = src + count;
    while (n < kMaxSet && (a != a_end || b != b_end)) {
      const ValueId bv = b != b_end ? static_cast<ValueId>(*b) : ValueId{};
      if (b == b_end || (a != a_end && *a < bv)) {
        merged[n++] = *a++;
      } else if (a == a_end || bv < *a) {
        merged[n++] = bv;
        ++b;
      } else {
        merged[n++] = *a++;
        ++b;
      }
    }
    assign(merged, n);
  }

 private:
  // A plain loop: sets hold a few values, and a library copy would call memmove.
  template <class T>
  void copy_from(const T* src) {
    for (uint32_t i = 0; i < size_; ++i) values_[i] = static_cast<ValueId>(src[i]);
  }

  uint32_t size_ = 0;
  ValueId values_[kMaxSet];
};

}  // namespace anchorfs::analysis::python
