// Recency stamps, the age index, the byte total and eviction of the oldest records.
#include "cache/lru_index.h"

#include <array>

#include "cache/le64.h"
#include "cache/mdb_bytes.h"
#include "cache/record_codec.h"

namespace anchorfs::cache {
namespace {

constexpr const char* kMetaDb = "meta";
constexpr const char* kFactsDb = "facts";
constexpr const char* kGraphsDb = "graphs";
constexpr const char* kStampsDb = "stamps";
constexpr const char* kAgeDb = "age";
// LMDB moves a value to its own pages once it exceeds about half a page.
constexpr size_t kPageBytes = 4096;
constexpr size_t kLargeValueBytes = 2000;
constexpr size_t kNodeOverheadBytes = 16;

void append_be64(std::string& out, uint64_t value) {
  for (size_t i = 8; i-- > 0;) out += static_cast<char>((value >> (8 * i)) & 0xffu);
}

// mdb_put of encode_value(key, payload), encoded in the space LMDB reserves for it: no string of
// the whole value is made (on a kernel its view record alone is hundreds of MB of fresh pages).
// Returns mdb_put's code (MDB_KEYEXIST under MDB_NOOVERWRITE: nothing written).
int put_value(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view payload,
              unsigned flags) {
  MDB_val k = as_val(key);
  MDB_val v{encoded_value_bytes(payload), nullptr};
  const int rc = mdb_put(txn, dbi, &k, &v, flags | MDB_RESERVE);
  if (rc == 0) encode_value_into(static_cast<char*>(v.mv_data), key, payload);
  return rc;
}

std::string index_key(RecordKind kind, std::string_view key) {
  std::string out(1, static_cast<char>(kind));
  out.append(key);
  return out;
}

std::string age_key(uint64_t stamp, std::string_view index) {
  std::string out;
  append_be64(out, stamp);
  out.append(index);
  return out;
}

int put_stamp(MDB_txn* txn, const StoreDbs& dbs, const std::string& index, uint64_t clock,
              uint64_t size) {
  std::string stamp;
  append_le64(stamp, clock);
  append_le64(stamp, size);
  MDB_val k = as_val(index);
  MDB_val v = as_val(stamp);
  int rc = mdb_put(txn, dbs.stamps, &k, &v, 0);
  if (rc != 0) return rc;
  const std::string age = age_key(clock, index);
  MDB_val ak = as_val(age);
  MDB_val empty{0, nullptr};
  return mdb_put(txn, dbs.age, &ak, &empty, 0);
}

int delete_if_present(MDB_txn* txn, MDB_dbi dbi, std::string_view key) {
  MDB_val k = as_val(key);
  const int rc = mdb_del(txn, dbi, &k, nullptr);
  return rc == MDB_NOTFOUND ? 0 : rc;
}

}  // namespace

int open_store_dbs(MDB_txn* txn, StoreDbs& dbs) {
  const std::array<std::pair<const char*, MDB_dbi*>, 5> all = {{{kMetaDb, &dbs.meta},
                                                                {kFactsDb, &dbs.facts},
                                                                {kGraphsDb, &dbs.graphs},
                                                                {kStampsDb, &dbs.stamps},
                                                                {kAgeDb, &dbs.age}}};
  for (const auto& [name, dbi] : all) {
    if (const int rc = mdb_dbi_open(txn, name, MDB_CREATE, dbi); rc != 0) return rc;
  }
  return 0;
}

uint64_t used_bytes(MDB_txn* txn, const StoreDbs& dbs) {
  uint64_t pages = 0;
  uint64_t page_bytes = kPageBytes;
  for (const MDB_dbi dbi :
       {MDB_dbi{0}, MDB_dbi{1}, dbs.meta, dbs.facts, dbs.graphs, dbs.stamps, dbs.age}) {
    MDB_stat stat{};
    if (mdb_stat(txn, dbi, &stat) != 0) continue;
    pages += stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages;
    page_bytes = stat.ms_psize;
  }
  return (pages + 2) * page_bytes;  // and the two meta pages
}

uint64_t accounted_bytes(size_t key_bytes, size_t value_bytes) {
  if (value_bytes <= kLargeValueBytes) return key_bytes + value_bytes + kNodeOverheadBytes;
  const size_t pages = (value_bytes + kNodeOverheadBytes + kPageBytes - 1) / kPageBytes;
  return key_bytes + kNodeOverheadBytes + pages * kPageBytes;
}

uint64_t read_counter(MDB_txn* txn, const StoreDbs& dbs, std::string_view name) {
  MDB_val k = as_val(name);
  MDB_val v{};
  return mdb_get(txn, dbs.meta, &k, &v) == 0 ? read_le64(as_view(v)) : 0;
}

HitCounts read_hit_counts(MDB_txn* txn, const StoreDbs& dbs) {
  HitCounts counts;
  counts.fact_hits = read_counter(txn, dbs, kFactHitsCounter);
  counts.fact_remote_hits = read_counter(txn, dbs, kFactRemoteHitsCounter);
  counts.fact_misses = read_counter(txn, dbs, kFactMissesCounter);
  counts.graph_hits = read_counter(txn, dbs, kGraphHitsCounter);
  counts.graph_remote_hits = read_counter(txn, dbs, kGraphRemoteHitsCounter);
  counts.graph_misses = read_counter(txn, dbs, kGraphMissesCounter);
  return counts;
}

int add_to_counter(MDB_txn* txn, const StoreDbs& dbs, std::string_view name, int64_t delta) {
  if (delta == 0) return 0;
  const uint64_t old = read_counter(txn, dbs, name);
  const uint64_t now =
      delta < 0 && old < static_cast<uint64_t>(-delta) ? 0 : old + static_cast<uint64_t>(delta);
  std::string bytes;
  append_le64(bytes, now);
  MDB_val k = as_val(name);
  MDB_val v = as_val(bytes);
  return mdb_put(txn, dbs.meta, &k, &v, 0);
}

int insert_record(MDB_txn* txn, const StoreDbs& dbs, RecordKind kind, std::string_view key,
                  std::string_view payload, uint64_t clock) {
  const int rc = put_value(txn, dbs.of(kind), key, payload, MDB_NOOVERWRITE);
  if (rc == MDB_KEYEXIST) return touch_record(txn, dbs, kind, key, clock);
  if (rc != 0) return rc;
  const uint64_t size = accounted_bytes(key.size(), encoded_value_bytes(payload));
  if (const int stamped = put_stamp(txn, dbs, index_key(kind, key), clock, size); stamped != 0) {
    return stamped;
  }
  return add_to_counter(txn, dbs, kBytesCounter, static_cast<int64_t>(size));
}

int replace_record(MDB_txn* txn, const StoreDbs& dbs, RecordKind kind, std::string_view key,
                   std::string_view payload, uint64_t clock) {
  const std::string index = index_key(kind, key);
  MDB_val sk = as_val(index);
  MDB_val sv{};
  int rc = mdb_get(txn, dbs.stamps, &sk, &sv);
  if (rc == MDB_NOTFOUND) return insert_record(txn, dbs, kind, key, payload, clock);
  if (rc != 0) return rc;
  const uint64_t old_stamp = read_le64(as_view(sv));
  const uint64_t old_size = read_le64(as_view(sv).substr(8));
  if ((rc = delete_if_present(txn, dbs.age, age_key(old_stamp, index))) != 0) return rc;
  if ((rc = put_value(txn, dbs.of(kind), key, payload, 0)) != 0) return rc;
  const uint64_t size = accounted_bytes(key.size(), encoded_value_bytes(payload));
  if ((rc = put_stamp(txn, dbs, index, clock, size)) != 0) return rc;
  return add_to_counter(txn, dbs, kBytesCounter,
                        static_cast<int64_t>(size) - static_cast<int64_t>(old_size));
}

int touch_record(MDB_txn* txn, const StoreDbs& dbs, RecordKind kind, std::string_view key,
                 uint64_t clock) {
  const std::string index = index_key(kind, key);
  MDB_val k = as_val(index);
  MDB_val v{};
  int rc = mdb_get(txn, dbs.stamps, &k, &v);
  if (rc == MDB_NOTFOUND) return 0;
  if (rc != 0) return rc;
  const uint64_t old_stamp = read_le64(as_view(v));
  const uint64_t size = read_le64(as_view(v).substr(8));
  if (old_stamp == clock) return 0;
  if ((rc = delete_if_present(txn, dbs.age, age_key(old_stamp, index))) != 0) return rc;
  return put_stamp(txn, dbs, index, clock, size);
}

int evict_oldest(MDB_txn* txn, const StoreDbs& dbs, uint64_t target_bytes, size_t max_deletions,
                 size_t& deleted) {
  uint64_t bytes = read_counter(txn, dbs, kBytesCounter);
  const uint64_t before = bytes;
  MDB_cursor* cursor = nullptr;
  int rc = mdb_cursor_open(txn, dbs.age, &cursor);
  MDB_val key{};
  MDB_val value{};
  while (rc == 0 && bytes > target_bytes && deleted < max_deletions &&
         (rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)) == 0) {
    const std::string age(as_view(key));
    if ((rc = mdb_cursor_del(cursor, 0)) != 0) break;
    if (age.size() < 9) continue;  // not ours: dropping the index entry is all there is to do
    const std::string index = age.substr(8);
    const auto kind = static_cast<RecordKind>(index[0]);
    MDB_val sk = as_val(index);
    MDB_val sv{};
    if (mdb_get(txn, dbs.stamps, &sk, &sv) == 0) {
      const uint64_t size = read_le64(as_view(sv).substr(8));
      bytes = size > bytes ? 0 : bytes - size;
      if ((rc = mdb_del(txn, dbs.stamps, &sk, nullptr)) != 0) break;
    }
    if (kind == RecordKind::Facts || kind == RecordKind::Graph) {
      if ((rc = delete_if_present(txn, dbs.of(kind), index.substr(1))) != 0) break;
    }
    ++deleted;
  }
  if (cursor != nullptr) mdb_cursor_close(cursor);
  if (rc == MDB_NOTFOUND) rc = 0;
  if (rc != 0) return rc;
  return add_to_counter(txn, dbs, kBytesCounter,
                        static_cast<int64_t>(bytes) - static_cast<int64_t>(before));
}

}  // namespace anchorfs::cache
