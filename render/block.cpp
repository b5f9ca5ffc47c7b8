// Tag block layout: paper (delimiters, name line, fields) or lean (header line, fields); values
// ranked by how much they tell before the cap.
#include "render/block.h"

#include <algorithm>
#include <bit>
#include <string>
#include <tuple>

#include "render/delimiter.h"
#include "render/sanitize.h"

namespace anchorfs::render {

using analysis::EntityIndex;
using analysis::EntityKind;
using analysis::Relation;

void LinkCounters::add(const LinkCounters& other) {
  links += other.links;
  shown += other.shown;
  capped_fields += other.capped_fields;
  hub_shown += other.hub_shown;
  hub_shown_by_id += other.hub_shown_by_id;
  test_shown += other.test_shown;
  test_shown_by_id += other.test_shown_by_id;
}

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026
constexpr std::string_view kAsciiEllipsis = "...";

auto rank_order(const RankedLink& l) {
  return std::tie(l.test, l.hub, l.distance, l.tier, l.rank);
}

class BlockWriter {
 public:
  BlockWriter(const GraphIndex& index, EntityIndex e, const BlockPolicy& policy,
              const LineLayout& layout, BlockScratch& scratch)
      : index_(index),
        entity_(e),
        file_(index.file_of(e)),
        policy_(policy),
        layout_(layout),
        scratch_(scratch) {
    scratch_.fields.clear();
    scratch_.field_references.clear();
    scratch_.written_paths.clear();
  }

  void begin_field() {
    scratch_.refs.clear();
    scratch_.labels.clear();
  }
  // `degree`: how many entities share the link with `other` in this field's direction (the
  // callers of a callee, the callees of a caller, ...): the fewer, the more the link tells.
  void add(EntityIndex other, size_t degree) {
    RankedLink link;
    link.test = index_.is_test(other);
    link.hub = degree > kHubLinkDegree;
    link.distance = index_.distance(entity_, other);
    link.tier = static_cast<uint32_t>(std::bit_width(degree));
    link.rank = index_.rank(other);
    link.entity = other;
    scratch_.refs.push_back(link);
  }
  // Links of an out-field (degree: the other end's in-links) or an in-field (its out-links).
  void add_out(Relation relation) {
    for (const Link& link : index_.out(entity_, relation)) {
      add(link.other, index_.in(link.other, relation).size());
    }
  }
  void add_in(Relation relation) {
    for (const Link& link : index_.in(entity_, relation)) {
      add(link.other, index_.out(link.other, relation).size());
    }
  }
  void add_labels(Relation relation) {
    for (const analysis::Label& label : index_.labels(entity_)) {
      if (label.relation == relation) scratch_.labels.push_back(label.value);
    }
  }

  // Writes the collected values as one field line; returns whether it was non-empty.
  bool end_field(std::string_view name) {
    std::vector<RankedLink>& refs = scratch_.refs;
    // Distinct entities can share an id (a function defined in both branches of an `if`): the
    // reader cannot tell them apart, so the id is listed once, at its best rank.
    std::sort(refs.begin(), refs.end(), [&](const RankedLink& a, const RankedLink& b) {
      if (index_.id(a.entity) != index_.id(b.entity)) return a.rank < b.rank;
      return rank_order(a) < rank_order(b);
    });
    refs.erase(std::unique(refs.begin(), refs.end(),
                           [&](const RankedLink& a, const RankedLink& b) {
                             return index_.id(a.entity) == index_.id(b.entity);
                           }),
               refs.end());
    const size_t distinct = refs.size();
    std::stable_sort(refs.begin(), refs.end(), [](const RankedLink& a, const RankedLink& b) {
      return rank_order(a) < rank_order(b);
    });
    std::vector<std::string_view>& labels = scratch_.labels;
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());

