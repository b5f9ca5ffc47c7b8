// Sealing records for the remote tier with the farm key, so that only a holder of the key can
// write a record another machine will use.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace anchorfs::cache {

// A farm key shorter than this is refused (HMAC-SHA256 wants at least 128 bits of secret).
inline constexpr size_t kMinFarmKeyBytes = 16;

// "AFM1", then HMAC-SHA256 with `farm_key` over (`key`, `payload`), then the payload. `key` is
// the record's store key (fixed length), so a record sealed for one key never opens for another.
std::string seal_remote_value(std::string_view farm_key, std::string_view key,
                              std::string_view payload);

// The payload of `value` when it was sealed with `farm_key` for `key` (compared in constant
// time); nullopt for anything else: another key, another farm, an unsealed or altered record.
std::optional<std::string_view> open_remote_value(std::string_view farm_key, std::string_view key,
                                                  std::string_view value);

}  // namespace anchorfs::cache
