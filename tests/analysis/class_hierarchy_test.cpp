// C3 linearisation (pure) and the resolver's MRO cache: diamonds, inconsistent orders, cycles.
#include "analysis/python/class_hierarchy.h"

#include <gtest/gtest.h>

#include <vector>

namespace anchorfs::analysis::python {
namespace {

using Order = std::vector<uint32_t>;

// Class ids: O=0 (object), A=1, B=2, C=3, D=4, E=5, K1..K3=6..8, Z=9.
enum : uint32_t { O, A, B, C, D, E, K1, K2, K3, Z, kClasses };

ClassHierarchy hierarchy(const std::vector<std::pair<uint32_t, Order>>& bases) {
  ClassHierarchy h(kClasses);
  for (const auto& [cls, of] : bases) h.set_bases(cls, of);
  return h;
}

TEST(C3Linearize, SingleClassIsItself) {
  const Linearization l = c3_linearize(A, {}, {});
  EXPECT_TRUE(l.consistent);
  EXPECT_EQ(l.order, (Order{A}));
}

TEST(C3Linearize, DiamondVisitsSharedBaseLast) {
  // class B(A); class C(A); class D(B, C)  ->  D B C A
  const Order bases{B, C};
  const std::vector<Order> orders{{B, A}, {C, A}};
  const Linearization l = c3_linearize(D, bases, orders);
  EXPECT_TRUE(l.consistent);
  EXPECT_EQ(l.order, (Order{D, B, C, A}));
}

TEST(C3Linearize, InconsistentOrderFallsBackDepthFirstWithoutRepeats) {
  // class A(O); class B(O); class C(A, B); class D(B, A); class E(C, D): no C3 order.
  const Order bases{C, D};
  const std::vector<Order> orders{{C, A, B, O}, {D, B, A, O}};
  const Linearization l = c3_linearize(E, bases, orders);
  EXPECT_FALSE(l.consistent);
  EXPECT_EQ(l.order, (Order{E, C, A, B, O, D}));
}

TEST(C3Linearize, BaseListedTwiceAfterItsSubclassIsInconsistent) {
  // class B(A); class C(A, B): Python raises "Cannot create a consistent MRO".
  const Order bases{A, B};
  const std::vector<Order> orders{{A}, {B, A}};
  const Linearization l = c3_linearize(C, bases, orders);
  EXPECT_FALSE(l.consistent);
  EXPECT_EQ(l.order, (Order{C, A, B}));
}

TEST(ClassHierarchy, WikipediaExampleMatchesPython) {
  // The classic example (Python's own documentation of C3):
  // class A, B, C, D, E(O); class K1(A, B, C); class K2(D, B, E); class K3(D, A);
  // class Z(K1, K2, K3)  ->  Z K1 K2 K3 D A B C E O
  ClassHierarchy h = hierarchy({{A, {O}},
                                {B, {O}},
                                {C, {O}},
                                {D, {O}},
                                {E, {O}},
                                {K1, {A, B, C}},
                                {K2, {D, B, E}},
                                {K3, {D, A}},
                                {Z, {K1, K2, K3}}});
  EXPECT_EQ(h.mro(Z), (Order{Z, K1, K2, K3, D, A, B, C, E, O}));
  EXPECT_EQ(h.mro(K1), (Order{K1, A, B, C, O}));
}

TEST(ClassHierarchy, CycleTerminatesAndKeepsEachClassFirst) {
  ClassHierarchy h = hierarchy({{A, {B}}, {B, {C}}, {C, {A}}});
  const Order a = h.mro(A);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a.front(), A);
  EXPECT_LE(a.size(), 4u);  // finite: the class in progress contributes nothing
  EXPECT_EQ(h.mro(B).front(), B);
  EXPECT_EQ(h.mro(C).front(), C);
}

TEST(ClassHierarchy, SelfCycleIsJustTheClassAndItsBaseList) {
  ClassHierarchy h = hierarchy({{A, {A}}});
  EXPECT_EQ(h.mro(A), (Order{A, A}));
}

TEST(ClassHierarchy, ChangingBasesAdvancesTheGenerationAndRecomputes) {
  ClassHierarchy h = hierarchy({{B, {A}}, {C, {B}}});
  EXPECT_EQ(h.mro(C), (Order{C, B, A}));
  const uint32_t before = h.generation();
  EXPECT_FALSE(h.set_bases(B, {A}));
  EXPECT_EQ(h.generation(), before);
  EXPECT_TRUE(h.set_bases(B, {D}));
  EXPECT_GT(h.generation(), before);
  EXPECT_EQ(h.mro(C), (Order{C, B, D}));
  EXPECT_EQ(h.bases(B), (Order{D}));
}

TEST(ClassHierarchy, DeepChainStopsAtTheDepthLimit) {
  const uint32_t n = ClassHierarchy::kMaxDepth + 20;
  ClassHierarchy h(n);
  for (uint32_t c = 0; c + 1 < n; ++c) h.set_bases(c, {c + 1});
  const Order& order = h.mro(0);
  EXPECT_EQ(order.front(), 0u);
  EXPECT_LT(order.size(), size_t{n});
  EXPECT_EQ(h.mro(n - 1), (Order{n - 1}));
}

}  // namespace
}  // namespace anchorfs::analysis::python
