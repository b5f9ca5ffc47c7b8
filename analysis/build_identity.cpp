// Finding the NT_GNU_BUILD_ID note of the binary that holds this code, via its program headers.
#include "analysis/build_identity.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <string>

namespace anchorfs::analysis {
namespace {

struct Search {
  uintptr_t address = 0;  // an address inside the binary we want
  std::string id;
};

size_t aligned4(size_t n) {
  return (n + 3) & ~size_t{3};
}

bool contains(const dl_phdr_info& info, uintptr_t address) {
  for (ElfW(Half) i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info.dlpi_phdr[i];
    const uintptr_t start = info.dlpi_addr + header.p_vaddr;
    if (header.p_type == PT_LOAD && address >= start && address - start < header.p_memsz) {
      return true;
    }
  }
  return false;
}

std::string build_id_note(const dl_phdr_info& info) {
  for (ElfW(Half) i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info.dlpi_phdr[i];
    if (header.p_type != PT_NOTE) continue;
    const auto* notes = reinterpret_cast<const char*>(info.dlpi_addr + header.p_vaddr);
    size_t offset = 0;
    while (offset + sizeof(ElfW(Nhdr)) <= header.p_memsz) {
      const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(notes + offset);
      const size_t name_at = offset + sizeof(ElfW(Nhdr));
      const size_t desc_at = name_at + aligned4(note->n_namesz);
      const size_t next = desc_at + aligned4(note->n_descsz);
      if (next > header.p_memsz) break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          std::string_view(notes + name_at, 4) == std::string_view("GNU", 4)) {
        return std::string(notes + desc_at, note->n_descsz);
      }
      offset = next;
    }
  }
  return {};
}

int visit(dl_phdr_info* info, size_t /*size*/, void* data) {
  auto& search = *static_cast<Search*>(data);
  if (!contains(*info, search.address)) return 0;
  search.id = build_id_note(*info);
  return 1;
}

}  // namespace

std::string_view analyser_build_id() {
  static const std::string id = [] {
    Search search;
    search.address = reinterpret_cast<uintptr_t>(&analyser_build_id);
    dl_iterate_phdr(visit, &search);
    return search.id;
  }();
  return id;
}

}  // namespace anchorfs::analysis
