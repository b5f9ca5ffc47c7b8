// Python semantics the resolver models beyond plain calls: the iteration protocol, builtins
// that call their arguments (map, filter, key=), literal indexes and slices of containers, and
// literal keys of dict displays.
#include <algorithm>
#include <optional>
#include <utility>

#include "analysis/python/resolve_resolver.h"

namespace anchorfs::analysis::python::detail {

void Resolver::record_iteration(const Ctx& ctx, ScopeId cls, SiteId site) {
  const VarId var = class_attribute(cls, s_iter_);
  if (var == kNoVar) return;
  const Set methods = read(var);
  for (ValueId m : methods) {
    if (values_[m].kind != VK::Function) continue;
    record_call(ctx, values_[m].scope(), site);
    // A generator __iter__ returns a generator: its __next__ is Python's.
    if ((scopes_[values_[m].scope()].flags & kGenerator) != 0) continue;
    const Set iterators = returns_for(values_[m].scope(), values_.instance(cls), 0);
    for (ValueId it : iterators) {
      if (values_[it].kind != VK::Instance) continue;
      const VarId next = class_attribute(values_[it].scope(), s_next_);
      if (next == kNoVar) continue;
      const Set nexts = read(next);
      for (ValueId n : nexts) {
        if (values_[n].kind == VK::Function) record_call(ctx, values_[n].scope(), site);
      }
    }
  }
}

// Builtins passed as callbacks (`map(str, xs)`) are left alone: they are no repository code.
Set Resolver::call_callback(const Ctx& ctx, const Set& callables, const Set& argument, SiteId site,
                            int depth) {
  if (depth > kMaxEvalDepth) return {};
  Set functions;
  for (ValueId c : callables) {
    if (values_[c].kind != VK::Builtin) insert(functions, c);
  }
  if (functions.empty()) return {};
  const ArgFrame frame(args_);
  Args args(frame.storage());
  args.positional.push_back(argument);
  return call_values(ctx, functions, args, site, depth + 1);
}

// The `key=` callback of sorted, min, max and list.sort, called with each item.
void Resolver::call_key(const Ctx& ctx, const Args& args, const Set& items, SiteId site,
                        int depth) {
  for (const auto& [name, values] : args.keywords) {
    if (name == s_key_) call_callback(ctx, values, items, site, depth);
  }
}

// map(f, xs, ys, ...) calls f with one element of each iterable; its result yields what f
// returns.
void Resolver::call_map(const Ctx& ctx, const Args& outer, SiteId site, Set& out, int depth) {
  const auto& pos = outer.positional;
  if (pos.empty() || depth > kMaxEvalDepth) return;
  Set functions;
  for (ValueId c : pos[0]) {
    if (values_[c].kind != VK::Builtin) insert(functions, c);
  }
  if (functions.empty()) return;
  const ArgFrame frame(args_);
  Args args(frame.storage());
  for (size_t i = 1; i < pos.size(); ++i) {
    Set items;
    for (ValueId v : pos[i]) iterate(v, items, depth);
    args.positional.push_back(std::move(items));
  }
  args.open_positional = outer.open_positional;
  const Set results = call_values(ctx, functions, args, site, depth + 1);
  if (site == kNoSite) return;
  merge(heap_.elements_var(site), results);
  insert(out, values_.container(site));
}

// filter(f, xs) calls f with xs's elements and yields them; min/max(xs, key=f) and
// min/max(a, b, key=f) call the key with the items and return one of them.
void Resolver::call_filter_min_max(const Ctx& ctx, Builtin b, const Args& args, SiteId site,
                                   Set& out, int depth) {
  const auto& pos = args.positional;
  const bool filter = b == Builtin::Filter;
  if (filter ? pos.size() != 2 : pos.empty()) return;
  Set items;
  if (pos.size() == 1 || filter) {
    for (ValueId v : pos.back()) iterate(v, items, depth);
  } else {
    for (const Set& p : pos) unite(items, p);
  }
  if (!filter) {
    call_key(ctx, args, items, site, depth);
    unite(out, items);
    return;
  }
  call_callback(ctx, pos[0], items, site, depth);
  if (site == kNoSite) return;
  merge(heap_.elements_var(site), items);
  insert(out, values_.container(site));
}

// `ls.sort(key=f)` on a list the program built calls f with its elements.
void Resolver::sort_method(const Ctx& ctx, const Set& objects, const Args& args, SiteId site,
                           int depth) {
  Set items;
  for (ValueId o : objects) {
    if (values_[o].kind == VK::Container) read_into(items, heap_.elements_of(o));
  }
  if (!items.empty()) call_key(ctx, args, items, site, depth);
}

LiteralIndex Resolver::literal_index_of(FileId f, const Expr& subscript) const {
  if (subscript.str == kNone) return {};
  return parse_literal_index(strings_.by_id()[gs(f, subscript.str)]);
}

// The positions of a container site whose elements variable exists: a tuple/list literal's,
// or those of a slice with decimal bounds (see literal_subscript).
std::optional<Resolver::Positions> Resolver::positions_at(SiteId site) {
  const auto it = std::upper_bound(files_.begin(), files_.end(), raw(site),
                                   [](uint32_t s, const FileRec& r) { return s < r.expr_base; });
  if (it == files_.begin()) return std::nullopt;
  const FileId file{static_cast<uint32_t>(it - files_.begin() - 1)};
  const uint32_t local = raw(site) - files_[file].expr_base;
  if (local >= facts(file).exprs.size()) return std::nullopt;
  const Expr& x = facts(file).exprs[local];
  uint32_t count = 0;
  if (x.kind == ExprKind::Tuple) {
    count = x.list_count;
  } else if (x.kind == ExprKind::Subscript) {
    const LiteralIndex literal = literal_index_of(file, x);
    if (!literal.slice || !literal.hi || literal.unknown_bound) return std::nullopt;
    const uint32_t lo = literal.lo.value_or(0);
    if (*literal.hi <= lo) return std::nullopt;
    count = *literal.hi - lo;
  } else {
    return std::nullopt;
  }
  return Positions{Heap::positions_of(heap_.elements_var(site)), count};
}

// Elements a container holds beyond its literal positions (appended, stored under unknown
// keys): an indexed read may give any of them.
Set Resolver::unpositioned(SiteId site, const Positions& p) {
  Set out = read(heap_.elements_var(site));
  if (out.empty()) return out;
  Set positioned;
  for (uint32_t i = 0; i < p.count; ++i) read_into(positioned, Heap::position(p.base, i));
  Set rest;
  for (ValueId v : out) {
    if (std::find(positioned.begin(), positioned.end(), v) == positioned.end()) insert(rest, v);
  }
  return rest;
}

// `c[2]` reads one position of a literal (plus what was added without one); `c[1:3]` is a new
// container (a slice copies) holding the positions it covers, numbered from the slice's start.
void Resolver::literal_subscript(SiteId site, const LiteralIndex& literal, SiteId view_site,
                                 Set& out) {
  const auto positions = positions_at(site);
  if (!literal.slice) {
    if (!positions) {
      read_into(out, heap_.elements_var(site));
      return;
    }
    if (literal.index < positions->count) {
      read_into(out, Heap::position(positions->base, literal.index));
    }
    unite(out, unpositioned(site, *positions));
    return;
  }
  // The view's position variables follow its elements variable (see positions_of).
  if (!heap_.has_elements(view_site)) {
    const uint32_t count = [&] {
      const LiteralIndex& l = literal;
      if (!l.hi || l.unknown_bound || *l.hi <= l.lo.value_or(0)) return uint32_t{0};
      return *l.hi - l.lo.value_or(0);
    }();
    heap_.elements_var(view_site);
    for (uint32_t i = 0; i < count; ++i) new_var();
  }
  const VarId view = heap_.elements_var(view_site);
  if (!positions || literal.unknown_bound) {
    merge(view, read(heap_.elements_var(site)));
  } else {
    const uint32_t lo = std::min(literal.lo.value_or(0), positions->count);
    const uint32_t hi = std::min(literal.hi.value_or(positions->count), positions->count);
    for (uint32_t i = lo; i < hi; ++i) merge(view, read(Heap::position(positions->base, i)));
    merge(view, unpositioned(site, *positions));
    if (const auto mine = positions_at(view_site)) {
      for (uint32_t i = 0; i < mine->count && lo + i < hi; ++i) {
        merge(Heap::position(mine->base, i), read(Heap::position(positions->base, lo + i)));
      }
    }
  }
  insert(out, values_.container(view_site));
}

// `c[2] = v` also stores into that position of a literal.
void Resolver::store_literal_index(ValueId container, const LiteralIndex& literal, const Set& v) {
  const auto positions = positions_at(values_[container].site());
  if (positions && literal.index < positions->count) {
    merge(Heap::position(positions->base, literal.index), v);
  }
}

NameId Resolver::literal_key_of(FileId f, const Expr& subscript) const {
  if (subscript.str == kNone) return kNoName;
  const NameId key = gs(f, subscript.str);
  return strings_.by_id()[key].starts_with('\'') ? key : kNoName;
}

bool Resolver::is_dict_display(ValueId container) const {
  if (values_[container].kind != VK::Container) return false;
  const Expr* literal = container_literal(values_[container].site());
  return literal != nullptr && literal->kind == ExprKind::Container && literal->str != kNone;
}

void Resolver::create_display_keys(FileId f, const Expr& display, SiteId site) {
  for (uint32_t i = 0; i < display.list_count; i += 2) {
    const Expr& k = expr_at(f, list_item(f, display.list_begin + i));
    if (k.kind == ExprKind::Opaque && k.str != kNone) continue;  // a plain string: no value
    heap_.add_display_keys(site);
    return;
  }
}

// `d["k"]` reads what was stored under "k" and what was stored under no literal key (the
// update()s, setdefault()s and `d[name] = v` stores that could have used "k"), never what
// other literal keys hold.
void Resolver::keyed_subscript(ValueId container, NameId key, Set& out) {
  const SiteId site = values_[container].site();
  const Set all = read(heap_.elements_of(container));
  if (const VarId var = heap_.find_key_var(site, key); var != kNoVar) read_into(out, var);
  const std::vector<VarId>* keyed = heap_.key_vars(site);
  if (keyed == nullptr) {
    unite(out, all);
    return;
  }
  Set under_keys;
  for (const VarId var : *keyed) read_into(under_keys, var);
  for (ValueId v : all) {
    if (std::find(under_keys.begin(), under_keys.end(), v) == under_keys.end()) insert(out, v);
  }
}

}  // namespace anchorfs::analysis::python::detail
