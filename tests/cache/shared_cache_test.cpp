// The cache shared by many checkouts and machines: a real redis-server as the remote tier (two
// cache roots standing for two machines), failures of that tier, hostile values, and the size
// cap across many repositories.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "analysis/analyze.h"
#include "analysis/graph_serialize.h"
#include "analysis/source_tree.h"
#include "cache/record_codec.h"
#include "cache/redis_tier.h"
#include "cache_test_support.h"
#include "redis_server.h"

namespace anchorfs::cache::testing {
namespace {

class SharedCacheTest : public CacheTest {
 protected:
  void SetUp() override {
    CacheTest::SetUp();
    for (int i = 0; i < 6; ++i) {
      put(repo_, "pkg/m" + std::to_string(i) + ".py", module(i));
    }
    put(repo_, "pkg/__init__.py", "");
  }

  static std::string module(int i) {
    return "from pkg.m" + std::to_string((i + 1) % 6) + " import f" + std::to_string((i + 1) % 6) +
           "\n\n\ndef f" + std::to_string(i) + "():\n    return f" + std::to_string((i + 1) % 6) +
           "()\n\n\nclass C" + std::to_string(i) + ":\n    def run(self):\n        return f" +
           std::to_string(i) + "()\n";
  }

  static void put(const std::string& repo, const std::string& path, const std::string& bytes) {
    std::filesystem::create_directories(std::filesystem::path(repo + "/" + path).parent_path());
    write_file(repo + "/" + path, bytes);
  }

  // A cache root of its own (another "machine"), sharing `redis` when given.
  std::unique_ptr<LmdbFactCache> machine(const std::string& name, const RedisServer* redis,
                                         const std::string& repo = "") {
    CacheOptions o = options();
    o.cache_dir = scratch_ + "/" + name;
    if (!repo.empty()) o.repo_root = repo;
    if (redis != nullptr) {
      std::string error;
      o.remote = parse_remote_address(redis->url(), error);
    }
    return LmdbFactCache::open(o);
  }

  static analysis::Analysis analyse(const std::string& repo, LmdbFactCache* cache) {
    analysis::AnalysisOptions o;
    o.threads = 2;
    o.cache = cache;
    analysis::Analysis result = analysis::analyze(analysis::scan_tree(repo), o);
    if (cache != nullptr) cache->flush();
    return result;
  }

  std::string redis_dir() {
    const std::string dir = scratch_ + "/redis";
    std::filesystem::create_directories(dir);
    return dir;
  }
};

TEST_F(SharedCacheTest, ASecondMachineSharingRedisParsesNothingForAnUnchangedTree) {
  RedisServer redis(redis_dir());
  ASSERT_TRUE(redis.ok());
  const std::string expected = analysis::serialize_analysis(analyse(repo_, nullptr));
  {
    auto first = machine("machine-a", &redis);
    const analysis::Analysis cold = analyse(repo_, first.get());
    EXPECT_EQ(cold.stats.parsed, 8u);
  }
  EXPECT_EQ(redis.keys("anchorfs:g:*").size(), 1u);
  EXPECT_EQ(redis.keys("anchorfs:f:*").size(), 8u);

  auto second = machine("machine-b", &redis);
  const analysis::Analysis warm = analyse(repo_, second.get());
  EXPECT_TRUE(warm.stats.graph_from_cache);
  EXPECT_EQ(warm.stats.parsed, 0u);
  EXPECT_EQ(analysis::serialize_analysis(warm), expected);
  EXPECT_EQ(second->hits().graph_remote_hits, 1u);
  // Read through: the second machine now has it locally and no longer needs the remote.
  second.reset();
  redis.kill();
  auto offline = machine("machine-b", nullptr);
  EXPECT_TRUE(analyse(repo_, offline.get()).stats.graph_from_cache);
  EXPECT_EQ(warnings(), std::vector<std::string>{});
}

TEST_F(SharedCacheTest, AnotherCheckoutWithOneFileChangedParsesOnlyThatFileFromRemoteFacts) {
  RedisServer redis(redis_dir());
  ASSERT_TRUE(redis.ok());
  {
    auto first = machine("machine-a", &redis);
    analyse(repo_, first.get());
  }
  const std::string other = scratch_ + "/checkout-2";
  std::filesystem::copy(repo_, other, std::filesystem::copy_options::recursive);
  put(other, "pkg/m3.py", module(3) + "\n\ndef added():\n    return f3()\n");
  auto second = machine("machine-b", &redis, other);
  const analysis::Analysis result = analyse(other, second.get());
  EXPECT_FALSE(result.stats.graph_from_cache);
  EXPECT_EQ(result.stats.parsed, 1u);
  EXPECT_EQ(result.stats.from_cache, 7u);
  EXPECT_EQ(second->hits().fact_remote_hits, 7u);
  EXPECT_EQ(analysis::serialize_analysis(result),
            analysis::serialize_analysis(analyse(other, nullptr)));
}

TEST_F(SharedCacheTest, AScribbledRemoteValueIsIgnoredAndRewritten) {
  RedisServer redis(redis_dir());
  ASSERT_TRUE(redis.ok());
  {
    auto first = machine("machine-a", &redis);
    analyse(repo_, first.get());
  }
  const std::vector<std::string> graphs = redis.keys("anchorfs:g:*");
  const std::vector<std::string> facts = redis.keys("anchorfs:f:*");
  ASSERT_EQ(graphs.size(), 1u);
  ASSERT_EQ(facts.size(), 8u);
  const std::string good_graph = redis.get(graphs[0]);
  const std::string good_fact = redis.get(facts[2]);
  std::string scribbled = good_graph;
  scribbled[scribbled.size() / 2] ^= 0x5a;
  redis.set(graphs[0], scribbled);
  redis.set(facts[2], "AFC1 not a record at all");

  auto second = machine("machine-b", &redis);
  const analysis::Analysis result = analyse(repo_, second.get());
  EXPECT_FALSE(result.stats.graph_from_cache) << "a damaged graph was trusted";
  EXPECT_EQ(result.stats.parsed, 1u) << "only the file whose remote facts are damaged";
  EXPECT_EQ(analysis::serialize_analysis(result),
            analysis::serialize_analysis(analyse(repo_, nullptr)));
  EXPECT_EQ(redis.get(graphs[0]), good_graph) << "the graph was not rewritten";
  EXPECT_EQ(redis.get(facts[2]), good_fact) << "the facts were not rewritten";
  EXPECT_EQ(warnings(), std::vector<std::string>{});
}

TEST_F(SharedCacheTest, RedisKilledMidAnalysisCostsOneWarningAndNothingElse) {
  RedisServer redis(redis_dir());
  ASSERT_TRUE(redis.ok());
  auto cache = machine("machine-a", &redis);
  ASSERT_TRUE(cache->remote_up());
  redis.kill();
  const analysis::Analysis result = analyse(repo_, cache.get());
  EXPECT_EQ(result.stats.parsed, 8u);
  EXPECT_FALSE(cache->remote_up());
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("local cache only"), std::string::npos) << warnings()[0];
  EXPECT_TRUE(analyse(repo_, cache.get()).stats.graph_from_cache) << "the local tier still works";
  EXPECT_EQ(warnings().size(), 1u);
}

TEST_F(SharedCacheTest, ARedisThatNeverAnswersCostsOneBoundedWait) {
  // Listening, never accepting or answering: connect succeeds, every command would hang.
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  CacheOptions o = options();
  std::string error;
  o.remote = parse_remote_address(
      "redis://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/0", error);
  const auto start = std::chrono::steady_clock::now();
  auto cache = LmdbFactCache::open(o);
  const analysis::Analysis result = analyse(repo_, cache.get());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::close(listener);
  EXPECT_EQ(result.stats.parsed, 8u);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("timed out"), std::string::npos) << warnings()[0];
  // One command timeout (0.4 s) and no more: far below the several seconds of many waits.
  EXPECT_LT(seconds, 3.0);
}

