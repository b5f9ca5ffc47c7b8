// One line of a text as offsets: what tag planning and untagging split texts into.
#pragma once

#include <cstddef>

namespace anchorfs::render {

// [begin, content_end) is the line's content, [content_end, end) its terminator.
struct TextLine {
  size_t begin = 0;
  size_t content_end = 0;
  size_t end = 0;
};

}  // namespace anchorfs::render
