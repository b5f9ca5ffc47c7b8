// What a whole Python resolution leaves for refreshes that append to one file: where each file's
// first-round evaluation ended, and what calling each module-level name with empty arguments did.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::analysis::python {

// A scope of the resolved tree as (file number, scope number in the file): edits elsewhere
// renumber entities, not these.
struct LocalScope {
  uint32_t file = 0;
  uint32_t local = 0;
  friend auto operator<=>(const LocalScope&, const LocalScope&) = default;
};

// A call of a module-level name whose arguments hold no values, evaluated at a point of the
// first round: it records edges to `callees` and changes nothing else, provided every variable it
// reads had its final value by then (`tick` no later than the point's tick) and every value it
// meets existed (`values` no more than the values made by then). `callable` is false when the
// name may hold a value whose call this cannot describe (a bound method, an instance, a
// wrapper, a builtin, a generator function, one that gives back a parameter, a class whose
// `__init__` receiver is not already among its `self`'s values).
struct NameCall {
  std::string name;
  uint32_t tick = 0;
  uint32_t values = 0;
  bool callable = true;
  bool late = false;  // made by an attribute store during the rounds: maybe absent at the point
  std::vector<LocalScope> callees;  // sorted, unique
};

struct FileBase {
  uint32_t end_tick = 0;        // the tick of the file's last first-round statement
  uint32_t end_values = 0;      // how many values existed when its first round ended
  std::vector<NameCall> names;  // its module scope's names (a refresh looks up a few)

  const NameCall* find(std::string_view name) const;
};

struct ResolutionBase {
  std::vector<FileBase> files;  // in input order
};

}  // namespace anchorfs::analysis::python
