// Reading and digesting every source file in parallel, and what a later survey can reuse.
#include "analysis/source_survey.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "analysis/byte_codec.h"
#include "analysis/language.h"
#include "analysis/plain_threads.h"

namespace anchorfs::analysis {
namespace {

// A file's kind in a survey record: not analysable (its problem follows), or analysable, its
// bytes kept unchanged or not (its digest follows).
constexpr uint64_t kNotAnalysable = 0;
constexpr uint64_t kAnalysable = 1;
constexpr uint64_t kKeptUnchanged = 2;

void put_state(ByteWriter& out, const SourceState& state) {
  if (!state.ok) {
    out.u64(kNotAnalysable);
    out.str(state.problem);
    return;
  }
  out.u64(state.keep_unchanged ? kKeptUnchanged : kAnalysable);
  char digest[2 * sizeof(uint64_t)];
  std::memcpy(digest, &state.digest.low, sizeof(uint64_t));
  std::memcpy(digest + sizeof(uint64_t), &state.digest.high, sizeof(uint64_t));
  out.raw({digest, sizeof digest});
}

// False for bytes that are no state (the reader may have failed too).
bool get_state(ByteReader& in, SourceState& state) {
  const uint64_t kind = in.u64();
  if (kind == kNotAnalysable) {
    state.problem = in.str();
    return in.ok();
  }
  if (kind != kAnalysable && kind != kKeptUnchanged) return false;
  const std::string_view digest = in.view(2 * sizeof(uint64_t));
  if (!in.ok()) return false;
  state.ok = true;
  state.keep_unchanged = kind == kKeptUnchanged;
  std::memcpy(&state.digest.low, digest.data(), sizeof(uint64_t));
  std::memcpy(&state.digest.high, digest.data() + sizeof(uint64_t), sizeof(uint64_t));
  return true;
}

void put_identity(ByteWriter& out, const StatIdentity& id) {
  for (const uint64_t field : {id.mode, id.size, static_cast<uint64_t>(id.mtime_ns),
                               static_cast<uint64_t>(id.ctime_ns), id.inode, id.device, id.uid,
                               id.gid}) {
    out.u64(field);
  }
}

StatIdentity get_identity(ByteReader& in) {
  StatIdentity id;
  id.mode = in.u64();
  id.size = in.u64();
  id.mtime_ns = static_cast<int64_t>(in.u64());
  id.ctime_ns = static_cast<int64_t>(in.u64());
  id.inode = in.u64();
  id.device = in.u64();
  id.uid = in.u64();
  id.gid = in.u64();
  return id;
}

}  // namespace

const SourceState* SurveyMemo::find(std::string_view wanted, size_t front_end,
                                    const StatIdentity& identity) const {
  const auto it = std::lower_bound(
      files_.begin(), files_.end(), wanted,
      [this](const Known& known, std::string_view p) { return path(known) < p; });
  return it != files_.end() && path(*it) == wanted && it->front_end == front_end &&
                 it->identity == identity
             ? &it->state
             : nullptr;
}

void SurveyMemo::remember(const SourceTree& tree, const std::vector<SourceFile>& sources,
                          const std::vector<SourceState>& states,
                          std::chrono::system_clock::time_point now) {
  // Written over the last record's buffers: refresh after refresh they are as large (on the
  // kernel ~8 MB of record and ~7 MB of index), and fresh ones are pages the kernel zeroes again.
  Record again;
  again.bytes = std::move(bytes_);
  write_record(tree, sources, states, now, again);
  if (!read_record(std::move(again.bytes))) *this = SurveyMemo{};
}

void SurveyMemo::remember(Record record) {
  if (!read_record(std::move(record.bytes))) *this = SurveyMemo{};
}

SurveyMemo::Record SurveyMemo::record(const SourceTree& tree,
                                      const std::vector<SourceFile>& sources,
                                      const std::vector<SourceState>& states,
                                      std::chrono::system_clock::time_point now) {
  Record result;
  write_record(tree, sources, states, now, result);
  return result;
}

void SurveyMemo::write_record(const SourceTree& tree, const std::vector<SourceFile>& sources,
                              const std::vector<SourceState>& states,
                              std::chrono::system_clock::time_point now, Record& into) {
  const std::vector<const TreeEntry*> entries = regular_entries(tree, sources);
  ByteWriter out(std::move(into.bytes));
  into.files = 0;
  for (size_t i = 0; i < sources.size() && i < states.size(); ++i) {
    if (entries[i] == nullptr || racily_clean(*entries[i], now)) continue;
    out.str(sources[i].path);
    out.u64(sources[i].front_end);
    put_identity(out, stat_identity(*entries[i]));
    put_state(out, states[i]);
    ++into.files;
  }
  into.bytes = out.take();
}

std::optional<SurveyMemo> SurveyMemo::decode(std::string bytes) {
  SurveyMemo memo;
  if (!memo.read_record(std::move(bytes))) return std::nullopt;
  return memo;
}

bool SurveyMemo::read_record(std::string bytes) {
  if (bytes.size() > UINT32_MAX) return false;
  bytes_ = std::move(bytes);
  files_.clear();  // its capacity kept: see remember()
  ByteReader in(bytes_);
  while (in.ok() && !in.at_end()) {
    Known known;
    const uint64_t size = in.u64();
    known.path_offset = static_cast<uint32_t>(in.position());
    known.path_size = static_cast<uint32_t>(in.view(size).size());
    known.front_end = in.u64();
    known.identity = get_identity(in);
    if (!get_state(in, known.state)) return false;
    if (!files_.empty() && !(path(files_.back()) < path(known))) return false;
    files_.push_back(std::move(known));
  }
  return in.ok();
}

std::vector<SourceState> survey_sources(const SourceTree& tree,
                                        const std::vector<SourceFile>& sources,
                                        const AnalysisOptions& options, const SurveyMemo* memo,
                                        size_t* read) {
  std::vector<SourceState> states(sources.size());
  std::vector<const TreeEntry*> entries;
  if (memo != nullptr) entries = regular_entries(tree, sources);
  // Surveys file `i` into states[i]; true when it read the file.
  const auto survey_one = [&](size_t i) {
    SourceState& state = states[i];
    if (memo != nullptr && entries[i] != nullptr) {
      if (const SourceState* known = memo->find(sources[i].path, sources[i].front_end,
                                                stat_identity(*entries[i]))) {
        state = *known;
        return false;
      }
    }
    SourceBytes source = read_source(tree.root, sources[i].path, options.max_file_bytes);
    if (!source.ok) {
      state.problem = std::move(source.problem);
      return true;
    }
    state.ok = true;
    state.digest = digest_of(source.bytes);
    state.keep_unchanged = options.keep_unchanged &&
                           options.keep_unchanged(*front_ends()[sources[i].front_end], source.bytes);
    return true;
  };
  // Chunks of files in path order handed out in turn on the current arena's number of plain
  // threads (no more than there are chunks); each file's state lands at its index, whichever
  // thread took it. Eight files a chunk in a large tree; one in a small one, where a chunk of
  // eight could be most of the bytes (TypeScript's lib/: six bundles among nine files).
  const auto threads = static_cast<size_t>(tbb::this_task_arena::max_concurrency());
  const size_t chunk_files = sources.size() >= 64 * threads ? 8 : 1;
  const size_t chunks = (sources.size() + chunk_files - 1) / chunk_files;
  std::atomic<size_t> next_chunk{0};
  std::atomic<size_t> reads{0};
  run_on_threads(std::min(chunks, threads), [&] {
    size_t thread_reads = 0;
    for (size_t chunk = next_chunk.fetch_add(1); chunk < chunks; chunk = next_chunk.fetch_add(1)) {
      const size_t end = std::min(sources.size(), (chunk + 1) * chunk_files);
      for (size_t i = chunk * chunk_files; i < end; ++i) thread_reads += survey_one(i) ? 1 : 0;
    }
    reads.fetch_add(thread_reads, std::memory_order_relaxed);
  });
  if (read != nullptr) *read = reads.load();
  return states;
}

std::string encode_survey(const std::vector<SourceState>& states) {
  ByteWriter out;
  for (const SourceState& state : states) put_state(out, state);
  return out.take();
}

std::optional<std::vector<SourceState>> decode_survey(std::string_view bytes, size_t count) {
  ByteReader in(bytes);
  std::vector<SourceState> states(count);
  for (SourceState& state : states) {
    if (!get_state(in, state)) return std::nullopt;
  }
  if (!in.ok() || !in.at_end()) return std::nullopt;
  return states;
}

}  // namespace anchorfs::analysis
