// Bounded load test: 9 concurrent readers (rg, grep -r, cat, stat, walks, mmap and random-offset
// preads) against one mount for ANCHORFS_STRESS_SECONDS (default 20); every byte is checked
// against the rendered view, and the daemon's RSS must stay flat.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "render/tag_plan.h"
#include "tests/hostile/support/corpus.h"
#include "tests/hostile/support/mount_session.h"
#include "tests/hostile/support/process.h"
#include "tests/hostile/support/tree_walk.h"

namespace anchorfs::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

long env_number(const char* name, long fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtol(value, nullptr, 10) : fallback;
}

// What every reader checks against: the bytes each file served when read alone, verified
// against the source (strip) and, for a sample, against `anchorfs render`.
struct Reference {
  std::string mnt;
  std::vector<std::string> files;            // relative paths of regular files
  std::map<std::string, std::string> bytes;  // rel -> served bytes
  std::map<std::string, mode_t> types;       // every entry's file type
};

struct Tally {
  std::atomic<uint64_t> operations{0};
  std::atomic<uint64_t> bytes_checked{0};
  std::atomic<uint64_t> errors{0};
  std::atomic<uint64_t> mismatches{0};
  std::mutex mutex;
  std::vector<std::string> first_problems;

  void problem(std::atomic<uint64_t>& counter, const std::string& what) {
    ++counter;
    std::lock_guard lock(mutex);
    if (first_problems.size() < 20) first_problems.push_back(what);
  }
};

std::set<std::string> files_containing(const Reference& ref, const std::string& needle) {
  std::set<std::string> found;
  for (const auto& [rel, bytes] : ref.bytes) {
    if (bytes.find(needle) != std::string::npos) found.insert(rel);
  }
  return found;
}

// "path" lines printed by rg -l / grep -rl, relative to the mount.
std::set<std::string> listed_paths(const std::string& out, const std::string& mnt) {
  std::set<std::string> paths;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(mnt + "/", 0) == 0) paths.insert(line.substr(mnt.size() + 1));
  }
  return paths;
}

const char* const kNeedles[] = {"def ", "class ", "import ", "CALLED_BY", "return", "Annotation"};

using Worker = std::function<void(std::mt19937_64&, Tally&)>;

