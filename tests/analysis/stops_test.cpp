// anchorfs_stops finds the nodes a walk through ts_node_named_child would stop at, in its order.
#include "analysis/code/stops.h"

#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/code/child_list.h"

extern "C" const TSLanguage* tree_sitter_java();
extern "C" const TSLanguage* tree_sitter_javascript();
extern "C" const TSLanguage* tree_sitter_python();
extern "C" const TSLanguage* tree_sitter_rust();

namespace {

struct Stop {
  TSNode node;
  TSNode parent;  // null unless listed
  uint32_t index;
};

std::string describe(TSNode n) {
  return std::string(ts_node_type(n)) + "@" + std::to_string(ts_node_start_byte(n));
}

uint8_t action_of(const std::vector<uint8_t>& actions, TSNode n) {
  const TSSymbol s = ts_node_symbol(n);
  return s < actions.size() ? actions[s] : static_cast<uint8_t>(ANCHORFS_DESCEND);
}

// The reference: named children with children, by tree-sitter's indexed access, descending
// through DESCEND ones, each stop followed by the stops under it (a walk visits a stop, then
// walks its children); a listed stop's index is its place among the cursor's children.
void reference(TSNode n, const std::vector<uint8_t>& actions, std::vector<Stop>& out) {
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
    const TSNode c = ts_node_named_child(n, i);
    if (ts_node_child_count(c) == 0) continue;
    const uint8_t action = action_of(actions, c);
    if (action == ANCHORFS_DROP) continue;
    if (action == ANCHORFS_DESCEND) {
      reference(c, actions, out);
      continue;
    }
    Stop stop{c, TSNode{}, 0};
    if (action == ANCHORFS_STOP_LISTED) {
      stop.parent = n;
      TSTreeCursor cursor = ts_tree_cursor_new(n);
      uint32_t index = 0;
      if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
          if (ts_node_eq(ts_tree_cursor_current_node(&cursor), c)) break;
          ++index;
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
      }
      ts_tree_cursor_delete(&cursor);
      stop.index = index;
    }
    out.push_back(stop);
    reference(c, actions, out);  // the walk visits it, then walks what is under it
  }
}

// anchorfs_stops, each DESCEND node it hands back (nesting past its stack) walked by another
// call, as the Java extractor does, and each stop's own children after it; `handed_back` counts
// the nodes handed back.
void by_stops(TSNode n, const std::vector<uint8_t>& actions, std::vector<Stop>& out,
              size_t& handed_back) {
  const uint32_t count = anchorfs_stops(n, actions.data(), static_cast<uint32_t>(actions.size()),
                                        nullptr, 0);
  ASSERT_NE(count, UINT32_MAX);
  std::vector<AnchorfsStop> stops(count);
  ASSERT_EQ(anchorfs_stops(n, actions.data(), static_cast<uint32_t>(actions.size()),
                           stops.data(), count),
            count);
  for (const AnchorfsStop& s : stops) {
    if (action_of(actions, s.node) == ANCHORFS_DESCEND) {
      ++handed_back;
      by_stops(s.node, actions, out, handed_back);
      continue;
    }
    out.push_back({s.node, s.parent, s.index});
    by_stops(s.node, actions, out, handed_back);
  }
}

TSTree* parse(const TSLanguage* language, const std::string& source) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, language);
  TSTree* tree =
      ts_parser_parse_string(parser, nullptr, source.data(), static_cast<uint32_t>(source.size()));
  ts_parser_delete(parser);
  return tree;
}

// Compares the two walks from the root; returns how many stops there were.
size_t compare(const TSLanguage* language, const std::string& source,
               const std::vector<uint8_t>& actions, size_t* handed_back = nullptr) {
  TSTree* tree = parse(language, source);
  std::vector<Stop> want;
  reference(ts_tree_root_node(tree), actions, want);
  std::vector<Stop> got;
  size_t back = 0;
  by_stops(ts_tree_root_node(tree), actions, got, back);
  EXPECT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    EXPECT_TRUE(ts_node_eq(got[i].node, want[i].node))
        << describe(got[i].node) << " != " << describe(want[i].node);
    // Everything a TSNode carries: alias (its symbol) and position.
    EXPECT_EQ(ts_node_symbol(got[i].node), ts_node_symbol(want[i].node));
    EXPECT_EQ(ts_node_start_point(got[i].node).row, ts_node_start_point(want[i].node).row);
    EXPECT_EQ(ts_node_start_point(got[i].node).column, ts_node_start_point(want[i].node).column);
    EXPECT_TRUE(ts_node_eq(got[i].parent, want[i].parent)) << describe(want[i].node);
    EXPECT_EQ(got[i].index, want[i].index) << describe(want[i].node);
    if (!ts_node_is_null(got[i].parent)) {
      // The index is the node's place in anchorfs_child_list's list of the parent.
      std::vector<TSNode> siblings(anchorfs_child_list(got[i].parent, false, nullptr, nullptr, 0));
      anchorfs_child_list(got[i].parent, false, siblings.data(), nullptr,
                          static_cast<uint32_t>(siblings.size()));
      EXPECT_LT(got[i].index, siblings.size());
      if (got[i].index >= siblings.size()) continue;
      EXPECT_TRUE(ts_node_eq(siblings[got[i].index], got[i].node));
    }
  }
  ts_tree_delete(tree);
  if (handed_back != nullptr) *handed_back = back;
  return want.size();
}

