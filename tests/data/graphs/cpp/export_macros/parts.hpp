#pragma once

#define PARTS_DECL __attribute__((visibility("default")))

namespace urls {

struct PARTS_DECL parts {
  int count() const { return 1; }
  int twice() const { return count() * 2; }
};

}  // namespace urls
