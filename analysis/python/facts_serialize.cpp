// Binary (de)serialization of Python FileFacts for the fact cache: varints, length-prefixed strings;
// expression and statement references as (zigzag) deltas, since most point close by.
#include "analysis/byte_codec.h"
#include "analysis/python/facts.h"

namespace anchorfs::analysis::python {
namespace {

constexpr char kMagic[4] = {'A', 'F', 'F', 'X'};

// The shared varint codec plus the delta forms facts use for references.
class Writer : public ByteWriter {
 public:
  // A signed difference, small either way: zigzag-encoded.
  void delta(uint64_t value, uint64_t base) {
    const auto d = static_cast<int64_t>(value - base);
    u64((static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63));
  }
};

class Reader : public ByteReader {
 public:
  using ByteReader::ByteReader;
  // base + (or, for delta_below, base -) the difference Writer::delta wrote; the value must be
  // a reference, not kNone.
  uint32_t delta(uint64_t base) { return reference(base + signed_difference()); }
  uint32_t delta_below(uint64_t base) { return reference(base - signed_difference()); }
  // A reference that was written because it is present: never kNone.
  uint32_t present() { return reference(u64()); }

 private:
  uint64_t signed_difference() {
    const uint64_t z = u64();
    return (z >> 1) ^ (~(z & 1) + 1);
  }
  uint32_t reference(uint64_t v) {
    if (v >= UINT32_MAX) return static_cast<uint32_t>(fail());
    return static_cast<uint32_t>(v);
  }
};

bool in_range(uint32_t index, size_t size) {
  return index < size;
}
bool ref_in_range(uint32_t index, size_t size) {
  return index == kNone || index < size;
}
bool range_in(uint32_t begin, uint32_t count, size_t size) {
  return uint64_t{begin} + count <= size;
}

template <typename Enum>
bool enum_at_most(Enum value, Enum last) {
  return static_cast<uint8_t>(value) <= static_cast<uint8_t>(last);
}

// An expression's `a` is a scope id for these kinds, an earlier expression's id otherwise.
bool a_is_scope(ExprKind k) {
  return k == ExprKind::Definition || k == ExprKind::ScopedName;
}

// A statement's `a` and `b` that are expression ids (the others are scope or string ids).
bool a_is_expr(StmtKind k) {
  return k == StmtKind::Assign;
}
bool b_is_expr(StmtKind k) {
  return k == StmtKind::Assign || k == StmtKind::Return || k == StmtKind::Yield ||
         k == StmtKind::Evaluate;
}

// Header bits after the 4-bit kind: which optional references follow.
constexpr uint64_t kHasA = 1 << 4, kHasStr = 1 << 5, kHasB = 1 << 6;
constexpr int kExprCountShift = 6;  // an expression header holds its list count above the bits

}  // namespace

std::string serialize_facts(const FileFacts& f) {
  Writer w;
  w.raw(std::string_view(kMagic, sizeof kMagic));
  w.u64(kFactsVersion);
  w.u64(f.parsed_cleanly);
  w.u64(f.error_regions);
  w.u64(f.has_file_anchor);
  w.u64(f.file_anchor);
  w.str(f.newline);
  w.u64(f.ascii_tags);
  w.u64(f.lines);
  w.u64(f.has_all);
  w.u64(f.all_names.size());
  for (uint32_t s : f.all_names) w.u64(s);
  w.u64(f.strings.size());
  for (const std::string& s : f.strings) w.str(s);
  w.u64(f.scopes.size());
  for (const Scope& s : f.scopes) {
    w.u64(static_cast<uint8_t>(s.kind));
    w.u64(s.flags);
    w.u64(s.has_anchor);
    w.ref(s.parent);
    w.ref(s.name);
    w.u64(s.line);
    w.u64(s.anchor_offset);
    w.ref(s.anchor_indent);
    w.u64(s.params_begin);
    w.u64(s.params_count);
    w.u64(s.decorators_begin);
    w.u64(s.decorators_count);
    w.u64(s.bases_begin);
    w.u64(s.bases_count);
  }
  w.u64(f.params.size());
  for (const Param& p : f.params) {
    w.ref(p.name);
    w.u64(static_cast<uint8_t>(p.kind));
  }
  // An expression's operand is usually just before it, and its list starts where the previous
  // expression's ended.
  w.u64(f.exprs.size());
  uint64_t next_list = 0;
  for (uint32_t i = 0; i < f.exprs.size(); ++i) {
    const Expr& e = f.exprs[i];
    w.u64(static_cast<uint8_t>(e.kind) | (e.a != kNone ? kHasA : 0) |
          (e.str != kNone ? kHasStr : 0) | (uint64_t{e.list_count} << kExprCountShift));
    if (e.a != kNone) {
      if (a_is_scope(e.kind)) {
        w.u64(e.a);
      } else {
        w.delta(i, e.a);
      }
    }
    if (e.str != kNone) w.u64(e.str);
    w.delta(e.list_begin, next_list);
    next_list = uint64_t{e.list_begin} + e.list_count;
  }
  w.u64(f.lists.size());
  uint32_t previous = 0;
  for (uint32_t v : f.lists) {
    w.delta(v, previous);
    previous = v;
  }
  // Consecutive statements share their scope and refer to nearby expressions.
  w.u64(f.stmts.size());
  uint32_t scope = 0, expr = 0;
  for (const Stmt& s : f.stmts) {
    w.u64(static_cast<uint8_t>(s.kind) | (s.a != kNone ? kHasA : 0) |
          (s.str != kNone ? kHasStr : 0) | (s.b != kNone ? kHasB : 0));
    w.delta(s.scope, scope);
    scope = s.scope;
    const auto reference = [&](uint32_t value, bool is_expr) {
      if (value == kNone) return;
      if (is_expr) {
        w.delta(value, expr);
        expr = value;
      } else {
        w.u64(value);
      }
    };
    reference(s.a, a_is_expr(s.kind));
    reference(s.b, b_is_expr(s.kind));
    if (s.str != kNone) w.u64(s.str);
  }
  w.u64(f.dense_extracted);
  w.u64(f.dense.size());
  for (const DenseFact& d : f.dense) {
    w.u64(static_cast<uint8_t>(d.kind));
    w.u64(d.scope);
    w.ref(d.path);
    w.ref(d.key);
  }
  return w.take();
}

std::optional<FileFacts> deserialize_facts(std::string_view bytes) {
  Reader r(bytes);
  if (!r.expect(std::string_view(kMagic, sizeof kMagic))) return std::nullopt;
  if (r.u64() != kFactsVersion || !r.ok()) return std::nullopt;
  FileFacts f;
  f.parsed_cleanly = r.boolean();
  f.error_regions = r.u32();
  f.has_file_anchor = r.boolean();
  f.file_anchor = r.u64();
  f.newline = r.str();
  f.ascii_tags = r.boolean();
  f.lines = r.u32();
  f.has_all = r.boolean();
  f.all_names.resize(r.count());
  for (uint32_t& s : f.all_names) s = r.u32();
  f.strings.resize(r.count());
  for (std::string& s : f.strings) s = r.str();
  f.scopes.resize(r.count());
  for (Scope& s : f.scopes) {
    s.kind = static_cast<ScopeKind>(r.u8());
    s.flags = r.u8();
    s.has_anchor = r.boolean();
    s.parent = r.ref();
    s.name = r.ref();
    s.line = r.u32();
    s.anchor_offset = r.u64();
    s.anchor_indent = r.ref();
    s.params_begin = r.u32();
    s.params_count = r.u32();
    s.decorators_begin = r.u32();
    s.decorators_count = r.u32();
    s.bases_begin = r.u32();
    s.bases_count = r.u32();
  }
  f.params.resize(r.count());
  for (Param& p : f.params) {
    p.name = r.ref();
    p.kind = static_cast<ParamKind>(r.u8());
  }
  f.exprs.resize(r.count());
  uint64_t next_list = 0;
  for (uint32_t i = 0; i < f.exprs.size() && r.ok(); ++i) {
    Expr& e = f.exprs[i];
    const uint64_t header = r.u64();
    e.kind = static_cast<ExprKind>(header & 0xf);
    if ((header >> kExprCountShift) > UINT32_MAX) return std::nullopt;
    e.list_count = static_cast<uint32_t>(header >> kExprCountShift);
    if ((header & kHasA) != 0) e.a = a_is_scope(e.kind) ? r.present() : r.delta_below(i);
    if ((header & kHasStr) != 0) e.str = r.present();
    e.list_begin = r.delta(next_list);
    next_list = uint64_t{e.list_begin} + e.list_count;
  }
  f.lists.resize(r.count());
  uint32_t previous = 0;
  for (uint32_t& v : f.lists) previous = v = r.delta(previous);
  f.stmts.resize(r.count());
  uint32_t scope = 0, expr = 0;
  for (Stmt& s : f.stmts) {
    const uint64_t header = r.u64();
    if (header >= 0x80) return std::nullopt;
    s.kind = static_cast<StmtKind>(header & 0xf);
    s.scope = scope = r.delta(scope);
    if ((header & kHasA) != 0) s.a = a_is_expr(s.kind) ? (expr = r.delta(expr)) : r.present();
    if ((header & kHasB) != 0) s.b = b_is_expr(s.kind) ? (expr = r.delta(expr)) : r.present();
    if ((header & kHasStr) != 0) s.str = r.present();
  }
  f.dense_extracted = r.boolean();
  f.dense.resize(r.count());
  for (DenseFact& d : f.dense) {
    d.kind = static_cast<DenseKind>(r.u8());
    d.scope = r.u32();
    d.path = r.ref();
    d.key = r.ref();
  }
  if (!r.ok() || !r.at_end() || !facts_are_consistent(f)) return std::nullopt;
  return f;
}

bool facts_are_consistent(const FileFacts& f) {
  const size_t nstr = f.strings.size(), nexpr = f.exprs.size(), nscope = f.scopes.size();
  if (nscope == 0 || f.scopes[0].kind != ScopeKind::Module || f.scopes[0].parent != kNone) {
    return false;
  }
  for (uint32_t s : f.all_names) {
    if (!in_range(s, nstr)) return false;
  }
  for (size_t i = 0; i < nscope; ++i) {
    const Scope& s = f.scopes[i];
    if (!enum_at_most(s.kind, ScopeKind::Lambda)) return false;
    if (i > 0 && (s.kind == ScopeKind::Module || s.parent >= i || !in_range(s.name, nstr))) {
      return false;
    }
    if (!ref_in_range(s.anchor_indent, nstr) || (s.has_anchor && s.anchor_indent == kNone)) {
      return false;
    }
    if (!range_in(s.params_begin, s.params_count, f.params.size()) ||
        !range_in(s.decorators_begin, s.decorators_count, f.lists.size()) ||
        !range_in(s.bases_begin, s.bases_count, f.lists.size())) {
      return false;
    }
  }
  for (const Param& p : f.params) {
    if (!in_range(p.name, nstr) || !enum_at_most(p.kind, ParamKind::VarKeyword)) return false;
  }
  for (uint32_t v : f.lists) {
    if (!in_range(v, nexpr)) return false;
  }
  // Sub-expressions precede their parents (extraction emits them first): evaluation can never
  // loop, and recursion depth is bounded by the extractor's nesting limit.
  for (size_t i = 0; i < nexpr; ++i) {
    const Expr& e = f.exprs[i];
    if (!enum_at_most(e.kind, ExprKind::ScopedName)) return false;
    if (!ref_in_range(e.str, nstr) || !range_in(e.list_begin, e.list_count, f.lists.size())) {
      return false;
    }
    const bool a_is_scope = e.kind == ExprKind::Definition || e.kind == ExprKind::ScopedName;
    if (a_is_scope ? !ref_in_range(e.a, nscope) : (e.a != kNone && e.a >= i)) return false;
    for (uint32_t k = 0; k < e.list_count; ++k) {
      if (f.lists[e.list_begin + k] >= i) return false;
    }
    const bool needs_str = e.kind == ExprKind::Name || e.kind == ExprKind::Attribute ||
                           e.kind == ExprKind::Keyword || e.kind == ExprKind::ScopedName;
    if (needs_str && e.str == kNone) return false;
    if (a_is_scope && e.a == kNone) return false;
  }
  for (const Stmt& s : f.stmts) {
    if (!enum_at_most(s.kind, StmtKind::Nonlocal) || !in_range(s.scope, nscope)) return false;
    if (!ref_in_range(s.str, nstr)) return false;
    switch (s.kind) {
      case StmtKind::Assign:
        if (!in_range(s.a, nexpr) || !in_range(s.b, nexpr)) return false;
        break;
      case StmtKind::Return:
      case StmtKind::Yield:
      case StmtKind::Evaluate:
        if (!in_range(s.b, nexpr)) return false;
        break;
      case StmtKind::Define:
        if (!in_range(s.a, nscope) || s.a == 0) return false;
        break;
      case StmtKind::ImportModule:
        if (!in_range(s.a, nstr) || !in_range(s.str, nstr)) return false;
        break;
      case StmtKind::ImportFrom:
        if (!in_range(s.a, nstr) || !in_range(s.b, nstr) || !in_range(s.str, nstr)) return false;
        break;
      case StmtKind::ImportStar:
        if (!in_range(s.a, nstr)) return false;
        break;
      case StmtKind::Global:
      case StmtKind::Nonlocal:
        if (!in_range(s.str, nstr)) return false;
        break;
    }
  }
  for (const DenseFact& d : f.dense) {
    if (!enum_at_most(d.kind, DenseKind::Decorator) || !in_range(d.scope, nscope) ||
        !in_range(d.path, nstr) || !ref_in_range(d.key, nstr)) {
      return false;
    }
  }
  return true;
}

}  // namespace anchorfs::analysis::python
