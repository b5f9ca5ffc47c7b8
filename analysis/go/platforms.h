// Which GOOS/GOARCH platforms a Go file is built on: its file name's _GOOS/_GOARCH suffixes and
// its `//go:build` expression, over the first-class ports of `go tool dist list`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::analysis::go {

// One bit per known platform (os/arch pair); a file's set is the platforms it may be built on.
using PlatformSet = uint64_t;

// The platforms a file at `path` with build condition `condition` ("" for none) may build on.
// Tags that name no platform (cgo, race, go1.18, custom tags) may be either true or false, so a
// condition only ever excludes the platforms it rules out whatever they are.
PlatformSet platforms_of(std::string_view path, std::string_view condition);

// Tags that name no platform are decided, like the go tool does, for the few a repository's
// conditions use most (`nomsgpack` in one file, `!nomsgpack` in another: never built together):
// at most kMaxDecidedTags of them, the others still either way.
inline constexpr size_t kMaxDecidedTags = 6;

// The tags to decide among `conditions` (//go:build expressions): those naming no platform, most
// used first (ties by name), at most kMaxDecidedTags.
std::vector<std::string> decided_tags(const std::vector<std::string_view>& conditions);

// Where a file may be built: per assignment of the decided tags (bit i of the index is tag i's
// value), the platforms.
using BuildSet = std::vector<PlatformSet>;
BuildSet builds_of(std::string_view path, std::string_view condition,
                   const std::vector<std::string>& tags);

// Whether two files may be built in one configuration (same platform, same tag values).
bool built_together(const BuildSet& a, const BuildSet& b);

}  // namespace anchorfs::analysis::go
