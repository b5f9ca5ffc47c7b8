// Anchors against bytes: where tag blocks may go, checked where they would go.
#include "analysis/anchor_check.h"

#include <cstdint>
#include <limits>
#include <string_view>

#include "analysis/source_files.h"
#include "analysis/utf8_bom.h"

namespace anchorfs::analysis {
namespace {

// Why `anchor` does not fit `bytes`, or "" when it does.
std::string misfit(std::string_view bytes, const Anchor& anchor) {
  if (anchor.offset > bytes.size()) {
    return "offset " + std::to_string(anchor.offset) + " beyond its " +
           std::to_string(bytes.size()) + " bytes";
  }
  const size_t at = static_cast<size_t>(anchor.offset);
  const bool line_start = at == 0 || bytes[at - 1] == '\n' ||
                          (bytes[at - 1] == '\r' && (at == bytes.size() || bytes[at] != '\n')) ||
                          (at == kUtf8Bom.size() && bytes.starts_with(kUtf8Bom));
  if (!line_start) return "offset " + std::to_string(at) + " is inside a line";
  if (bytes.substr(at, anchor.indent.size()) != anchor.indent ||
      anchor.indent.find_first_not_of(" \t\f") != std::string::npos) {
    return "offset " + std::to_string(at) + " is not indented as recorded";
  }
  return {};
}

}  // namespace

std::optional<std::string> misplaced_anchor(const std::string& root, const Graph& graph,
                                            size_t max_bytes) {
  EntityIndex file = kNoEntity;
  SourceBytes source;
  for (const Entity& entity : graph.entities) {
    if (!entity.anchor) continue;
    if (entity.file >= graph.entities.size()) return "an anchor of no file";
    const std::string& path = graph.entities[entity.file].name;
    if (entity.file != file) {
      file = entity.file;
      source = read_source(root, path, max_bytes, std::numeric_limits<size_t>::max());
    }
    if (!source.ok) return path + ": anchored but " + source.problem;
    if (std::string why = misfit(source.bytes, *entity.anchor); !why.empty()) {
      return path + ": " + why;
    }
  }
  return std::nullopt;
}

}  // namespace anchorfs::analysis
