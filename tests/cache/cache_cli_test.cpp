// The cache through the real `anchorfs` binary: a full cache filesystem (a real 1 MB tmpfs) and
// damaged stores (real page scribbles) cost the cache, never the command (issue 17, items 9 and
// 10); a farm of cache roots sharing one real redis-server mounts an unchanged tree without
// parsing it.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "redis_server.h"
#include "tests/hostile/support/corpus.h"
#include "tests/hostile/support/mount_session.h"
#include "tests/hostile/support/process.h"

namespace anchorfs::testing {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr const char* kSample = ANCHORFS_SAMPLE_PROJECT;
constexpr const char* kRendered = "bookshelf/models.py";

class CacheCli : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = tmp_.path() + "/repo";
    fs::copy(kSample, repo_, fs::copy_options::recursive);
    // Never the user's cache or config, whatever a test forgets to pass.
    env_ = {"XDG_CACHE_HOME=" + tmp_.path() + "/xdg-cache",
            "XDG_CONFIG_HOME=" + tmp_.path() + "/xdg-config", "HOME=" + tmp_.path()};
  }

  RunResult anchorfs(std::vector<std::string> args) {
    args.insert(args.begin(), anchorfs_binary());
    SpawnOptions options;
    options.extra_env = env_;
    return run(args, 120s * timeout_scale(), options);
  }

  // A private file holding the farm key every machine of the test's farm reads.
  std::string farm_key_file(mode_t mode = 0600) {
    const std::string path = tmp_.path() + "/farm.key";
    {
      std::ofstream out(path, std::ios::trunc);
      out << "a farm key of thirty-two bytes!!\n";
    }
    ::chmod(path.c_str(), mode);
    return path;
  }

  RunResult render(const std::string& cache_dir) {
    return anchorfs({"render", repo_, kRendered, "--cache-dir", cache_dir});
  }

  std::string expected_render() {
    const RunResult uncached = anchorfs({"render", repo_, kRendered, "--no-cache"});
    EXPECT_TRUE(uncached.status.ok()) << uncached.err;
    return uncached.out;
  }

  // A real tmpfs of `bytes`, unmounted by the destructor of the test's TempDir users.
  std::string small_tmpfs(const std::string& name, const std::string& size) {
    const std::string dir = tmp_.path() + "/" + name;
    fs::create_directories(dir);
    const std::string options = "size=" + size + ",mode=0700";
    if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) != 0) {
      ADD_FAILURE() << "cannot mount a tmpfs at " << dir << ": " << std::strerror(errno);
    }
    mounted_.push_back(dir);
    return dir;
  }

  static void fill(const std::string& dir) {
    std::ofstream out(dir + "/filler", std::ios::binary);
    const std::string block(4096, 'f');
    while (out.write(block.data(), block.size())) {
    }
  }

  void TearDown() override {
    for (const std::string& dir : mounted_) ::umount2(dir.c_str(), MNT_DETACH);
  }

  TempDir tmp_{"cache-cli"};
  std::string repo_;
  std::vector<std::string> env_;
  std::vector<std::string> mounted_;
};

// 17.9: `render`, `stats` and `mount` with --cache-dir on a full 1 MB tmpfs: a new store there
// used to kill every command with SIGBUS (LMDB touched a lock file it could not allocate).
TEST_F(CacheCli, AFullCacheFilesystemNeverKillsACommand) {
  const std::string expected = expected_render();
  const std::string full = small_tmpfs("full", "1m");
  fill(full);
  for (int round = 0; round < 2; ++round) {
    const RunResult rendered = render(full + "/cache");
    EXPECT_TRUE(rendered.status.ok()) << rendered.status.describe() << "\n" << rendered.err;
    EXPECT_EQ(rendered.out, expected);
    EXPECT_NE(rendered.err.find("No space left on device"), std::string::npos) << rendered.err;
    const RunResult stats = anchorfs({"stats", repo_, "--cache-dir", full + "/cache"});
    EXPECT_TRUE(stats.status.ok()) << stats.status.describe() << "\n" << stats.err;
  }
  const std::string mnt = tmp_.path() + "/mnt";
  fs::create_directories(mnt);
  MountOptions options;
  options.extra_args = {"--cache-dir", full + "/cache"};
  options.cache_home = tmp_.path() + "/xdg-cache";
  MountSession mount(repo_, mnt, options);
  std::ifstream served(mnt + "/" + kRendered);
  std::string bytes((std::istreambuf_iterator<char>(served)), std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes, expected);
}

// 17.9, the other way round: the store fits at first, then the filesystem fills up under it.
TEST_F(CacheCli, ACacheFilesystemThatFillsUpLaterCostsOnlyTheCache) {
  const std::string full = small_tmpfs("filling", "1m");
  ASSERT_TRUE(render(full + "/cache").status.ok());
  fill(full);
  std::ofstream(repo_ + "/" + kRendered, std::ios::app) << "\n\ndef added():\n    return 1\n";
  const std::string expected = expected_render();
  for (int round = 0; round < 2; ++round) {
    const RunResult rendered = render(full + "/cache");
    EXPECT_TRUE(rendered.status.ok()) << rendered.status.describe() << "\n" << rendered.err;
    EXPECT_EQ(rendered.out, expected);
  }
}

