// RedisTier over hiredis: bounded connect and command timeouts, bounded reads, fail-once.
#include "cache/redis_tier.h"

#include <fmt/format.h>
#include <hiredis/hiredis.h>

#include <cerrno>
#include <string>

namespace anchorfs::cache {
namespace {

timeval as_timeval(std::chrono::milliseconds ms) {
  return {static_cast<time_t>(ms.count() / 1000),
          static_cast<suseconds_t>(ms.count() % 1000 * 1000)};
}

struct ReplyDeleter {
  void operator()(redisReply* reply) const {
    if (reply != nullptr) freeReplyObject(reply);
  }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

Reply run(redisContext* context, const std::vector<std::string_view>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const std::string_view arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  return Reply(static_cast<redisReply*>(
      redisCommandArgv(context, static_cast<int>(argv.size()), argv.data(), lengths.data())));
}

std::string describe(const redisContext* context, const redisReply* reply,
                     std::chrono::milliseconds timeout) {
  if (reply != nullptr && reply->type == REDIS_REPLY_ERROR) {
    return fmt::format("error reply: {}", std::string(reply->str, reply->len));
  }
  if (context != nullptr && context->err == REDIS_ERR_IO &&
      (errno == EAGAIN || errno == EWOULDBLOCK)) {
    return fmt::format("timed out after {} ms", timeout.count());
  }
  if (context != nullptr && context->err != 0) return context->errstr;
  return "unexpected reply";
}

}  // namespace

RedisTier::RedisTier(RemoteOptions options) : options_(std::move(options)) {
  const sync::MutexLock lock(mutex_);
  context_ = redisConnectWithTimeout(options_.address.host.c_str(), options_.address.port,
                                     as_timeval(options_.timeout));
  if (context_ == nullptr) {
    fail_locked("out of memory");
    return;
  }
  if (context_->err != 0) {
    fail_locked(context_->errstr);
    return;
  }
  redisSetTimeout(context_, as_timeval(options_.timeout));
  const RemoteAddress& a = options_.address;
  if (!a.password.empty()) {
    Reply auth = a.user.empty() ? run(context_, {"AUTH", a.password})
                                : run(context_, {"AUTH", a.user, a.password});
    if (!auth || auth->type == REDIS_REPLY_ERROR) {
      // The reply may quote what it was given; never pass it on.
      fail_locked(auth ? "authentication failed" : describe(context_, nullptr, options_.timeout));
      return;
    }
  }
  if (a.db != 0) {
    const std::string db = std::to_string(a.db);
    Reply select = run(context_, {"SELECT", db});
    if (!select || select->type == REDIS_REPLY_ERROR) {
      fail_locked(describe(context_, select.get(), options_.timeout));
    }
  }
}

RedisTier::~RedisTier() {
  const sync::MutexLock lock(mutex_);
  if (context_ != nullptr) redisFree(context_);
}

bool RedisTier::up() const {
  const sync::MutexLock lock(mutex_);
  return context_ != nullptr;
}

void RedisTier::turn_off(const std::string& why) {
  const sync::MutexLock lock(mutex_);
  if (context_ != nullptr) fail_locked(why);
}

void RedisTier::fail_locked(const std::string& why) {
  if (context_ != nullptr) {
    redisFree(context_);
    context_ = nullptr;
  }
  emit_warning(options_.warn,
               fmt::format("remote cache {} unusable ({}); continuing with the local cache only",
                           options_.address.display(), why));
}

std::optional<std::string> RedisTier::get(std::string_view key) {
  const sync::MutexLock lock(mutex_);
  if (context_ == nullptr) return std::nullopt;
  // GETRANGE bounds what a hostile server can make us read: one byte past the limit is enough
  // to refuse the value. A missing key reads as "" (and "" is no valid record either).
  const std::string last = std::to_string(options_.max_value_bytes);
  Reply reply = run(context_, {"GETRANGE", key, "0", last});
  if (!reply || reply->type == REDIS_REPLY_ERROR) {
    fail_locked(describe(context_, reply.get(), options_.timeout));
    return std::nullopt;
  }
  if (reply->type != REDIS_REPLY_STRING || reply->len == 0 ||
      reply->len > options_.max_value_bytes) {
    return std::nullopt;
  }
  return std::string(reply->str, reply->len);
}

void RedisTier::put(const std::vector<std::pair<std::string, std::string>>& records) {
  const sync::MutexLock lock(mutex_);
  if (context_ == nullptr || records.empty()) return;
  for (const auto& [key, value] : records) {
    const char* argv[] = {"SET", key.data(), value.data()};
    const size_t lengths[] = {3, key.size(), value.size()};
    if (redisAppendCommandArgv(context_, 3, argv, lengths) != REDIS_OK) {
      fail_locked(describe(context_, nullptr, options_.timeout));
      return;
    }
  }
  for (size_t i = 0; i < records.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(context_, &raw) != REDIS_OK) {
      fail_locked(describe(context_, nullptr, options_.timeout));
      return;
    }
    Reply reply(static_cast<redisReply*>(raw));
    if (reply->type == REDIS_REPLY_ERROR) {
      fail_locked(describe(context_, reply.get(), options_.timeout));
      return;
    }
  }
}

}  // namespace anchorfs::cache
