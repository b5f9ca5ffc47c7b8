// A private redis-server for a test: loopback, a free port, a temporary directory, no
// persistence; killed when the object goes.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace anchorfs::cache::testing {

class RedisServer {
 public:
  // Starts the server and waits (with a deadline) until it answers PING; aborts the test
  // binary's expectations via `ok()` when it cannot.
  explicit RedisServer(const std::string& dir, const std::string& password = "");
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  bool ok() const { return pid_ > 0; }
  int port() const { return port_; }
  std::string url(int db = 0) const;  // redis://[:password@]127.0.0.1:port/db
  void kill();                        // SIGKILL and reap; later calls do nothing

  // Direct access for the tests (its own connection, not anchorfs's).
  std::string get(const std::string& key) const;
  void set(const std::string& key, const std::string& value) const;
  std::vector<std::string> keys(const std::string& pattern) const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string password_;
};

}  // namespace anchorfs::cache::testing
