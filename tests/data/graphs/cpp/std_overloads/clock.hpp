#pragma once

namespace lib {
long now();
}  // namespace lib

#if defined(__APPLE__)
#include "mac_clock.hpp"
#else
#include "posix_clock.hpp"
#endif
