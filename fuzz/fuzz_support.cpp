// Scratch repository and invariant helpers for the libFuzzer targets.
#include "fuzz/fuzz_support.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace anchorfs::fuzz {

std::vector<SourceFile> split_modules(std::string_view input) {
  static constexpr std::string_view kMarker = "\n#@@file\n";
  static constexpr std::string_view kExtension = "@@ext:";
  static const char* const kNames[] = {"a.", "b.", "pkg/c."};
  std::string extension = "py";
  if (input.starts_with(kExtension)) {
    const size_t end = input.find('\n');
    const std::string_view named = input.substr(kExtension.size(), end - kExtension.size());
    // Letters only, so the name stays one path component with one extension.
    if (!named.empty() && named.size() <= 8 &&
        named.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == std::string_view::npos) {
      extension = named;
    }
    input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
  }
  std::vector<SourceFile> files;
  for (const char* name : kNames) {
    const size_t cut =
        files.size() + 1 < std::size(kNames) ? input.find(kMarker) : std::string_view::npos;
    files.push_back({name + extension, std::string(input.substr(0, cut))});
    if (cut == std::string_view::npos) break;
    input.remove_prefix(cut + kMarker.size());
  }
  return files;
}

ScratchRepo::ScratchRepo() {
  // Prefer a RAM-backed directory: every fuzz input is written once.
  std::string base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
  std::string templ = base + "/anchorfs-fuzz-XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) fail("mkdtemp", templ);
  root_ = templ;
  std::filesystem::create_directories(root_ + "/pkg");
  std::ofstream(root_ + "/pkg/__init__.py");
}

ScratchRepo::~ScratchRepo() {
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

void ScratchRepo::write(const std::vector<SourceFile>& files) {
  for (const std::string& path : written_) std::filesystem::remove(root_ + "/" + path);
  written_.clear();
  for (const SourceFile& file : files) {
    std::ofstream out(root_ + "/" + file.path, std::ios::binary | std::ios::trunc);
    out.write(file.bytes.data(), static_cast<std::streamsize>(file.bytes.size()));
    if (!out) fail("cannot write scratch file", file.path);
    written_.push_back(file.path);
  }
}

bool has_delimiter_like_line(std::string_view text) {
  constexpr size_t npos = std::string_view::npos;
  // strip() judges the first line after a UTF-8 byte order mark.
  size_t start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (start < text.size()) {
    size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    const size_t first = line.find_first_not_of(" \t\f\v");
    // Paper delimiters hold "===", lean headers "@function", "@class" or "@file".
    const bool comment = first != std::string_view::npos &&
                         (line[first] == '#' || line.substr(first).starts_with("//"));
    if (comment &&
        (line.find("===") != std::string_view::npos || line.find("@function") != npos ||
         line.find("@class") != npos || line.find("@file") != npos)) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

void fail(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "anchorfs fuzz invariant violated: %.*s\n%.*s\n",
               static_cast<int>(what.size()), what.data(), static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

}  // namespace anchorfs::fuzz
