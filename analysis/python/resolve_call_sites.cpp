// The edges of the call sites once the rounds are done.
#include "analysis/python/resolve_call_sites.h"

#include <algorithm>

#include "analysis/radix_sort.h"

namespace anchorfs::analysis::python::detail {

void ArgStack::grow() { levels_.push_back(std::make_unique<std::vector<ValueSet>>()); }

std::vector<uint64_t> CallSites::edges() {
  std::vector<uint64_t> calls(direct_.begin(), direct_.end());
  for (const Site& site : sites_) {
    if (site.more == UINT32_MAX) {
      calls.push_back(pack(site.caller, site.callee));
      continue;
    }
    const std::vector<EntityIndex>& callees = more_[site.more];
    if (callees.size() > kMaxCalleesPerSite) continue;
    for (EntityIndex callee : callees) calls.push_back(pack(site.caller, callee));
  }
  std::vector<Site>().swap(sites_);
  radix_sort(calls);
  calls.erase(std::unique(calls.begin(), calls.end()), calls.end());
  return calls;
}

size_t CallSites::more_bytes() const {
  size_t bytes = 0;
  for (const auto& callees : more_) bytes += callees.capacity() * sizeof(EntityIndex);
  return bytes;
}

}  // namespace anchorfs::analysis::python::detail
