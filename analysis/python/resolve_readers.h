// ReaderIndex: the late rounds' reverse read index (per variable, the statements that read it),
// built on a helper thread beside one round, and the statements a round has left to visit.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "analysis/page_prefault.h"
#include "analysis/python/resolve_ids.h"
#include "analysis/python/resolve_read_lists.h"

namespace anchorfs::analysis::python {

// After the first rounds few statements are stale (sympy: 25 k of 379 k in round 4, about a
// hundred in round 11), yet finding them scanned every statement's reads, ~10 ms a round. Once
// built, the index lets a round visit only statements one of whose reads changed: each change
// marks the variable's readers, and a round takes marked statements in order, each then given
// the same staleness test as before, so the statements evaluated, their order and the output are
// those of the scan.
//
// Built from a copy of the read lists taken between two rounds (ReadLists::Snapshot), on the
// thread that joins after the next round; meanwhile, and after, a statement whose reads differ
// from its last list is indexed under every variable it read now (side lists). Entries are never
// removed, so a variable's readers are a superset of the statements whose current list holds it:
// a stale entry only costs a visit the test then turns down. Session 13 measured both halves
// built on the resolver's own thread (docs/benchmarks.md, "Session 13: Python cold"): exact, but
// the build and its fresh pages paid back what the late rounds saved.
class ReaderIndex {
 public:
  // Builds the index of `lists` (a snapshot of statements [0, statements), variables
  // [0, vars)): each variable's readers contiguous. On the helper thread; the resolver reads
  // nothing of it until the thread is joined.
  void build(const ReadLists::Snapshot& lists, size_t statements, size_t vars) {
    offsets_.assign(vars + 1, 0);
    lists.for_each_read([&](uint32_t /*stmt*/, VarId var) { ++offsets_[raw(var) + 1]; });
    for (size_t v = 0; v < vars; ++v) offsets_[v + 1] += offsets_[v];
    readers_.resize(offsets_[vars]);
    std::vector<uint32_t> next(offsets_.begin(), offsets_.end() - 1);
    lists.for_each_read([&](uint32_t stmt, VarId var) { readers_[next[raw(var)]++] = stmt; });
    pending_.assign(statements / 64 + 1, 0);
  }

  // `stmt`, evaluated after the snapshot, read `vars` (a list unlike its last one). Out of line:
  // it is rare, and inlined it would cost every evaluation's store registers.
  [[gnu::noinline]] void add(StmtId stmt, std::span<const VarId> vars) {
    for (const VarId var : vars) {
      const uint32_t v = raw(var);
      if (v >= head_.size()) head_.resize(size_t{v} + v / 2 + 64, kEnd);
      nodes_.push_back({raw(stmt), head_[v]});
      head_[v] = static_cast<uint32_t>(nodes_.size() - 1);
    }
  }

  bool active() const { return active_; }
  // From here on rounds visit marked statements only: marks the readers of `changed` (the
  // variables changed since the snapshot's round began, which the index does not queue), and
  // queues every later change.
  template <class ForEachChanged>
  void activate(ForEachChanged&& changed) {
    active_ = true;
    changed([&](VarId var) { mark_readers(raw(var)); });
  }

  // `var` changed: its readers are marked at the next mark_changed_readers().
  void changed(VarId var) {
    if (active_) [[unlikely]]
      queue(var);
  }

  // Marks the readers of every variable changed since the last call.
  void mark_changed_readers() {
    for (const VarId var : changes_) {
      const uint32_t v = raw(var);
      queued_[v / 64] &= ~(uint64_t{1} << (v % 64));
      mark_readers(v);
    }
    changes_.clear();
  }

  // The first marked statement in [from, end), unmarked; `end` when there is none.
  uint32_t take_next(uint32_t from, uint32_t end) {
    if (from >= end) return end;
    uint32_t w = from / 64;
    uint64_t word = pending_[w] & (~uint64_t{0} << (from % 64));
    while (word == 0) {
      if (++w * 64 >= end) return end;
      word = pending_[w];
    }
    const uint32_t s = w * 64 + static_cast<uint32_t>(std::countr_zero(word));
    if (s >= end) return end;
    pending_[w] &= ~(uint64_t{1} << (s % 64));
    return s;
  }

  size_t bytes() const {
    return (offsets_.capacity() + readers_.capacity() + head_.capacity()) * sizeof(uint32_t) +
           nodes_.capacity() * sizeof(Node) +
           (queued_.capacity() + pending_.capacity()) * sizeof(uint64_t) +
           changes_.capacity() * sizeof(VarId);
  }

 private:
  static constexpr uint32_t kEnd = UINT32_MAX;
  struct Node {
    uint32_t stmt, next;
  };

  // Out of line: before activation (most changes) a change costs the test above only.
  [[gnu::noinline]] void queue(VarId var) {
    const uint32_t v = raw(var);
    if (v / 64 >= queued_.size()) queued_.resize(size_t{v / 64} + v / 128 + 16, 0);
    uint64_t& word = queued_[v / 64];
    const uint64_t bit = uint64_t{1} << (v % 64);
    if ((word & bit) != 0) return;
    word |= bit;
    changes_.push_back(var);
  }
  void mark(uint32_t stmt) { pending_[stmt / 64] |= uint64_t{1} << (stmt % 64); }
  void mark_readers(uint32_t v) {
    if (size_t{v} + 1 < offsets_.size()) {
      for (uint32_t i = offsets_[v]; i < offsets_[v + 1]; ++i) mark(readers_[i]);
    }
    if (v >= head_.size()) return;
    for (uint32_t n = head_[v]; n != kEnd; n = nodes_[n].next) mark(nodes_[n].stmt);
  }

  std::vector<uint32_t> offsets_;  // per variable, its readers' range in readers_ (build())
  std::vector<uint32_t> readers_;  // statements, grouped by variable
  std::vector<uint32_t> head_;     // per variable, its latest side node (kEnd: none)
  std::vector<Node> nodes_;        // side lists, newest first
  std::vector<uint64_t> queued_;   // per variable: in changes_
  std::vector<VarId> changes_;     // changed since the last mark_changed_readers()
  std::vector<uint64_t> pending_;  // per statement: to be visited
  bool active_ = false;
};

}  // namespace anchorfs::analysis::python
