// The identity of the analyser's own binary, so cached results of code that changes without a
// version bump (the resolver) are never reused by a different build.
#pragma once

#include <string_view>

namespace anchorfs::analysis {

// The GNU build id of the executable or shared library holding this code: a hash the linker
// computes over the binary's contents, so it changes whenever any code changes and is stable
// across identical rebuilds. "" when the binary carries none.
std::string_view analyser_build_id();

}  // namespace anchorfs::analysis
