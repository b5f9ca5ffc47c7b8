// Records written into LMDB's reserved space hold exactly encode_value's bytes and their size.
#include <gtest/gtest.h>
#include <lmdb.h>

#include <string>

#include "cache/lru_index.h"
#include "cache/mdb_bytes.h"
#include "cache/record_codec.h"
#include "tests/support/temp_dir.h"

namespace anchorfs::cache {
namespace {

// One store in a scratch directory, its databases open.
class RecordWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mdb_env_create(&env_), 0);
    ASSERT_EQ(mdb_env_set_maxdbs(env_, 8), 0);
    ASSERT_EQ(mdb_env_set_mapsize(env_, size_t{64} << 20), 0);
    ASSERT_EQ(mdb_env_open(env_, dir_.path().c_str(), MDB_NOTLS, 0600), 0);
    MDB_txn* txn = nullptr;
    ASSERT_EQ(mdb_txn_begin(env_, nullptr, 0, &txn), 0);
    ASSERT_EQ(open_store_dbs(txn, dbs_), 0);
    ASSERT_EQ(mdb_txn_commit(txn), 0);
  }
  void TearDown() override { mdb_env_close(env_); }

  // The stored value under `key` in the graph table, as bytes.
  std::string stored(std::string_view key) {
    MDB_txn* txn = nullptr;
    EXPECT_EQ(mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn), 0);
    MDB_val k = as_val(key);
    MDB_val v{};
    std::string out;
    if (mdb_get(txn, dbs_.graphs, &k, &v) == 0) out = std::string(as_view(v));
    mdb_txn_abort(txn);
    return out;
  }

  uint64_t byte_total() {
    MDB_txn* txn = nullptr;
    EXPECT_EQ(mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn), 0);
    const uint64_t total = read_counter(txn, dbs_, kBytesCounter);
    mdb_txn_abort(txn);
    return total;
  }

  template <typename Write>
  void write(Write&& w) {
    MDB_txn* txn = nullptr;
    ASSERT_EQ(mdb_txn_begin(env_, nullptr, 0, &txn), 0);
    ASSERT_EQ(w(txn), 0);
    ASSERT_EQ(mdb_txn_commit(txn), 0);
  }

  test_support::TempDir dir_{"anchorfs-record-write"};
  MDB_env* env_ = nullptr;
  StoreDbs dbs_;
};

std::string payload_of(size_t bytes, char seed) {
  std::string p(bytes, '\0');
  for (size_t i = 0; i < bytes; ++i) p[i] = static_cast<char>(seed + 31 * i);
  return p;
}

TEST(RecordCodecTest, EncodingInPlaceWritesEncodeValuesBytes) {
  const std::string key = encode_key(graph_namespace(), analysis::ResolutionKey{1, 2});
  for (const size_t bytes : {size_t{0}, size_t{5}, size_t{100000}}) {
    const std::string payload = payload_of(bytes, 'a');
    std::string out(encoded_value_bytes(payload), '\x55');
    encode_value_into(out.data(), key, payload);
    EXPECT_EQ(out, encode_value(key, payload));
    EXPECT_EQ(decode_value(key, out), std::optional<std::string_view>(payload));
  }
}

TEST_F(RecordWriteTest, InsertedAndReplacedRecordsAreEncodedAndCounted) {
  const std::string small_key = encode_key(graph_namespace(), analysis::ResolutionKey{3, 4});
  const std::string large_key = encode_key(derived_namespace(), analysis::ResolutionKey{5, 6});
  const std::string small = payload_of(40, 's');
  const std::string large = payload_of(3 << 20, 'l');  // LMDB's overflow pages
  write([&](MDB_txn* txn) {
    const int rc = insert_record(txn, dbs_, RecordKind::Graph, small_key, small, 1);
    return rc != 0 ? rc : insert_record(txn, dbs_, RecordKind::Graph, large_key, large, 1);
  });
  EXPECT_EQ(stored(small_key), encode_value(small_key, small));
  EXPECT_EQ(stored(large_key), encode_value(large_key, large));
  EXPECT_EQ(byte_total(), accounted_bytes(small_key.size(), encoded_value_bytes(small)) +
                              accounted_bytes(large_key.size(), encoded_value_bytes(large)));

  // An insert under an existing key keeps the first value (records are deterministic).
  write([&](MDB_txn* txn) {
    return insert_record(txn, dbs_, RecordKind::Graph, small_key, payload_of(40, 'x'), 2);
  });
  EXPECT_EQ(stored(small_key), encode_value(small_key, small));

  // A replace rewrites it, and the byte total follows the new size.
  const std::string shorter = payload_of(1 << 20, 'r');
  write([&](MDB_txn* txn) {
    return replace_record(txn, dbs_, RecordKind::Graph, large_key, shorter, 3);
  });
  EXPECT_EQ(stored(large_key), encode_value(large_key, shorter));
  EXPECT_EQ(byte_total(), accounted_bytes(small_key.size(), encoded_value_bytes(small)) +
                              accounted_bytes(large_key.size(), encoded_value_bytes(shorter)));
}

}  // namespace
}  // namespace anchorfs::cache
