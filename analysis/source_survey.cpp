// Reading and digesting every source file in parallel, and what a later survey can reuse.
#include "analysis/source_survey.h"

#include <tbb/parallel_for.h>

#include <cstring>

#include "analysis/byte_codec.h"
#include "analysis/language.h"

namespace anchorfs::analysis {
namespace {

// A file's kind in a survey record: not analysable (its problem follows), or analysable, its
// bytes kept unchanged or not (its digest follows).
constexpr uint64_t kNotAnalysable = 0;
constexpr uint64_t kAnalysable = 1;
constexpr uint64_t kKeptUnchanged = 2;

}  // namespace

const SourceState* SurveyMemo::find(const std::string& path, const StatIdentity& identity) const {
  const auto it = files_.find(path);
  return it != files_.end() && it->second.first == identity ? &it->second.second : nullptr;
}

void SurveyMemo::remember(const SourceTree& tree, const std::vector<SourceFile>& sources,
                          const std::vector<SourceState>& states,
                          std::chrono::system_clock::time_point now) {
  files_.clear();
  const std::vector<const TreeEntry*> entries = regular_entries(tree, sources);
  for (size_t i = 0; i < sources.size() && i < states.size(); ++i) {
    if (entries[i] == nullptr || racily_clean(*entries[i], now)) continue;
    files_.emplace(sources[i].path, std::pair{stat_identity(*entries[i]), states[i]});
  }
}

std::vector<SourceState> survey_sources(const SourceTree& tree,
                                        const std::vector<SourceFile>& sources,
                                        const AnalysisOptions& options, const SurveyMemo* memo) {
  std::vector<SourceState> states(sources.size());
  std::vector<const TreeEntry*> entries;
  if (memo != nullptr) entries = regular_entries(tree, sources);
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, sources.size(), 8),
      [&](const tbb::blocked_range<size_t>& range) {
        for (size_t i = range.begin(); i != range.end(); ++i) {
          SourceState& state = states[i];
          if (memo != nullptr && entries[i] != nullptr) {
            if (const SourceState* known = memo->find(sources[i].path, stat_identity(*entries[i]))) {
              state = *known;
              continue;
            }
          }
          SourceBytes source = read_source(tree.root, sources[i].path, options.max_file_bytes);
          if (!source.ok) {
            state.problem = std::move(source.problem);
            continue;
          }
          state.ok = true;
          state.digest = digest_of(source.bytes);
          state.keep_unchanged = options.keep_unchanged &&
              options.keep_unchanged(*front_ends()[sources[i].front_end], source.bytes);
        }
      });
  return states;
}

std::string encode_survey(const std::vector<SourceState>& states) {
  ByteWriter out;
  for (const SourceState& state : states) {
    if (!state.ok) {
      out.u64(kNotAnalysable);
      out.str(state.problem);
      continue;
    }
    out.u64(state.keep_unchanged ? kKeptUnchanged : kAnalysable);
    char digest[2 * sizeof(uint64_t)];
    std::memcpy(digest, &state.digest.low, sizeof(uint64_t));
    std::memcpy(digest + sizeof(uint64_t), &state.digest.high, sizeof(uint64_t));
    out.raw({digest, sizeof digest});
  }
  return out.take();
}

std::optional<std::vector<SourceState>> decode_survey(std::string_view bytes, size_t count) {
  ByteReader in(bytes);
  std::vector<SourceState> states(count);
  for (SourceState& state : states) {
    const uint64_t kind = in.u64();
    if (kind == kNotAnalysable) {
      state.problem = in.str();
      continue;
    }
    if (kind != kAnalysable && kind != kKeptUnchanged) return std::nullopt;
    const std::string digest = in.bytes(2 * sizeof(uint64_t));
    if (!in.ok()) return std::nullopt;
    state.ok = true;
    state.keep_unchanged = kind == kKeptUnchanged;
    std::memcpy(&state.digest.low, digest.data(), sizeof(uint64_t));
    std::memcpy(&state.digest.high, digest.data() + sizeof(uint64_t), sizeof(uint64_t));
  }
  if (!in.ok() || !in.at_end()) return std::nullopt;
  return states;
}

}  // namespace anchorfs::analysis
