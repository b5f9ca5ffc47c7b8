#include "quat.h"

namespace m {

double sin(const Quat& q, int n) { return n * q.w; }

// Recursion and forwarding to another overload of one arity look alike: no self edge.
int fact(int n) { return n > 1 ? n * fact(n - 1) : 1; }

}  // namespace m
