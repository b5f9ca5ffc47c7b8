// git's pkt-line framing (gitprotocol-common), as the long-running filter protocol uses it.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace anchorfs::cli {

// Reads and writes pkt-lines on two stdio streams. Errors throw CliError.
class PktLineStream {
 public:
  PktLineStream(std::FILE* in, std::FILE* out) : in_(in), out_(out) {}

  // The next packet's payload; nullopt for a flush packet ("0000"). `at_eof` is set (and nullopt
  // returned) when the input ends cleanly before a packet.
  std::optional<std::string> read(bool* at_eof = nullptr);
  // A text packet: `line` plus "\n".
  void write_line(std::string_view line);
  // `data` split into as many packets as needed (none when empty).
  void write_data(std::string_view data);
  void flush_packet();
  void send();  // pushes buffered output to git

 private:
  std::FILE* in_;
  std::FILE* out_;
};

// The payload of a text packet without its trailing "\n".
std::string_view without_newline(std::string_view payload);

}  // namespace anchorfs::cli
