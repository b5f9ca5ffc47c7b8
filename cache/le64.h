// Little-endian 64-bit integers in store keys and values (the byte order does not follow the host).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace anchorfs::cache {

inline void append_le64(std::string& out, uint64_t value) {
  for (size_t i = 0; i < 8; ++i) out += static_cast<char>((value >> (8 * i)) & 0xffu);
}

// Reads the first 8 bytes; a shorter input reads as if zero-padded.
inline uint64_t read_le64(std::string_view bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < 8 && i < bytes.size(); ++i) {
    value |= uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  }
  return value;
}

}  // namespace anchorfs::cache
