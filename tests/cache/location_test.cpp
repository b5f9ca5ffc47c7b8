// Where stores go: XDG/HOME defaults, one store per repository, never inside the repository.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

// Sets or unsets an environment variable for the lifetime of the guard.
class EnvGuard {
 public:
  EnvGuard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      old_ = old;
    }
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~EnvGuard() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

using LocationTest = CacheTest;

TEST(CacheLocation, DefaultRootFollowsXdgThenHome) {
  {
    EnvGuard xdg("XDG_CACHE_HOME", "/x/cache");
    EnvGuard home("HOME", "/h");
    EXPECT_EQ(default_cache_root(), "/x/cache/anchorfs");
  }
  {
    EnvGuard xdg("XDG_CACHE_HOME", "relative/ignored");
    EnvGuard home("HOME", "/h");
    EXPECT_EQ(default_cache_root(), "/h/.cache/anchorfs");
  }
  {
    EnvGuard xdg("XDG_CACHE_HOME", nullptr);
    EnvGuard home("HOME", "");
    EXPECT_EQ(default_cache_root(), std::nullopt);
  }
}

TEST(CacheLocation, PathContainment) {
  EXPECT_TRUE(is_same_or_below("/a/b", "/a/b"));
  EXPECT_TRUE(is_same_or_below("/a/b/c", "/a/b"));
  EXPECT_FALSE(is_same_or_below("/a/bc", "/a/b"));
  EXPECT_FALSE(is_same_or_below("/a", "/a/b"));
  EXPECT_TRUE(is_same_or_below("/anything", "/"));
}

TEST_F(LocationTest, EveryRepositoryPathSharesTheRootsOneStore) {
  const std::string other = scratch_ + "/other";
  std::filesystem::create_directories(other);
  auto a = open_cache();
  CacheOptions other_options = options();
  other_options.repo_root = other;
  auto b = LmdbFactCache::open(other_options);
  EXPECT_EQ(a->store_dir(), b->store_dir());
  a->store(key_for(1), "same bytes, same facts");
  a->flush();
  EXPECT_EQ(b->load(key_for(1)), "same bytes, same facts");
}

TEST_F(LocationTest, DefaultLocationUsesXdgCacheHome) {
  EnvGuard xdg("XDG_CACHE_HOME", (scratch_ + "/xdg").c_str());
  CacheOptions o = options();
  o.cache_dir.clear();
  auto cache = LmdbFactCache::open(o);
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->store_dir().rfind(resolve_path(scratch_ + "/xdg/anchorfs") + "/", 0), 0u);
  struct stat st {};
  ASSERT_EQ(::stat((scratch_ + "/xdg/anchorfs").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
}

TEST_F(LocationTest, UnusableHomeMeansNoCacheWithAWarning) {
  EnvGuard xdg("XDG_CACHE_HOME", nullptr);
  EnvGuard home("HOME", nullptr);
  CacheOptions o = options();
  o.cache_dir.clear();
  EXPECT_EQ(LmdbFactCache::open(o), nullptr);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("no cache"), std::string::npos);
}

TEST_F(LocationTest, UncreatableDefaultMeansNoCacheWithAWarning) {
  write_file(scratch_ + "/afile", "x");
  EnvGuard xdg("XDG_CACHE_HOME", (scratch_ + "/afile").c_str());
  CacheOptions o = options();
  o.cache_dir.clear();
  EXPECT_EQ(LmdbFactCache::open(o), nullptr);
  EXPECT_EQ(warnings().size(), 1u);
}

TEST_F(LocationTest, RefusesAnExplicitCacheDirInsideTheRepository) {
  CacheOptions o = options();
  o.cache_dir = repo_ + "/.anchorfs-cache";
  try {
    LmdbFactCache::open(o);
    FAIL() << "a cache inside the repository was accepted";
  } catch (const CacheError& e) {
    EXPECT_NE(std::string(e.what()).find("inside the repository"), std::string::npos);
  }
  o.cache_dir = repo_;
  EXPECT_THROW(LmdbFactCache::open(o), CacheError);
  // Through a symlink that points into the repository.
  std::filesystem::create_directory_symlink(repo_, scratch_ + "/sneaky");
  o.cache_dir = scratch_ + "/sneaky/cache";
  EXPECT_THROW(LmdbFactCache::open(o), CacheError);
  EXPECT_EQ(list_dir(repo_), std::vector<std::string>{"mod.py"});  // nothing was written there
}

TEST_F(LocationTest, DefaultLocationInsideTheRepositoryMeansNoCache) {
  EnvGuard xdg("XDG_CACHE_HOME", (repo_ + "/.cache").c_str());
  CacheOptions o = options();
  o.cache_dir.clear();
  EXPECT_EQ(LmdbFactCache::open(o), nullptr);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("inside the repository"), std::string::npos);
  EXPECT_EQ(list_dir(repo_), std::vector<std::string>{"mod.py"});
}

TEST_F(LocationTest, MissingRepositoryIsAnError) {
  CacheOptions o = options();
  o.repo_root = scratch_ + "/nope";
  EXPECT_THROW(LmdbFactCache::open(o), CacheError);
}

TEST_F(LocationTest, ExplicitRootKeepsItsPermissionsButStoresArePrivate) {
  std::filesystem::create_directories(cache_root_);
  ::chmod(cache_root_.c_str(), 0755);
  auto cache = open_cache();
  struct stat st {};
  ASSERT_EQ(::stat(cache_root_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0755u);
  ASSERT_EQ(::stat(cache->store_dir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
}

}  // namespace
}  // namespace anchorfs::cache::testing
