// One table per grammar from tree-sitter symbols to a front end's node kinds, and field ids.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

namespace anchorfs::analysis::code {

template <typename Kind>
struct SymbolKind {
  std::string_view name;  // a node type of the grammar
  Kind kind;
};

// The kind of every symbol of one grammar, built once: the kind `named` gives its name, else
// `other`; ERROR nodes (outside the grammar's symbol table) and null nodes are `error`. Only named
// symbols match, so an anonymous token never takes the kind of a node type of the same name, except
// the token names listed in `tokens_too` (JavaScript's `import` of a dynamic import). Several
// symbols may share a name (grammar aliases): all of them match.
template <typename Kind>
class SymbolTable {
 public:
  SymbolTable(const TSLanguage* language, std::span<const SymbolKind<Kind>> named, Kind other,
              std::initializer_list<std::string_view> tokens_too = {})
      : SymbolTable(language, named, other, other, tokens_too) {}

  SymbolTable(const TSLanguage* language, std::span<const SymbolKind<Kind>> named, Kind other,
              Kind error, std::initializer_list<std::string_view> tokens_too = {})
      : error_(error), kinds_(ts_language_symbol_count(language), other) {
    for (size_t s = 0; s < kinds_.size(); ++s) {
      const auto symbol = static_cast<TSSymbol>(s);
      const char* name = ts_language_symbol_name(language, symbol);
      if (name == nullptr) continue;
      const std::string_view text(name);
      if (ts_language_symbol_type(language, symbol) != TSSymbolTypeRegular &&
          !contains(tokens_too, text)) {
        continue;
      }
      for (const SymbolKind<Kind>& entry : named) {
        if (entry.name == text) kinds_[s] = entry.kind;
      }
    }
  }

  Kind of(TSNode node) const {
    if (node.id == nullptr) return error_;  // ts_node_is_null, without a call into the runtime
    return at(ts_node_symbol(node));
  }

  // The kind of a symbol (as ts_node_symbol gives it), for tables indexed by symbol; `size()`
  // symbols in all, every other one (an ERROR's) `error`.
  Kind at(TSSymbol symbol) const { return symbol < kinds_.size() ? kinds_[symbol] : error_; }
  size_t size() const { return kinds_.size(); }

 private:
  static bool contains(std::initializer_list<std::string_view> names, std::string_view name) {
    for (const std::string_view n : names) {
      if (n == name) return true;
    }
    return false;
  }

  Kind error_;
  std::vector<Kind> kinds_;
};

// A field's id, looked up once by the caller: tree-sitter finds a field by name by comparing
// the name with every field of the grammar.
inline TSFieldId field_id(const TSLanguage* language, std::string_view name) {
  return ts_language_field_id_for_name(language, name.data(), static_cast<uint32_t>(name.size()));
}

}  // namespace anchorfs::analysis::code
