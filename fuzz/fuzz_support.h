// Helpers shared by the libFuzzer targets: a private scratch repository and the tag invariants.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::fuzz {

// A file of the scratch repository: repository-relative path and bytes.
struct SourceFile {
  std::string path;
  std::string bytes;
};

// Splits fuzz input into up to three modules (a.EXT, b.EXT, pkg/c.EXT) at lines "#@@file", so
// one input can exercise cross-module imports, calls and inheritance. EXT is "py" unless the
// input starts with a line "@@ext:EXT" naming another language's extension (go, rs, java, js,
// jsx, ts, tsx, ...), which is then not part of the first module.
std::vector<SourceFile> split_modules(std::string_view input);

// A directory private to this process that holds exactly `files` after each call.
class ScratchRepo {
 public:
  ScratchRepo();
  ~ScratchRepo();
  ScratchRepo(const ScratchRepo&) = delete;
  ScratchRepo& operator=(const ScratchRepo&) = delete;

  void write(const std::vector<SourceFile>& files);
  const std::string& root() const { return root_; }

 private:
  std::string root_;
  std::vector<std::string> written_;
};

// True when `text` has a line that strip() could take for a tag delimiter (a `#` or `//` comment
// holding "===", "@function", "@class" or "@file"); the round-trip invariant strip(apply(x)) == x
// only holds for sources without one.
bool has_delimiter_like_line(std::string_view text);

// Aborts with a message (libFuzzer then saves the input as a crash).
[[noreturn]] void fail(std::string_view what, std::string_view detail);

}  // namespace anchorfs::fuzz
