// The one nesting limit of the Python walk, shared by everything the walk outputs.
#pragma once

namespace anchorfs::analysis::python {

// Deeper syntax nesting than this is not analysed (CPython rejects far less); such files are
// served unchanged.
inline constexpr int kMaxNesting = 200;

// How deep the walk is, and whether any part of it went past kMaxNesting.
struct Nesting {
  int depth = 0;
  bool too_deep = false;
};

}  // namespace anchorfs::analysis::python
