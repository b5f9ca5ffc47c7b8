// Least-recently-used bookkeeping for the shared store: a recency stamp and an accounted size per
// record, an index by age, and the store's byte total, all kept in LMDB next to the records.
#pragma once

#include <lmdb.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "cache/store_info.h"

namespace anchorfs::cache {

// Which database a record lives in (the first byte of its index keys).
enum class RecordKind : char { Facts = 'f', Graph = 'g' };

struct StoreDbs {
  MDB_dbi meta = 0;    // store format, clock, byte total, lifetime counters
  MDB_dbi facts = 0;   // encoded key -> encode_value(key, serialized facts)
  MDB_dbi graphs = 0;  // encoded key -> encode_value(key, serialized analysis)
  MDB_dbi stamps = 0;  // kind + key -> stamp (8 bytes) + accounted size (8 bytes)
  MDB_dbi age = 0;     // big-endian stamp + kind + key -> "" (oldest first)
  MDB_dbi of(RecordKind kind) const { return kind == RecordKind::Facts ? facts : graphs; }
};

// Opens (creating) every database in a write transaction.
int open_store_dbs(MDB_txn* txn, StoreDbs& dbs);

// What a record costs on disk: small ones share pages, large ones take whole overflow pages.
uint64_t accounted_bytes(size_t key_bytes, size_t value_bytes);

// Lifetime counters and totals kept under fixed names in `meta`.
uint64_t read_counter(MDB_txn* txn, const StoreDbs& dbs, std::string_view name);
int add_to_counter(MDB_txn* txn, const StoreDbs& dbs, std::string_view name, int64_t delta);
inline constexpr std::string_view kBytesCounter = "bytes";
inline constexpr std::string_view kClockCounter = "clock";
inline constexpr std::string_view kFactHitsCounter = "fact_hits";
inline constexpr std::string_view kFactRemoteHitsCounter = "fact_remote_hits";
inline constexpr std::string_view kFactMissesCounter = "fact_misses";
inline constexpr std::string_view kGraphHitsCounter = "graph_hits";
inline constexpr std::string_view kGraphRemoteHitsCounter = "graph_remote_hits";
inline constexpr std::string_view kGraphMissesCounter = "graph_misses";
HitCounts read_hit_counts(MDB_txn* txn, const StoreDbs& dbs);

// Bytes of every page the store's trees use now (records, their bookkeeping, branch pages, the
// free list's own pages): what the cap is measured against.
uint64_t used_bytes(MDB_txn* txn, const StoreDbs& dbs);

// Inserts the record encode_value(key, payload) unless one exists under `key` (records are
// deterministic: same key, same value), and stamps it `clock`. Keeps the byte total. The value is
// encoded straight into LMDB's page (MDB_RESERVE), never copied into a string first.
int insert_record(MDB_txn* txn, const StoreDbs& dbs, RecordKind kind, std::string_view key,
                  std::string_view payload, uint64_t clock);

// Writes encode_value(key, payload) under `key` whatever it held (a record that names something,
// rather than one its key determines), and stamps it `clock`. Keeps the byte total.
int replace_record(MDB_txn* txn, const StoreDbs& dbs, RecordKind kind, std::string_view key,
                   std::string_view payload, uint64_t clock);

// Marks an existing record as used at `clock`; nothing when it is gone (evicted meanwhile).
int touch_record(MDB_txn* txn, const StoreDbs& dbs, RecordKind kind, std::string_view key,
                 uint64_t clock);

// Deletes the least recently used records until the byte total is at most `target_bytes`, or
// `max_deletions` were made (so one commit's cost stays bounded). Returns the LMDB status;
// `deleted` counts what went.
int evict_oldest(MDB_txn* txn, const StoreDbs& dbs, uint64_t target_bytes, size_t max_deletions,
                 size_t& deleted);

}  // namespace anchorfs::cache
