// Large record copies into huge pages: fresh memory costs a page fault per page first written.
#include "cache/record_copy.h"

#include <sys/mman.h>

#include <cstdint>

namespace anchorfs::cache {
namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
// Below this a copy spans too few huge pages for the advice to pay for its system call.
constexpr size_t kAdviseFromBytes = 8 * kHugePage;

// Asks for huge pages over the whole 2 MiB pages inside [data, data + size). Advice only: a kernel
// without transparent huge pages (or with them off) leaves the range as it was.
void advise_huge_pages(char* data, size_t size) {
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + size) & ~(kHugePage - 1);
  if (end <= begin) return;
  ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace

std::string copy_record(std::string_view bytes) {
  std::string copy;
  if (bytes.size() >= kAdviseFromBytes) {
    // Reserved but not yet written: the advice comes before the first fault of the copy below.
    copy.reserve(bytes.size());
    advise_huge_pages(copy.data(), copy.capacity());
  }
  copy.assign(bytes);
  return copy;
}

}  // namespace anchorfs::cache
