// run_on_threads: one piece of work on several plain threads at once, joined by blocking;
// run_beside: two pieces of work side by side.
#pragma once

#include <cstddef>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace anchorfs::analysis {

// Runs `work()` on `count` threads at once (the calling thread one of them; at least one) and
// returns once every one has returned (fewer when the system gives no more threads: each `work()`
// must drain a shared queue, as every caller's does); an exception any of them threw is rethrown
// here (the first by thread). Plain threads rather than oneTBB tasks for long drains: a fresh
// thread runs as soon as a core is free, where a TBB worker that has just left another arena can
// spend a long time yielding before it joins (under load, half a second of a cold mount's parse ran
// on one core while the worker yielded), and a thread that waits here blocks instead of spinning.
template <typename Work>
void run_on_threads(size_t count, const Work& work) {
  const size_t threads = count == 0 ? 1 : count;
  std::vector<std::exception_ptr> failures(threads);
  const auto guarded = [&](size_t t) {
    try {
      work();
    } catch (...) {
      failures[t] = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back(guarded, t);
    } catch (const std::system_error&) {
      break;  // no thread to be had (EAGAIN under a process limit): the work runs on fewer
    }
  }
  guarded(0);
  for (std::thread& helper : helpers) helper.join();
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

// Runs `side()` on a helper thread while the calling thread runs `main()`, and returns once both
// have. With `beside` false, or no thread to be had, `side()` runs on the calling thread after
// `main()`: callers pass two pieces of work that share nothing one of them writes, so the order
// does not matter. An exception either threw is rethrown here (main's first).
template <typename Main, typename Side>
void run_beside(bool beside, const Main& main, const Side& side) {
  std::exception_ptr side_failure;
  std::thread helper;
  if (beside) {
    try {
      helper = std::thread([&] {
        try {
          side();
        } catch (...) {
          side_failure = std::current_exception();
        }
      });
    } catch (const std::system_error&) {
      // no thread to be had: side() runs below
    }
  }
  std::exception_ptr main_failure;
  try {
    main();
  } catch (...) {
    main_failure = std::current_exception();
  }
  if (helper.joinable()) {
    helper.join();
  } else if (!main_failure) {
    side();
  }
  if (main_failure) std::rethrow_exception(main_failure);
  if (side_failure) std::rethrow_exception(side_failure);
}

}  // namespace anchorfs::analysis
