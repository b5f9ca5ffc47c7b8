// Turning a fault inside the memory-mapped store (SIGBUS, SIGSEGV) into an error return.
#pragma once

#include <functional>

namespace anchorfs::cache {

// Runs `body` on this thread; returns false when it raised SIGBUS or SIGSEGV (a store file on a
// full filesystem, or damaged pages LMDB trusted), true otherwise. LMDB reads its data file
// through a memory map, so I/O errors and pages past the end of the file arrive as signals, not
// error codes. A faulted body is abandoned where it stood: whatever it held (LMDB transactions,
// heap memory) is leaked, and the store it used must never be touched again. Faults outside a
// guarded body keep their usual effect.
bool run_guarded(const std::function<void()>& body);

// Called where the process would otherwise abort (LMDB's failed assertion on a damaged page):
// inside a guarded body, leaves it exactly as a fault would; elsewhere returns.
void leave_guarded_body();

}  // namespace anchorfs::cache
