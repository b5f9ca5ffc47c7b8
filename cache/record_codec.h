// The byte layout of store records: version-scoped keys and self-checking values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/fact_cache.h"

namespace anchorfs::cache {

inline constexpr size_t kKeyBytes = 24;

// The first 8 bytes of a facts key: xxh3-64 over the front end's name and its facts version,
// so entries of one front end or version can never answer for another.
uint64_t facts_namespace(std::string_view front_end, std::string_view facts_version);
// The first 8 bytes of a graph key (resolution keys already cover every version).
uint64_t graph_namespace();
// The first 8 bytes of a stat alias's key (it lives in the graph table; its payload is the
// survey it stands for).
uint64_t alias_namespace();
// The first 8 bytes of a derived record's key (FactCache::load_derived; in the graph table too).
uint64_t derived_namespace();
// The first 8 bytes of a survey memo's key (FactCache::load_survey_memo; in the graph table).
uint64_t survey_memo_namespace();
// Whether a graph-table key of this namespace holds a whole analysis (not an alias, a derived
// record or a survey memo, which are local helpers of one).
bool holds_analysis(std::optional<uint64_t> name_space);

// namespace, then the digest (low, high), all little-endian.
std::string encode_key(uint64_t name_space, const analysis::ContentDigest& digest);
std::string encode_key(uint64_t name_space, const analysis::ResolutionKey& key);

// The namespace a key was written under; nullopt for a key of the wrong length.
std::optional<uint64_t> key_version(std::string_view key);

// Magic, then an xxh3-64 checksum of (key, payload), then the payload.
std::string encode_value(std::string_view key, std::string_view payload);
// The bytes encode_value(key, payload) takes.
size_t encoded_value_bytes(std::string_view payload);
// Writes encode_value(key, payload) to `out` (encoded_value_bytes(payload) bytes): straight into
// the space LMDB reserves for a record, so a view or graph of hundreds of MB is not copied once
// more into a string first.
void encode_value_into(char* out, std::string_view key, std::string_view payload);

// Whether `value` starts like a record (a cheap structural check; decode_value verifies).
bool has_record_magic(std::string_view value);

// The payload, when `value` is a well-formed record for `key` whose checksum verifies.
std::optional<std::string_view> decode_value(std::string_view key, std::string_view value);

}  // namespace anchorfs::cache
