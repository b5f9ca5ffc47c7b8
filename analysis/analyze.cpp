// The analysis pipeline: survey the sources, reuse a cached graph when nothing resolution depends
// on changed, else extract facts in parallel (or load them from the cache) and resolve.
#include "analysis/analyze.h"

#include <malloc.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>

#include "analysis/extracted_facts.h"
#include "analysis/graph_buffers.h"
#include "analysis/graph_serialize.h"
#include "analysis/kept_memory.h"
#include "analysis/language.h"
#include "analysis/parse_arena.h"
#include "analysis/parse_schedule.h"
#include "analysis/plain_threads.h"
#include "analysis/resolution_key.h"
#include "analysis/source_files.h"
#include "analysis/source_survey.h"
#include "analysis/survey.h"

namespace anchorfs::analysis {
namespace {

using Clock = std::chrono::steady_clock;

// Source bytes of large files parsed at once (about 100 MB of syntax trees); see ParseSchedule.
constexpr uint64_t kLargeSourceBytesInFlight = 512 << 10;
// After parsing a file this large, freed heap is handed back to the system.
constexpr uint64_t kTrimAfterSourceBytes = 256 << 10;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct FileResult {
  std::shared_ptr<const LanguageFacts> facts;
  std::string problem;
  bool from_cache = false;
  bool keep_unchanged = false;
  bool changed_since_survey = false;  // its bytes on disk are no longer those the survey saw
  std::optional<ContentDigest> digest;  // of the bytes the facts are made from (with a cache)
  bool store_owed = false;  // extracted here: its cache record is still to be written
};

// Per thread: one extractor state (parser) per front end, created on first use.
struct ThreadStates {
  std::vector<std::unique_ptr<ExtractorState>> states;
  ExtractorState& state_for(size_t front_end) {
    if (states.size() <= front_end) states.resize(front_end + 1);
    if (!states[front_end]) states[front_end] = front_ends()[front_end]->new_state();
    return *states[front_end];
  }
};

// The facts version a file's cache entry is keyed by: the front end's, plus the grammar variant
// the file's path selects (LanguageFrontEnd::dialect) when the front end has several.
std::string facts_version_for(const LanguageFrontEnd& language, std::string_view path) {
  std::string version(language.facts_version());
  const std::string_view dialect = language.dialect(path);
  if (!dialect.empty()) version.append("/").append(dialect);
  return version;
}

FactsMemo::Key memo_key(const ContentDigest& digest, size_t front_end, std::string_view path) {
  return {digest, front_end, facts_version_for(*front_ends()[front_end], path)};
}

// Facts the view needs: with dense relations when the analysis resolves them.
bool usable(const LanguageFacts& facts, const AnalysisOptions& options) {
  return !options.dense || facts.dense_extracted;
}

// The facts of the bytes `digest` of a file at `path` of front end `front_end`, from the facts
// memo or the cache, or null.
std::shared_ptr<const LanguageFacts> cached_facts(FactCache& cache, const ContentDigest& digest,
                                                  size_t front_end, std::string_view path,
                                                  const AnalysisOptions& options) {
  const LanguageFrontEnd& language = *front_ends()[front_end];
  const std::string version = facts_version_for(language, path);
  if (options.facts_memo != nullptr) {
    auto kept = options.facts_memo->find({digest, front_end, version});
    if (kept && usable(*kept, options)) return kept;
  }
  const auto stored = cache.load({digest, language.name(), version});
  if (!stored) return nullptr;
  auto facts = language.deserialize_facts(*stored);
  if (!facts || !usable(*facts, options)) return nullptr;
  return facts;
}

// `surveyed` (present whenever there is a cache) is what the survey saw: the cache is asked by
// that digest, so a hit needs no second read; a miss reads the file again to parse it.
// `extracted` holds what this analysis parsed so far (with a cache): a file with a twin's bytes
// takes its facts, as it took them from the twin's cache record when records were written during
// the parse.
FileResult process(const SourceTree& tree, const SourceFile& file, const SourceState* surveyed,
                   const AnalysisOptions& options, ThreadStates& states,
                   ExtractedFacts& extracted) {
  FileResult r;
  const LanguageFrontEnd& language = *front_ends()[file.front_end];
  if (surveyed != nullptr && !surveyed->ok) {
    r.problem = surveyed->problem;
    return r;
  }
  if (surveyed != nullptr) {
    r.keep_unchanged = surveyed->keep_unchanged;
    if ((r.facts =
             cached_facts(*options.cache, surveyed->digest, file.front_end, file.path, options)) ||
        (r.facts = extracted.find(memo_key(surveyed->digest, file.front_end, file.path)))) {
      r.from_cache = true;
      r.digest = surveyed->digest;
      return r;
    }
  }
  SourceBytes source = read_source(tree.root, file.path, options.max_file_bytes);
  if (!source.ok) {
    r.problem = std::move(source.problem);
    r.changed_since_survey = surveyed != nullptr;
    return r;
  }
  std::optional<ContentDigest> digest;
  if (options.cache != nullptr) {
    digest = digest_of(source.bytes);
    r.changed_since_survey = surveyed != nullptr && !(*digest == surveyed->digest);
  }
  // The survey already checked these very bytes (a whole pass over them): not again.
  r.keep_unchanged = surveyed != nullptr && !r.changed_since_survey
                         ? surveyed->keep_unchanged
                         : options.keep_unchanged && options.keep_unchanged(language, source.bytes);
  if (surveyed == nullptr && digest) {
    // The survey is this read (AnalysisOptions::survey_in_parse): the cache is asked now.
    if ((r.facts = cached_facts(*options.cache, *digest, file.front_end, file.path, options)) ||
        (r.facts = extracted.find(memo_key(*digest, file.front_end, file.path)))) {
      r.from_cache = true;
      r.digest = digest;
      return r;
    }
  }
  ExtractorState& state = states.state_for(file.front_end);
  r.facts = language.extract(state, source.bytes, {.dense = options.dense, .path = file.path});
  r.digest = digest;
  r.store_owed =
      digest.has_value() && extracted.add(memo_key(*digest, file.front_end, file.path), r.facts);
  return r;
}

// The cache records of the facts extracted in this analysis (store_owed_facts writes them).
std::vector<OwedFacts> owed_facts(const std::vector<SourceFile>& sources,
                                  const std::vector<FileResult>& results) {
  std::vector<OwedFacts> owed;
  for (size_t i = 0; i < sources.size(); ++i) {
    const FileResult& r = results[i];
    if (!r.store_owed) continue;
    owed.push_back({memo_key(*r.digest, sources[i].front_end, sources[i].path), r.facts});
  }
  return owed;
}

// Serialising the records reads the facts only, so it runs beside the resolution (often one
// long-running front end) instead of inside the parse phase, where every core is busy.
void store_extracted_facts(const std::vector<SourceFile>& sources,
                           const std::vector<FileResult>& results, FactCache& cache) {
  std::vector<OwedFacts> owed = owed_facts(sources, results);
  store_owed_facts(cache, owed);
}

// Fills the entities of one file, from `first` on (its File entity, then its definitions), and
// its FileInfo. Each file writes only its own slots, so files fill side by side.
void fill_file_entities(Graph& graph, EntityIndex first, size_t file_slot, const SourceFile& source,
                        std::string_view language, const LanguageFacts& facts, bool taggable) {
  Entity& file = graph.entities[first];
  file.kind = EntityKind::File;
  file.file = first;
  file.name = source.path;
  file.line = 1;
  if (facts.has_file_anchor) file.anchor = Anchor{facts.file_anchor, ""};

  FileInfo& info = graph.files[file_slot];
  info.entity = first;
  info.language = language;
  info.newline = facts.newline;
  info.taggable = taggable;
  info.error_regions = facts.error_regions;
  info.ascii_tags = facts.ascii_tags;
  info.size = source.size;

  const uint32_t count = facts.entity_count();
  for (uint32_t d = 1; d < count; ++d) {
    const DefinitionOutline definition = facts.definition(d);
    Entity& e = graph.entities[first + d];
    e.kind = definition.kind;
    e.file = first;
    e.parent = first + definition.parent;
    e.name = definition.parent == 0
                 ? std::string(definition.name)
                 : graph.entities[e.parent].name + "." + std::string(definition.name);
    e.line = definition.line;
    if (definition.has_anchor && taggable) {
      e.anchor = Anchor{definition.anchor_offset, std::string(definition.anchor_indent)};
    }
  }
}

// The files of the previous analysis, walked in path order beside this one's: a file at the same
// path whose facts are the very object it used (and as taggable) has the same entities there.
class PreviousEntities {
 public:
  explicit PreviousEntities(const Analysis* previous) : previous_(previous) {}

