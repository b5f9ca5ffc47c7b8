// A tool for measuring the FUSE layer alone: serves SOURCE untagged (or with a synthetic tag every
// N bytes) on MOUNTPOINT in the foreground until SIGINT/SIGTERM. Not a test.
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "analysis/source_tree.h"
#include "fs/server.h"
#include "fs/snapshot.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SOURCE MOUNTPOINT [TAG_EVERY_N_BYTES [THREADS]]\n", argv[0]);
    return 2;
  }
  const uint64_t every = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 0;
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  try {
    anchorfs::analysis::SourceTree tree = anchorfs::analysis::scan_tree(argv[1]);
    std::vector<std::pair<std::string, anchorfs::render::TagPlan>> plans;
    for (const anchorfs::analysis::TreeEntry& entry : tree.entries) {
      if (every == 0 || !S_ISREG(entry.mode)) continue;
      anchorfs::render::TagPlan plan;
      for (uint64_t at = 0; at <= entry.size; at += every) {
        plan.insertions.push_back({at, "# === Function Annotation ===\n# tag\n"});
      }
      plans.emplace_back(entry.path, std::move(plan));
    }
    anchorfs::fs::ServerOptions options;
    options.mountpoint = argv[2];
    options.max_threads = argc > 4 ? static_cast<unsigned>(std::atoi(argv[4])) : 0;
    anchorfs::fs::Server server(anchorfs::fs::make_snapshot(std::move(tree), std::move(plans)),
                                options);
    server.mount();
    std::thread waiter([&] {
      int signal = 0;
      sigwait(&signals, &signal);
      server.stop();
    });
    std::fprintf(stderr, "serving %s on %s\n", argv[1], argv[2]);
    const int rc = server.run();
    if (waiter.joinable()) {
      pthread_kill(waiter.native_handle(), SIGTERM);
      waiter.join();
    }
    const anchorfs::fs::ServerStats stats = server.stats();
    std::fprintf(stderr,
                 "requests %llu lookups %llu reads %llu readdirs %llu forgets %llu "
                 "known_inodes %llu\n",
                 static_cast<unsigned long long>(stats.requests),
                 static_cast<unsigned long long>(stats.lookups),
                 static_cast<unsigned long long>(stats.reads),
                 static_cast<unsigned long long>(stats.readdirs),
                 static_cast<unsigned long long>(stats.forgets),
                 static_cast<unsigned long long>(stats.known_inodes));
    return rc == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "fs_serve: %s\n", error.what());
    return 1;
  }
}
