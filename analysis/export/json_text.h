// JSON string literals from raw bytes: escaping, with invalid UTF-8 replaced by U+FFFD.
#pragma once

#include <ostream>
#include <string_view>

namespace anchorfs::graph_export {

// Writes `text` as a quoted JSON string. Repository paths are raw bytes that JSON cannot carry,
// so each byte that is not part of valid UTF-8 becomes U+FFFD rather than failing the export.
void write_json_string(std::ostream& out, std::string_view text);

}  // namespace anchorfs::graph_export
