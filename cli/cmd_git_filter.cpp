// `anchorfs git-filter --checkout REPO`: git's long-running clean filter inside a mount's view.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/pkt_line.h"
#include "fs/source_file.h"
#include "render/delimiter.h"
#include "render/tag_plan.h"

namespace anchorfs::cli {
namespace {

// The checkout's bytes of `path` (relative to the repository), or nullopt when it has none.
std::optional<std::string> checkout_bytes(int root_fd, const std::string& path) {
  const int fd = fs::open_source(root_fd, path);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> bytes;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    std::string data(static_cast<size_t>(st.st_size), '\0');
    if (fs::pread_fully(fd, data.data(), data.size(), 0) == static_cast<ssize_t>(data.size())) {
      bytes = std::move(data);
    }
  }
  ::close(fd);
  return bytes;
}

// Whether `line`, the last bytes of a read, can be the start of a comment line.
bool starts_comment_line(std::string_view line) {
  const size_t text = line.find_first_not_of(" \t\f");
  if (text == std::string_view::npos) return true;
  const std::string_view rest = line.substr(text);
  for (const std::string_view marker : render::comment_markers()) {
    if (rest.starts_with(marker) || marker.starts_with(rest)) return true;
  }
  return false;
}

// Whether `tail`, the end of a read after its last whole tag block, is `rest` (the checkout's
// bytes after that point) up to a line where the read was cut inside a tag block: from the line
// where the two part on, only comment lines, the first of them, when whole, opening a block (a
// delimiter or a lean header).
bool cut_inside_block(std::string_view tail, std::string_view rest) {
  size_t same = 0;
  while (same < tail.size() && same < rest.size() && tail[same] == rest[same]) ++same;
  if (same == tail.size()) return true;  // cut between blocks, in the checkout's own bytes
  const size_t newline = same == 0 ? std::string_view::npos : tail.rfind('\n', same - 1);
  size_t begin = newline == std::string_view::npos ? 0 : newline + 1;
  for (bool first = true; begin < tail.size(); first = false) {
    const size_t end = tail.find('\n', begin);
    if (end == std::string_view::npos) return starts_comment_line(tail.substr(begin));
    std::string_view line = tail.substr(begin, end - begin);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (first ? !render::delimiter_kind(line) && !render::is_lean_header(line)
              : !render::after_comment_marker(line)) {
      return false;
    }
    begin = end + 1;
  }
  return true;
}

// Whether `content` is `checkout` with tag blocks inserted: dropping some of the blocks `strip`
// would remove (never any other byte) gives exactly `checkout`. A block whose bytes the checkout
// itself holds at that point (a README example, a string literal) is kept, so a file with
// tag-shaped lines of its own is recognised as its view too. The start of such a view counts
// too, cut anywhere: a stale read (git reads the size its lstat gave, and a re-tag may come
// between the two).
bool renders(std::string_view content, std::string_view checkout) {
  size_t at = 0;
  size_t kept = 0;
  for (const render::ByteRange& block : render::tag_block_ranges(content)) {
    const std::string_view before = content.substr(at, block.begin - at);
    if (checkout.substr(kept, before.size()) != before) return false;
    kept += before.size();
    const std::string_view text = content.substr(block.begin, block.end - block.begin);
    if (checkout.substr(kept).starts_with(text)) kept += text.size();  // the checkout's own lines
    at = block.end;
  }
  const std::string_view tail = content.substr(at);
  const std::string_view rest = checkout.substr(kept);
  return cut_inside_block(tail, rest);
}

// What git should store for the view's bytes of `path`. The checkout's bytes are the truth in a
// view: bytes equal to them are stored as they are (a file served untagged, even one holding
// delimiter lines of its own), and so are the checkout's bytes when the view is them tagged
// (`renders`), or a stale read of them: the current view cut short (git reads as many bytes as
// its stat said, and a re-tag may come between the two) or the current bytes padded with
// newlines. Anything else (an edit not yet written back) loses its tag blocks.
std::string clean(int root_fd, const std::string& path, std::string content) {
  const std::optional<std::string> checkout = checkout_bytes(root_fd, path);
  if (checkout && *checkout == content) return content;
  if (checkout && renders(content, *checkout)) return *checkout;
  std::string stripped = render::strip(content);
  if (!checkout || stripped == *checkout) return stripped;
  const bool padded = content.starts_with(*checkout) &&
                      content.find_first_not_of('\n', checkout->size()) == std::string::npos;
  return padded ? *checkout : stripped;
}

// Key/value packets up to a flush: "key=value" lines.
std::vector<std::pair<std::string, std::string>> read_keys(PktLineStream& git, bool* at_eof) {
  std::vector<std::pair<std::string, std::string>> keys;
  while (std::optional<std::string> packet = git.read(at_eof)) {
    const std::string_view line = without_newline(*packet);
    const size_t equals = line.find('=');
    if (equals == std::string_view::npos) {
      keys.emplace_back(std::string(line), "");
    } else {
      keys.emplace_back(std::string(line.substr(0, equals)), std::string(line.substr(equals + 1)));
    }
    at_eof = nullptr;  // only the first packet may meet a clean end of input
  }
  return keys;
}

std::string value_of(const std::vector<std::pair<std::string, std::string>>& keys,
                     const std::string& key) {
  for (const auto& [name, value] : keys) {
    if (name == key) return value;
  }
  return {};
}

// `under`: git names files from the nested repository it runs in ("" for the checkout's own).
int run_git_filter(const std::string& checkout, const std::string& under) {
  const int root_fd = ::open(checkout.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) throw CliError(checkout, errno_text(errno));
  PktLineStream git(stdin, stdout);
  // Handshake: git-filter-client, version=2 / git-filter-server, version=2.
  const auto hello = read_keys(git, nullptr);
  if (hello.empty() || hello[0].first != "git-filter-client") {
    throw CliError("git-filter", "not started by git's filter protocol");
  }
  git.write_line("git-filter-server");
  git.write_line("version=2");
  git.flush_packet();
  git.send();
  bool clean_offered = false;
  for (const auto& [key, value] : read_keys(git, nullptr)) {
    clean_offered = clean_offered || (key == "capability" && value == "clean");
  }
  // Only clean: checkouts write the checkout's own bytes, which git passes through unfiltered.
  if (clean_offered) git.write_line("capability=clean");
  git.flush_packet();
  git.send();
  for (;;) {
    bool at_eof = false;
    const auto request = read_keys(git, &at_eof);
    if (at_eof) break;
    std::string content;
    while (std::optional<std::string> packet = git.read()) content += *packet;
    if (value_of(request, "command") != "clean") {
      git.write_line("status=error");
      git.flush_packet();
      git.send();
      continue;
    }
    const std::string cleaned =
        clean(root_fd, (under.empty() ? "" : under + "/") + value_of(request, "pathname"),
              std::move(content));
    git.write_line("status=success");
    git.flush_packet();
    git.write_data(cleaned);
    git.flush_packet();
    git.flush_packet();  // an empty status list: "success" stands
    git.send();
  }
  ::close(root_fd);
  return kExitOk;
}

}  // namespace

Command add_git_filter_command(CLI::App& app) {
  auto checkout = std::make_shared<std::string>();
  auto under = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand(
      "git-filter",
      "git's clean filter inside a mount (started by git, configured in the view's .git/config)");
  command->group("");  // not for people: git starts it
  command->add_option("--checkout", *checkout, "The mounted repository")->required();
  command->add_option("--under", *under,
                      "The nested repository git runs in, relative to the mounted one");
  return {command, [checkout, under] { return run_git_filter(*checkout, *under); }};
}

}  // namespace anchorfs::cli
