// Call sites: the arguments a call passes, the callees each site resolved to, and the edges.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/graph.h"
#include "analysis/page_prefault.h"
#include "analysis/python/resolve_ids.h"
#include "analysis/python/resolve_value_set.h"

namespace anchorfs::analysis::python::detail {

// A call site resolving to more repository functions than this is too ambiguous to report.
inline constexpr size_t kMaxCalleesPerSite = 16;

// The values a call passes. `positional` lives in storage reused per call nesting level (see
// ArgFrame), so evaluating a call allocates nothing.
struct Args {
  explicit Args(std::vector<ValueSet>& storage) : positional(storage) { positional.clear(); }
  std::vector<ValueSet>& positional;
  bool open_positional = false;  // a *args argument: later positions are unknown
  ValueSet starred;              // elements of *args arguments
  ValueSet double_starred;       // values of **kwargs arguments
  std::vector<std::pair<NameId, ValueSet>> keywords;
  // A call returned by a function with forwardable parameters (see
  // Resolver::find_param_returns): for the first kMaxForwarded positional arguments, the calling
  // function's parameter the argument passes on unchanged (kNotForwarded for none), valid when
  // `forwarding`.
  static constexpr size_t kMaxForwarded = 8;
  static constexpr uint8_t kNotForwarded = 0xff;
  bool forwarding = false;
  uint8_t forwarded[kMaxForwarded] = {};
};

// The positional storage of each call nesting level; the levels' storage never moves.
class ArgStack {
 public:
  void release() { levels_.clear(); }

 private:
  friend class ArgFrame;
  // A level deeper than any before: out of line, so that taking a frame (once per call
  // evaluated, millions on sympy) inlines to a compare and an index.
  [[gnu::noinline, gnu::cold]] void grow();
  std::vector<std::unique_ptr<std::vector<ValueSet>>> levels_;
  size_t depth_ = 0;
};

// The storage of one nesting level of calls being evaluated, taken for the frame's lifetime.
class ArgFrame {
 public:
  explicit ArgFrame(ArgStack& stack) : stack_(stack) {
    if (stack_.levels_.size() == stack_.depth_) [[unlikely]] stack_.grow();
    storage_ = stack_.levels_[stack_.depth_++].get();
  }
  ~ArgFrame() { --stack_.depth_; }
  ArgFrame(const ArgFrame&) = delete;
  ArgFrame& operator=(const ArgFrame&) = delete;
  std::vector<ValueSet>& storage() const { return *storage_; }

 private:
  ArgStack& stack_;
  std::vector<ValueSet>* storage_;
};

// The callees found for each call site. A site's callees are kept apart until the end, so that a
// site resolving to too many targets is dropped as too imprecise; calls without a site
// (decorators, wrappers) are plain edges.
class CallSites {
 public:
  // Most call sites resolve to something: one entry each.
  void reserve(size_t sites) { sites_.reserve(sites); }
  // Has `prefault` fault in the pages of the reserved sites.
  void prefault(analysis::PagePrefaulter& prefault) const {
    prefault.add_reserved(sites_, sites_.capacity());
  }

  void direct(EntityIndex caller, EntityIndex callee) { direct_.insert(pack(caller, callee)); }

  // `slot` is the call expression's own word: kNone until its first callee, then the site's
  // index here. Most sites reach one callee, kept inline; a second moves them to more_.
  void record(uint32_t& slot, EntityIndex caller, EntityIndex callee) {
    // Evaluated again, a site mostly finds the one callee it already has: that check inline,
    // the rest (growing the tables) out of line, so that it saves no registers.
    if (slot != UINT32_MAX && sites_[slot].more == UINT32_MAX && sites_[slot].callee == callee) {
      return;
    }
    record_new(slot, caller, callee);
  }

  // Every (caller, callee) pair packed, sorted and without repeats; frees the sites.
  std::vector<uint64_t> edges();

  // Debug trace only.
  size_t size() const { return sites_.size(); }
  size_t bytes() const { return sites_.capacity() * sizeof(Site); }
  size_t more_bytes() const;

 private:
  // record() past its common case: a site's first callee, or another one.
  [[gnu::noinline]] void record_new(uint32_t& slot, EntityIndex caller, EntityIndex callee) {
    if (slot == UINT32_MAX) {
      slot = static_cast<uint32_t>(sites_.size());
      sites_.push_back({caller, callee, UINT32_MAX});
      return;
    }
    Site& site = sites_[slot];
    if (site.more == UINT32_MAX) {
      if (site.callee == callee) return;
      site.more = static_cast<uint32_t>(more_.size());
      more_.push_back({std::min(site.callee, callee), std::max(site.callee, callee)});
      return;
    }
    std::vector<EntityIndex>& callees = more_[site.more];
    const auto it = std::lower_bound(callees.begin(), callees.end(), callee);
    if (it == callees.end() || *it != callee) callees.insert(it, callee);
  }

  struct Site {
    EntityIndex caller = kNoEntity;
    EntityIndex callee = kNoEntity;  // the first callee, while `more` is none
    uint32_t more = UINT32_MAX;      // index into more_
  };
  std::vector<Site> sites_;
  std::vector<std::vector<EntityIndex>> more_;  // sorted
  std::unordered_set<uint64_t> direct_;
};

}  // namespace anchorfs::analysis::python::detail
