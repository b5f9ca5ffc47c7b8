// Which GOOS/GOARCH platforms a Go file is built on: its file name's _GOOS/_GOARCH suffixes and
// its `//go:build` expression, over the first-class ports of `go tool dist list`.
#pragma once

#include <cstdint>
#include <string_view>

namespace anchorfs::analysis::go {

// One bit per known platform (os/arch pair); a file's set is the platforms it may be built on.
using PlatformSet = uint64_t;

// The platforms a file at `path` with build condition `condition` ("" for none) may build on.
// Tags that name no platform (cgo, race, go1.18, custom tags) may be either true or false, so a
// condition only ever excludes the platforms it rules out whatever they are.
PlatformSet platforms_of(std::string_view path, std::string_view condition);

}  // namespace anchorfs::analysis::go
