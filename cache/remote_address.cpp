// redis:// URLs: host, port, database number and optional credentials (percent-decoded).
#include "cache/remote_address.h"

#include <fmt/format.h>

#include <charconv>

namespace anchorfs::cache {
namespace {

constexpr std::string_view kScheme = "redis://";

std::optional<int> parse_number(std::string_view text, int max) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0 || value > max) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    int value = 0;
    if (i + 2 >= text.size()) return std::nullopt;
    const auto [end, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
    if (ec != std::errc() || end != text.data() + i + 3) return std::nullopt;
    out += static_cast<char>(value);
    i += 2;
  }
  return out;
}

}  // namespace

std::string RemoteAddress::display() const {
  const bool bracket = host.find(':') != std::string::npos;
  return fmt::format("redis://{}{}{}{}:{}/{}", password.empty() ? "" : "***@", bracket ? "[" : "",
                     host, bracket ? "]" : "", port, db);
}

std::optional<RemoteAddress> parse_remote_address(std::string_view url, std::string& error) {
  if (!url.starts_with(kScheme)) {
    error = "a remote cache must be a redis://[user:password@]host:port[/db] URL";
    return std::nullopt;
  }
  std::string_view rest = url.substr(kScheme.size());
  RemoteAddress address;
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) {
    const std::string_view credentials = rest.substr(0, at);
    rest = rest.substr(at + 1);
    const size_t colon = credentials.find(':');
    auto user = percent_decode(credentials.substr(0, colon));
    auto password = colon == std::string_view::npos ? std::optional<std::string>("")
                                                    : percent_decode(credentials.substr(colon + 1));
    if (!user || !password) {
      error = "the remote cache URL has malformed credentials";
      return std::nullopt;
    }
    // `redis://secret@host` (no colon) is a password alone, as redis-cli reads it.
    if (colon == std::string_view::npos) std::swap(*user, *password);
    address.user = std::move(*user);
    address.password = std::move(*password);
  }
  std::string_view db_part;
  if (const size_t slash = rest.find('/'); slash != std::string_view::npos) {
    db_part = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  std::string_view port_part;
  if (rest.starts_with('[')) {  // [IPv6]:port
    const size_t close = rest.find(']');
    if (close == std::string_view::npos) {
      error = "the remote cache URL has an unterminated [host]";
      return std::nullopt;
    }
    address.host = std::string(rest.substr(1, close - 1));
    rest = rest.substr(close + 1);
    if (rest.starts_with(':')) port_part = rest.substr(1);
  } else {
    const size_t colon = rest.rfind(':');
    address.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) port_part = rest.substr(colon + 1);
  }
  if (address.host.empty()) {
    error = "the remote cache URL names no host";
    return std::nullopt;
  }
  if (!port_part.empty()) {
    const auto port = parse_number(port_part, 65535);
    if (!port || *port == 0) {
      error = "the remote cache URL has an invalid port";
      return std::nullopt;
    }
    address.port = *port;
  }
  if (!db_part.empty()) {
    const auto db = parse_number(db_part, 1 << 20);
    if (!db) {
      error = "the remote cache URL has an invalid database number";
      return std::nullopt;
    }
    address.db = *db;
  }
  return address;
}

}  // namespace anchorfs::cache
