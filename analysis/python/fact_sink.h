// Where the Python extractor emits expressions, lists, statements and strings: reusable
// per-thread buffers, effect tracking, and roll-back of sub-expressions that cannot matter.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/facts.h"

namespace anchorfs::analysis::python {

// Buffers are reused from file to file, but one grown by a huge file is given back rather
// than held for the thread's lifetime.
inline constexpr size_t kRetainedBufferBytes = size_t{4} << 20;

template <typename T>
void clear_buffer(std::vector<T>& v) {
  if (v.capacity() * sizeof(T) > kRetainedBufferBytes) {
    std::vector<T>().swap(v);
  } else {
    v.clear();
  }
}

// An append-only list of distinct keys with a hash index: find_or_add allocates nothing once
// warm, and the most recent additions can be undone exactly (removing linear-probing entries
// in reverse insertion order restores the table, unless it was rehashed meanwhile).
// Keys are hashed with std::hash, except integers: their identity hash would put keys that
// differ only in high bits into one probe run.
template <typename Key>
struct IndexHash {
  size_t operator()(const Key& key) const { return std::hash<Key>{}(key); }
};
template <>
struct IndexHash<uint64_t> {
  size_t operator()(uint64_t key) const { return (key * 0x9E3779B97F4A7C15ull) >> 20; }
};

template <typename Key>
class UndoableIndex {
 public:
  void clear() {
    clear_buffer(keys_);
    if (slots_.size() * sizeof(uint32_t) > kRetainedBufferBytes) {
      std::vector<uint32_t>().swap(slots_);  // grow() starts it afresh
    } else {
      std::fill(slots_.begin(), slots_.end(), kNone);
    }
    ++generation_;
  }

  uint32_t size() const { return static_cast<uint32_t>(keys_.size()); }
  const Key& at(uint32_t i) const { return keys_[i]; }
  uint64_t generation() const { return generation_; }

  // The index of `key`, added last when new (`added` tells).
  uint32_t find_or_add(const Key& key, bool& added) {
    if (2 * (keys_.size() + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = IndexHash<Key>{}(key)&mask;; i = (i + 1) & mask) {
      const uint32_t at = slots_[i];
      if (at == kNone) {
        slots_[i] = size();
        keys_.push_back(key);
        added = true;
        return slots_[i];
      }
      if (keys_[at] == key) {
        added = false;
        return at;
      }
    }
  }

  // Swaps the last key for an equal one (same hash, same slot): a view for a stable copy.
  void replace_last(const Key& key) { keys_.back() = key; }

  // Forgets every key added after the first `count`; `generation` is what generation() said
  // when there were `count`.
  void truncate(uint32_t count, uint64_t generation) {
    if (count >= size()) return;
    if (generation != generation_) {
      keys_.resize(count);
      std::fill(slots_.begin(), slots_.end(), kNone);
      ++generation_;
      place_all();
      return;
    }
    const size_t mask = slots_.size() - 1;
    for (uint32_t at = size(); at-- > count;) {
      size_t i = IndexHash<Key>{}(keys_[at]) & mask;
      while (slots_[i] != at) i = (i + 1) & mask;
      slots_[i] = kNone;
    }
    keys_.resize(count);
  }

 private:
  void grow() {
    slots_.assign(slots_.empty() ? 1024 : slots_.size() * 2, kNone);
    ++generation_;
    place_all();
  }

  void place_all() {
    const size_t mask = slots_.size() - 1;
    for (uint32_t at = 0; at < size(); ++at) {
      size_t i = IndexHash<Key>{}(keys_[at]) & mask;
      while (slots_[i] != kNone) i = (i + 1) & mask;
      slots_[i] = at;
    }
  }

  std::vector<Key> keys_;
  std::vector<uint32_t> slots_;  // indices into keys_; power-of-two size, at most half full
  uint64_t generation_ = 0;
};

// Interned strings, held as views: into the source text, or into owned copies of built names.
class StringTable {
 public:
  void clear() {
    index_.clear();
    owned_.clear();
  }
  uint32_t size() const { return index_.size(); }
  uint64_t generation() const { return index_.generation(); }

  // `s` must outlive the table (a view into the source text) unless `copy`.
  uint32_t intern(std::string_view s, bool copy = false) {
    bool added = false;
    const uint32_t id = index_.find_or_add(s, added);
    if (added && copy) index_.replace_last(owned_.emplace_back(s));
    return id;
  }

  void truncate(uint32_t count, uint64_t generation) { index_.truncate(count, generation); }

  void copy_to(std::vector<std::string>& out) const {
    out.clear();
    out.reserve(size());
    for (uint32_t i = 0; i < size(); ++i) out.emplace_back(index_.at(i));
  }

 private:
  UndoableIndex<std::string_view> index_;
  std::deque<std::string> owned_;  // stable addresses; kept until clear()
};

// The growing parts of one file's facts. Buffers are reused from file to file by one thread,
// and copied out exactly sized: the facts of every file stay in memory during resolution.
class FactSink {
 public:
  // Everything emitted so far, for roll_back.
  struct Mark {
    size_t exprs, lists, stmts, scopes, strings, names;
    uint64_t string_generation, name_generation;
  };

  void clear() {
    clear_buffer(exprs_);
    clear_buffer(effects_);
    clear_buffer(lists_);
    clear_buffer(stmts_);
    clear_buffer(items_);
    strings_.clear();
    names_.clear();
    clear_buffer(name_exprs_);
    empty_opaque_ = kNone;
  }

  StringTable& strings() { return strings_; }
  std::vector<Stmt>& stmts() { return stmts_; }
  const Expr& expr(uint32_t e) const { return exprs_[e]; }
  size_t list_size() const { return lists_.size(); }

