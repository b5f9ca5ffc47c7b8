// Lean references: the shortest trailing part of a path or qualified name that names one thing.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace anchorfs::render {

// For each of `names`, where its shortest unambiguous suffix starts: the shortest trailing part,
// cut just after a `separator`, that no other distinct name of `names` equals or ends with (after
// a separator); 0, the whole name, when every shorter part is shared. A reader resolves such a
// part by exact match first, then by the one name ending with `separator` + part.
std::vector<uint32_t> unique_suffix_starts(std::span<const std::string_view> names,
                                           char separator);

}  // namespace anchorfs::render
