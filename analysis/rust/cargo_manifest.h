// The few Cargo.toml facts Rust resolution needs: the package's and library's names, the library's
// path and the edition.
#pragma once

#include <string>
#include <string_view>

namespace anchorfs::analysis::rust {

struct CargoManifest {
  bool has_package = false;  // a [package] table: the directory is a crate's
  std::string package;       // [package] name
  std::string lib_name;      // [lib] name, else the package name with '-' as '_'
  std::string lib_path;      // [lib] path relative to the manifest, else "src/lib.rs"
  bool edition_2015 = true;  // no edition key means 2015 (`use` paths are crate-relative)
};

// Reads the keys above from TOML text; anything else (and anything malformed) is ignored.
CargoManifest parse_cargo_manifest(std::string_view text);

}  // namespace anchorfs::analysis::rust
