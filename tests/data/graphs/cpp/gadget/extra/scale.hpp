#pragma once

#include <other/core/vec.hpp>

namespace gadget {

inline double scaled(double k, double v) { return k * v; }

}  // namespace gadget
