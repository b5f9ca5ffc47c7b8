// Resolution memories as derived cache records, keyed by the analysis that made them and the
// front end.
#include "analysis/kept_memory.h"

#include <xxhash.h>

#include <utility>

#include "analysis/byte_codec.h"

namespace anchorfs::analysis {
namespace {

constexpr std::string_view kMemoryKeyMagic = "anchorfs resolution memory 1";

}  // namespace

ResolutionKey memory_key(const ResolutionKey& analysis, std::string_view front_end) {
  ByteWriter w;
  w.raw(kMemoryKeyMagic);
  w.u64(analysis.low);
  w.u64(analysis.high);
  w.str(front_end);
  const std::string bytes = w.take();
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return {h.low64, h.high64};
}

void keep_memories(FactCache& cache, ResolutionMemo& memo) {
  const std::optional<ResolutionKey> key = memo.unsaved();
  if (!key) return;
  const std::vector<std::unique_ptr<ResolutionMemory>>& slots = memo.slots(front_ends().size());
  for (size_t l = 0; l < slots.size(); ++l) {
    if (slots[l] == nullptr) continue;
    const LanguageFrontEnd& language = *front_ends()[l];
    std::string bytes = language.serialize_memory(*slots[l]);
    if (!bytes.empty()) cache.store_derived(memory_key(*key, language.name()), std::move(bytes));
  }
  memo.set_unsaved(std::nullopt);
}

std::unique_ptr<ResolutionMemory> restore_memory(FactCache& cache, const ResolutionKey& from,
                                                 const LanguageFrontEnd& language,
                                                 const ResolverInput& input,
                                                 const OldFacts& old_facts) {
  const std::optional<std::string> stored = cache.load_derived(memory_key(from, language.name()));
  if (!stored) return nullptr;
  return language.deserialize_memory(*stored, input, old_facts);
}

}  // namespace anchorfs::analysis
