// The graph cache's LMDB databases: whole analyses by resolution key, and how recently each was
// used, so a store keeps only the few most recent.
#pragma once

#include <lmdb.h>

#include <cstddef>
#include <string_view>

namespace anchorfs::cache {

struct GraphDbs {
  MDB_dbi graphs = 0;  // encoded key -> encode_value(key, serialized analysis)
  MDB_dbi used = 0;    // encoded key -> 8-byte little-endian stamp; higher = more recent
};

// Opens (creating) both databases in a write transaction.
int open_graph_dbs(MDB_txn* txn, GraphDbs& dbs);

// Makes `key` the most recently used graph. Writes nothing when it already is, so remounting the
// same tree again and again commits no pages.
int mark_graph_used(MDB_txn* txn, const GraphDbs& dbs, std::string_view key);

// Deletes the least recently used graphs (unstamped ones first) until at most `keep` remain, and
// stamps whose graph is gone.
int prune_graphs(MDB_txn* txn, const GraphDbs& dbs, size_t keep);

}  // namespace anchorfs::cache