    size_t total = distinct + labels.size();
    if (total == 0) return false;
    size_t shown = policy_.max_links == 0 ? total : std::min(total, policy_.max_links);
    count(shown, total);
    std::string& out = scratch_.fields;
    begin_line(out);
    out += name;
    out += ": ";
    const size_t shown_refs = std::min(shown, refs.size());
    append_refs(out, shown_refs);
    // Lean separates groups (and labels, each a group of its own) with "; ".
    const std::string_view separator = policy_.style == Style::Lean ? "; " : ", ";
    for (size_t i = shown_refs; i < shown; ++i) {
      if (i > 0) out += separator;
      std::string& value = scratch_.value;
      value.clear();
      append_escaped(value, labels[i - refs.size()]);
      append_text(out, value);
    }
    if (shown < total) {
      out += separator;
      out += layout_.ascii ? kAsciiEllipsis : kEllipsis;
      out += " (+" + std::to_string(total - shown) + " more)";
    }
    out += layout_.newline;
    return true;
  }

  void finish(std::string& out) const {
    const analysis::Entity& entity = index_.graph().entities[entity_];
    BlockKind kind = entity.kind == EntityKind::File    ? BlockKind::File
                     : entity.kind == EntityKind::Class ? BlockKind::Class
                                                        : BlockKind::Function;
    if (policy_.style == Style::Lean) {
      begin_line(out);
      out += lean_header_word(kind);
      out += ' ';
      append_text(out, lean_name());
      out += layout_.newline;
      append_recorded_fields(out);
      return;
    }
    std::string_view title = delimiter_title(kind);
    std::string_view label = kind == BlockKind::File    ? "file: "
                             : kind == BlockKind::Class ? "class: "
                                                        : "function: ";
    auto delimiter = [&] {
      begin_line(out);
      out += title;
      out += layout_.newline;
    };
    delimiter();
    begin_line(out);
    out += label;
    append_text(out, index_.id(entity_));
    out += layout_.newline;
    append_recorded_fields(out);
    delimiter();
  }

 private:
  // The hub cut for ranking (the same bar as auto's hubs: more than 10 links).
  static constexpr size_t kHubLinkDegree = 10;

  void count(size_t shown, size_t total) {
    LinkCounters& c = scratch_.counters;
    const std::vector<RankedLink>& refs = scratch_.refs;
    c.links += total;
    c.shown += shown;
    const size_t shown_refs = std::min(shown, refs.size());
    uint64_t hubs = 0, tests = 0;
    for (size_t i = 0; i < shown_refs; ++i) {
      hubs += refs[i].hub;
      tests += refs[i].test;
    }
    c.hub_shown += hubs;
    c.test_shown += tests;
    if (shown == total) {
      c.hub_shown_by_id += hubs;
      c.test_shown_by_id += tests;
      return;
    }
    ++c.capped_fields;
    // What format v1 kept: same file first, then by id.
    std::vector<uint32_t>& by_id = scratch_.by_id;
    by_id.resize(refs.size());
    for (uint32_t i = 0; i < refs.size(); ++i) by_id[i] = i;
    std::sort(by_id.begin(), by_id.end(), [&](uint32_t a, uint32_t b) {
      return std::make_tuple(refs[a].distance != 0, refs[a].rank) <
             std::make_tuple(refs[b].distance != 0, refs[b].rank);
    });
    for (size_t i = 0; i < shown_refs; ++i) {
      c.hub_shown_by_id += refs[by_id[i]].hub;
      c.test_shown_by_id += refs[by_id[i]].test;
    }
  }

