// The resolver's debug trace (ANCHORFS_DEBUG_ROUNDS=1): configured once, printed on stderr.
#pragma once

#include <cstdarg>

namespace anchorfs::analysis::python {

// Whether ANCHORFS_DEBUG_ROUNDS is set: the environment is read once per process.
bool resolve_trace_enabled();

// One line on stderr: the formatted text followed by this thread's CPU seconds and the
// process's resident set size; does nothing unless the trace is enabled.
void resolve_trace(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace anchorfs::analysis::python
