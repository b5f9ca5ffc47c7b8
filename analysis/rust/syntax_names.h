// Paths and types of Rust syntax nodes as the facts record them (analysis/rust/facts_layout.h).
#pragma once

#include <tree_sitter/api.h>

#include <string>
#include <string_view>

namespace anchorfs::analysis::rust {

// A path node (`a::b::C`, `Foo<T>`, `Vec::<u8>::new`'s qualifier) as "a::b::C", generic arguments
// removed; "" for anything that is not a plain path (`<T as Trait>::f`, closures, literals).
std::string path_text(TSNode node, std::string_view bytes);

// The last segment of a path as written: "c" of "a::b::c".
std::string_view last_segment(std::string_view path);

// The type a type node lets methods be looked up in: references, pointers and Box/Rc/Arc peeled,
// `dyn Trait`/`impl Trait` as Trait, Option/Result as "?" + their first argument, a slice, an
// array, a Vec or a set as "[" + its element type; "" when none (tuples, primitives, maps,
// function types).
std::string type_path(TSNode type, std::string_view bytes);

}  // namespace anchorfs::analysis::rust
