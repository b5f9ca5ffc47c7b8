// Copying the view a repository served last out of the cache while its tree is still scanned.
#pragma once

#include <future>
#include <optional>
#include <string>

#include "analysis/fact_cache.h"
#include "cache/lmdb_fact_cache.h"
#include "render/view.h"

namespace anchorfs::refresh {

// Where the key of the view last served for the repository at `repo` (canonical path) under
// `view` by this build is kept: a derived record of its own (its key hashes this build's id, the
// path and the options), holding that view's key.
analysis::ResolutionKey last_view_slot(const std::string& repo, const render::ViewOptions& view);

// Points the slot of (`repo`, `view`) at `served`; written by the next flush.
void remember_served_view(cache::LmdbFactCache& cache, const std::string& repo,
                          const render::ViewOptions& view, const analysis::ResolutionKey& served);

// Thread-safety: one caller thread; the copy runs on a thread of its own, started by the
// constructor and joined by take() or the destructor.
class ViewPrefetch {
 public:
  // Starts reading the slot of (`repo`, `view`) and copying the record it names.
  ViewPrefetch(cache::LmdbFactCache& cache, std::string repo, render::ViewOptions view);
  ~ViewPrefetch();
  ViewPrefetch(const ViewPrefetch&) = delete;
  ViewPrefetch& operator=(const ViewPrefetch&) = delete;

  // The view record under `key` when `key` is the one the slot named and the record was there
  // (counted as a hit then, as load_derived counts one); nullopt otherwise, and the caller loads
  // it itself. Waits for the copy. Once only: later calls return nullopt.
  std::optional<std::string> take(const analysis::ResolutionKey& key);
  // The key the slot named (nullopt: none, or not readable). Waits for the copy.
  std::optional<analysis::ResolutionKey> pointed();

 private:
  struct Copied {
    std::optional<analysis::ResolutionKey> key;
    std::optional<std::string> bytes;
  };
  void wait();

  cache::LmdbFactCache& cache_;
  std::future<Copied> copying_;
  Copied copied_;
};

}  // namespace anchorfs::refresh