TEST_F(SharedCacheTest, CredentialsAreUsedAndNeverShown) {
  RedisServer redis(redis_dir(), "pa55-w0rd");
  ASSERT_TRUE(redis.ok());
  {
    auto cache = machine("machine-a", &redis);
    EXPECT_TRUE(cache->remote_up());
    analyse(repo_, cache.get());
  }
  EXPECT_EQ(redis.keys("anchorfs:g:*").size(), 1u);
  CacheOptions wrong = options();
  std::string error;
  wrong.remote = parse_remote_address(
      "redis://:wrong-pa55@127.0.0.1:" + std::to_string(redis.port()) + "/0", error);
  auto cache = LmdbFactCache::open(wrong);
  EXPECT_FALSE(cache->remote_up());
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_EQ(warnings()[0].find("wrong-pa55"), std::string::npos) << warnings()[0];
  EXPECT_NE(warnings()[0].find("***@127.0.0.1"), std::string::npos) << warnings()[0];
}

TEST_F(SharedCacheTest, ValuesLongerThanTheLimitAreRefusedUnread) {
  RedisServer redis(redis_dir());
  ASSERT_TRUE(redis.ok());
  redis.set("big", std::string(5000, 'x'));
  redis.set("small", std::string(100, 'x'));
  RemoteOptions o;
  std::string error;
  o.address = *parse_remote_address(redis.url(), error);
  o.max_value_bytes = 1000;
  RedisTier tier(o);
  EXPECT_EQ(tier.get("big"), std::nullopt);
  EXPECT_EQ(tier.get("small"), std::string(100, 'x'));
  EXPECT_EQ(tier.get("absent"), std::nullopt);
  EXPECT_TRUE(tier.up());
}

TEST_F(SharedCacheTest, TheCapHoldsAfterManyRepositories) {
  CacheOptions capped = options();
  capped.max_bytes = 1 << 20;
  for (int r = 0; r < 40; ++r) {
    const std::string repo = scratch_ + "/repo-" + std::to_string(r);
    for (int i = 0; i < 8; ++i) {
      std::string body = module(i);
      for (int k = 0; k < 40; ++k) {
        body += "\n\ndef g" + std::to_string(r) + "_" + std::to_string(k) + "():\n    return f" +
                std::to_string(i) + "()\n";
      }
      put(repo, "pkg/m" + std::to_string(i) + ".py", body);
    }
    capped.repo_root = repo;
    auto cache = LmdbFactCache::open(capped);
    ASSERT_NE(cache, nullptr);
    analyse(repo, cache.get());
    const StoreInfo info = cache->info();
    ASSERT_LE(info.used_bytes, capped.max_bytes) << "repository " << r;
    ASSERT_LE(std::filesystem::file_size(cache->store_dir() + "/data.mdb"), capped.max_bytes)
        << "repository " << r;
  }
  // Whatever was evicted, the most recent analysis is there to be reused.
  auto cache = LmdbFactCache::open(capped);
  EXPECT_TRUE(analyse(capped.repo_root, cache.get()).stats.graph_from_cache);
}

}  // namespace
}  // namespace anchorfs::cache::testing
