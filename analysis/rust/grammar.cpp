// The field ids of tree-sitter-rust the extractor reads, looked up once.
#include "analysis/rust/grammar.h"

#include <array>
#include <iterator>
#include <string_view>

#include "analysis/code/child_list.h"
#include "analysis/code/symbols.h"

namespace anchorfs::analysis::rust {
namespace {

constexpr std::string_view kFieldNames[] = {
    "alias",       "argument", "arguments", "body",  "bounds",         "element", "field",
    "function",    "left",     "list",      "macro", "name",           "path",    "pattern",
    "return_type", "right",    "trait",     "type",  "type_arguments", "value",
};
static_assert(std::size(kFieldNames) == static_cast<size_t>(Field::Value) + 1);

}  // namespace

TSNode field(TSNode node, Field f) {
  static const auto ids = [] {
    std::array<TSFieldId, std::size(kFieldNames)> v{};
    for (size_t i = 0; i < v.size(); ++i) v[i] = code::field_id(tree_sitter_rust(), kFieldNames[i]);
    return v;
  }();
  return anchorfs_child_by_field(node, ids[static_cast<size_t>(f)]);
}

}  // namespace anchorfs::analysis::rust