  // The first `count` ranked values. Paper writes each value's id (same-file values without the
  // path). Lean writes the values of one file as one group, at the best-ranked of them, groups
  // separated by "; ": `path: A.f, g` for another file, `A.f, g` for the block's own file, a
  // file value as its path (docs/tag-format.md "Lean style").
  void append_refs(std::string& out, size_t count) {
    const std::vector<RankedLink>& refs = scratch_.refs;
    if (policy_.style != Style::Lean) {
      for (size_t i = 0; i < count; ++i) {
        if (i > 0) out += ", ";
        EntityIndex e = refs[i].entity;
        record(out, e);
        append_text(out, is_local(e) ? index_.local_name(e) : index_.id(e));
      }
      return;
    }
    // next[i]: the next value (in rank order) of the same file, or count.
    std::vector<uint32_t>& next = scratch_.next_in_file;
    next.assign(count, static_cast<uint32_t>(count));
    std::vector<bool>& grouped = scratch_.grouped;
    grouped.assign(count, false);
    std::vector<std::pair<EntityIndex, uint32_t>>& by_file = scratch_.by_file;
    by_file.clear();
    for (uint32_t i = 0; i < count; ++i) {
      if (in_a_file(refs[i].entity)) by_file.emplace_back(index_.file_of(refs[i].entity), i);
    }
    std::sort(by_file.begin(), by_file.end());
    for (size_t k = 0; k + 1 < by_file.size(); ++k) {
      if (by_file[k].first == by_file[k + 1].first) {
        next[by_file[k].second] = by_file[k + 1].second;
        grouped[by_file[k + 1].second] = true;
      }
    }
    for (size_t i = 0; i < count; ++i) {
      if (grouped[i]) continue;
      if (i > 0) out += "; ";
      EntityIndex e = refs[i].entity;
      record(out, e);
      if (is_file(e)) {
        append_path(out, e);
        continue;
      }
      if (!in_a_file(e)) {
        append_text(out, index_.id(e));
        continue;
      }
      if (!is_local(e)) {
        append_path(out, index_.file_of(e));
        out += ": ";
      }
      append_text(out, index_.local_name(e));
      for (size_t j = next[i]; j < count; j = next[j]) {
        out += ", ";
        record(out, refs[j].entity);
        append_text(out, index_.local_name(refs[j].entity));
      }
    }
  }

  // Lean writes a path once per block: again, it is `*/` and its shortest trailing part (cut after
  // a `/`) that no other path written in full in this block ends with, when that is shorter.
  void append_path(std::string& out, EntityIndex file) {
    const std::string& path = index_.id(file);
    std::vector<EntityIndex>& written = scratch_.written_paths;
    if (std::find(written.begin(), written.end(), file) == written.end()) {
      written.push_back(file);
      append_text(out, path);
      return;
    }
    for (size_t cut = path.rfind('/'); cut != std::string::npos && cut > 0;
         cut = path.rfind('/', cut - 1)) {
      const std::string_view part = std::string_view(path).substr(cut + 1);
      if (part.size() + 2 >= path.size()) break;
      const bool shared = std::any_of(written.begin(), written.end(), [&](EntityIndex other) {
        const std::string_view text = index_.id(other);
        return other != file && text.size() > part.size() && text.ends_with(part) &&
               text[text.size() - part.size() - 1] == '/';
      });
      if (!shared) {
        out += "*/";
        append_text(out, part);
        return;
      }
    }
    append_text(out, path);
  }

  // A definition with a known file: lean groups it with the other values of that file.
  bool in_a_file(EntityIndex e) const {
    return !is_file(e) && index_.file_of(e) != analysis::kNoEntity;
  }

  // Where a value's text starts within the fields, for traces.
  void record(const std::string& out, EntityIndex e) {
    if (scratch_.references != nullptr) scratch_.field_references.push_back({out.size(), e, 0});
  }
  void append_recorded_fields(std::string& out) const {
    if (scratch_.references != nullptr) {
      for (const RecordedReference& ref : scratch_.field_references) {
        scratch_.references->push_back({out.size() + ref.offset, ref.entity, 0});
      }
    }
    out += scratch_.fields;
  }

  bool is_file(EntityIndex e) const {
    return index_.graph().entities[e].kind == EntityKind::File;
  }
  bool is_local(EntityIndex e) const { return index_.file_of(e) == file_ && !is_file(e); }

  // Where indentation shows nesting, the simple name (the enclosing names are the lines above);
  // else the qualified name within the file; a file's path.
  std::string_view lean_name() const {
    const analysis::Entity& entity = index_.graph().entities[entity_];
    if (entity.kind == EntityKind::File) return index_.id(entity_);
    std::string_view local = index_.local_name(entity_);
    if (!layout_.nesting_shown_by_indent) return local;
    // The escaped name's last dotted part: escaping never adds a '.'.
    size_t dot = local.rfind('.');
    return dot == std::string_view::npos ? local : local.substr(dot + 1);
  }

