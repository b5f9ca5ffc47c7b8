// Between LMDB's MDB_val and string_view: the store's keys and values as bytes.
#pragma once

#include <lmdb.h>

#include <string_view>

namespace anchorfs::cache {

inline std::string_view as_view(const MDB_val& v) {
  return {static_cast<const char*>(v.mv_data), v.mv_size};
}

// LMDB takes a non-const pointer but only reads through it for keys and values it copies.
inline MDB_val as_val(std::string_view s) {
  return {s.size(), const_cast<char*>(s.data())};
}

}  // namespace anchorfs::cache
