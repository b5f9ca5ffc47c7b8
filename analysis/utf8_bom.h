// The UTF-8 byte order mark: sources may start with it, and anchors and line tables skip it.
#pragma once

#include <string_view>

namespace anchorfs::analysis {

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

}  // namespace anchorfs::analysis
