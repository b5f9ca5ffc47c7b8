// Parsing `redis://[user:password@]host:port[/db]`, and showing it without its credentials.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace anchorfs::cache {

struct RemoteAddress {
  std::string host;
  int port = 6379;
  int db = 0;
  std::string user;      // "" with a password alone: the default user (AUTH password)
  std::string password;  // "" = no AUTH

  // `redis://host:port/db`, with `***@` standing for any credentials: safe to print or log.
  std::string display() const;
};

// The address, or nullopt with `error` set to a message that never repeats the credentials.
std::optional<RemoteAddress> parse_remote_address(std::string_view url, std::string& error);

}  // namespace anchorfs::cache