// 17.10: one 4 KiB page of a fresh store scribbled (every page, three patterns): no command
// crashes, none serves anything but what an uncached run serves, and the store recovers.
TEST_F(CacheCli, AScribbledStorePageNeverCrashesACommand) {
  const std::string expected = expected_render();
  const std::string cache = tmp_.path() + "/cache";
  ASSERT_TRUE(render(cache).status.ok());
  const std::string data = cache + "/store/data.mdb";
  std::ifstream in(data, std::ios::binary);
  const std::string pristine((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  ASSERT_GE(pristine.size(), 8 * page);
  std::mt19937_64 random(17);
  size_t recovered = 0;
  for (size_t p = 2; p < pristine.size() / page; ++p) {
    for (const char* pattern : {"random", "ones", "zeros"}) {
      std::string bytes = pristine;
      for (size_t i = p * page; i < (p + 1) * page; ++i) {
        bytes[i] = pattern[0] == 'r'   ? static_cast<char>(random() & 0xff)
                   : pattern[0] == 'o' ? static_cast<char>(0xff)
                                       : '\0';
      }
      fs::remove_all(cache + "/store");
      fs::create_directories(cache + "/store");
      std::ofstream(data, std::ios::binary) << bytes;
      for (int run = 0; run < 2; ++run) {
        const RunResult rendered = render(cache);
        ASSERT_TRUE(rendered.status.ok()) << "page " << p << " " << pattern << " run " << run
                                          << ": " << rendered.status.describe() << "\n"
                                          << rendered.err;
        ASSERT_EQ(rendered.out, expected) << "page " << p << " " << pattern;
      }
      const RunResult stats = anchorfs({"cache", "stats", "--cache-dir", cache});
      recovered += stats.out.find("damaged") == std::string::npos ? 1 : 0;
    }
  }
  EXPECT_GT(recovered, 0u);
}

// A farm: two cache roots ("machines") sharing one redis-server; the second mounts an unchanged
// tree from the remote without parsing a file. Then redis dies: mounts still succeed.
TEST_F(CacheCli, TwoMachinesSharingRedisAndRedisGoingAway) {
  const std::string redis_dir = tmp_.path() + "/redis";
  fs::create_directories(redis_dir);
  cache::testing::RedisServer redis(redis_dir);
  ASSERT_TRUE(redis.ok());
  const std::string mnt = tmp_.path() + "/mnt";
  fs::create_directories(mnt);
  const std::string key = farm_key_file();
  const auto mount_with = [&](const std::string& root) {
    MountOptions options;
    options.extra_args = {"--cache-dir", tmp_.path() + "/" + root,  "--remote-cache",
                          redis.url(),   "--remote-cache-key-file", key};
    options.cache_home = tmp_.path() + "/xdg-cache";
    return std::make_unique<MountSession>(repo_, mnt, options);
  };
  {
    auto first = mount_with("machine-a");
    EXPECT_NE(first->log().find("parsed"), std::string::npos) << first->log();
  }
  {
    auto second = mount_with("machine-b");
    EXPECT_NE(second->log().find("graph from cache"), std::string::npos) << second->log();
  }
  redis.kill();
  auto third = mount_with("machine-c");
  EXPECT_NE(third->log().find("local cache only"), std::string::npos) << third->log();
  EXPECT_EQ(third->log().find(":6379"), std::string::npos);
}

// The Redis password never goes on a command line (every user reads /proc/PID/cmdline): refused
// there, taken from a private file or the environment.
TEST_F(CacheCli, TheRemotePasswordComesFromAFileOrTheEnvironmentNeverArgv) {
  const std::string redis_dir = tmp_.path() + "/redis";
  fs::create_directories(redis_dir);
  cache::testing::RedisServer redis(redis_dir, "pa55-w0rd");
  ASSERT_TRUE(redis.ok());
  const std::string key = farm_key_file();
  const std::string address = "redis://127.0.0.1:" + std::to_string(redis.port()) + "/0";
  const RunResult in_argv =
      anchorfs({"render", repo_, kRendered, "--cache-dir", tmp_.path() + "/a", "--remote-cache",
                redis.url(), "--remote-cache-key-file", key});
  EXPECT_FALSE(in_argv.status.ok()) << "a password in argv was accepted";
  EXPECT_NE(in_argv.err.find("visible to every user"), std::string::npos) << in_argv.err;
  EXPECT_EQ(in_argv.err.find("pa55-w0rd"), std::string::npos) << in_argv.err;

  const std::string password = tmp_.path() + "/redis.password";
  {
    std::ofstream out(password);
    out << "pa55-w0rd\n";
  }
  ::chmod(password.c_str(), 0600);
  const RunResult from_file =
      anchorfs({"render", repo_, kRendered, "--cache-dir", tmp_.path() + "/b", "--remote-cache",
                address, "--remote-cache-key-file", key, "--remote-cache-password-file", password});
  EXPECT_TRUE(from_file.status.ok()) << from_file.err;
  EXPECT_EQ(from_file.err.find("unusable"), std::string::npos) << from_file.err;
  EXPECT_FALSE(redis.keys("anchorfs:g:*").empty()) << "nothing reached the remote tier";

  ::chmod(password.c_str(), 0644);
  const RunResult open_file =
      anchorfs({"render", repo_, kRendered, "--cache-dir", tmp_.path() + "/c", "--remote-cache",
                address, "--remote-cache-key-file", key, "--remote-cache-password-file", password});
  EXPECT_FALSE(open_file.status.ok()) << "a password file every user can read was accepted";
  EXPECT_NE(open_file.err.find("open to every user"), std::string::npos) << open_file.err;

  env_.push_back("ANCHORFS_REMOTE_CACHE_PASSWORD=pa55-w0rd");
  const RunResult from_env =
      anchorfs({"render", repo_, kRendered, "--cache-dir", tmp_.path() + "/d", "--remote-cache",
                address, "--remote-cache-key-file", key});
  EXPECT_TRUE(from_env.status.ok()) << from_env.err;
  EXPECT_EQ(from_env.err.find("unusable"), std::string::npos) << from_env.err;
}

}  // namespace
}  // namespace anchorfs::testing