// Actions mixed by symbol: every path of the walk (descend, stop, listed stop, drop) meets
// aliases, hidden nodes, extras and errors somewhere in the sources below.
std::vector<uint8_t> mixed_actions(const TSLanguage* language, uint32_t seed) {
  std::vector<uint8_t> out(ts_language_symbol_count(language));
  constexpr uint8_t kChoices[] = {ANCHORFS_DESCEND, ANCHORFS_DESCEND, ANCHORFS_STOP,
                                  ANCHORFS_STOP_LISTED, ANCHORFS_DROP};
  for (uint32_t s = 0; s < out.size(); ++s) out[s] = kChoices[(s * 2654435761u + seed) % 5];
  return out;
}

struct Case {
  const TSLanguage* language;
  std::string source;
};

std::vector<Case> cases() {
  return {
      {tree_sitter_java(),
       "package p;\nimport a.b.*;\n// c\n@A(x = 1) public class C<T> extends D implements E {\n"
       "  /** doc */\n  int f(int... a) throws X { return switch (a[0]) { case 1 -> g(2); "
       "default -> { yield new K() { void m() { h(3); } }; } }; }\n  record R(int a) {}\n"
       "  enum Q { A(1) { void z() {} }, B }\n  void broken( { x(;\n}\n"},
      {tree_sitter_javascript(),
       "import {a as b} from 'm';\nexport default class A extends B {\n  #p = 1; static { "
       "this.x = `t${y}`; }\n  get v() { return <div a={1}>x</div>; }\n}\n"
       "const {q, ...r} = o?.f?.(1);\n"},
      {tree_sitter_python(),
       "class C(Base):\n    def f(self, x: int = 1, *args, **kw):\n        return [i for i in "
       "x if i]  # c\n@d\ndef g(): pass\ndef broken(:\n    return ]\n"},
      {tree_sitter_rust(),
       "#[derive(Debug)]\npub struct S<'a, T: Tr> { f: &'a T }\nimpl<T> Tr for S<'_, T> where "
       "T: Copy { fn m(&self) -> i32 { macro_rules! m { ($x:expr) => { $x } } m!(1) } }\n"},
  };
}

TEST(Stops, SameNodesInTheSameOrderAsIndexedAccessForMixedActions) {
  for (const Case& c : cases()) {
    size_t stops = 0;
    for (uint32_t seed = 0; seed < 5; ++seed) {
      stops += compare(c.language, c.source, mixed_actions(c.language, seed));
    }
    EXPECT_GT(stops, 15u) << c.source;
  }
}

TEST(Stops, EveryNamedNodeWithChildrenWhenNothingIsDescended) {
  for (const Case& c : cases()) {
    const std::vector<uint8_t> stop_all(ts_language_symbol_count(c.language), ANCHORFS_STOP);
    EXPECT_GT(compare(c.language, c.source, stop_all), 15u);
    // Past the table (an ERROR's symbol, every symbol here) a node is descended.
    size_t back = 0;
    EXPECT_EQ(compare(c.language, c.source, {}, &back), 0u);
    EXPECT_EQ(back, 0u);
  }
}

// Nesting deeper than the walk's stack: the node where it stopped descending is handed back,
// and walking it again gives the rest in order.
TEST(Stops, DeepNestingIsHandedBackNotRecursed) {
  const std::string deep = "class A { int x = " + std::string(1000, '(') + "f(1)" +
                           std::string(1000, ')') + "; }\n";
  const TSLanguage* java = tree_sitter_java();
  std::vector<uint8_t> actions(ts_language_symbol_count(java), ANCHORFS_DESCEND);
  for (uint32_t s = 0; s < actions.size(); ++s) {
    if (std::string(ts_language_symbol_name(java, static_cast<TSSymbol>(s))) == "method_invocation") {
      actions[s] = ANCHORFS_STOP;
    }
  }
  size_t back = 0;
  EXPECT_EQ(compare(java, deep, actions, &back), 1u);
  EXPECT_GE(back, 1000u / 96);
}

// A buffer smaller than the stops gets the first ones and the count of all.
TEST(Stops, FillsOnlyTheCapacityAndCountsAll) {
  const TSLanguage* java = tree_sitter_java();
  TSTree* tree = parse(java, "class A { void f() { a(); b(); c(); } }\n");
  std::vector<uint8_t> actions(ts_language_symbol_count(java), ANCHORFS_DESCEND);
  for (uint32_t s = 0; s < actions.size(); ++s) {
    if (std::string(ts_language_symbol_name(java, static_cast<TSSymbol>(s))) == "method_invocation") {
      actions[s] = ANCHORFS_STOP;
    }
  }
  AnchorfsStop stops[3] = {};
  EXPECT_EQ(anchorfs_stops(ts_tree_root_node(tree), actions.data(),
                           static_cast<uint32_t>(actions.size()), stops, 2),
            3u);
  EXPECT_EQ(ts_node_start_byte(stops[0].node), 21u);
  EXPECT_EQ(ts_node_start_byte(stops[1].node), 26u);
  EXPECT_TRUE(ts_node_is_null(stops[2].node));
  EXPECT_TRUE(ts_node_is_null(stops[0].parent));
  EXPECT_EQ(anchorfs_stops(TSNode{}, actions.data(), 1, stops, 3), 0u);
  ts_tree_delete(tree);
}

}  // namespace
