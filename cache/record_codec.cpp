// Encoding and verifying store records (see record_codec.h for the layout).
#include "cache/record_codec.h"

#include <xxhash.h>

#include <cstring>

#include "cache/le64.h"

namespace anchorfs::cache {

namespace {

constexpr std::string_view kRecordMagic = "AFC1";
constexpr size_t kHeaderBytes = kRecordMagic.size() + sizeof(uint64_t);

uint64_t checksum(std::string_view key, std::string_view payload) {
  const uint64_t seed = XXH3_64bits(key.data(), key.size());
  return XXH3_64bits_withSeed(payload.data(), payload.size(), seed);
}

}  // namespace

uint64_t facts_namespace(std::string_view front_end, std::string_view facts_version) {
  std::string text = "facts";
  text += '\0';
  text += front_end;
  text += '\0';
  text += facts_version;
  return XXH3_64bits(text.data(), text.size());
}

uint64_t graph_namespace() {
  constexpr std::string_view kGraph = "graph";
  return XXH3_64bits(kGraph.data(), kGraph.size());
}

uint64_t alias_namespace() {
  constexpr std::string_view kAlias = "stat alias";
  return XXH3_64bits(kAlias.data(), kAlias.size());
}

uint64_t derived_namespace() {
  constexpr std::string_view kDerived = "derived";
  return XXH3_64bits(kDerived.data(), kDerived.size());
}

uint64_t survey_memo_namespace() {
  constexpr std::string_view kSurveyMemo = "survey memo";
  return XXH3_64bits(kSurveyMemo.data(), kSurveyMemo.size());
}

bool holds_analysis(std::optional<uint64_t> name_space) {
  return name_space != alias_namespace() && name_space != derived_namespace() &&
         name_space != survey_memo_namespace();
}

bool has_record_magic(std::string_view value) {
  return value.size() >= kHeaderBytes && value.substr(0, kRecordMagic.size()) == kRecordMagic;
}

std::string encode_key(uint64_t name_space, const analysis::ContentDigest& digest) {
  std::string key;
  key.reserve(kKeyBytes);
  append_le64(key, name_space);
  append_le64(key, digest.low);
  append_le64(key, digest.high);
  return key;
}

std::string encode_key(uint64_t name_space, const analysis::ResolutionKey& key) {
  return encode_key(name_space, analysis::ContentDigest{key.low, key.high});
}

std::optional<uint64_t> key_version(std::string_view key) {
  if (key.size() != kKeyBytes) {
    return std::nullopt;
  }
  return read_le64(key);
}

std::string encode_value(std::string_view key, std::string_view payload) {
  std::string value(encoded_value_bytes(payload), '\0');
  encode_value_into(value.data(), key, payload);
  return value;
}

size_t encoded_value_bytes(std::string_view payload) { return kHeaderBytes + payload.size(); }

void encode_value_into(char* out, std::string_view key, std::string_view payload) {
  std::memcpy(out, kRecordMagic.data(), kRecordMagic.size());
  const uint64_t sum = checksum(key, payload);
  for (size_t i = 0; i < sizeof sum; ++i) {
    out[kRecordMagic.size() + i] = static_cast<char>((sum >> (8 * i)) & 0xffu);  // as append_le64
  }
  if (!payload.empty()) std::memcpy(out + kHeaderBytes, payload.data(), payload.size());
}

std::optional<std::string_view> decode_value(std::string_view key, std::string_view value) {
  if (value.size() < kHeaderBytes || value.substr(0, kRecordMagic.size()) != kRecordMagic) {
    return std::nullopt;
  }
  const std::string_view payload = value.substr(kHeaderBytes);
  if (read_le64(value.substr(kRecordMagic.size())) != checksum(key, payload)) {
    return std::nullopt;
  }
  return payload;
}

}  // namespace anchorfs::cache
