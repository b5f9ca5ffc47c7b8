// Line numbers between a tagged view of a file and its checkout bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "render/tag_plan.h"

namespace anchorfs::cli {

// Lines count '\n' terminators from 1, as rg -n, grep -n, git and Python tracebacks do.
class LineMap {
 public:
  explicit LineMap(std::string view);

  struct Mapped {
    size_t line = 0;
    bool tag_line = false;  // the view line was inside a tag block: `line` is the code it tags
  };
  // The checkout line of view line `line`, nullopt past the end of the view.
  std::optional<Mapped> to_checkout(size_t line) const;
  // The view line of checkout line `line`, nullopt past the end of the checkout.
  std::optional<size_t> to_view(size_t line) const;

 private:
  std::string view_;
  std::string checkout_;
  std::vector<render::ByteRange> blocks_;  // in view offsets
};

}  // namespace anchorfs::cli
