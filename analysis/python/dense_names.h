// Spelling rules shared by dense extraction and resolution: constant names, access chains.
#pragma once

#include <string_view>
#include <vector>

namespace anchorfs::analysis::python {

// UPPER_CASE with at least two characters after leading underscores: `MAX_SIZE`, `_CACHE_TTL`.
bool is_constant_name(std::string_view name);

// An ASCII Python identifier.
bool is_identifier(std::string_view s);

// "a.b().c" -> {"a", "b()", "c"}.
std::vector<std::string_view> split_chain(std::string_view chain);

// "b()" -> "b": a chain part without its call.
std::string_view without_call(std::string_view part);

// "a.b().c" -> "a"; the name a chain starts from.
std::string_view chain_root(std::string_view chain);

// "a.b().c" -> "c"; "a.b()" -> "b".
std::string_view chain_last(std::string_view chain);

// Methods that read or write a file whatever the receiver (pathlib.Path and its look-alikes).
bool is_file_method(std::string_view name);

// A chain through a part spelled like configuration (`config`, `settings`, `conf`, `cfg`), the
// environment (`environ`) or a database cursor: worth keeping whatever its root is bound to.
bool chain_mentions_resource(std::string_view chain);

// The part is a configuration container (`app.config`, `settings`, `cfg`...).
bool is_config_part(std::string_view part);

}  // namespace anchorfs::analysis::python
