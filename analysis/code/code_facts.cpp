// CodeFacts: the outline the core reads, and the cache encoding (varints, length-prefixed text).
#include "analysis/code/code_facts.h"

#include "analysis/byte_codec.h"

namespace anchorfs::analysis::code {

DefinitionOutline CodeFacts::definition(uint32_t d) const {
  const Definition& def = definitions[d];
  return {def.kind,       def.parent,        def.name,
          def.line,       def.has_anchor,    def.anchor_offset,
          def.anchor_indent};
}

std::string serialize(const CodeFacts& facts, std::string_view magic) {
  ByteWriter out;
  out.raw(magic);
  out.u64(facts.parsed_cleanly);
  out.u64(facts.error_regions);
  out.u64(facts.has_file_anchor);
  out.u64(facts.file_anchor);
  out.str(facts.newline);
  out.u64(facts.ascii_tags);
  out.u64(facts.lines);
  out.u64(facts.dense_extracted);
  out.str(facts.package);
  out.str(facts.build_condition);
  out.u64(facts.definitions.size());
  for (const Definition& d : facts.definitions) {
    out.u64(static_cast<uint64_t>(d.kind));
    out.u64(d.parent);
    out.str(d.name);
    out.u64(d.line);
    out.u64(d.has_anchor);
    out.u64(d.anchor_offset);
    out.str(d.anchor_indent);
    out.str(d.role);
    out.str(d.owner);
    out.u64(d.bases.size());
    for (const std::string& base : d.bases) out.str(base);
    out.u64(d.exported);
    out.u64(d.arity);
    out.u64(d.variadic);
    out.u64(d.parameter_types.size());
    for (const std::string& type : d.parameter_types) out.str(type);
    out.u64(d.private_scope);
  }
  out.u64(facts.imports.size());
  for (const Import& i : facts.imports) {
    out.str(i.source);
    out.str(i.name);
    out.str(i.alias);
    out.u64(i.line);
    out.u64(i.reexport);
    out.u64(i.scope);
  }
  out.u64(facts.calls.size());
  for (const Call& c : facts.calls) {
    out.u64(c.scope);
    out.u64(static_cast<uint64_t>(c.form));
    out.str(c.receiver);
    out.str(c.name);
    out.u64(c.line);
    out.u64(c.arity);
    out.u64(c.argument_types.size());
    for (const std::string& type : c.argument_types) out.str(type);
  }
  out.u64(facts.typed_names.size());
  for (const TypedName& t : facts.typed_names) {
    out.u64(t.scope);
    out.str(t.name);
    out.str(t.type);
  }
  out.u64(facts.declarations.size());
  for (const Declaration& d : facts.declarations) {
    out.u64(d.scope);
    out.str(d.name);
    out.str(d.owner);
    out.u64(d.line);
  }
  return out.take();
}

namespace {

// Every definition index a record holds must name a definition of the same record, and a parent
// must precede its child (the core relies on both).
bool references_valid(const CodeFacts& facts) {
  const size_t n = facts.definitions.size();
  if (n == 0 || facts.definitions[0].parent != 0) return false;
  for (size_t d = 1; d < n; ++d) {
    if (facts.definitions[d].parent >= d) return false;
    if (facts.definitions[d].kind == EntityKind::File) return false;
  }
  for (const Import& i : facts.imports) {
    if (i.scope >= n) return false;
  }
  for (const Call& c : facts.calls) {
    if (c.scope >= n) return false;
  }
  for (const TypedName& t : facts.typed_names) {
    if (t.scope >= n) return false;
  }
  for (const Declaration& d : facts.declarations) {
    if (d.scope >= n) return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<CodeFacts> deserialize(std::string_view bytes, std::string_view magic) {
  ByteReader in(bytes);
  if (!in.expect(magic)) return nullptr;
  auto facts = std::make_unique<CodeFacts>();
  facts->parsed_cleanly = in.boolean();
  facts->error_regions = in.u32();
  facts->has_file_anchor = in.boolean();
  facts->file_anchor = in.u64();
  facts->newline = in.str();
  facts->ascii_tags = in.boolean();
  facts->lines = in.u32();
  facts->dense_extracted = in.boolean();
  facts->package = in.str();
  facts->build_condition = in.str();
  facts->definitions.resize(in.count());
  for (Definition& d : facts->definitions) {
    const uint8_t kind = in.u8();
    if (kind > static_cast<uint8_t>(EntityKind::Function)) return nullptr;
    d.kind = static_cast<EntityKind>(kind);
    d.parent = in.u32();
    d.name = in.str();
    d.line = in.u32();
    d.has_anchor = in.boolean();
    d.anchor_offset = in.u64();
    d.anchor_indent = in.str();
    d.role = in.str();
    d.owner = in.str();
    d.bases.resize(in.count());
    for (std::string& base : d.bases) base = in.str();
    d.exported = in.boolean();
    d.arity = in.u32();
    d.variadic = in.boolean();
    d.parameter_types.resize(in.count());
    for (std::string& type : d.parameter_types) type = in.str();
    d.private_scope = in.boolean();
    if (!in.ok()) return nullptr;
  }
  facts->imports.resize(in.count());
  for (Import& i : facts->imports) {
    i.source = in.str();
    i.name = in.str();
    i.alias = in.str();
    i.line = in.u32();
    i.reexport = in.boolean();
    i.scope = in.u32();
  }
  facts->calls.resize(in.count());
  for (Call& c : facts->calls) {
    c.scope = in.u32();
    const uint8_t form = in.u8();
    if (form > static_cast<uint8_t>(CallForm::Construct)) return nullptr;
    c.form = static_cast<CallForm>(form);
    c.receiver = in.str();
    c.name = in.str();
    c.line = in.u32();
    c.arity = in.u32();
    c.argument_types.resize(in.count());
    for (std::string& type : c.argument_types) type = in.str();
  }
  facts->typed_names.resize(in.count());
  for (TypedName& t : facts->typed_names) {
    t.scope = in.u32();
    t.name = in.str();
    t.type = in.str();
  }
  facts->declarations.resize(in.count());
  for (Declaration& d : facts->declarations) {
    d.scope = in.u32();
    d.name = in.str();
    d.owner = in.str();
    d.line = in.u32();
  }
  if (!in.ok() || !in.at_end() || !references_valid(*facts)) return nullptr;
  return facts;
}

}  // namespace anchorfs::analysis::code
