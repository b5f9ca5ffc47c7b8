// rebuild_and_publish(): build, then Server::replace_snapshot when the view changed.
#include "refresh/publish.h"

namespace anchorfs::refresh {

RebuildFn rebuild_and_publish(SnapshotBuilder& builder, fs::Server& server) {
  return [&builder, &server]() -> std::optional<std::string> {
    // A writable mount rescans after each change it makes; a build whose scan may predate one
    // of those would take it back, so it is built again (cheaply: the analysis is reused) until
    // no change came through the mount meanwhile.
    while (true) {
      const uint64_t mutations = server.mutation_count();
      Built built = builder.build();
      if (!built.changed) {
        return std::nullopt;
      }
      if (server.replace_snapshot(built.snapshot, mutations)) {
        builder.keep_view();
        return describe(built);
      }
      builder.forget_published();
    }
  };
}

}  // namespace anchorfs::refresh
