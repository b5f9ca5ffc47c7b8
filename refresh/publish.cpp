// rebuild_and_publish(): build, then Server::replace_snapshot when the view changed.
#include "refresh/publish.h"

namespace anchorfs::refresh {

RebuildFn rebuild_and_publish(SnapshotBuilder& builder, fs::Server& server) {
  return [&builder, &server]() -> std::optional<std::string> {
    Built built = builder.build();
    if (!built.changed) {
      return std::nullopt;
    }
    server.replace_snapshot(std::move(built.snapshot));
    return describe(built);
  };
}

}  // namespace anchorfs::refresh