  // Whether evaluating e can matter beyond its own value: a call or a lambda somewhere in it.
  bool has_effects(uint32_t e) const { return effects_[e] != 0; }

  // List items are gathered on a stack, so nested expressions need no vectors of their own:
  // items_mark() before gathering, then push_item() each and pass the mark to add_expr.
  size_t items_mark() const { return items_.size(); }
  void push_item(uint32_t e) { items_.push_back(e); }
  size_t items_since(size_t mark) const { return items_.size() - mark; }
  uint32_t item(size_t index) const { return items_[index]; }
  void pop_items(size_t count) { items_.resize(items_.size() - count); }

  uint32_t add_list(size_t items_mark) {
    const auto begin = static_cast<uint32_t>(lists_.size());
    lists_.insert(lists_.end(), items_.begin() + static_cast<std::ptrdiff_t>(items_mark),
                  items_.end());
    items_.resize(items_mark);
    return begin;
  }

  // An expression whose list is the items gathered since `items_mark` (none by default).
  uint32_t add_expr(ExprKind k, uint32_t a = kNone, uint32_t str = kNone,
                    size_t items_mark = SIZE_MAX) {
    if (items_mark == SIZE_MAX) items_mark = items_.size();
    const size_t count = items_.size() - items_mark;
    // Literals and other value-less leaves all share one expression.
    const bool empty_opaque = k == ExprKind::Opaque && a == kNone && str == kNone && count == 0;
    if (empty_opaque && empty_opaque_ != kNone) return empty_opaque_;
    bool effects = k == ExprKind::Call || k == ExprKind::Definition;
    const bool a_is_expr = k != ExprKind::Definition && k != ExprKind::ScopedName;
    if (a_is_expr && a != kNone) effects = effects || effects_[a] != 0;
    for (size_t i = items_mark; i < items_.size() && !effects; ++i) effects = effects_[items_[i]];
    Expr e;
    e.kind = k;
    e.a = a;
    e.str = str;
    e.list_count = static_cast<uint32_t>(count);
    e.list_begin = add_list(items_mark);
    const auto id = static_cast<uint32_t>(exprs_.size());
    exprs_.push_back(e);
    effects_.push_back(effects ? 1 : 0);
    if (empty_opaque) empty_opaque_ = id;
    return id;
  }

  // A read or store of `str` in `scope`. Every occurrence in one scope is the same expression:
  // a name's meaning depends only on the scope it is evaluated in.
  uint32_t add_name(uint32_t scope, uint32_t str) {
    bool added = false;
    const uint32_t at = names_.find_or_add((uint64_t{scope} << 32) | str, added);
    if (!added) return name_exprs_[at];
    name_exprs_.push_back(add_expr(ExprKind::Name, kNone, str));
    return name_exprs_.back();
  }

  void add_stmt(StmtKind k, uint32_t scope, uint32_t a, uint32_t b, uint32_t str = kNone) {
    stmts_.push_back({k, scope, a, b, str});
  }

  Mark mark(size_t scopes) const {
    return {exprs_.size(),   lists_.size(), stmts_.size(),         scopes,
            strings_.size(), names_.size(), strings_.generation(), names_.generation()};
  }

  // True when nothing but expressions (and strings) was emitted since `m`: no statement and
  // no scope refers to what came after it, so it can be dropped.
  bool only_expressions_since(const Mark& m, size_t scopes) const {
    return stmts_.size() == m.stmts && scopes == m.scopes;
  }

  // Moves the items of opaque expression `e` onto the item stack and drops `e`, when it is the
  // last expression and list emitted and no statement since `m` refers to it: an opaque operand
  // of an opaque expression only adds its items (evaluated for their effects either way), and
  // chains like `a*f(x) + b*g(y) + ...` would otherwise cost an expression per operator.
  bool splice_opaque(uint32_t e, const Mark& m) {
    const Expr x = exprs_[e];
    if (x.kind != ExprKind::Opaque || e + 1 != exprs_.size() ||
        uint64_t{x.list_begin} + x.list_count != lists_.size()) {
      return false;
    }
    for (size_t i = m.stmts; i < stmts_.size(); ++i) {
      if (stmts_[i].a == e || stmts_[i].b == e) return false;
    }
    items_.insert(items_.end(), lists_.begin() + x.list_begin, lists_.end());
    lists_.resize(x.list_begin);
    exprs_.pop_back();
    effects_.pop_back();
    return true;
  }

  void roll_back(const Mark& m) {
    exprs_.resize(m.exprs);
    effects_.resize(m.exprs);
    lists_.resize(m.lists);
    strings_.truncate(static_cast<uint32_t>(m.strings), m.string_generation);
    names_.truncate(static_cast<uint32_t>(m.names), m.name_generation);
    name_exprs_.resize(m.names);
    if (empty_opaque_ != kNone && empty_opaque_ >= m.exprs) empty_opaque_ = kNone;
  }

  // Copies everything into `f`, each vector exactly sized.
  void copy_to(FileFacts& f) const {
    f.exprs.assign(exprs_.begin(), exprs_.end());
    f.lists.assign(lists_.begin(), lists_.end());
    f.stmts.assign(stmts_.begin(), stmts_.end());
    strings_.copy_to(f.strings);
  }

 private:
  std::vector<Expr> exprs_;
  std::vector<uint8_t> effects_;  // per expression: has_effects
  std::vector<uint32_t> lists_;
  std::vector<Stmt> stmts_;
  std::vector<uint32_t> items_;
  StringTable strings_;
  UndoableIndex<uint64_t> names_;     // (scope, string id) of each shared Name expression
  std::vector<uint32_t> name_exprs_;  // its expression, indexed like names_
  uint32_t empty_opaque_ = kNone;
};

}  // namespace anchorfs::analysis::python
