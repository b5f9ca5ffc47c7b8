// Path and type text of Rust syntax nodes, generic arguments and indirections removed.
#include "analysis/rust/syntax_names.h"

#include "analysis/code/syntax.h"
#include "analysis/code/walk.h"
#include "analysis/rust/facts_layout.h"
#include "analysis/rust/grammar.h"

namespace anchorfs::analysis::rust {
namespace {

using code::text_of;
using code::type_of;

// Deeply nested types (`Box<Box<Box<...>>>`) stop here instead of exhausting the stack.
constexpr int kMaxTypeDepth = 32;
// No real path has this many segments; a longer one is not recorded.
constexpr int kMaxPathDepth = 64;

std::string path_text_at(TSNode node, std::string_view bytes, int depth);

TSNode first_type_argument(TSNode generic) {
  const TSNode arguments = field(generic, Field::TypeArguments);
  if (ts_node_is_null(arguments)) return arguments;
  for (const TSNode argument : code::NamedChildren(arguments)) {
    if (type_of(argument) != "lifetime") return argument;
  }
  return TSNode{};
}

std::string type_path_at(TSNode type, std::string_view bytes, int depth) {
  if (ts_node_is_null(type) || depth > kMaxTypeDepth) return {};
  const std::string_view kind = type_of(type);
  if (kind == "reference_type" || kind == "pointer_type") {
    return type_path_at(field(type, Field::Type), bytes, depth + 1);
  }
  if (kind == "dynamic_type" || kind == "abstract_type") {
    return type_path_at(field(type, Field::Trait), bytes, depth + 1);
  }
  if (kind == "generic_type") {
    std::string base = path_text(field(type, Field::Type), bytes);
    const std::string_view name = last_segment(base);
    if (name == "Box" || name == "Rc" || name == "Arc") {
      return type_path_at(first_type_argument(type), bytes, depth + 1);
    }
    if (name == "Vec" || name == "VecDeque" || name == "LinkedList" || name == "HashSet" ||
        name == "BTreeSet" || name == "BinaryHeap") {
      const std::string element = type_path_at(first_type_argument(type), bytes, depth + 1);
      if (element.empty() || element.front() == kFallible || element.front() == kElementsOf) {
        return {};
      }
      return kElementsOf + element;
    }
    if (name == "Option" || name == "Result") {
      std::string inner = type_path_at(first_type_argument(type), bytes, depth + 1);
      if (inner.empty() || inner.front() == kFallible) return {};
      return kFallible + inner;
    }
    return base;
  }
  if (kind == "type_identifier" || kind == "scoped_type_identifier") return path_text(type, bytes);
  if (kind == "array_type") {
    const std::string element = type_path_at(field(type, Field::Element), bytes, depth + 1);
    if (element.empty() || element.front() == kFallible || element.front() == kElementsOf) {
      return {};
    }
    return kElementsOf + element;
  }
  return {};
}

std::string path_text_at(TSNode node, std::string_view bytes, int depth) {
  if (ts_node_is_null(node) || depth > kMaxPathDepth) return {};
  const std::string_view kind = type_of(node);
  if (kind == "identifier" || kind == "type_identifier" || kind == "self" || kind == "super" ||
      kind == "crate" || kind == "primitive_type" || kind == "metavariable") {
    return std::string(text_of(node, bytes));
  }
  if (kind == "generic_type" || kind == "generic_type_with_turbofish") {
    return path_text_at(field(node, Field::Type), bytes, depth + 1);
  }
  if (kind == "scoped_identifier" || kind == "scoped_type_identifier") {
    const std::string name = path_text_at(field(node, Field::Name), bytes, depth + 1);
    if (name.empty()) return {};
    const TSNode qualifier = field(node, Field::Path);
    // `::std::x`: a path from the extern prelude, never a repository module.
    if (ts_node_is_null(qualifier)) return "::" + name;
    std::string path = path_text_at(qualifier, bytes, depth + 1);
    if (path.empty()) return {};
    return path + "::" + name;
  }
  return {};
}

}  // namespace

std::string_view last_segment(std::string_view path) {
  const size_t colon = path.rfind("::");
  return colon == std::string_view::npos ? path : path.substr(colon + 2);
}

std::string path_text(TSNode node, std::string_view bytes) {
  return path_text_at(node, bytes, 0);
}

std::string type_path(TSNode type, std::string_view bytes) {
  return type_path_at(type, bytes, 0);
}

}  // namespace anchorfs::analysis::rust