  // The previous graph.files index of `path` when its entities can be copied, else kNoFile.
  // Paths come in increasing order.
  size_t same(std::string_view path, const LanguageFacts* facts, bool taggable) {
    if (previous_ == nullptr) return kNoFile;
    const Graph& graph = previous_->graph;
    if (previous_->facts.size() != graph.files.size()) return kNoFile;
    while (next_ < graph.files.size() && graph.entities[graph.files[next_].entity].name < path) {
      ++next_;
    }
    if (next_ == graph.files.size()) return kNoFile;
    const FileInfo& info = graph.files[next_];
    if (graph.entities[info.entity].name != path || previous_->facts[next_].get() != facts ||
        info.taggable != taggable) {
      return kNoFile;
    }
    return next_;
  }

  // Copies previous file `f`'s FileInfo and entities into the slots fill_file_entities would
  // fill, renumbered. From any thread.
  void copy(size_t f, const SourceFile& source, Graph& graph, EntityIndex first,
            size_t file_slot) const {
    const Graph& from = previous_->graph;
    const size_t begin = from.files[f].entity;
    const size_t end = f + 1 < from.files.size() ? from.files[f + 1].entity : from.entities.size();
    for (size_t e = begin; e < end; ++e) {
      Entity& entity = graph.entities[first + (e - begin)];
      entity = from.entities[e];
      entity.file = first;
      if (e != begin) entity.parent = first + static_cast<EntityIndex>(entity.parent - begin);
    }
    FileInfo& info = graph.files[file_slot];
    info = from.files[f];
    info.entity = first;
    info.size = source.size;
  }

