// rebuild_and_publish(): build, then Server::replace_snapshot when the view changed.
#include "refresh/publish.h"

#include <chrono>
#include <cstdint>
#include <thread>

namespace anchorfs::refresh {
namespace {

constexpr std::chrono::milliseconds kPause{100};

// Returns once no change came through the mount for a tenth of a second.
void wait_for_pause(const fs::Server& server) {
  for (uint64_t seen = server.mutation_count();;) {
    std::this_thread::sleep_for(kPause);
    const uint64_t now = server.mutation_count();
    if (now == seen) return;
    seen = now;
  }
}

}  // namespace

RebuildAtFn rebuild_and_publish(SnapshotBuilder& builder, fs::Server& server) {
  return [&builder, &server](const std::vector<std::string>* changed) -> std::optional<std::string> {
    // A writable mount rescans after each change it makes; a build whose scan may predate one
    // of those would take it back, so it is built again (the analysis is reused) until no change
    // came through the mount meanwhile. A writer busy in the mount now (a branch switch) would
    // take this build back too: none is started before it pauses.
    if (std::chrono::steady_clock::now() - server.last_mutation() < kPause) wait_for_pause(server);
    while (true) {
      const uint64_t mutations = server.mutation_count();
      // A writable mount's own writes may reach the checkout after the last event the refresher
      // read: a mount that ever wrote lists the whole tree (one writing from now on is caught by
      // replace_snapshot's count).
      Built built = builder.build({}, mutations == 0 ? changed : nullptr);
      if (!built.changed) {
        return std::nullopt;
      }
      if (server.replace_snapshot(built.snapshot, mutations)) {
        // Its records are written once the tree is quiet (RefreshOptions::on_quiet).
        return describe(built);
      }
      builder.forget_published();
      // The mount's own writer is still at it (a branch switch, a copy): every build meanwhile
      // would be taken back too, each a whole scan and analysis. Build again once it pauses
      // (what it changed is served already, untagged until then).
      wait_for_pause(server);
    }
  };
}

}  // namespace anchorfs::refresh
