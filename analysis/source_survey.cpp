// Reading and digesting every source file in parallel, and what a later survey can reuse.
#include "analysis/source_survey.h"

#include <tbb/parallel_for.h>

#include <cstring>

#include "analysis/language.h"

namespace anchorfs::analysis {
namespace {

constexpr size_t kEncodedStateBytes = 2 * sizeof(uint64_t) + 1;

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

std::optional<std::string> encode_survey(const std::vector<SourceState>& states) {
  std::string bytes;
  bytes.reserve(states.size() * kEncodedStateBytes);
  for (const SourceState& state : states) {
    if (!state.ok) return std::nullopt;
    char record[kEncodedStateBytes];
    std::memcpy(record, &state.digest.low, sizeof(uint64_t));
    std::memcpy(record + sizeof(uint64_t), &state.digest.high, sizeof(uint64_t));
    record[2 * sizeof(uint64_t)] = state.keep_unchanged ? 1 : 0;
    bytes.append(record, sizeof record);
  }
  return bytes;
}

std::optional<std::vector<SourceState>> decode_survey(std::string_view bytes, size_t count) {
  if (bytes.size() != count * kEncodedStateBytes) return std::nullopt;
  std::vector<SourceState> states(count);
  for (size_t i = 0; i < count; ++i) {
    const char* record = bytes.data() + i * kEncodedStateBytes;
    if (static_cast<unsigned char>(record[2 * sizeof(uint64_t)]) > 1) return std::nullopt;
    states[i].ok = true;
    std::memcpy(&states[i].digest.low, record, sizeof(uint64_t));
    std::memcpy(&states[i].digest.high, record + sizeof(uint64_t), sizeof(uint64_t));
    states[i].keep_unchanged = record[2 * sizeof(uint64_t)] == 1;
  }
  return states;
}

}  // namespace anchorfs::analysis