Worker pread_worker(const Reference& ref, bool drop_cache) {
  return [&ref, drop_cache](std::mt19937_64& rng, Tally& tally) {
    const std::string& rel = ref.files[rng() % ref.files.size()];
    const std::string& expected = ref.bytes.at(rel);
    const int fd = ::open((ref.mnt + "/" + rel).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return tally.problem(tally.errors, "open " + rel + ": " + std::strerror(errno));
    // Dropping the page cache makes the daemon serve the bytes again instead of the kernel.
    if (drop_cache) ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    for (int i = 0; i < 8; ++i) {
      const size_t offset = expected.empty() ? 0 : rng() % (expected.size() + 16);
      const size_t length = 1 + rng() % 65536;
      std::string buffer(length, '\0');
      const ssize_t n = ::pread(fd, buffer.data(), length, static_cast<off_t>(offset));
      if (n < 0) {
        tally.problem(tally.errors, "pread " + rel + ": " + std::strerror(errno));
        break;
      }
      buffer.resize(static_cast<size_t>(n));
      const std::string want = offset < expected.size() ? expected.substr(offset, length) : "";
      if (buffer != want) {
        tally.problem(tally.mismatches, "pread " + rel + " @" + std::to_string(offset));
      }
      tally.bytes_checked += buffer.size();
      ++tally.operations;
    }
    ::close(fd);
  };
}

Worker mmap_worker(const Reference& ref) {
  return [&ref](std::mt19937_64& rng, Tally& tally) {
    const std::string& rel = ref.files[rng() % ref.files.size()];
    const std::string& expected = ref.bytes.at(rel);
    if (expected.empty()) return;
    const int fd = ::open((ref.mnt + "/" + rel).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return tally.problem(tally.errors, "open " + rel + ": " + std::strerror(errno));
    void* map = ::mmap(nullptr, expected.size(), PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) return tally.problem(tally.errors, "mmap " + rel);
    if (std::memcmp(map, expected.data(), expected.size()) != 0) {
      tally.problem(tally.mismatches, "mmap " + rel);
    }
    ::munmap(map, expected.size());
    tally.bytes_checked += expected.size();
    ++tally.operations;
  };
}

Worker cat_worker(const Reference& ref) {
  return [&ref](std::mt19937_64& rng, Tally& tally) {
    std::vector<std::string> argv{"cat"};
    std::string expected;
    for (int i = 0; i < 16; ++i) {
      const std::string& rel = ref.files[rng() % ref.files.size()];
      argv.push_back(ref.mnt + "/" + rel);
      expected += ref.bytes.at(rel);
    }
    const RunResult result = run(argv, 60s);
    if (!result.status.ok()) return tally.problem(tally.errors, "cat: " + result.err);
    if (result.out != expected) tally.problem(tally.mismatches, "cat output differs");
    tally.bytes_checked += result.out.size();
    ++tally.operations;
  };
}

Worker search_worker(const Reference& ref, bool use_rg) {
  return [&ref, use_rg](std::mt19937_64& rng, Tally& tally) {
    const std::string needle = kNeedles[rng() % std::size(kNeedles)];
    const std::vector<std::string> argv =
        use_rg ? std::vector<std::string>{"rg", "-l", "-F", "-a", "-uu", "-e", needle, ref.mnt}
               : std::vector<std::string>{"grep", "-rlaF", "-e", needle, ref.mnt};
    const RunResult result = run(argv, 120s);
    const char* tool = use_rg ? "rg" : "grep -r";
    if (result.timed_out || !(result.status.exited && result.status.code <= 1)) {
      return tally.problem(tally.errors, std::string(tool) + ": " + result.err);
    }
    if (listed_paths(result.out, ref.mnt) != files_containing(ref, needle)) {
      tally.problem(tally.mismatches, std::string(tool) + " '" + needle + "' lists other files");
    }
    ++tally.operations;
  };
}

Worker stat_worker(const Reference& ref) {
  return [&ref](std::mt19937_64& rng, Tally& tally) {
    for (int i = 0; i < 64; ++i) {
      const std::string& rel = ref.files[rng() % ref.files.size()];
      struct stat st {};
      if (::lstat((ref.mnt + "/" + rel).c_str(), &st) != 0) {
        tally.problem(tally.errors, "lstat " + rel + ": " + std::strerror(errno));
        continue;
      }
      if (!S_ISREG(st.st_mode) || static_cast<size_t>(st.st_size) != ref.bytes.at(rel).size()) {
        tally.problem(tally.mismatches, "lstat " + rel + ": wrong type or size");
      }
      ++tally.operations;
    }
  };
}

Worker walk_worker(const Reference& ref) {
  return [&ref](std::mt19937_64&, Tally& tally) {
    const Walk walk = walk_tree(ref.mnt);
    if (!walk.unlistable_dirs.empty() || !walk.unstatable.empty()) {
      tally.problem(tally.errors, "walk: unlistable directories or unstatable entries");
    }
    std::map<std::string, mode_t> types;
    for (const auto& [rel, node] : walk.nodes) types[rel] = node.mode & S_IFMT;
    if (types != ref.types) tally.problem(tally.mismatches, "walk: listing differs");
    ++tally.operations;
  };
}

TEST(Stress, ConcurrentReadersSeeExactlyTheRenderedBytes) {
  const long seconds = env_number("ANCHORFS_STRESS_SECONDS", 20);
  const long lines = env_number("ANCHORFS_STRESS_LINES", 40000);
  TempDir tmp("stress");
  const char* repo_env = std::getenv("ANCHORFS_STRESS_REPO");
  std::string repo = repo_env != nullptr ? repo_env : tmp.path() + "/repo";
  if (repo_env == nullptr) {
    const RunResult generated = run({"python3", ANCHORFS_GEN_SYNTHETIC, "--lines",
                                     std::to_string(lines), "--seed", "7", "--out", repo},
                                    300s);
    ASSERT_TRUE(generated.status.ok()) << generated.err;
  }
  const std::string mnt = tmp.path() + "/mnt";
  ASSERT_EQ(::mkdir(mnt.c_str(), 0755), 0);
  const std::string before = tree_fingerprint(repo);

  MountSession session(repo, mnt);
  Watchdog watchdog(std::chrono::seconds(seconds + 300), [&] { session.abort(); });
  const long rss_mounted = rss_kib(session.daemon_pid());

  Reference ref;
  ref.mnt = mnt;
  const Walk walk = walk_tree(mnt);
  for (const auto& [rel, node] : walk.nodes) {
    ref.types[rel] = node.mode & S_IFMT;
    if (!S_ISREG(node.mode)) continue;
    const ReadResult served = read_file(mnt + "/" + rel);
    ASSERT_EQ(served.error, 0) << rel;
    const ReadResult source = read_file(repo + "/" + rel);
    ASSERT_EQ(render::strip(served.bytes), source.bytes) << rel << ": strip(served) != source";
    ref.files.push_back(rel);
    ref.bytes[rel] = served.bytes;
  }
  ASSERT_FALSE(ref.files.empty());
  size_t tagged = 0;
  for (const auto& rel : ref.files) {
    tagged += ref.bytes[rel] != read_file(repo + "/" + rel).bytes ? 1 : 0;
  }
  EXPECT_GT(tagged, 0u) << "nothing was tagged: the stress would only test passthrough";
  // `anchorfs render` must agree with the mount for a sample spread over the tree.
  for (size_t i = 0; i < ref.files.size(); i += std::max<size_t>(1, ref.files.size() / 4)) {
    const RunResult rendered = run({anchorfs_binary(), "render", repo, ref.files[i]}, 120s);
    ASSERT_TRUE(rendered.status.ok()) << rendered.err;
    EXPECT_TRUE(rendered.out == ref.bytes[ref.files[i]])
        << ref.files[i] << ": anchorfs render differs from the mount: "
        << describe_difference(rendered.out, ref.bytes[ref.files[i]]);
  }

  const std::vector<std::pair<std::string, Worker>> workers = {
      {"pread", pread_worker(ref, true)},
      {"pread", pread_worker(ref, true)},
      {"pread-cached", pread_worker(ref, false)},
      {"mmap", mmap_worker(ref)},
      {"cat", cat_worker(ref)},
      {"rg", search_worker(ref, true)},
      {"grep -r", search_worker(ref, false)},
      {"stat", stat_worker(ref)},
      {"walk", walk_worker(ref)},
  };
  Tally tally;
  std::vector<uint64_t> per_worker(workers.size());
  const auto start = Clock::now();
  const auto stop_at = start + std::chrono::seconds(seconds);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < workers.size(); ++i) {
    threads.emplace_back([&, i] {
      std::mt19937_64 rng(1000 + i);
      while (Clock::now() < stop_at && !watchdog.expired()) {
        workers[i].second(rng, tally);
        ++per_worker[i];
      }
    });
  }
  // RSS per round: a round is a tenth of the run; the first round is the warm-up.
  std::vector<long> round_rss;
  for (int round = 0; round < 10; ++round) {
    std::this_thread::sleep_until(start + std::chrono::seconds(seconds) * (round + 1) / 10);
    round_rss.push_back(rss_kib(session.daemon_pid()));
  }
  for (auto& thread : threads) thread.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

  EXPECT_TRUE(session.daemon_running()) << session.log();
  const RunResult unmounted = session.unmount();
  EXPECT_TRUE(unmounted.status.ok()) << unmounted.err;
  const auto status = session.wait_daemon(20s);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->ok()) << status->describe();

  std::cout << "stress: " << workers.size() << " readers, " << elapsed << " s, " << ref.files.size()
            << " files (" << tagged << " tagged)\n"
            << "stress: operations " << tally.operations << ", bytes checked "
            << tally.bytes_checked << ", errors " << tally.errors << ", mismatches "
            << tally.mismatches << "\nstress: per reader:";
  for (size_t i = 0; i < workers.size(); ++i) {
    std::cout << " " << workers[i].first << "=" << per_worker[i];
  }
  std::cout << "\nstress: daemon RSS KiB mounted " << rss_mounted << ", per round";
  for (long rss : round_rss) std::cout << " " << rss;
  std::cout << "\n";
  std::istringstream log_lines(session.log());
  for (std::string line; std::getline(log_lines, line);) {
    if (line.find("request") != std::string::npos) std::cout << "stress: daemon: " << line << "\n";
  }
  for (const auto& problem : tally.first_problems)
    std::cout << "stress problem: " << problem << "\n";

  EXPECT_EQ(tally.errors, 0u);
  EXPECT_EQ(tally.mismatches, 0u);
  for (size_t i = 0; i < workers.size(); ++i) {
    EXPECT_GT(per_worker[i], 0u) << workers[i].first << " never completed an operation";
  }
  // Flat: after the warm-up round, no round may exceed it by more than 10% or 16 MiB.
  const long warm = round_rss.front();
  const long allowance = std::max(warm / 10, 16L * 1024);
  for (size_t round = 1; round < round_rss.size(); ++round) {
    EXPECT_LE(round_rss[round], warm + allowance) << "daemon RSS grew in round " << round;
  }
  EXPECT_FALSE(watchdog.expired());
  EXPECT_EQ(before, tree_fingerprint(repo)) << "the source tree changed";
}

}  // namespace
}  // namespace anchorfs::testing
