// The resolver's id types (distinct, explicit, free) and its call-site and value tables.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "analysis/python/resolve_call_sites.h"
#include "analysis/python/resolve_ids.h"
#include "analysis/python/resolve_names.h"
#include "analysis/python/resolve_values.h"

namespace anchorfs::analysis::python {
namespace {

// Mixing kinds, or passing a plain number where an id is meant, does not compile.
static_assert(!std::is_convertible_v<VarId, ValueId>);
static_assert(!std::is_convertible_v<ScopeId, NameId>);
static_assert(!std::is_convertible_v<uint32_t, VarId>);
static_assert(!std::is_convertible_v<VarId, uint32_t>);
// And an id costs what the number did.
static_assert(sizeof(VarId) == sizeof(uint32_t) && std::is_trivially_copyable_v<VarId>);

TEST(IdVector, IndexesByItsKindAndCountsIds) {
  IdVector<ScopeId, int> per_scope(3, 7);
  per_scope[ScopeId{1}] = 9;
  std::vector<uint32_t> seen;
  for (const ScopeId s : per_scope.ids()) seen.push_back(raw(s));
  EXPECT_EQ(seen, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(per_scope[ScopeId{1}], 9);
  EXPECT_EQ(per_scope.next_id(), ScopeId{3});
}

TEST(NameTable, EqualStringsShareOneIdInFirstSeenOrderAcrossGrowth) {
  // Enough strings to grow the slots several times; each interned twice, the second time from
  // a different buffer, so equal text (not an equal pointer) must find the first id.
  std::vector<std::string> first, again;
  for (int i = 0; i < 5000; ++i) first.push_back("name_" + std::to_string(i * 7919 % 5003));
  again = first;
  NameTable table;
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(table.intern(first[i]), NameId{static_cast<uint32_t>(i)});
  }
  for (size_t i = 0; i < again.size(); ++i) {
    EXPECT_EQ(table.intern(again[i]), NameId{static_cast<uint32_t>(i)});
  }
  EXPECT_EQ(table.size(), first.size());
  table.release();
  EXPECT_EQ(table.by_id()[NameId{42}], first[42]);
}

TEST(Values, EqualValuesShareOneIdInCreationOrder) {
  detail::Values values(4);
  const ValueId cls = values.cls(ScopeId{2});
  const ValueId instance = values.instance(ScopeId{2});
  EXPECT_EQ(raw(cls), 0u);
  EXPECT_EQ(raw(instance), 1u);
  EXPECT_EQ(values.cls(ScopeId{2}), cls);
  EXPECT_EQ(values.instance(ScopeId{2}), instance);
  const ValueId bound = values.bound(ScopeId{3}, instance);
  EXPECT_NE(bound, values.bound(ScopeId{3}, cls));
  EXPECT_EQ(values[bound].kind, detail::VK::Bound);
  EXPECT_EQ(values[bound].scope(), ScopeId{3});
  EXPECT_EQ(values[bound].receiver(), instance);
  EXPECT_EQ(values.size(), 4u);
}

// Sites keep their callees apart: one with more than kMaxCalleesPerSite is dropped whole, and
// the edges come out sorted without repeats whatever the recording order.
TEST(CallSites, DropsAmbiguousSitesAndSortsEdges) {
  detail::CallSites sites;
  uint32_t one = UINT32_MAX, ambiguous = UINT32_MAX, two = UINT32_MAX;
  sites.record(one, 5, 9);
  sites.record(one, 5, 9);
  for (EntityIndex callee = 100; callee < 100 + detail::kMaxCalleesPerSite + 1; ++callee) {
    sites.record(ambiguous, 6, callee);
  }
  sites.record(two, 7, 30);
  sites.record(two, 7, 20);
  sites.direct(5, 9);
  sites.direct(1, 2);
  EXPECT_EQ(sites.edges(),
            (std::vector<uint64_t>{pack(1u, 2u), pack(5u, 9u), pack(7u, 20u), pack(7u, 30u)}));
}

}  // namespace
}  // namespace anchorfs::analysis::python
