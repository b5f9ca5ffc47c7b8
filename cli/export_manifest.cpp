// The export manifest as a line-oriented text file (format in docs/cli.md, "anchorfs import").
#include "cli/export_manifest.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <fmt/format.h>

#include "analysis/unique_fd.h"
#include "cli/cli_error.h"
#include "cli/file_io.h"

namespace anchorfs::cli {
namespace manifest_format {

constexpr std::string_view kHeader = "anchorfs-export-manifest 1";

// A string as one line's last field (`token`: as a field that ends at a space).
std::string escaped(std::string_view text, bool token) {
  std::string out;
  out.reserve(text.size());
  size_t plain_from = 0;  // runs of bytes that need no escape are appended at once
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    const bool plain = c != '\\' && byte >= 0x20 && byte != 0x7f && !(token && c == ' ');
    if (plain) continue;
    out.append(text, plain_from, i - plain_from);
    plain_from = i + 1;
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += fmt::format("\\x{:02x}", byte);
    }
  }
  out.append(text, plain_from, text.size() - plain_from);
  return out;
}

class LineReader {
 public:
  LineReader(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  // The next line's fields: `fixed` space-separated ones, then the rest of the line.
  bool next(std::vector<std::string_view>& fields, size_t fixed) {
    fields.clear();
    if (pos_ >= text_.size()) return false;
    ++number_;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) fail("no final newline");
    std::string_view line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    for (size_t i = 0; i < fixed; ++i) {
      const size_t space = line.find(' ');
      if (space == std::string_view::npos) fail("too few fields");
      fields.push_back(line.substr(0, space));
      line.remove_prefix(space + 1);
    }
    fields.push_back(line);
    return true;
  }

  // The first word of the line after this one, without consuming it ("" at the end).
  std::string_view peek_kind() const {
    const std::string_view rest = text_.substr(pos_);
    return rest.substr(0, rest.find_first_of(" \n"));
  }

  template <typename T>
  T number(std::string_view field, int base = 10) const {
    T value{};
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value, base);
    if (error != std::errc() || end != field.data() + field.size()) fail("not a number");
    return value;
  }

  std::string unescaped(std::string_view field) const {
    std::string out;
    out.reserve(field.size());
    for (size_t i = 0; i < field.size(); ++i) {
      if (field[i] != '\\') {
        out += field[i];
        continue;
      }
      if (++i == field.size()) fail("a lone backslash");
      if (field[i] == '\\') {
        out += '\\';
      } else if (field[i] == 'n') {
        out += '\n';
      } else if (field[i] == 'x' && i + 2 < field.size()) {
        out += static_cast<char>(number<unsigned>(field.substr(i + 1, 2), 16));
        i += 2;
      } else {
        fail("an unknown escape");
      }
    }
    return out;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw CliError(path_, fmt::format("line {}: {} (not a manifest written by anchorfs export)",
                                      number_, why));
  }

 private:
  std::string_view text_;
  const std::string& path_;
  size_t pos_ = 0;
  size_t number_ = 0;
};

std::string hash_text(const ContentHash& hash) {
  return fmt::format("{:016x}{:016x}", hash.high, hash.low);
}

ContentHash parse_hash(const LineReader& reader, std::string_view text) {
  if (text.size() != 32) reader.fail("a malformed hash");
  return {reader.number<uint64_t>(text.substr(0, 16), 16),
          reader.number<uint64_t>(text.substr(16), 16)};
}

std::string serialise(const Manifest& manifest) {
  std::string out(kHeader);
  out += "\nrepo " + escaped(manifest.repo, false) + "\n";
  for (const std::string& block : manifest.served_blocks) out += "block " + escaped(block, false) + "\n";
  for (const ManifestEntry& entry : manifest.entries) {
    switch (entry.kind) {
      case ManifestEntry::Kind::kDirectory:
        out += fmt::format("dir {:o} {}\n", entry.mode, escaped(entry.path, false));
        break;
      case ManifestEntry::Kind::kSymlink:
        out += fmt::format("symlink {:o} {} {}\n", entry.mode, escaped(entry.path, true),
                           escaped(entry.target, false));
        break;
      case ManifestEntry::Kind::kFile: {
        const render::FileVersion& v = entry.version;
        out += fmt::format("file {:o} {} {} {} {} {} {} {} {} {} {}\n", entry.mode, entry.copy_mtime_ns, v.device, v.inode,
                           v.size, v.mtime_ns, v.ctime_ns, entry.copy_size, hash_text(entry.copy_hash),
                           entry.plan.insertions.size(), escaped(entry.path, false));
        for (const render::Insertion& insertion : entry.plan.insertions) {
          out += fmt::format("tag {} {}\n", insertion.offset, escaped(insertion.text, false));
        }
        break;
      }
    }
  }
  return out;
}

