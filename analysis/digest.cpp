// Content digests (xxh3-128) that key cached per-file facts.
#include <xxhash.h>

#include "analysis/fact_cache.h"

namespace anchorfs::analysis {

ContentDigest digest_of(std::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return {h.low64, h.high64};
}

}  // namespace anchorfs::analysis
