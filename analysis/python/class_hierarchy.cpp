// C3 linearisation (pure) and the resolver's per-class cache of MROs.
#include "analysis/python/class_hierarchy.h"

#include <algorithm>
#include <utility>

namespace anchorfs::analysis::python {

Linearization c3_linearize(uint32_t cls, std::span<const uint32_t> bases,
                           std::span<const std::vector<uint32_t>> base_orders) {
  std::vector<std::vector<uint32_t>> seqs(base_orders.begin(), base_orders.end());
  seqs.emplace_back(bases.begin(), bases.end());
  Linearization out;
  out.order.push_back(cls);
  while (true) {
    std::erase_if(seqs, [](const std::vector<uint32_t>& s) { return s.empty(); });
    if (seqs.empty()) return out;
    // The first head that appears in no sequence's tail comes next.
    const std::vector<uint32_t>* chosen = nullptr;
    for (const auto& s : seqs) {
      const uint32_t head = s.front();
      const bool in_tail = std::any_of(seqs.begin(), seqs.end(), [&](const auto& t) {
        return std::find(t.begin() + 1, t.end(), head) != t.end();
      });
      if (!in_tail) {
        chosen = &s;
        break;
      }
    }
    if (chosen == nullptr) break;
    const uint32_t pick = chosen->front();
    out.order.push_back(pick);
    for (auto& s : seqs) {
      if (!s.empty() && s.front() == pick) s.erase(s.begin());
    }
  }
  out.consistent = false;
  out.order.assign(1, cls);
  for (const auto& base_order : base_orders) {
    for (uint32_t k : base_order) {
      if (std::find(out.order.begin(), out.order.end(), k) == out.order.end()) {
        out.order.push_back(k);
      }
    }
  }
  return out;
}

bool ClassHierarchy::set_bases(uint32_t cls, std::vector<uint32_t> bases) {
  if (bases == bases_[cls]) return false;
  bases_[cls] = std::move(bases);
  ++generation_;
  return true;
}

void ClassHierarchy::release_orders() {
  std::vector<std::vector<uint32_t>>().swap(orders_);
}

const std::vector<uint32_t>& ClassHierarchy::mro(uint32_t cls, int depth) {
  if (state_[cls] == State::Done && built_[cls] == generation_) return orders_[cls];
  if (state_[cls] == State::InProgress || depth > kMaxDepth) {
    static const std::vector<uint32_t> kEmpty;
    return kEmpty;
  }
  state_[cls] = State::InProgress;
  built_[cls] = generation_;
  std::vector<std::vector<uint32_t>> base_orders;
  base_orders.reserve(bases_[cls].size());
  for (uint32_t b : bases_[cls]) base_orders.push_back(mro(b, depth + 1));
  orders_[cls] = c3_linearize(cls, bases_[cls], base_orders).order;
  state_[cls] = State::Done;
  return orders_[cls];
}

}  // namespace anchorfs::analysis::python
