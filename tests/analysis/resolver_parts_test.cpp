// The resolver's id types (distinct, explicit, free), its value sets and variables, its call-site
// and value tables and the late rounds' reader index.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "analysis/python/resolve_call_sites.h"
#include "analysis/python/resolve_ids.h"
#include "analysis/python/resolve_names.h"
#include "analysis/python/resolve_read_lists.h"
#include "analysis/python/resolve_readers.h"
#include "analysis/python/resolve_value_set.h"
#include "analysis/python/resolve_values.h"
#include "analysis/python/resolve_var_sets.h"

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

// The capping rule the resolver's results depend on, written plainly: up to two values are
// inserted one by one (a full set keeps what it has), more keep the smallest kMaxSet of the union.
std::vector<uint32_t> united(std::vector<uint32_t> a, const std::vector<uint32_t>& b) {
  if (b.size() <= 2) {
    for (const uint32_t v : b) {
      if (std::find(a.begin(), a.end(), v) == a.end() && a.size() < kMaxSet) a.push_back(v);
    }
    std::sort(a.begin(), a.end());
    return a;
  }
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  if (a.size() > kMaxSet) a.resize(kMaxSet);
  return a;
}

std::vector<uint32_t> numbers(const ValueSet& set) {
  std::vector<uint32_t> out;
  for (const ValueId v : set) out.push_back(raw(v));
  return out;
}

// A variable's set united into another straight from its record or pooled block
// (VarSets::unite_into) is the union of the set copied out, under the same capping rule, for
// every size each side may have (inline, blocks of 4, 8 and 16, a full destination).
TEST(VarSets, UniteIntoKeepsTheCappingRuleOfACopiedSet) {
  std::mt19937 random(29);
  VarSets vars;
  for (int round = 0; round < 2000; ++round) {
    const auto random_set = [&](size_t n) {
      ValueSet set;
      while (set.size() < n) set.insert(ValueId{static_cast<uint32_t>(random() % 40)});
      return set;
    };
    const ValueSet dst = random_set(random() % (kMaxSet + 1));
    const ValueSet src = random_set(random() % kMaxSet);
    const VarId var = vars.add();
    vars.set(var, src);
    ValueSet direct = dst;
    vars.unite_into(direct, var);
    ValueSet copied = dst;
    copied.unite(vars.get(var));
    EXPECT_EQ(numbers(direct), numbers(copied));
    EXPECT_EQ(numbers(direct), united(numbers(dst), numbers(src)));
  }
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

// Takes every marked statement of [from, end) in order.
std::vector<uint32_t> take_all(ReaderIndex& index, uint32_t from, uint32_t end) {
  std::vector<uint32_t> taken;
  for (uint32_t s = index.take_next(from, end); s != end; s = index.take_next(s + 1, end)) {
    taken.push_back(s);
  }
  return taken;
}

// Statement s of `lists` reads the variables reads[s].
ReaderIndex built_from(const std::vector<std::vector<uint32_t>>& reads, size_t vars) {
  ReadLists lists(reads.size(), 64);
  for (uint32_t s = 0; s < reads.size(); ++s) {
    std::vector<VarId> vs;
    for (uint32_t v : reads[s]) vs.push_back(VarId{v});
    lists.store(StmtId{s}, vs);
  }
  // A list that grew moved to the end of the pool: the copy keeps where each list lies.
  lists.store(StmtId{1}, std::vector<VarId>{VarId{2}, VarId{3}, VarId{4}});
  ReadLists::Snapshot snapshot;
  lists.copy_to(snapshot);
  ReaderIndex index;
  index.build(snapshot, reads.size(), vars);
  return index;
}

TEST(ReaderIndex, OnceActiveAChangeMarksEveryStatementThatReadTheVariable) {
  // Statement 1's list became {2, 3, 4} before the copy (built_from).
  ReaderIndex index = built_from({{0, 2}, {2}, {}, {2, 3}, {1}}, 5);
  index.changed(VarId{2});  // before activation: not queued (activate passes such changes on)
  index.mark_changed_readers();
  EXPECT_EQ(take_all(index, 0, 5), std::vector<uint32_t>{});
  index.activate([](auto&& mark) { mark(VarId{1}); });
  EXPECT_EQ(take_all(index, 0, 5), std::vector<uint32_t>{4}) << "activation marks the readers";
  index.changed(VarId{3});
  index.changed(VarId{3});
  index.changed(VarId{900});  // created after the copy and read by nothing: marks nothing
  EXPECT_EQ(index.take_next(0, 5), 5u) << "marked only once the changes are passed on";
  index.mark_changed_readers();
  EXPECT_EQ(take_all(index, 0, 5), (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(take_all(index, 0, 5), std::vector<uint32_t>{}) << "taking unmarks";
}

TEST(ReaderIndex, ReadsAddedAfterTheCopyAreIndexedToo) {
  // Variables 0-4 at the copy: statement 1's list became {2, 3, 4} before it (built_from).
  ReaderIndex index = built_from({{0}, {0}, {0}}, 5);
  index.add(StmtId{2}, std::vector<VarId>{VarId{3}, VarId{7}});  // 7: a variable made later
  index.add(StmtId{0}, std::vector<VarId>{VarId{7}});
  index.activate([](auto&&) {});
  index.changed(VarId{7});
  index.mark_changed_readers();
  EXPECT_EQ(take_all(index, 0, 3), (std::vector<uint32_t>{0, 2}));
}

TEST(ReaderIndex, ChangesDuringAPassMarkLaterStatementsNowAndEarlierOnesForTheNextPass) {
  std::vector<std::vector<uint32_t>> reads(130);
  reads[2] = {1};
  reads[64] = {5};
  reads[120] = {1};
  ReaderIndex index = built_from(reads, 8);
  index.activate([](auto&& mark) { mark(VarId{5}); });
  // A pass over [0, 130) in which statement 64 changes variable 1.
  std::vector<uint32_t> visited;
  for (uint32_t s = 0;; ++s) {
    index.mark_changed_readers();
    s = index.take_next(s, 130);
    if (s == 130) break;
    visited.push_back(s);
    if (s == 64) index.changed(VarId{1});
  }
  EXPECT_EQ(visited, (std::vector<uint32_t>{64, 120}));
  // Statement 2 was passed when 1 changed: it stays marked for the next pass, and only it.
  EXPECT_EQ(take_all(index, 0, 130), std::vector<uint32_t>{2});
  // Bounds: a mark outside [from, end) is not taken.
  index.changed(VarId{1});
  index.mark_changed_readers();
  EXPECT_EQ(index.take_next(3, 120), 120u);
  EXPECT_EQ(index.take_next(120, 121), 120u);
  EXPECT_EQ(index.take_next(121, 121), 121u);
}

}  // namespace
}  // namespace anchorfs::analysis::python