Manifest parse(std::string_view text, const std::string& path) {
  LineReader reader(text, path);
  std::vector<std::string_view> fields;
  if (!reader.next(fields, 0) || fields[0] != kHeader) reader.fail("no manifest header");
  Manifest manifest;
  if (!reader.next(fields, 1) || fields[0] != "repo") reader.fail("no repository line");
  manifest.repo = reader.unescaped(fields[1]);
  while (reader.peek_kind() == "block") {
    reader.next(fields, 1);
    manifest.served_blocks.push_back(reader.unescaped(fields[1]));
  }
  for (std::string_view kind = reader.peek_kind(); !kind.empty(); kind = reader.peek_kind()) {
    ManifestEntry entry;
    if (kind == "dir") {
      reader.next(fields, 2);
      entry.kind = ManifestEntry::Kind::kDirectory;
      entry.mode = reader.number<uint32_t>(fields[1], 8);
      entry.path = reader.unescaped(fields[2]);
    } else if (kind == "symlink") {
      reader.next(fields, 3);
      entry.kind = ManifestEntry::Kind::kSymlink;
      entry.mode = reader.number<uint32_t>(fields[1], 8);
      entry.path = reader.unescaped(fields[2]);
      entry.target = reader.unescaped(fields[3]);
    } else if (kind == "file") {
      reader.next(fields, 11);
      entry.kind = ManifestEntry::Kind::kFile;
      entry.mode = reader.number<uint32_t>(fields[1], 8);
      entry.copy_mtime_ns = reader.number<int64_t>(fields[2]);
      entry.version = {reader.number<uint64_t>(fields[3]), reader.number<uint64_t>(fields[4]),
                       reader.number<uint64_t>(fields[5]), reader.number<int64_t>(fields[6]),
                       reader.number<int64_t>(fields[7])};
      entry.copy_size = reader.number<uint64_t>(fields[8]);
      entry.copy_hash = parse_hash(reader, fields[9]);
      const auto tags = reader.number<size_t>(fields[10]);
      entry.path = reader.unescaped(fields[11]);
      for (size_t k = 0; k < tags; ++k) {
        if (!reader.next(fields, 2) || fields[0] != "tag") reader.fail("a missing tag line");
        entry.plan.insertions.push_back({reader.number<uint64_t>(fields[1]), reader.unescaped(fields[2])});
      }
    } else {
      reader.next(fields, 0);
      reader.fail("an unknown line");
    }
    manifest.entries.push_back(std::move(entry));
  }
  return manifest;
}

}  // namespace manifest_format

ContentHash hash_of(std::string_view bytes) {
  const XXH128_hash_t hash = XXH3_128bits(bytes.data(), bytes.size());
  return {hash.high64, hash.low64};
}

struct ContentHasher::State {
  XXH3_state_t* xxh = XXH3_createState();
  State() { XXH3_128bits_reset(xxh); }
  ~State() { XXH3_freeState(xxh); }
  State(const State&) = delete;
  State& operator=(const State&) = delete;
};

ContentHasher::ContentHasher() : state_(std::make_unique<State>()) {}
ContentHasher::~ContentHasher() = default;

void ContentHasher::update(std::string_view bytes) {
  XXH3_128bits_update(state_->xxh, bytes.data(), bytes.size());
}

ContentHash ContentHasher::digest() const {
  const XXH128_hash_t hash = XXH3_128bits_digest(state_->xxh);
  return {hash.high64, hash.low64};
}

render::FileVersion file_version_of(const struct stat& st) {
  const auto ns = [](const timespec& t) { return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; };
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
          static_cast<uint64_t>(st.st_size), ns(st.st_mtim), ns(st.st_ctim)};
}

ManifestEntry directory_entry(std::string path, uint32_t mode) {
  ManifestEntry entry;
  entry.kind = ManifestEntry::Kind::kDirectory;
  entry.path = std::move(path);
  entry.mode = mode;
  return entry;
}

ManifestEntry symlink_entry(std::string path, uint32_t mode, std::string target) {
  ManifestEntry entry = directory_entry(std::move(path), mode);
  entry.kind = ManifestEntry::Kind::kSymlink;
  entry.target = std::move(target);
  return entry;
}

std::string default_manifest_path(const std::string& outdir) {
  std::string path = outdir;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path + ".anchorfs-export";
}

void write_manifest(const Manifest& manifest, const std::string& path) {
  const std::string text = manifest_format::serialise(manifest);
  const std::string temporary = path + ".tmp";
  {
    const UniqueFd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (fd.get() < 0) throw CliError(temporary, errno_text(errno));
    write_all(fd.get(), text, temporary);
    if (::fsync(fd.get()) != 0) throw CliError(temporary, errno_text(errno));
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw CliError(path, errno_text(error));
  }
}

Manifest read_manifest(const std::string& path) {
  const std::string text = read_regular_file(path);
  return manifest_format::parse(text, path);
}

}  // namespace anchorfs::cli
