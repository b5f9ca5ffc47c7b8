// Per statement, the variables its last evaluation read, packed in one pool; and the buffer the
// evaluation in progress lists them in.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "analysis/page_prefault.h"
#include "analysis/python/resolve_ids.h"
#include "analysis/radix_sort.h"

namespace anchorfs::analysis::python {

// The fixed point re-evaluates a statement only when a variable it read has changed, so every
// statement keeps its reads (~3 million on sympy): one pool instead of a vector each. A list
// that grows moves to the end of the pool; compact() reclaims the space moves leave behind.
class ReadLists {
 public:
  // `expected_reads` reserves address space only: pages the pool never reaches cost nothing,
  // and a pool that never reallocates never holds two copies of itself.
  ReadLists(size_t statements, size_t expected_reads) : lists_(statements, List{}) {
    pool_.reserve(expected_reads);
  }
  ReadLists() = default;

  size_t bytes() const { return pool_.size() * sizeof(VarId) + lists_.size() * sizeof(List); }
  // Has `prefault` fault in the pages the pool's first `reads` entries will take.
  void prefault(analysis::PagePrefaulter& prefault, size_t reads) const {
    prefault.add_reserved(pool_, reads);
  }

  // Replaces the list of `stmt` with `vars`.
  void store(StmtId stmt, std::span<const VarId> vars) {
    List& list = lists_[stmt];
    const auto size = static_cast<uint32_t>(vars.size());
    live_ = live_ - list.size + size;
    list.size = size;
    if (size > list.capacity) {
      // Appended, not resized and then overwritten: a resize would zero the space first.
      list.begin = static_cast<uint32_t>(pool_.size());
      list.capacity = size;
      pool_.insert(pool_.end(), vars.begin(), vars.end());
      return;
    }
    std::copy(vars.begin(), vars.end(), pool_.begin() + list.begin);
  }

  // Whether `pred` holds for some variable of the list of `stmt`.
  template <class Pred>
  bool any_of(StmtId stmt, Pred&& pred) const {
    const List& list = lists_[stmt];
    const VarId* const vars = pool_.data() + list.begin;
    for (uint32_t i = 0; i < list.size; ++i) {
      if (pred(vars[i])) return true;
    }
    return false;
  }

  // Whether the list of `stmt` is `vars`.
  bool equals(StmtId stmt, std::span<const VarId> vars) const {
    const List& list = lists_[stmt];
    return list.size == vars.size() &&
           std::equal(vars.begin(), vars.end(), pool_.begin() + list.begin);
  }

  class Snapshot;
  // Copies every list into `out` (two block copies: the pool as it lies, gaps and all).
  void copy_to(Snapshot& out) const;

  // Closes the gaps moved lists left behind, in place, once they are a third of the pool; the
  // space freed at the end is reused by the lists that move next.
  void compact() {
    if (pool_.size() < live_ + live_ / 2 + 4096) return;
    // (begin, statement) pairs: sorting plain integers is faster than sorting statements by a
    // field of their list, and radix-sorting them faster still.
    std::vector<uint64_t> by_begin;
    by_begin.reserve(lists_.size());
    for (const StmtId stmt : lists_.ids()) by_begin.push_back(pack(lists_[stmt].begin, raw(stmt)));
    radix_sort(by_begin);
    size_t end = 0;
    for (uint64_t entry : by_begin) {
      List& list = lists_[StmtId{static_cast<uint32_t>(entry)}];
      std::copy(pool_.begin() + list.begin, pool_.begin() + list.begin + list.size,
                pool_.begin() + static_cast<std::ptrdiff_t>(end));
      list.begin = static_cast<uint32_t>(end);
      list.capacity = list.size;
      end += list.size;
    }
    pool_.resize(end);
  }

 private:
  struct List {
    uint32_t begin = 0, size = 0, capacity = 0;  // into pool_
  };

  IdVector<StmtId, List> lists_;
  std::vector<VarId> pool_;
  size_t live_ = 0;  // entries of pool_ in lists
};

// The lists as they were between two rounds, for another thread to read while the rounds go on
// (ReaderIndex). The buffers are reserved (and their pages faulted in) before the rounds.
class ReadLists::Snapshot {
 public:
  void reserve(size_t statements, size_t reads) {
    lists_.reserve(statements);
    pool_.reserve(reads);
  }
  void prefault(analysis::PagePrefaulter& prefault, size_t statements, size_t reads) const {
    prefault.add_reserved(lists_, statements);
    prefault.add_reserved(pool_, reads);
  }
  // Calls `fn(statement, variable)` for every read of every list, by statement.
  template <class Fn>
  void for_each_read(Fn&& fn) const {
    for (uint32_t s = 0; s < lists_.size(); ++s) {
      const List& list = lists_[s];
      for (uint32_t i = 0; i < list.size; ++i) fn(s, pool_[list.begin + i]);
    }
  }
  void release() {
    std::vector<List>().swap(lists_);
    std::vector<VarId>().swap(pool_);
  }

 private:
  friend class ReadLists;
  std::vector<List> lists_;
  std::vector<VarId> pool_;
};

inline void ReadLists::copy_to(Snapshot& out) const {
  out.lists_.assign(lists_.begin(), lists_.end());
  out.pool_.assign(pool_.begin(), pool_.end());
}

// The variables read by the statement being evaluated (about ten million appends on sympy).
// Growing is out of line, so that an append inlines to a compare and a store: a vector's
// push_back carries its reallocation inline, and the registers it needs made every caller
// (Resolver::read above all) save and restore six of them.
class ReadBuffer {
 public:
  void push(VarId var) {
    if (size_ == vars_.size()) [[unlikely]] grow();
    vars_[size_++] = var;
  }
  void clear() { size_ = 0; }
  std::span<const VarId> view() const { return {vars_.data(), size_}; }
  void release() {
    std::vector<VarId>().swap(vars_);
    size_ = 0;
  }

 private:
  [[gnu::noinline, gnu::cold]] void grow() { vars_.resize(std::max<size_t>(64, 2 * vars_.size())); }

  std::vector<VarId> vars_;
  size_t size_ = 0;
};

}  // namespace anchorfs::analysis::python
