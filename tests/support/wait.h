// Bounded waiting for what no event announces (a process exiting, a mount appearing, a daemon's
// refresh seen through a real mount): the condition is polled, never replaced by a sleep.
#pragma once

#include <chrono>
#include <functional>

namespace anchorfs::test_support {

// How many times its nominal limit a bounded wait may last: ANCHORFS_TEST_TIMEOUT_SCALE when set
// to a positive number, else 3 under AddressSanitizer, else 1.
long timeout_scale();

// Polls `done` until it holds (true) or `limit` times timeout_scale() has passed (false).
bool wait_until(std::chrono::milliseconds limit, const std::function<bool()>& done);

}  // namespace anchorfs::test_support
