// A repository's author against resolution inputs (Cargo.toml, tsconfig.json, ...): a symlink out
// of the repository, a FIFO, a device or an oversized manifest never hangs, exhausts or steers
// analysis (analysis/resolution_input.h).
#include "analysis/resolution_input.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <string>
#include <vector>

#include "tests/analysis/temp_repo.h"
#include "tests/support/temp_dir.h"

namespace anchorfs::analysis {
namespace {

using namespace std::chrono_literals;
using test::has_edge;
using test::TempRepo;

constexpr const char* kEdition2015 = "[package]\nname = \"old\"\n";

// Edition 2015 makes `use a::f` crate-relative: the CALLS edge exists only when the manifest
// was read.
void write_2015_crate(const TempRepo& repo) {
  repo.write("src/lib.rs", "mod a;\nmod b;\n");
  repo.write("src/a.rs", "pub fn f() {}\n");
  repo.write("src/b.rs", "use a::f;\npub fn g() { f(); }\n");
}

bool crate_relative_call(const Analysis& analysis) {
  return has_edge(analysis.graph, Relation::Calls, "src/b.rs:g", "src/a.rs:f");
}

// Analyses `repo`, bounded: should it block on one of `fifos`, each is opened for writing (which
// releases a reader blocked in open) until it finishes, and the test fails.
Analysis analyse_bounded(const TempRepo& repo, const std::vector<std::string>& fifos) {
  auto running = std::async(std::launch::async, [&repo] { return repo.analyze(); });
  if (running.wait_for(60s) != std::future_status::ready) {
    ADD_FAILURE() << "analysis blocked on a FIFO";
    while (running.wait_for(100ms) != std::future_status::ready) {
      for (const std::string& fifo : fifos) {
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) ::close(fd);
      }
    }
  }
  return running.get();
}

TEST(ResolutionInput, AManifestSymlinkedOutOfTheRepositoryIsNotRead) {
  TempRepo repo;
  test_support::TempDir outside("outside");
  write_2015_crate(repo);
  {
    TempRepo control;
    write_2015_crate(control);
    control.write("Cargo.toml", kEdition2015);
    ASSERT_TRUE(crate_relative_call(control.analyze())) << "the control crate lost its edge";
  }
  const std::string target = outside.path() + "/Cargo.toml";
  {
    std::FILE* f = std::fopen(target.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(kEdition2015, f);
    std::fclose(f);
  }
  ASSERT_EQ(::symlink(target.c_str(), (repo.root() + "/Cargo.toml").c_str()), 0);
  EXPECT_FALSE(crate_relative_call(repo.analyze())) << "a manifest outside REPO made an edge";
  EXPECT_FALSE(read_resolution_input(repo.root(), "Cargo.toml").ok);
}

TEST(ResolutionInput, ATsconfigSymlinkedOutOfTheRepositoryMakesNoEdge) {
  const auto write_sources = [](const TempRepo& repo) {
    repo.write("src/app.ts", "import { b } from \"util\";\nexport function a() { b(); }\n");
    repo.write("src/util.ts", "export function b() {}\n");
  };
  const std::string config = "{\"compilerOptions\": {\"baseUrl\": \"./src\"}}\n";
  {
    TempRepo control;
    write_sources(control);
    control.write("tsconfig.json", config);
    ASSERT_TRUE(has_edge(control.analyze().graph, Relation::Calls, "src/app.ts:a", "src/util.ts:b"))
        << "the control project lost its edge";
  }
  TempRepo repo;
  test_support::TempDir outside("outside");
  write_sources(repo);
  const std::string target = outside.path() + "/tsconfig.json";
  {
    std::FILE* f = std::fopen(target.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(config.c_str(), f);
    std::fclose(f);
  }
  ASSERT_EQ(::symlink(target.c_str(), (repo.root() + "/tsconfig.json").c_str()), 0);
  EXPECT_FALSE(has_edge(repo.analyze().graph, Relation::Calls, "src/app.ts:a", "src/util.ts:b"));
}

TEST(ResolutionInput, ManifestsThatAreFifosOrDevicesNeverBlockNorExhaust) {
  TempRepo repo;
  test_support::TempDir outside("outside");
  write_2015_crate(repo);
  repo.write("web/index.js", "export function h() {}\n");
  // A FIFO in the repository, one outside it behind a symlink, and /dev/zero behind a symlink.
  const std::string inside_fifo = repo.root() + "/Cargo.toml";
  const std::string outside_fifo = outside.path() + "/fifo";
  ASSERT_EQ(::mkfifo(inside_fifo.c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo(outside_fifo.c_str(), 0644), 0);
  ASSERT_EQ(::symlink(outside_fifo.c_str(), (repo.root() + "/tsconfig.json").c_str()), 0);
  ASSERT_EQ(::symlink("/dev/zero", (repo.root() + "/package.json").c_str()), 0);
  const Analysis analysis = analyse_bounded(repo, {inside_fifo, outside_fifo});
  EXPECT_FALSE(crate_relative_call(analysis));
  EXPECT_GE(analysis.stats.source_files, 4u);
  for (const char* name : {"Cargo.toml", "tsconfig.json", "package.json"}) {
    EXPECT_FALSE(read_resolution_input(repo.root(), name).ok) << name;
  }
}

TEST(ResolutionInput, AManifestOverTheBoundIsIgnoredWithAWarning) {
  TempRepo repo;
  write_2015_crate(repo);
  std::string manifest = kEdition2015;
  manifest += "# " + std::string(kMaxResolutionInputBytes, 'x') + "\n";
  repo.write("Cargo.toml", manifest);
  ::testing::internal::CaptureStderr();
  const Analysis analysis = repo.analyze();
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(crate_relative_call(analysis)) << "an oversized manifest was read";
  EXPECT_NE(warnings.find("Cargo.toml: " + std::to_string(manifest.size()) + " bytes, over the"),
            std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find("ignored"), std::string::npos) << warnings;
}

TEST(ResolutionInput, ReadsARegularManifestWithinTheBound) {
  TempRepo repo;
  repo.write("pkg/go.mod", "module example.com/pkg\n");
  const SourceBytes input = read_resolution_input(repo.root(), "pkg/go.mod");
  EXPECT_TRUE(input.ok) << input.problem;
  EXPECT_EQ(input.bytes, "module example.com/pkg\n");
  EXPECT_FALSE(read_resolution_input(repo.root(), "missing/go.mod").ok);
}

}  // namespace
}  // namespace anchorfs::analysis