  static constexpr size_t kNoFile = SIZE_MAX;

 private:
  const Analysis* previous_;
  size_t next_ = 0;
};

// Containment is the outline's nesting, the same in every language: the core derives it rather
// than each front end emitting it.
void add_containment(Graph& graph) {
  for (size_t e = 0; e < graph.entities.size(); ++e) {
    const Entity& entity = graph.entities[e];
    if (entity.kind == EntityKind::File) continue;
    graph.edges.push_back({entity.parent, static_cast<EntityIndex>(e), Relation::Contains});
  }
}

// The whole analysis stored under `key`, with the statistics saying where it came from.
std::optional<Analysis> cached_analysis(FactCache& cache, const ResolutionKey& key) {
  const auto stored = cache.load_graph(key);
  if (!stored) return std::nullopt;
  auto analysis = deserialize_analysis(*stored);
  if (!analysis) return std::nullopt;
  analysis->stats.from_cache = analysis->graph.files.size();
  analysis->stats.graph_from_cache = true;
  return analysis;
}

// Builds the graph from every file's facts, in path order. `alongside` are more jobs for the
// resolution's threads, taken once no front end is left to start; they must not write what the
// resolution reads. options.beside_resolution is one more, the first of them.
void resolve(const SourceTree& tree, const std::vector<SourceFile>& sources,
             std::vector<FileResult>& results, const AnalysisOptions& options, size_t concurrency,
             std::vector<std::function<void()>> alongside, Analysis& result) {
  Graph& graph = result.graph;
  GraphBuffers* const buffers = options.buffers;
  if (buffers != nullptr) {  // emptied already; their capacity is what is wanted
    graph.entities = std::move(buffers->entities);
    graph.files = std::move(buffers->files);
    graph.edges = std::move(buffers->edges);
  }
  // Per front end, its files in path order with their File entity. Entity numbers are counted
  // here in path order; the entities themselves are filled per file in parallel (on the kernel,
  // millions of names built one file after another held the second core idle for a second).
  std::vector<std::vector<ResolverFile>> by_language(front_ends().size());
  std::vector<EntityIndex> first_entity(sources.size(), kNoEntity);
  std::vector<size_t> file_slot(sources.size());
  std::vector<size_t> previous_file(sources.size(), PreviousEntities::kNoFile);
  PreviousEntities previous(options.previous);
  // Kept only for a caller with a facts memo, which holds them anyway: a one-shot analysis
  // frees them before rendering.
  const bool keep_facts = options.facts_memo != nullptr;
  if (keep_facts) result.facts.reserve(sources.size());
  auto entity_total = static_cast<EntityIndex>(graph.entities.size());
  size_t file_total = graph.files.size();
  for (size_t i = 0; i < sources.size(); ++i) {
    FileResult& r = results[i];
    if (!r.facts) {
      result.skipped.push_back({sources[i].path, r.problem});
      continue;
    }
    if (r.from_cache) {
      ++result.stats.from_cache;
    } else {
      ++result.stats.parsed;
    }
    result.stats.lines += r.facts->lines;
    if (!r.facts->parsed_cleanly) {
      result.skipped.push_back({sources[i].path,
                                "unparsable or excessive nesting: "
                                "served unchanged"});
    } else if (r.keep_unchanged) {
      result.skipped.push_back({sources[i].path, "already holds tag blocks: served unchanged"});
    }
    first_entity[i] = entity_total;
    file_slot[i] = file_total++;
    entity_total += std::max<uint32_t>(r.facts->entity_count(), 1);
    previous_file[i] =
        previous.same(sources[i].path, r.facts.get(), r.facts->parsed_cleanly && !r.keep_unchanged);
    if (keep_facts) result.facts.push_back(r.facts);
    by_language[sources[i].front_end].push_back(
        {sources[i].path, r.facts.get(), first_entity[i], r.digest ? &*r.digest : nullptr,
         r.facts});
  }
  reserve_with_headroom(graph.entities, entity_total);
  reserve_with_headroom(graph.files, file_total);
  graph.entities.resize(entity_total);
  graph.files.resize(file_total);
  tbb::parallel_for(size_t{0}, sources.size(), [&](size_t i) {
    const FileResult& r = results[i];
    if (!r.facts) return;
    if (previous_file[i] != PreviousEntities::kNoFile) {
      previous.copy(previous_file[i], sources[i], graph, first_entity[i], file_slot[i]);
      return;
    }
    fill_file_entities(graph, first_entity[i], file_slot[i], sources[i],
                       front_ends()[sources[i].front_end]->name(), *r.facts,
                       r.facts->parsed_cleanly && !r.keep_unchanged);
  });
  // Each front end's per-analysis state (say, its module index) serves both of its steps. Front
  // ends resolve independently of each other (each reads only its own files' facts), so they run
  // side by side; their edges are joined and sorted, whatever finished first.
  std::vector<std::unique_ptr<ResolutionState>> states(by_language.size());
  std::vector<std::vector<Edge>> edges_by_language(by_language.size());
  std::vector<size_t> present;
  size_t most = 0;  // the front end with the most files
  for (size_t l = 0; l < by_language.size(); ++l) {
    if (!by_language[l].empty()) present.push_back(l);
    if (by_language[l].size() > by_language[most].size()) most = l;
  }
  // It writes most edges: into the graph's own buffer, which the others' are appended to (on the
  // kernel, 2 M edges not copied; a refresher's kept buffer filled in place, no fresh pages).
  edges_by_language[most] = std::move(graph.edges);
  // Each front end's own memory slot, sized before the threads start (each touches only its own).
  std::vector<std::unique_ptr<ResolutionMemory>>* memories =
      options.resolution_memo != nullptr ? &options.resolution_memo->slots(by_language.size())
                                         : nullptr;
  const auto resolve_language = [&](size_t l) {
    const LanguageFrontEnd& language = *front_ends()[l];
    states[l] = language.prepare_resolution({tree.root, by_language[l]});
    // Threads no other front end's resolution takes are this one's to use (the Python resolver
    // faults its tables' pages in on one).
    const size_t threads = present.size() < concurrency ? concurrency - present.size() + 1 : 1;
    const ResolverInput input{tree.root, by_language[l], states[l].get(), threads};
    if (memories != nullptr && (*memories)[l] == nullptr && options.cache != nullptr &&
        options.resolution_memo->restore_from()) {
      // The last resolution of a tree whose view was served from a record, kept by the process
      // that made it: an edited file's old facts are the cache's record of its old bytes.
      const OldFacts old_facts = [&](const ContentDigest& digest, std::string_view path) {
        return cached_facts(*options.cache, digest, l, path, options);
      };
      (*memories)[l] = restore_memory(*options.cache, *options.resolution_memo->restore_from(),
                                      language, input, old_facts);
    }
    if (memories == nullptr) {
      language.resolve(input, edges_by_language[l]);
    } else {
      language.resolve_again(input, (*memories)[l], edges_by_language[l]);
    }
  };
  // Plain threads joined by blocking, not tasks: a thread waiting for a stolen task spins, and
  // one front end's resolution can take a second. Up to `concurrency` at once, this one included.
  if (options.beside_resolution) {
    alongside.insert(alongside.begin(), [&] { options.beside_resolution(graph); });
  }
  const size_t jobs = present.size() + alongside.size();
  std::atomic<size_t> next{0};
  std::vector<std::exception_ptr> failures(jobs);
  run_on_threads(std::min(concurrency, jobs), [&] {
    for (size_t i = next.fetch_add(1); i < jobs; i = next.fetch_add(1)) {
      try {
        if (i < present.size()) {
          resolve_language(present[i]);
        } else {
          alongside[i - present.size()]();
        }
      } catch (...) {
        failures[i] = std::current_exception();
      }
    }
  });
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  graph.edges = std::move(edges_by_language[most]);
  size_t edge_total = graph.edges.size() + graph.entities.size();  // containment: one each
  for (const std::vector<Edge>& edges : edges_by_language) edge_total += edges.size();
  reserve_with_headroom(graph.edges, edge_total);
  for (std::vector<Edge>& edges : edges_by_language) {
    graph.edges.insert(graph.edges.end(), edges.begin(), edges.end());
    std::vector<Edge>().swap(edges);
  }
  add_containment(graph);
  std::vector<Edge> spare_scratch;
  std::vector<Edge>& scratch = buffers != nullptr ? buffers->sorted : spare_scratch;
  sort_edges(graph.edges, scratch);
  // Dense relations build on the final topology (calls, inheritance, imports).
  if (options.dense) {
    for (size_t l = 0; l < by_language.size(); ++l) {
      if (by_language[l].empty()) continue;
      front_ends()[l]->resolve_dense({tree.root, by_language[l], states[l].get()}, graph);
    }
    sort_edges(graph.edges, scratch);
  }
  std::sort(graph.labels.begin(), graph.labels.end(), [](const Label& a, const Label& b) {
    if (a.entity != b.entity) return a.entity < b.entity;
    if (a.relation != b.relation) return a.relation < b.relation;
    return a.value < b.value;
  });
  graph.labels.erase(std::unique(graph.labels.begin(), graph.labels.end()), graph.labels.end());
}

tbb::task_arena arena_for(const AnalysisOptions& options) {
  return tbb::task_arena(options.threads == 0 ? tbb::task_arena::automatic
                                              : static_cast<int>(options.threads));
}

// Whether the cache may know this tree's content: it holds the facts of one of a sample of its
// sources, spread over the path order (a checkout of another commit of a tree it analysed keeps
// most files' bytes). When it holds none, neither can it hold the tree's whole analysis, unless
// evicted apart from its facts: the parse then surveys (AnalysisOptions::survey_in_parse).
bool cache_may_know(const SourceTree& tree, const std::vector<SourceFile>& sources,
                    const AnalysisOptions& options) {
  constexpr size_t kSampleFiles = 8;
  const size_t sample = std::min(sources.size(), kSampleFiles);
  for (size_t s = 0; s < sample; ++s) {
    const SourceFile& file = sources[s * sources.size() / sample];
    const SourceBytes source = read_source(tree.root, file.path, options.max_file_bytes);
    if (!source.ok) continue;
    const LanguageFrontEnd& language = *front_ends()[file.front_end];
    if (options.cache->load(
            {digest_of(source.bytes), language.name(), facts_version_for(language, file.path)})) {
      return true;
    }
  }
  return false;
}

// The end of a survey once its states are known (from the survey's reads or the parse's): the
// survey memo's record when worth keeping, the caller's memo, and the resolution key. `now` is
// the clock reading the survey began at.
void finish_survey(const SourceTree& tree, const AnalysisOptions& options,
                   std::chrono::system_clock::time_point now, Survey& result) {
  std::optional<SurveyMemo::Record> record;  // of this survey, once made
  if (result.memo_key && result.read > 0) {
    // Files the memo knew it still knows (their identity is unchanged, so they are not racy
    // now either): only more files remembered makes a new record worth writing.
    record = SurveyMemo::record(tree, result.sources, result.states, now);
    if (record->files > result.sources.size() - result.read) {
      result.memo_to_store = Survey::MemoRecord{*result.memo_key, record->bytes};
    }
  }
  if (options.survey_memo != nullptr) {
    if (record) {
      options.survey_memo->remember(std::move(*record));
    } else {
      options.survey_memo->remember(tree, result.sources, result.states, now);
    }
  }
  result.key = resolution_key(tree, result.sources, result.states, options);
}

// A survey left to the parse (Survey::in_parse) finished from the parse's reads.
void finish_survey_from(const SourceTree& tree, const AnalysisOptions& options,
                        const std::vector<FileResult>& results, Survey& survey) {
  survey.states.assign(results.size(), SourceState{});
  for (size_t i = 0; i < results.size(); ++i) {
    const FileResult& r = results[i];
    SourceState& state = survey.states[i];
    if (!r.digest) {
      state.problem = r.problem;
      continue;
    }
    state.ok = true;
    state.digest = *r.digest;
    state.keep_unchanged = r.keep_unchanged;
  }
  survey.read = results.size();
  finish_survey(tree, options, survey.began, survey);
}

}  // namespace

Survey survey(const SourceTree& tree, const AnalysisOptions& options) {
  const auto start = Clock::now();
  Survey result;
  result.sources = options.sources != nullptr ? *options.sources : select_sources(tree);
  // With a cache, every source is surveyed (digested) first: if nothing resolution depends on
  // changed since a previous analysis, its result is reused whole and no facts are touched. A
  // tree whose every file still has the stat identity a previous survey saw finds that survey
  // under its stat alias, and files the memo knows are not read again either.
  if (options.cache == nullptr) return result;
  const auto now = options.now();
  const std::optional<ResolutionKey> alias = stat_alias_key(tree, result.sources, options, now);
  std::optional<std::vector<SourceState>> aliased;
  if (alias) {
    if (const auto stored = options.cache->load_alias(*alias)) {
      aliased = decode_survey(*stored, result.sources.size());
    }
  }
  if (aliased) {
    result.states = std::move(*aliased);
  } else {
    // A caller's own memo knows what this process read last; a first survey starts from the
    // memo a previous run kept in the cache, so one changed file costs one file's read.
    const SurveyMemo* memo = options.survey_memo;
    std::optional<SurveyMemo> kept;
    std::optional<ResolutionKey> memo_key;
    if (memo == nullptr || memo->empty()) {
      memo_key = survey_memo_key(tree, options);
      if (memo_key) {
        if (auto stored = options.cache->load_survey_memo(*memo_key)) {
          kept = SurveyMemo::decode(std::move(*stored));
        }
      }
      memo = kept ? &*kept : nullptr;
    }
    result.alias_to_store = alias;
    if (options.survey_in_parse && memo == nullptr &&
        !cache_may_know(tree, result.sources, options)) {
      result.in_parse = true;
      result.memo_key = memo_key;
      result.began = now;
      result.seconds = seconds_since(start);
      return result;
    }
    tbb::task_arena arena = arena_for(options);
    arena.execute([&] {
      result.states = survey_sources(tree, result.sources, options, memo, &result.read);
    });
    result.memo_key = memo_key;
  }
  finish_survey(tree, options, now, result);
  result.seconds = seconds_since(start);
  return result;
}

void keep_survey(FactCache& cache, const Survey& survey) {
  if (survey.alias_to_store) {
    cache.store_alias(*survey.alias_to_store, encode_survey(survey.states));
  }
  if (survey.memo_to_store) {
    cache.replace_survey_memo(survey.memo_to_store->key, survey.memo_to_store->bytes);
  }
}

Analysis analyze(const SourceTree& tree, const AnalysisOptions& options) {
  return analyze(tree, options, survey(tree, options));
}

Analysis analyze(const SourceTree& tree, const AnalysisOptions& options, Survey surveyed_tree) {
  const auto parse_start = Clock::now();
  const std::vector<SourceFile>& sources = surveyed_tree.sources;
  const std::vector<SourceState>& surveyed = surveyed_tree.states;
  const std::optional<ResolutionKey>& key = surveyed_tree.key;
  tbb::task_arena arena = arena_for(options);
  if (key && options.whole_from_cache) {
    const auto load_start = Clock::now();
    if (auto cached = cached_analysis(*options.cache, *key)) {
      cached->stats.parse_seconds = surveyed_tree.seconds;
      cached->stats.survey_reads = surveyed_tree.read;
      cached->stats.resolve_seconds = seconds_since(load_start);
      cached->key = key;
      keep_survey(*options.cache, surveyed_tree);
      return std::move(*cached);
    }
  }

  Analysis result;
  result.stats.source_files = sources.size();
  result.stats.survey_reads = surveyed_tree.read;
  std::vector<FileResult> results(sources.size());
  std::atomic<size_t> done{0};
  tbb::enumerable_thread_specific<ThreadStates> states;
  ExtractedFacts extracted;
  // Results land by path index, so the schedule changes no output.
  std::vector<uint64_t> sizes(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) sizes[i] = sources[i].size;
  ParseSchedule schedule(sizes, kLargeSourceBytesInFlight);
  // Each thread drains the schedule; no front end's extraction uses oneTBB.
  arena.initialize();
  run_on_threads(static_cast<size_t>(arena.max_concurrency()), [&] {
    ThreadStates& local = states.local();
    while (const std::optional<size_t> i = schedule.next()) {
      const SourceState* seen = surveyed.empty() ? nullptr : &surveyed[*i];
      results[*i] = process(tree, sources[*i], seen, options, local, extracted);
      schedule.finished(*i);
      const size_t n = done.fetch_add(1) + 1;
      if (options.on_progress) options.on_progress(n, sources.size());
    }
  });
  release_parse_arena_pages();
  if (surveyed_tree.in_parse) {
    finish_survey_from(tree, options, results, surveyed_tree);
    result.stats.survey_reads = surveyed_tree.read;
  }
  result.stats.parse_seconds = surveyed_tree.seconds + seconds_since(parse_start);
  // Syntax trees live in the parse arena (its pages kept from file to file, released just
  // above), but extraction churns its short-lived buffers through malloc; hand that memory back
  // before the long-lived resolution data is built. Facts decoded from the cache churn nothing,
  // and a trim after a refresh's few parsed files only costs page faults when the resolution
  // touches the returned pages again.
  uint64_t parsed_bytes = 0;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!results[i].from_cache) parsed_bytes += sources[i].size;
  }
  if (parsed_bytes >= kTrimAfterSourceBytes) ::malloc_trim(0);

  const auto resolve_start = Clock::now();
  std::vector<std::function<void()>> alongside;
  if (options.cache != nullptr && options.defer_fact_records) {
    result.facts_owed = owed_facts(sources, results);
  } else if (options.cache != nullptr) {
    alongside.emplace_back([&] { store_extracted_facts(sources, results, *options.cache); });
  }
  arena.execute([&] {
    resolve(tree, sources, results, options, static_cast<size_t>(arena.max_concurrency()),
            std::move(alongside), result);
  });
  result.stats.resolve_seconds = seconds_since(resolve_start);
  if (options.resolution_memo != nullptr) options.resolution_memo->set_restore_from(std::nullopt);
  if (options.facts_memo != nullptr) {
    FactsMemo::Facts kept;
    for (size_t i = 0; i < sources.size(); ++i) {
      if (!results[i].facts || !results[i].digest) continue;
      kept.insert_or_assign(memo_key(*results[i].digest, sources[i].front_end, sources[i].path),
                            std::move(results[i].facts));
    }
    options.facts_memo->replace(std::move(kept));
  }
  // A file rewritten between the survey and its parse makes this graph one of neither content:
  // keying it by the survey would hand it out for the old bytes later.
  const bool stable = std::none_of(results.begin(), results.end(),
                                   [](const FileResult& r) { return r.changed_since_survey; });
  if (options.resolution_memo != nullptr) {
    options.resolution_memo->set_unsaved(key && stable ? key : std::nullopt);
  }
  if (key && stable) {
    if (options.defer_graph_record) {
      result.graph_record_owed = true;
    } else {
      options.cache->store_graph(*key, serialize_analysis(result));
    }
    keep_survey(*options.cache, surveyed_tree);
    result.key = key;
  }
  return result;
}

void store_owed_facts(FactCache& cache, std::vector<OwedFacts>& owed) {
  for (const OwedFacts& record : owed) {
    const LanguageFrontEnd& language = *front_ends()[record.key.front_end];
    cache.store({record.key.digest, language.name(), record.key.version},
                language.serialize_facts(*record.facts));
  }
  std::vector<OwedFacts>().swap(owed);
}

}  // namespace anchorfs::analysis
