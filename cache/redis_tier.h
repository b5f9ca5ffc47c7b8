// The shared remote tier: a Redis server many machines read facts and graphs from and write
// theirs to. Slow, absent or misbehaving, it costs at most one bounded wait and one warning.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cache/cache_location.h"
#include "cache/remote_address.h"
#include "sync/mutex.h"

struct redisContext;

namespace anchorfs::cache {

struct RemoteOptions {
  RemoteAddress address;
  std::chrono::milliseconds timeout{400};      // connecting, and each command or batch
  size_t max_value_bytes = size_t{256} << 20;  // a longer value is refused unread
  WarningSink warn;
};

// Thread-safety: every member may be called from any thread (one connection, one mutex).
// The first failure (refused, timed out, an error reply, a broken connection) warns once and
// turns the tier off for the rest of the process: every later call is an immediate miss/no-op.
class RedisTier {
 public:
  explicit RedisTier(RemoteOptions options);  // connects (bounded by options.timeout)
  ~RedisTier();
  RedisTier(const RedisTier&) = delete;
  RedisTier& operator=(const RedisTier&) = delete;

  // The raw value under `key`, unverified; nullopt when absent, too long, or the tier is off.
  std::optional<std::string> get(std::string_view key);
  // Sets every (key, value) in one pipelined batch.
  void put(const std::vector<std::pair<std::string, std::string>>& records);

  bool up() const;
  // Stops using the server for the rest of the process, with the one warning (`why`).
  void turn_off(const std::string& why);

 private:
  void fail_locked(const std::string& why) REQUIRES(mutex_);

  RemoteOptions options_;
  mutable sync::Mutex mutex_;
  redisContext* context_ GUARDED_BY(mutex_) = nullptr;  // null once off
};

}  // namespace anchorfs::cache
