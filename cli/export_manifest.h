// The record `anchorfs export` keeps of what it served, which `anchorfs import` untags by.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "render/tag_plan.h"
#include "render/untag.h"

namespace anchorfs::cli {

// XXH3-128 of a file's bytes: whether an exported file is still what was written.
struct ContentHash {
  uint64_t high = 0;
  uint64_t low = 0;
  bool operator==(const ContentHash&) const = default;
};
ContentHash hash_of(std::string_view bytes);

// The same hash over bytes given in pieces.
class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;
  void update(std::string_view bytes);
  ContentHash digest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The identity of the file version `st` describes (fs/store.h keeps the mount's own).
render::FileVersion file_version_of(const struct stat& st);

struct ManifestEntry {
  enum class Kind { kDirectory, kFile, kSymlink };
  Kind kind = Kind::kFile;
  std::string path;   // repository-relative, '/'-separated
  uint32_t mode = 0;  // permission bits as exported
  // Files: the checkout version the copy was made from (all zero when none is known: then only
  // a checkout holding exactly those bytes counts as unchanged), the plan that made the copy's
  // bytes from it, and those bytes' size and hash.
  render::FileVersion version;
  render::TagPlan plan;
  uint64_t copy_size = 0;
  ContentHash copy_hash;
  int64_t copy_mtime_ns = 0;  // files: the copy's modification time as written or last imported
  std::string target;  // symlinks
};

// A directory's or symlink's entry (a file's is filled field by field).
ManifestEntry directory_entry(std::string path, uint32_t mode);
ManifestEntry symlink_entry(std::string path, uint32_t mode, std::string target);

struct Manifest {
  std::string repo;  // canonical
  std::vector<ManifestEntry> entries;
  // Every tag block the export served (the whole-block rule of the store removes these wherever
  // they are copied to).
  std::vector<std::string> served_blocks;
};

// Where `anchorfs export` puts the manifest of OUTDIR: beside it, so the copy holds only the
// tree and the agent never reads its tags twice.
std::string default_manifest_path(const std::string& outdir);

// Writes `manifest` to `path` atomically (a temporary beside it, renamed). Throws CliError.
void write_manifest(const Manifest& manifest, const std::string& path);

// Reads a manifest written by write_manifest. Throws CliError naming `path` for anything else.
Manifest read_manifest(const std::string& path);

}  // namespace anchorfs::cli
