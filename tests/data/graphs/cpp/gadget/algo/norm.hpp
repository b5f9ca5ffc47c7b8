#pragma once

#include <gadget/core/vec.hpp>
#include <gadget/missing.hpp>
#include <other/extra/scale.hpp>

namespace gadget {

inline double norm2(const vec& v) { return v.length2(); }

inline double twice_norm2(const vec& v) { return scaled(2.0, norm2(v)); }

}  // namespace gadget
