// Tag block layout: delimiter, the entity line, fields in contract order, delimiter.
#include "render/block.h"

#include <algorithm>
#include <string>

#include "render/delimiter.h"
#include "render/sanitize.h"

namespace anchorfs::render {

using analysis::EntityIndex;
using analysis::EntityKind;
using analysis::Relation;

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026
constexpr std::string_view kAsciiEllipsis = "...";

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
  }

  void begin_field() {
    scratch_.refs.clear();
    scratch_.labels.clear();
  }
  void add(EntityIndex other) { scratch_.refs.push_back(other); }
  void add_links(std::span<const Link> links) {
    for (const Link& link : links) scratch_.refs.push_back(link.other);
  }
  void add_labels(Relation relation) {
    for (const analysis::Label& label : index_.labels(entity_)) {
      if (label.relation == relation) scratch_.labels.push_back(label.value);
    }
  }

  // Writes the collected values as one field line; returns whether it was non-empty.
  bool end_field(std::string_view name) {
    std::vector<EntityIndex>& refs = scratch_.refs;
    std::sort(refs.begin(), refs.end(), [&](EntityIndex a, EntityIndex b) {
      bool a_elsewhere = index_.file_of(a) != file_;
      bool b_elsewhere = index_.file_of(b) != file_;
      if (a_elsewhere != b_elsewhere) return !a_elsewhere;
      return index_.rank(a) < index_.rank(b);
    });
    // Distinct entities can share an id (a function defined in both branches of an `if`):
    // the reader cannot tell them apart, so the id is listed once.
    refs.erase(std::unique(refs.begin(), refs.end(),
                           [&](EntityIndex a, EntityIndex b) {
                             return a == b || index_.id(a) == index_.id(b);
                           }),
               refs.end());
    std::vector<std::string_view>& labels = scratch_.labels;
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());

    size_t total = refs.size() + labels.size();
    if (total == 0) return false;
    size_t shown = policy_.max_links == 0 ? total : std::min(total, policy_.max_links);
    std::string& out = scratch_.fields;
    begin_line(out);
    out += name;
    out += ": ";
    for (size_t i = 0; i < shown; ++i) {
      if (i > 0) out += ", ";
      if (i < refs.size()) {
        if (scratch_.references != nullptr) {
          scratch_.field_references.push_back({out.size(), refs[i], 0});
        }
        append_text(out, reference(refs[i]));
      } else {
        std::string& value = scratch_.value;
        value.clear();
        append_escaped(value, labels[i - refs.size()]);
        append_text(out, value);
      }
    }
    if (shown < total) {
      out += ", ";
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
    if (scratch_.references != nullptr) {
      for (const RecordedReference& ref : scratch_.field_references) {
        scratch_.references->push_back({out.size() + ref.offset, ref.entity, 0});
      }
    }
    out += scratch_.fields;
    delimiter();
  }

 private:
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

  const std::string& reference(EntityIndex other) const {
    bool local =
        index_.file_of(other) == file_ && index_.graph().entities[other].kind != EntityKind::File;
    return local ? index_.local_name(other) : index_.id(other);
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
  BlockWriter writer(index, e, policy, layout, scratch);
  bool informative = false;
  auto field = [&](std::string_view name, auto&& collect) {
    writer.begin_field();
    collect();
    return writer.end_field(name);
  };

  // PARENT names the enclosing class or function; for top-level entities the id already names
  // the file, so it is left out.
  field("PARENT", [&] {
    if (entity.parent < index.size() &&
        index.graph().entities[entity.parent].kind != EntityKind::File) {
      writer.add(entity.parent);
    }
  });
  if (entity.kind != EntityKind::File || policy.file_children) {
    informative |= field("CHILDREN", [&] {
      for (EntityIndex child : index.children(e)) writer.add(child);
    });
  }
  if (policy.forward_imports) {
    informative |= field("IMPORTS", [&] { writer.add_links(index.out(e, Relation::Imports)); });
  }
  informative |= field("IMPORTED_BY", [&] { writer.add_links(index.in(e, Relation::Imports)); });
  if (policy.forward_calls) {
    informative |= field("CALLS", [&] {
      for (const Link& link : index.out(e, Relation::Calls)) {
        if (policy.hub_threshold && index.call_in_degree(link.other) > *policy.hub_threshold) {
          continue;
        }
        writer.add(link.other);
      }
    });
  }
  informative |= field("CALLED_BY", [&] { writer.add_links(index.in(e, Relation::Calls)); });
  informative |= field("BASE", [&] { writer.add_links(index.out(e, Relation::Inherits)); });
  informative |= field("DERIVED", [&] { writer.add_links(index.in(e, Relation::Inherits)); });

  if (policy.dense) {
    // Dependencies on resources show on the dependent side only; DATA_DEP and TEST_REF are
    // symmetric relations and show on both ends.
    auto forward = [&](std::string_view name, Relation relation) {
      return field(name, [&] {
        writer.add_links(index.out(e, relation));
        writer.add_labels(relation);
      });
    };
    auto both = [&](std::string_view name, Relation relation) {
      return field(name, [&] {
        writer.add_links(index.out(e, relation));
        writer.add_links(index.in(e, relation));
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
      writer.add_links(index.in(e, Relation::Registers));
      writer.add_labels(Relation::Registers);
    });
    informative |= field("REGISTERS", [&] { writer.add_links(index.out(e, Relation::Registers)); });
  }

  if (!informative) return false;
  writer.finish(out);
  return true;
}

}  // namespace anchorfs::render
