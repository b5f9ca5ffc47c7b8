// The cache encoding of Python's refresh memory: varints, the files by path and digest (their
// facts are found again by digest), edges by (file, definition), the resolution base.
#include "analysis/python/refresh_memory.h"

#include "analysis/byte_codec.h"
#include "analysis/python/facts.h"

namespace anchorfs::analysis::python {
namespace {

constexpr std::string_view kMemoryMagic = "PYRM1";

void write_end(ByteWriter& w, const LocalEnd& end) {
  w.u64(end.file);
  w.u64(end.local);
}

LocalEnd read_end(ByteReader& r) {
  LocalEnd end;
  end.file = r.u32();
  end.local = r.u32();
  return end;
}

// Whether (file, local) names a definition of the memory's files.
bool fits(const RefreshMemory& memory, uint32_t file, uint32_t local) {
  return file < memory.files.size() && local < memory.files[file].facts->entity_count();
}

}  // namespace

std::string serialize_memory(const RefreshMemory& memory) {
  ByteWriter w;
  w.raw(kMemoryMagic);
  w.str(memory.root);
  w.u64(static_cast<uint64_t>(memory.quiet_round));
  w.u64(memory.files.size());
  for (const FileMemory& file : memory.files) {
    if (!file.digest) return {};
    w.str(file.path);
    w.u64(file.digest->low);
    w.u64(file.digest->high);
  }
  w.u64(memory.edges.size());
  for (const LocalEdge& e : memory.edges) {
    write_end(w, e.from);
    write_end(w, e.to);
    w.u64(static_cast<uint64_t>(e.relation));
  }
  w.u64(memory.base != nullptr ? 1 : 0);
  if (memory.base != nullptr) {
    w.u64(memory.base->files.size());
    for (const FileBase& file : memory.base->files) {
      w.u64(file.end_tick);
      w.u64(file.end_values);
      w.u64(file.names.size());
      for (const NameCall& call : file.names) {
        w.str(call.name);
        w.u64(call.tick);
        w.u64(call.values);
        w.u64(call.callable ? 1 : 0);
        w.u64(call.late ? 1 : 0);
        w.u64(call.callees.size());
        for (const LocalScope& callee : call.callees) {
          w.u64(callee.file);
          w.u64(callee.local);
        }
      }
    }
  }
  return w.take();
}

std::unique_ptr<RefreshMemory> deserialize_memory(std::string_view bytes,
                                                  const analysis::ResolverInput& input,
                                                  const analysis::OldFacts& old_facts) {
  ByteReader r(bytes);
  if (!r.expect(kMemoryMagic)) return nullptr;
  auto memory = std::make_unique<RefreshMemory>();
  memory->root = r.str();
  const uint64_t quiet_round = r.u64();
  if (!r.ok() || memory->root != input.root || quiet_round > kMaxRounds) return nullptr;
  memory->quiet_round = static_cast<int>(quiet_round);
  const size_t file_count = r.count();
  // A memory is used only when at most one file reads differently (incremental.cpp): any other
  // file list resolves the whole tree, so it is not worth loading.
  if (!r.ok() || file_count != input.files.size()) return nullptr;
  memory->files.resize(file_count);
  size_t differing = 0;
  for (size_t f = 0; f < file_count; ++f) {
    FileMemory& file = memory->files[f];
    file.path = r.str();
    file.digest = ContentDigest{r.u64(), r.u64()};
    if (!r.ok()) return nullptr;
    const analysis::ResolverFile& now = input.files[f];
    if (now.path != file.path || now.shared_facts == nullptr) return nullptr;
    if (now.digest != nullptr && *now.digest == *file.digest) {
      file.facts = now.shared_facts;  // the same bytes: the same facts
      continue;
    }
    if (++differing > 1) return nullptr;
    file.facts = old_facts(*file.digest, file.path);
    if (file.facts == nullptr || dynamic_cast<const FileFacts*>(file.facts.get()) == nullptr) {
      return nullptr;
    }
  }
  const size_t edge_count = r.count();
  memory->edges.reserve(edge_count);
  for (size_t i = 0; i < edge_count && r.ok(); ++i) {
    LocalEdge e;
    e.from = read_end(r);
    e.to = read_end(r);
    const uint8_t relation = r.u8();
    if (!r.ok() || relation > static_cast<uint8_t>(Relation::Registers) ||
        !fits(*memory, e.from.file, e.from.local) || !fits(*memory, e.to.file, e.to.local)) {
      return nullptr;
    }
    e.relation = static_cast<Relation>(relation);
    memory->edges.push_back(e);
  }
  if (r.boolean()) {
    auto base = std::make_shared<ResolutionBase>();
    base->files.resize(r.count());
    for (FileBase& file : base->files) {
      file.end_tick = r.u32();
      file.end_values = r.u32();
      file.names.resize(r.count());
      for (NameCall& call : file.names) {
        call.name = r.str();
        call.tick = r.u32();
        call.values = r.u32();
        call.callable = r.boolean();
        call.late = r.boolean();
        call.callees.resize(r.count());
        for (LocalScope& callee : call.callees) {
          callee.file = r.u32();
          callee.local = r.u32();
          if (!r.ok() || !fits(*memory, callee.file, callee.local)) return nullptr;
        }
        if (!r.ok()) return nullptr;
      }
    }
    memory->base = std::move(base);
  }
  if (!r.ok() || !r.at_end()) return nullptr;
  return memory;
}

}  // namespace anchorfs::analysis::python
