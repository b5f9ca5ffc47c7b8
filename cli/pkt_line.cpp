// pkt-line reading and writing: four hex digits of length (itself included), then the payload.
#include "cli/pkt_line.h"

#include <algorithm>
#include <cstring>

#include "cli/cli_error.h"

namespace anchorfs::cli {
namespace {

constexpr size_t kMaxPayload = 65516;  // LARGE_PACKET_DATA_MAX

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string> PktLineStream::read(bool* at_eof) {
  if (at_eof != nullptr) *at_eof = false;
  char header[4];
  const size_t got = std::fread(header, 1, sizeof header, in_);
  if (got == 0 && at_eof != nullptr && std::feof(in_)) {
    *at_eof = true;
    return std::nullopt;
  }
  if (got != sizeof header) throw CliError("git-filter", "truncated pkt-line header");
  size_t length = 0;
  for (char c : header) {
    const int value = hex_value(c);
    if (value < 0) throw CliError("git-filter", "bad pkt-line header");
    length = length * 16 + static_cast<size_t>(value);
  }
  if (length == 0) return std::nullopt;
  if (length < 4 || length - 4 > kMaxPayload) {
    throw CliError("git-filter", "unexpected pkt-line length " + std::to_string(length));
  }
  std::string payload(length - 4, '\0');
  if (std::fread(payload.data(), 1, payload.size(), in_) != payload.size()) {
    throw CliError("git-filter", "truncated pkt-line");
  }
  return payload;
}

void PktLineStream::write_data(std::string_view data) {
  while (!data.empty()) {
    const size_t chunk = std::min(data.size(), kMaxPayload);
    char header[5];
    std::snprintf(header, sizeof header, "%04zx", chunk + 4);
    if (std::fwrite(header, 1, 4, out_) != 4 || std::fwrite(data.data(), 1, chunk, out_) != chunk) {
      throw CliError("git-filter", std::string("writing to git: ") + std::strerror(errno));
    }
    data.remove_prefix(chunk);
  }
}

void PktLineStream::write_line(std::string_view line) {
  std::string text(line);
  text += '\n';
  write_data(text);
}

void PktLineStream::flush_packet() {
  if (std::fwrite("0000", 1, 4, out_) != 4) {
    throw CliError("git-filter", std::string("writing to git: ") + std::strerror(errno));
  }
}

void PktLineStream::send() {
  if (std::fflush(out_) != 0) {
    throw CliError("git-filter", std::string("writing to git: ") + std::strerror(errno));
  }
}

std::string_view without_newline(std::string_view payload) {
  if (payload.ends_with('\n')) payload.remove_suffix(1);
  return payload;
}

}  // namespace anchorfs::cli
