// Starting, querying and killing a throw-away redis-server on 127.0.0.1.
#include "redis_server.h"

#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

namespace anchorfs::cache::testing {
namespace {

// A port the kernel just handed out on loopback; free unless something grabs it meanwhile.
int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using Context = std::unique_ptr<redisContext, ContextDeleter>;

Context connect(int port, const std::string& password) {
  Context c(redisConnectWithTimeout("127.0.0.1", port, {1, 0}));
  if (!c || c->err != 0) return nullptr;
  if (!password.empty()) {
    auto* reply = static_cast<redisReply*>(redisCommand(c.get(), "AUTH %s", password.c_str()));
    const bool ok = reply != nullptr && reply->type != REDIS_REPLY_ERROR;
    if (reply != nullptr) freeReplyObject(reply);
    if (!ok) return nullptr;
  }
  return c;
}

}  // namespace

RedisServer::RedisServer(const std::string& dir, const std::string& password)
    : password_(password) {
  port_ = free_loopback_port();
  const std::string port = std::to_string(port_);
  pid_ = ::fork();
  if (pid_ == 0) {
    std::vector<std::string> args = {"redis-server",
                                     "--port",
                                     port,
                                     "--bind",
                                     "127.0.0.1",
                                     "--dir",
                                     dir,
                                     "--save",
                                     "",
                                     "--appendonly",
                                     "no",
                                     "--daemonize",
                                     "no",
                                     "--loglevel",
                                     "warning",
                                     "--logfile",
                                     dir + "/redis.log"};
    if (!password.empty()) {
      args.insert(args.end(), {"--requirepass", password});
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp("redis-server", argv.data());
    ::_exit(127);
  }
  // Ready once it answers: wait on that condition, with a deadline.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    if (Context c = connect(port_, password_)) {
      auto* reply = static_cast<redisReply*>(redisCommand(c.get(), "PING"));
      const bool pong = reply != nullptr && reply->type == REDIS_REPLY_STATUS;
      if (reply != nullptr) freeReplyObject(reply);
      if (pong) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill();
}

RedisServer::~RedisServer() {
  kill();
}

void RedisServer::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

std::string RedisServer::url(int db) const {
  return "redis://" + (password_.empty() ? std::string() : ":" + password_ + "@") +
         "127.0.0.1:" + std::to_string(port_) + "/" + std::to_string(db);
}

std::string RedisServer::get(const std::string& key) const {
  Context c = connect(port_, password_);
  if (!c) throw std::runtime_error("redis-server unreachable");
  auto* reply = static_cast<redisReply*>(redisCommand(c.get(), "GET %b", key.data(), key.size()));
  std::string value;
  if (reply != nullptr && reply->type == REDIS_REPLY_STRING) value.assign(reply->str, reply->len);
  if (reply != nullptr) freeReplyObject(reply);
  return value;
}

void RedisServer::set(const std::string& key, const std::string& value) const {
  Context c = connect(port_, password_);
  if (!c) throw std::runtime_error("redis-server unreachable");
  auto* reply = static_cast<redisReply*>(
      redisCommand(c.get(), "SET %b %b", key.data(), key.size(), value.data(), value.size()));
  if (reply != nullptr) freeReplyObject(reply);
}

std::vector<std::string> RedisServer::keys(const std::string& pattern) const {
  Context c = connect(port_, password_);
  if (!c) throw std::runtime_error("redis-server unreachable");
  auto* reply = static_cast<redisReply*>(redisCommand(c.get(), "KEYS %s", pattern.c_str()));
  std::vector<std::string> out;
  if (reply != nullptr && reply->type == REDIS_REPLY_ARRAY) {
    for (size_t i = 0; i < reply->elements; ++i) {
      out.emplace_back(reply->element[i]->str, reply->element[i]->len);
    }
  }
  if (reply != nullptr) freeReplyObject(reply);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace anchorfs::cache::testing
