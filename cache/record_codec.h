// The byte layout of store records: version-scoped keys and self-checking values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/fact_cache.h"

namespace anchorfs::cache {

inline constexpr size_t kKeyBytes = 24;

// xxh3-64 of the analyser version string; the first 8 bytes of every key.
uint64_t version_hash(std::string_view analyser_version);

// version hash, then the digest (low, high), all little-endian: entries of one version are
// contiguous, so a version change can drop the others with one cursor sweep.
std::string encode_key(uint64_t version, const analysis::ContentDigest& digest);
// The same layout for graph records, which are keyed by a resolution key.
std::string encode_key(uint64_t version, const analysis::ResolutionKey& key);

// The version hash a key was written under; nullopt for a key of the wrong length.
std::optional<uint64_t> key_version(std::string_view key);

// Magic, then an xxh3-64 checksum of (key, payload), then the payload.
std::string encode_value(std::string_view key, std::string_view payload);

// The payload, when `value` is a well-formed record for `key` whose checksum verifies.
std::optional<std::string_view> decode_value(std::string_view key, std::string_view value);

}  // namespace anchorfs::cache
