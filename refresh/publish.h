// Connecting a SnapshotBuilder to a running FUSE server: the rebuild step of a live mount.
#pragma once

#include "fs/server.h"
#include "refresh/refresher.h"
#include "refresh/snapshot_builder.h"

namespace anchorfs::refresh {

// Builds through `builder` (patching its last scan at the changed paths when they are known)
// and, when anything changed, swaps the new snapshot into `server` (which invalidates exactly the
// kernel caches that changed). Both must outlive the function.
RebuildAtFn rebuild_and_publish(SnapshotBuilder& builder, fs::Server& server);

}  // namespace anchorfs::refresh
