// The first pass of analysis: read and digest every source file (the bytes are not kept).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/fact_cache.h"
#include "analysis/source_files.h"
#include "analysis/source_tree.h"
#include "analysis/stat_identity.h"

namespace anchorfs::analysis {

// What analysis needs to know about a source file before deciding whether to resolve at all.
struct SourceState {
  bool ok = false;              // readable and analysable (see read_source)
  std::string problem;          // why not, when !ok
  ContentDigest digest;         // of its bytes, when ok
  bool keep_unchanged = false;  // options.keep_unchanged accepted its bytes
};

// What one analysis's survey learnt of each file, for the next analysis to reuse wherever the
// file's stat identity (and front end) is unchanged: a refresh re-reads the files an edit
// touched, not the tree, and so does a mount whose memo was kept in the cache (record/decode).
// Racily clean files are never remembered. One memo serves one set of analysis options.
class SurveyMemo {
 public:
  const SourceState* find(std::string_view path, size_t front_end,
                          const StatIdentity& identity) const;
  bool empty() const { return files_.empty(); }
  // Replaces what is remembered by this survey of `sources` (states in the same order), written
  // over the buffers of what was.
  void remember(const SourceTree& tree, const std::vector<SourceFile>& sources,
                const std::vector<SourceState>& states, std::chrono::system_clock::time_point now);

  // What remember() would keep, as a cache record (in the order of `sources`, which is by path),
  // and how many files it holds.
  struct Record {
    std::string bytes;
    size_t files = 0;
  };
  static Record record(const SourceTree& tree, const std::vector<SourceFile>& sources,
                       const std::vector<SourceState>& states,
                       std::chrono::system_clock::time_point now);
  // The memo a record holds (it keeps the bytes: paths are not copied one by one); nullopt when
  // `bytes` is not one, or not in ascending path order.
  static std::optional<SurveyMemo> decode(std::string bytes);
  // Replaces what is remembered by what record() made of a survey.
  void remember(Record record);

  // The record's buffer, for tests that check remember() writes over it.
  const char* record_data() const { return bytes_.data(); }

 private:
  // record() into `into`, whose bytes' buffer is written over.
  static void write_record(const SourceTree& tree, const std::vector<SourceFile>& sources,
                           const std::vector<SourceState>& states,
                           std::chrono::system_clock::time_point now, Record& into);
  // Replaces what is remembered by what `bytes` holds, keeping files_' capacity; false (the memo
  // then half filled: the caller clears it) when they are not a record in ascending path order.
  bool read_record(std::string bytes);

  struct Known {
    uint32_t path_offset = 0;  // in bytes_
    uint32_t path_size = 0;
    size_t front_end = 0;
    StatIdentity identity;
    SourceState state;
  };
  std::string_view path(const Known& known) const {
    return std::string_view(bytes_).substr(known.path_offset, known.path_size);
  }
  std::string bytes_;
  std::vector<Known> files_;  // ascending by path
};

// One state per source, in the same order. Runs in parallel in the calling task arena; each
// file's bytes are dropped once digested, so memory stays at one file per thread. Files `memo`
// (optional) knows at their current stat identity are not read; `read` (optional) is set to
// how many files were.
std::vector<SourceState> survey_sources(const SourceTree& tree,
                                        const std::vector<SourceFile>& sources,
                                        const AnalysisOptions& options,
                                        const SurveyMemo* memo = nullptr, size_t* read = nullptr);

// A survey as a stat alias record holds it (17 bytes an analysable file, its problem's text for
// the others: a tree with a file too large to analyse still starts warm); the states back, for
// `count` files, when `bytes` is one.
std::string encode_survey(const std::vector<SourceState>& states);
std::optional<std::vector<SourceState>> decode_survey(std::string_view bytes, size_t count);

}  // namespace anchorfs::analysis
