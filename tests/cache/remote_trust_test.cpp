// A cache's writer against the farm: records in Redis change nothing a machine serves or stores
// unless sealed with the farm key, and even a sealed record is used only when its anchors fit
// the machine's own bytes (docs/cache.md, "Threat model").
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "analysis/graph_serialize.h"
#include "cache/record_codec.h"
#include "cache/record_mac.h"
#include "redis_server.h"
#include "refresh/pipeline.h"
#include "refresh_support.h"

namespace anchorfs::refresh::testing {
namespace {

constexpr const char* kFarmKey = "the farm's shared secret, 32 B.";

class RemoteTrust : public ScratchTree {
 protected:
  void SetUp() override {
    ScratchTree::SetUp();
    repo_ = root_ + "/repo";
    put(repo_, "pkg/__init__.py", "");
    put(repo_, "pkg/a.py",
        "def helper():\n    return 1\n\n\nclass Box:\n    def get(self):\n"
        "        return helper()\n");
    put(repo_, "pkg/b.py", "from pkg.a import helper\n\n\ndef user():\n    return helper()\n");
    std::filesystem::create_directories(root_ + "/redis");
    redis_ = std::make_unique<cache::testing::RedisServer>(root_ + "/redis");
    ASSERT_TRUE(redis_->ok());
  }

  // A machine of the farm: its own cache root, the shared Redis, `key` as its farm key.
  std::unique_ptr<cache::LmdbFactCache> machine(const std::string& name,
                                                const std::string& key = kFarmKey) {
    cache::CacheOptions o;
    o.repo_root = repo_;
    o.cache_dir = root_ + "/" + name;
    std::string error;
    o.remote = cache::parse_remote_address(redis_->url(), error);
    o.farm_key = key;
    o.warn = [this](const std::string& message) {
      const std::lock_guard lock(mutex_);
      warnings_.push_back(message);
    };
    return cache::LmdbFactCache::open(o);
  }

  Prepared prepare_with(cache::LmdbFactCache* cache) {
    PipelineOptions options;
    options.threads = 2;
    options.cache = cache;
    options.view.view = render::View::Topo;
    return prepare(analysis::scan_tree(repo_), options);
  }

  std::string plans_of(const Prepared& prepared) {
    std::string out;
    for (const auto& [path, plan] : prepared.plans->plans()) {
      for (const auto& insertion : plan.insertions) {
        out += path + "@" + std::to_string(insertion.offset) + ":" + insertion.text;
      }
    }
    return out;
  }

  std::vector<std::string> warnings() {
    const std::lock_guard lock(mutex_);
    return warnings_;
  }

  std::string repo_;
  std::unique_ptr<cache::testing::RedisServer> redis_;
  std::mutex mutex_;
  std::vector<std::string> warnings_;
};

// The store key behind a Redis key ("anchorfs:g:<hex>").
std::string store_key_of(const std::string& redis_key) {
  const std::string hex = redis_key.substr(redis_key.rfind(':') + 1);
  std::string key;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    key += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return key;
}

TEST_F(RemoteTrust, RecordsWithAValidChecksumButWithoutTheKeyAreNeverUsed) {
  const std::string expected = plans_of(prepare_with(nullptr));
  {
    auto first = machine("machine-a");
    prepare_with(first.get());
  }
  const std::vector<std::string> graphs = redis_->keys("anchorfs:g:*");
  ASSERT_EQ(graphs.size(), 1u);
  // A writer without the key replaces every record with one whose checksum verifies (the old
  // record layout) and one sealed with another key: both describe a forged graph.
  const std::string key = store_key_of(graphs[0]);
  const std::string sealed = redis_->get(graphs[0]);  // the payload is a view into it
  auto payload = cache::open_remote_value(kFarmKey, key, sealed);
  ASSERT_TRUE(payload.has_value()) << "the farm did not seal its graph";
  std::optional<analysis::Analysis> forged = analysis::deserialize_analysis(*payload);
  ASSERT_TRUE(forged.has_value());
  for (analysis::Entity& entity : forged->graph.entities) entity.name += "_forged";
  const std::string forged_payload = analysis::serialize_analysis(*forged);
  const std::vector<std::string> forgeries = {
      cache::encode_value(key, forged_payload),
      cache::seal_remote_value("another farm's key, not ours!!", key, forged_payload)};
  for (size_t i = 0; i < forgeries.size(); ++i) {
    redis_->set(graphs[0], forgeries[i]);
    auto second = machine("machine-b" + std::to_string(i));
    const Prepared prepared = prepare_with(second.get());
    EXPECT_FALSE(prepared.analysis.stats.graph_from_cache) << "forgery " << i << " was used";
    EXPECT_EQ(plans_of(prepared), expected);
    for (const analysis::Entity& entity : prepared.analysis.graph.entities) {
      EXPECT_EQ(entity.name.find("_forged"), std::string::npos) << entity.name;
    }
  }
}

TEST_F(RemoteTrust, ASealedGraphWhoseAnchorsMissTheBytesIsRejectedAndRecomputed) {
  const std::string expected = plans_of(prepare_with(nullptr));
  ASSERT_FALSE(expected.empty());
  {
    auto first = machine("machine-a");
    prepare_with(first.get());
  }
  const std::vector<std::string> graphs = redis_->keys("anchorfs:g:*");
  ASSERT_EQ(graphs.size(), 1u);
  const std::string key = store_key_of(graphs[0]);
  const std::string sealed = redis_->get(graphs[0]);  // the payload is a view into it
  auto payload = cache::open_remote_value(kFarmKey, key, sealed);
  ASSERT_TRUE(payload.has_value());
  std::optional<analysis::Analysis> shifted = analysis::deserialize_analysis(*payload);
  ASSERT_TRUE(shifted.has_value());
  // A key holder (or a broken machine) moves every anchor into the middle of its line.
  size_t moved = 0;
  for (analysis::Entity& entity : shifted->graph.entities) {
    if (entity.anchor && entity.kind != analysis::EntityKind::File) {
      entity.anchor->offset += 2;
      ++moved;
    }
  }
  ASSERT_GT(moved, 0u);
  redis_->set(graphs[0],
              cache::seal_remote_value(kFarmKey, key, analysis::serialize_analysis(*shifted)));
  auto second = machine("machine-b");
  const Prepared prepared = prepare_with(second.get());
  EXPECT_FALSE(prepared.analysis.stats.graph_from_cache);
  EXPECT_EQ(plans_of(prepared), expected) << "tags were planned at the forged offsets";
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("did not fit the sources"), std::string::npos) << warnings()[0];
  EXPECT_NE(warnings()[0].find("inside a line"), std::string::npos) << warnings()[0];
  EXPECT_FALSE(second->remote_up());
  // Nothing of it was kept: the same machine, offline, computes (or reuses its own) plans.
  second.reset();
  redis_->kill();
  auto offline = machine("machine-b");
  EXPECT_EQ(plans_of(prepare_with(offline.get())), expected);
}

TEST_F(RemoteTrust, WithoutAFarmKeyTheRemoteTierIsNotUsed) {
  auto keyless = machine("machine-a", "");
  EXPECT_FALSE(keyless->remote_up());
  prepare_with(keyless.get());
  EXPECT_TRUE(redis_->keys("anchorfs:*").empty()) << "records were written without a key";
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("no farm key"), std::string::npos) << warnings()[0];
}

}  // namespace
}  // namespace anchorfs::refresh::testing