  void begin_line(std::string& out) const {
    out += layout_.indent;
    out += layout_.comment;
    out += ' ';
  }
  // `text` is escaped already; an ASCII-only file also gets its non-ASCII characters escaped.
  void append_text(std::string& out, std::string_view text) const {
    if (layout_.ascii) {
      append_ascii(out, text);
    } else {
      out += text;
    }
  }
  const GraphIndex& index_;
  EntityIndex entity_;
  EntityIndex file_;
  const BlockPolicy& policy_;
  const LineLayout& layout_;
  BlockScratch& scratch_;
};

}  // namespace

bool append_block(std::string& out, const GraphIndex& index, EntityIndex e,
                  const BlockPolicy& policy, const LineLayout& layout, BlockScratch& scratch) {
  const analysis::Entity& entity = index.graph().entities[e];
  const bool lean = policy.style == Style::Lean;
  // Lean shows nothing the code beside the block already shows: the enclosing definition is the
  // header's qualified name or the indentation, the children the indented lines below.
  const bool parent_shown = !lean;
  const bool children_shown = !lean || !layout.nesting_shown_by_indent;
  BlockWriter writer(index, e, policy, layout, scratch);
  bool informative = false;
  auto field = [&](std::string_view name, auto&& collect) {
    writer.begin_field();
    collect();
    return writer.end_field(name);
  };

  // PARENT names the enclosing class or function; for top-level entities the id already names
  // the file, so it is left out. It never makes a block worth writing on its own.
  if (parent_shown) {
    field("PARENT", [&] {
      if (entity.parent < index.size() &&
          index.graph().entities[entity.parent].kind != EntityKind::File) {
        writer.add(entity.parent, 0);
      }
    });
  }
  if (children_shown && (entity.kind != EntityKind::File || policy.file_children)) {
    informative |= field("CHILDREN", [&] {
      for (EntityIndex child : index.children(e)) writer.add(child, 0);
    });
  }
  // A file's IMPORTS repeat its import lines; lean leaves them to the code.
  if (policy.forward_imports && !(lean && entity.kind == EntityKind::File)) {
    informative |= field("IMPORTS", [&] { writer.add_out(Relation::Imports); });
  }
  informative |= field("IMPORTED_BY", [&] { writer.add_in(Relation::Imports); });
  if (policy.forward_calls) {
    informative |= field("CALLS", [&] {
      for (const Link& link : index.out(e, Relation::Calls)) {
        size_t callers = index.call_in_degree(link.other);
        if (policy.hub_threshold && callers > *policy.hub_threshold) continue;
        writer.add(link.other, callers);
      }
    });
  }
  informative |= field("CALLED_BY", [&] { writer.add_in(Relation::Calls); });
  informative |= field("BASE", [&] { writer.add_out(Relation::Inherits); });
  informative |= field("DERIVED", [&] { writer.add_in(Relation::Inherits); });

  if (policy.dense) {
    // Dependencies on resources show on the dependent side only; DATA_DEP and TEST_REF are
    // symmetric relations and show on both ends.
    auto forward = [&](std::string_view name, Relation relation) {
      return field(name, [&] {
        writer.add_out(relation);
        writer.add_labels(relation);
      });
    };
    auto both = [&](std::string_view name, Relation relation) {
      return field(name, [&] {
        writer.add_out(relation);
        writer.add_in(relation);
        writer.add_labels(relation);
      });
    };
    informative |= forward("CONFIG_USAGE", Relation::ConfigUsage);
    informative |= forward("ENV_VAR", Relation::EnvVar);
    informative |= forward("CONST_REF", Relation::ConstRef);
    informative |= forward("IO_DEP", Relation::IoDep);
    informative |= both("DATA_DEP", Relation::DataDep);
    informative |= both("TEST_REF", Relation::TestRef);
    informative |= field("REGISTERED_BY", [&] {
      writer.add_in(Relation::Registers);
      writer.add_labels(Relation::Registers);
    });
    informative |= field("REGISTERS", [&] { writer.add_out(Relation::Registers); });
  }

  if (!informative) return false;
  writer.finish(out);
  return true;
}

}  // namespace anchorfs::render
