// The last-served-view slot and the prefetch of the record it names (see view_prefetch.h).
#include "refresh/view_prefetch.h"

#include <xxhash.h>

#include <exception>
#include <utility>

#include "analysis/build_identity.h"
#include "analysis/byte_codec.h"
#include "refresh/view_record.h"

namespace anchorfs::refresh {
namespace {

constexpr std::string_view kSlotMagic = "AFLV";
// Bump when the slot's key or payload changes.
constexpr uint64_t kSlotVersion = 1;

std::string encode_slot(const analysis::ResolutionKey& served) {
  analysis::ByteWriter w;
  w.raw(kSlotMagic);
  w.u64(kSlotVersion);
  w.u64(served.low);
  w.u64(served.high);
  return w.take();
}

std::optional<analysis::ResolutionKey> decode_slot(std::string_view bytes) {
  analysis::ByteReader r(bytes);
  if (!r.expect(kSlotMagic) || r.u64() != kSlotVersion) return std::nullopt;
  analysis::ResolutionKey key;
  key.low = r.u64();
  key.high = r.u64();
  if (!r.ok() || !r.at_end()) return std::nullopt;
  return key;
}

}  // namespace

analysis::ResolutionKey last_view_slot(const std::string& repo, const render::ViewOptions& view) {
  analysis::ByteWriter w;
  w.raw(kSlotMagic);
  w.u64(kSlotVersion);
  w.str(analysis::analyser_build_id());
  w.str(repo);
  const std::string bytes = w.take();
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  // The view's options enter as they enter every view key.
  return view_key({h.low64, h.high64}, view);
}

void remember_served_view(cache::LmdbFactCache& cache, const std::string& repo,
                          const render::ViewOptions& view, const analysis::ResolutionKey& served) {
  cache.replace_derived(last_view_slot(repo, view), encode_slot(served));
}

ViewPrefetch::ViewPrefetch(cache::LmdbFactCache& cache, std::string repo,
                           render::ViewOptions view)
    : cache_(cache) {
  copying_ = std::async(std::launch::async, [&cache, repo = std::move(repo), view]() {
    Copied copied;
    try {
      if (const std::optional<std::string> slot = cache.peek_derived(last_view_slot(repo, view))) {
        copied.key = decode_slot(*slot);
      }
      if (copied.key) copied.bytes = cache.peek_derived(*copied.key);
    } catch (const std::exception&) {
      copied.bytes.reset();  // out of memory for the copy: the caller loads it itself
    }
    return copied;
  });
}

ViewPrefetch::~ViewPrefetch() { wait(); }

void ViewPrefetch::wait() {
  if (copying_.valid()) copied_ = copying_.get();
}

std::optional<std::string> ViewPrefetch::take(const analysis::ResolutionKey& key) {
  wait();
  if (copied_.key != key || !copied_.bytes) {
    copied_.bytes.reset();
    return std::nullopt;
  }
  cache_.use_derived(key);
  std::optional<std::string> bytes = std::move(copied_.bytes);
  copied_.bytes.reset();
  return bytes;
}

std::optional<analysis::ResolutionKey> ViewPrefetch::pointed() {
  wait();
  return copied_.key;
}

}  // namespace anchorfs::refresh
