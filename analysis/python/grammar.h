// tree-sitter-python's symbols and fields looked up by name, for the node-kind table.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

extern "C" const TSLanguage* tree_sitter_python();

namespace anchorfs::analysis::python {

template <typename Kind>
struct NamedKind {
  const char* name;
  Kind kind;
};

// The kind of every grammar symbol: the one `named` gives its name, else `other`. Only named
// symbols (and ERROR) match, so an anonymous token never takes the kind of a node type.
template <typename Kind, size_t N>
std::vector<Kind> symbol_kinds(const NamedKind<Kind> (&named)[N], Kind other) {
  const TSLanguage* lang = tree_sitter_python();
  const uint32_t count = ts_language_symbol_count(lang);
  std::vector<Kind> kinds(count, other);
  for (uint32_t s = 0; s < count; ++s) {
    const auto symbol = static_cast<TSSymbol>(s);
    const char* name = ts_language_symbol_name(lang, symbol);
    if (name == nullptr) continue;
    if (ts_language_symbol_type(lang, symbol) != TSSymbolTypeRegular &&
        std::strcmp(name, "ERROR") != 0) {
      continue;
    }
    for (const NamedKind<Kind>& entry : named) {
      if (std::strcmp(entry.name, name) == 0) kinds[s] = entry.kind;
    }
  }
  return kinds;
}

inline TSFieldId field_id(const char* name) {
  return ts_language_field_id_for_name(tree_sitter_python(), name,
                                       static_cast<uint32_t>(std::strlen(name)));
}

}  // namespace anchorfs::analysis::python
