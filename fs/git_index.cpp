// Parses git's index format (Documentation/gitformat-index) just enough to rewrite stat fields.
#include "fs/git_index.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace anchorfs::fs {
namespace {

constexpr size_t kHeaderSize = 12;
constexpr size_t kStatSize = 40;  // ten 32-bit fields before the object id
constexpr uint16_t kExtendedFlag = 0x4000;
constexpr unsigned char kAssumeUnchangedFlag = 0x80;  // CE_VALID, high bit of the flags' first byte

uint32_t load32(const char* at) {
  const auto* b = reinterpret_cast<const unsigned char*>(at);
  return uint32_t{b[0]} << 24 | uint32_t{b[1]} << 16 | uint32_t{b[2]} << 8 | uint32_t{b[3]};
}

void store32(char* at, uint32_t value) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<char>(value >> (24 - 8 * i));
}

IndexedStat load_stat(const char* at) {
  IndexedStat st;
  uint32_t* fields[] = {&st.ctime_s, &st.ctime_ns, &st.mtime_s, &st.mtime_ns, &st.dev,
                        &st.ino,     &st.mode,     &st.uid,     &st.gid,      &st.size};
  for (size_t i = 0; i < std::size(fields); ++i) *fields[i] = load32(at + 4 * i);
  return st;
}

void store_stat(char* at, const IndexedStat& st) {
  const uint32_t fields[] = {st.ctime_s, st.ctime_ns, st.mtime_s, st.mtime_ns, st.dev,
                             st.ino,     st.mode,     st.uid,     st.gid,      st.size};
  for (size_t i = 0; i < std::size(fields); ++i) store32(at + 4 * i, fields[i]);
}

// SHA-1 (20 bytes) or SHA-256 (32 bytes) of `data`.
std::string digest(std::string_view data, size_t hash_size) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int length = 0;
  const EVP_MD* md = hash_size == 20 ? EVP_sha1() : EVP_sha256();
  if (EVP_Digest(data.data(), data.size(), out.data(), &length, md, nullptr) != 1) return {};
  return std::string(reinterpret_cast<const char*>(out.data()), length);
}

// git's varint (varint.c): 7 bits per byte, most significant first, with an offset per byte.
bool decode_varint(std::string_view data, size_t& pos, uint64_t& value) {
  if (pos >= data.size()) return false;
  auto c = static_cast<unsigned char>(data[pos++]);
  value = c & 127;
  while ((c & 128) != 0) {
    value += 1;
    if (value == 0 || (value >> 57) != 0 || pos >= data.size()) return false;
    c = static_cast<unsigned char>(data[pos++]);
    value = (value << 7) + (c & 127);
  }
  return true;
}

struct EntryAt {
  size_t offset = 0;  // of the stat fields
  std::string path;
};

// The entries of an index whose object ids are `hash_size` bytes, checking that entries and
// extensions end exactly where the checksum starts. Nullopt on any inconsistency or a split index.
std::optional<std::vector<EntryAt>> parse(std::string_view index, size_t hash_size) {
  if (index.size() < kHeaderSize + hash_size) return std::nullopt;
  const uint32_t version = load32(index.data() + 4);
  const uint32_t count = load32(index.data() + 8);
  const size_t end = index.size() - hash_size;
  std::vector<EntryAt> entries;
  entries.reserve(std::min<size_t>(count, end / kStatSize));
  size_t pos = kHeaderSize;
  std::string previous;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t fixed = kStatSize + hash_size + 2;
    if (end - pos < fixed) return std::nullopt;
    const size_t start = pos;
    const auto flags =
        static_cast<uint16_t>(static_cast<unsigned char>(index[pos + fixed - 2]) << 8 |
                              static_cast<unsigned char>(index[pos + fixed - 1]));
    size_t name = pos + fixed;
    if ((flags & kExtendedFlag) != 0) {
      if (version < 3) return std::nullopt;
      name += 2;
    }
    std::string path;
    if (version == 4) {
      uint64_t strip = 0;
      if (!decode_varint(index.substr(0, end), name, strip) || strip > previous.size()) {
        return std::nullopt;
      }
      const size_t nul = index.find('\0', name);
      if (nul == std::string_view::npos || nul >= end) return std::nullopt;
      path = previous.substr(0, previous.size() - strip);
      path.append(index.substr(name, nul - name));
      pos = nul + 1;
    } else {
      const size_t nul = index.find('\0', name);
      if (nul == std::string_view::npos || nul >= end) return std::nullopt;
      path.assign(index.substr(name, nul - name));
      // Entries are padded with 1-8 NULs to a multiple of 8 bytes.
      pos = start + ((nul - start + 8) & ~size_t{7});
      if (pos > end) return std::nullopt;
    }
    previous = path;
    entries.push_back({start, std::move(path)});
  }
  while (pos < end) {
    if (end - pos < 8) return std::nullopt;
    if (index.substr(pos, 4) == "link") return std::nullopt;
    const uint32_t size = load32(index.data() + pos + 4);
    if (end - pos - 8 < size) return std::nullopt;
    pos += 8 + size;
  }
  return entries;
}

}  // namespace

std::optional<std::string> rewrite_index_stats(std::string_view index, const RestatFn& restat) {
  if (index.size() < kHeaderSize || index.substr(0, 4) != "DIRC") return std::nullopt;
  const uint32_t version = load32(index.data() + 4);
  if (version < 2 || version > 4) return std::nullopt;
  // The object format decides the checksum's length; a checksum that verifies tells which. An
  // all-zero one (index.skipHash) is left zero, and then the structure alone decides.
  for (const size_t hash_size : {size_t{20}, size_t{32}}) {
    if (index.size() < kHeaderSize + hash_size) continue;
    const std::string_view body = index.substr(0, index.size() - hash_size);
    const std::string_view trailer = index.substr(index.size() - hash_size);
    const bool skip_hash = trailer.find_first_not_of('\0') == std::string_view::npos;
    if (!skip_hash && digest(body, hash_size) != trailer) continue;
    std::optional<std::vector<EntryAt>> entries = parse(index, hash_size);
    if (!entries) continue;
    std::string out(index);
    for (const EntryAt& entry : *entries) {
      char* flags = out.data() + entry.offset + kStatSize + hash_size;
      IndexedStat recorded = load_stat(out.data() + entry.offset);
      recorded.assume_unchanged = (static_cast<unsigned char>(*flags) & kAssumeUnchangedFlag) != 0;
      if (std::optional<IndexedStat> replacement = restat(entry.path, recorded)) {
        store_stat(out.data() + entry.offset, *replacement);
        *flags = static_cast<char>(replacement->assume_unchanged
                                       ? static_cast<unsigned char>(*flags) | kAssumeUnchangedFlag
                                       : static_cast<unsigned char>(*flags) & ~kAssumeUnchangedFlag);
      }
    }
    if (!skip_hash) {
      const std::string sum = digest(std::string_view(out).substr(0, body.size()), hash_size);
      if (sum.size() != hash_size) return std::nullopt;
      out.replace(body.size(), hash_size, sum);
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace anchorfs::fs
