// The interface through which analysis reuses per-file facts across runs (implemented in cache/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace anchorfs::analysis {

// xxh3-128 of a file's bytes.
struct ContentDigest {
  uint64_t low = 0;
  uint64_t high = 0;
  friend bool operator==(const ContentDigest&, const ContentDigest&) = default;
};

ContentDigest digest_of(std::string_view bytes);

// xxh3-128 over everything whole-repository resolution depends on (analysis/resolution_key.h):
// equal keys mean an equal Analysis.
struct ResolutionKey {
  uint64_t low = 0;
  uint64_t high = 0;
  friend bool operator==(const ResolutionKey&, const ResolutionKey&) = default;
};

// What a per-file facts entry is keyed by: the file's bytes, and which front end in which
// facts version produced it (both supplied by the front end, opaque to the cache). Entries of
// one front end or version never answer for another, so extending one language leaves every
// other language's entries valid.
struct FactsKey {
  ContentDigest digest;
  std::string_view front_end;      // LanguageFrontEnd::name()
  std::string_view facts_version;  // LanguageFrontEnd::facts_version()
};

// Serialized per-file facts by FactsKey, and serialized whole analyses (graph, skipped files,
// statistics) by resolution key. Implementations are safe to call from several threads at once.
// A miss loads as nullopt; so does anything the implementation cannot verify.
class FactCache {
 public:
  virtual ~FactCache() = default;
  virtual std::optional<std::string> load(const FactsKey& key) = 0;
  virtual void store(const FactsKey& key, std::string_view facts) = 0;

  // Whole analyses are optional: a cache that keeps none always misses (and analysis resolves).
  virtual std::optional<std::string> load_graph(const ResolutionKey& /*key*/) {
    return std::nullopt;
  }
  // By value, as store_derived: a serialized analysis or view is moved into the pending write, not
  // copied (hundreds of MB on a kernel, each copy fresh pages).
  virtual void store_graph(const ResolutionKey& /*key*/, std::string /*analysis*/) {}

  // Surveys by stat alias (analysis/resolution_key.h, stat_alias_key): every source's digest as
  // a tree whose files kept their stat identity had them. Optional like whole analyses; never
  // shared beyond this machine (inode numbers mean nothing elsewhere); not graph lookups.
  virtual std::optional<std::string> load_alias(const ResolutionKey& /*alias*/) {
    return std::nullopt;
  }
  virtual void store_alias(const ResolutionKey& /*alias*/, std::string_view /*survey*/) {}

  // The survey memo kept across runs (analysis/source_survey.h, SurveyMemo::record): each file's
  // stat identity and state, one record per tree and survey options (`key`, which stays the same
  // while files change), replaced by each survey that learnt a file. Optional, local like aliases.
  virtual std::optional<std::string> load_survey_memo(const ResolutionKey& /*key*/) {
    return std::nullopt;
  }
  virtual void replace_survey_memo(const ResolutionKey& /*key*/, std::string_view /*memo*/) {}

  // What a caller derived from a whole analysis (the rendered view), under a key it derives from
  // the analysis's resolution key: a warm start then loads neither facts nor the analysis. Like
  // aliases: optional and local to this machine.
  virtual std::optional<std::string> load_derived(const ResolutionKey& /*key*/) {
    return std::nullopt;
  }
  virtual void store_derived(const ResolutionKey& /*key*/, std::string /*bytes*/) {}
};

}  // namespace anchorfs::analysis
