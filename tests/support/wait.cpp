// Polling with a deadline, scaled for slow (sanitized) builds.
#include "tests/support/wait.h"

#include <cstdlib>
#include <thread>

#include "tests/support/sanitizer.h"

namespace anchorfs::test_support {

long timeout_scale() {
  if (const char* scale = std::getenv("ANCHORFS_TEST_TIMEOUT_SCALE")) {
    const long value = std::strtol(scale, nullptr, 10);
    if (value > 0) return value;
  }
  return kAddressSanitizer ? 3 : 1;
}

bool wait_until(std::chrono::milliseconds limit, const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + limit * timeout_scale();
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return done();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

}  // namespace anchorfs::test_support
