// The class hierarchy the resolver finds: direct bases per class and their C3 linearisation.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace anchorfs::analysis::python {

// Python's C3 linearisation of class `cls` from its direct `bases` (in order) and the
// linearisation of each base (`base_orders[i]` for `bases[i]`). A pure function of its inputs.
// `consistent` is false when no C3 order exists (`class C(A, B)` where B precedes A elsewhere);
// `order` then falls back to `cls` followed by the bases' orders depth-first without repeats,
// so lookups still find something sensible in a hierarchy Python itself would reject.
struct Linearization {
  std::vector<uint32_t> order;  // starts with cls
  bool consistent = true;
};
Linearization c3_linearize(uint32_t cls, std::span<const uint32_t> bases,
                           std::span<const std::vector<uint32_t>> base_orders);

// Direct bases as the fixed point last found them, and each class's MRO computed on demand and
// kept until some class's bases change (`generation()` then advances, so callers can drop what
// they derived from MROs). A class reached again while its own MRO is being computed (a cycle,
// which only broken code or an imprecise analysis produces) contributes an empty order, as does
// a chain of bases deeper than kMaxDepth: computing an MRO always terminates.
class ClassHierarchy {
 public:
  static constexpr int kMaxDepth = 100;

  explicit ClassHierarchy(size_t classes = 0)
      : bases_(classes), orders_(classes), state_(classes, State::Unknown), built_(classes, 0) {}

  const std::vector<uint32_t>& bases(uint32_t cls) const { return bases_[cls]; }
  // Replaces the bases of `cls`; whether they changed (every cached MRO is then stale).
  bool set_bases(uint32_t cls, std::vector<uint32_t> bases);
  // The cached order inline (asked for on every attribute of a class or instance); computing
  // one is out of line.
  const std::vector<uint32_t>& mro(uint32_t cls) {
    if (state_[cls] == State::Done && built_[cls] == generation_) return orders_[cls];
    return mro(cls, 0);
  }
  // Advances whenever any class's bases change.
  uint32_t generation() const { return generation_; }
  // Frees the cached MROs (bases are kept: they are output).
  void release_orders();

 private:
  enum class State : uint8_t { Unknown, InProgress, Done };
  [[gnu::noinline]] const std::vector<uint32_t>& mro(uint32_t cls, int depth);

  std::vector<std::vector<uint32_t>> bases_, orders_;
  std::vector<State> state_;
  std::vector<uint32_t> built_;  // per class: the generation its cached MRO belongs to
  uint32_t generation_ = 1;
};

}  // namespace anchorfs::analysis::python
