// Recency stamps and least-recently-used pruning of the graph databases.
#include "cache/graph_records.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cache/store_check.h"

namespace anchorfs::cache {
namespace {

constexpr size_t kStampBytes = 8;

std::string_view as_view(const MDB_val& v) {
  return {static_cast<const char*>(v.mv_data), v.mv_size};
}

MDB_val as_val(std::string_view s) {
  return {s.size(), const_cast<char*>(s.data())};
}

// A malformed stamp reads as 0: the oldest, pruned first, never a reason to fail.
uint64_t read_stamp(std::string_view bytes) {
  if (bytes.size() != kStampBytes) return 0;
  uint64_t stamp = 0;
  for (size_t i = 0; i < kStampBytes; ++i) {
    stamp |= uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  }
  return stamp;
}

std::string encode_stamp(uint64_t stamp) {
  std::string bytes(kStampBytes, '\0');
  for (size_t i = 0; i < kStampBytes; ++i) {
    bytes[i] = static_cast<char>((stamp >> (8 * i)) & 0xffu);
  }
  return bytes;
}

// Every (key, value) of `dbi`, copied out of the transaction's pages.
int read_all(MDB_txn* txn, MDB_dbi dbi, std::vector<std::pair<std::string, std::string>>& out) {
  MDB_cursor* cursor = nullptr;
  MDB_val key{};
  MDB_val value{};
  int rc = mdb_cursor_open(txn, dbi, &cursor);
  while (rc == 0 && (rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
    out.emplace_back(as_view(key), as_view(value));
  }
  if (cursor != nullptr) mdb_cursor_close(cursor);
  return rc == MDB_NOTFOUND ? 0 : rc;
}

int delete_key(MDB_txn* txn, MDB_dbi dbi, std::string_view key) {
  MDB_val k = as_val(key);
  const int rc = mdb_del(txn, dbi, &k, nullptr);
  return rc == MDB_NOTFOUND ? 0 : rc;
}

}  // namespace

int open_graph_dbs(MDB_txn* txn, GraphDbs& dbs) {
  const int rc = mdb_dbi_open(txn, kGraphsDb, MDB_CREATE, &dbs.graphs);
  return rc != 0 ? rc : mdb_dbi_open(txn, kGraphUsedDb, MDB_CREATE, &dbs.used);
}

int mark_graph_used(MDB_txn* txn, const GraphDbs& dbs, std::string_view key) {
  std::vector<std::pair<std::string, std::string>> stamps;
  if (const int rc = read_all(txn, dbs.used, stamps); rc != 0) return rc;
  uint64_t newest = 0;
  std::string newest_key;
  for (const auto& [k, v] : stamps) {
    if (read_stamp(v) >= newest) {
      newest = read_stamp(v);
      newest_key = k;
    }
  }
  if (!stamps.empty() && newest_key == key) return 0;
  const std::string stamp = encode_stamp(newest + 1);
  MDB_val k = as_val(key);
  MDB_val v = as_val(stamp);
  return mdb_put(txn, dbs.used, &k, &v, 0);
}

int prune_graphs(MDB_txn* txn, const GraphDbs& dbs, size_t keep) {
  std::vector<std::pair<std::string, std::string>> graphs;
  std::vector<std::pair<std::string, std::string>> stamps;
  // Only keys are needed from the graphs; copying values would copy megabytes.
  MDB_cursor* cursor = nullptr;
  MDB_val key{};
  MDB_val value{};
  int rc = mdb_cursor_open(txn, dbs.graphs, &cursor);
  while (rc == 0 && (rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
    graphs.emplace_back(as_view(key), std::string());
  }
  if (cursor != nullptr) mdb_cursor_close(cursor);
  if (rc != MDB_NOTFOUND) return rc;
  if ((rc = read_all(txn, dbs.used, stamps)) != 0) return rc;

  std::vector<std::pair<uint64_t, std::string>> by_age;  // (stamp, key)
  for (const auto& [k, unused] : graphs) {
    const auto it = std::find_if(stamps.begin(), stamps.end(),
                                 [&k](const auto& stamp) { return stamp.first == k; });
    by_age.emplace_back(it == stamps.end() ? 0 : read_stamp(it->second), k);
  }
  for (const auto& [k, unused] : stamps) {
    const bool orphan = std::none_of(graphs.begin(), graphs.end(),
                                     [&k](const auto& graph) { return graph.first == k; });
    if (orphan && (rc = delete_key(txn, dbs.used, k)) != 0) return rc;
  }
  if (by_age.size() <= keep) return 0;
  std::sort(by_age.begin(), by_age.end());
  for (size_t i = 0; i + keep < by_age.size(); ++i) {
    if ((rc = delete_key(txn, dbs.graphs, by_age[i].second)) != 0 ||
        (rc = delete_key(txn, dbs.used, by_age[i].second)) != 0) {
      return rc;
    }
  }
  return 0;
}

}  // namespace anchorfs::cache
