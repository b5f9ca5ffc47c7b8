// Structural verification of an LMDB data file, page by page, without LMDB: LMDB trusts every
// page it reads (no checksums), so a scribbled branch or leaf page can send it past the end of
// the file (SIGBUS), into an assertion, or make a write corrupt the heap.
#pragma once

#include <cstddef>
#include <string>

namespace anchorfs::cache {

// Checks the file's bytes (`file`, `file_bytes` long) as LMDB's on-disk format (data version 1,
// 64-bit): both meta pages; then, from the newest, every page reachable from the free-page and
// main trees and every named database in it: each page names itself, its kind and bounds are
// sane, every node lies inside its page, keys ascend, children and overflow runs lie inside the
// used part of the file and no page is reached twice. Returns "" or what is wrong.
std::string verify_lmdb_pages(const char* file, size_t file_bytes, size_t page_size);

}  // namespace anchorfs::cache
