// anchorfs_child_list lists exactly the children (and field ids) a TSTreeCursor walk gives, and
// anchorfs_child_by_field finds what ts_node_child_by_field_id finds.
#include "analysis/code/child_list.h"

#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <string>
#include <vector>

#include "analysis/code/walk.h"

extern "C" const TSLanguage* tree_sitter_python();
extern "C" const TSLanguage* tree_sitter_javascript();
extern "C" const TSLanguage* tree_sitter_typescript();
extern "C" const TSLanguage* tree_sitter_java();
extern "C" const TSLanguage* tree_sitter_go();
extern "C" const TSLanguage* tree_sitter_rust();
extern "C" const TSLanguage* tree_sitter_cpp();

namespace {

struct Listed {
  std::vector<TSNode> nodes;
  std::vector<TSFieldId> fields;
};

// The reference: a cursor from goto_first_child through goto_next_sibling.
Listed by_cursor(TSNode n, bool named_only) {
  Listed out;
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      const TSNode c = ts_tree_cursor_current_node(&cursor);
      if (named_only && !ts_node_is_named(c)) continue;
      out.nodes.push_back(c);
      out.fields.push_back(ts_tree_cursor_current_field_id(&cursor));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

Listed by_list(TSNode n, bool named_only) {
  Listed out;
  const uint32_t count = anchorfs_child_list(n, named_only, nullptr, nullptr, 0);
  out.nodes.resize(count);
  out.fields.resize(count);
  EXPECT_EQ(anchorfs_child_list(n, named_only, out.nodes.data(), out.fields.data(), count), count);
  return out;
}

std::string describe(TSNode n) {
  return std::string(ts_node_type(n)) + "@" + std::to_string(ts_node_start_byte(n));
}

// Compares the two at every node of `source`'s tree; returns how many children were compared.
size_t compare_everywhere(const TSLanguage* language, const std::string& source) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, language);
  TSTree* tree =
      ts_parser_parse_string(parser, nullptr, source.data(), static_cast<uint32_t>(source.size()));
  size_t compared = 0;
  std::vector<TSNode> pending{ts_tree_root_node(tree)};
  while (!pending.empty()) {
    const TSNode n = pending.back();
    pending.pop_back();
    for (const bool named_only : {false, true}) {
      const Listed want = by_cursor(n, named_only);
      const Listed got = by_list(n, named_only);
      EXPECT_EQ(got.nodes.size(), want.nodes.size()) << describe(n);
      if (got.nodes.size() != want.nodes.size()) continue;
      for (size_t i = 0; i < want.nodes.size(); ++i) {
        // Same node, same alias (its type), same position: everything a TSNode carries.
        EXPECT_TRUE(ts_node_eq(got.nodes[i], want.nodes[i])) << describe(n) << " child " << i;
        EXPECT_EQ(ts_node_symbol(got.nodes[i]), ts_node_symbol(want.nodes[i])) << describe(n);
        EXPECT_EQ(ts_node_start_point(got.nodes[i]).row, ts_node_start_point(want.nodes[i]).row);
        EXPECT_EQ(ts_node_start_point(got.nodes[i]).column,
                  ts_node_start_point(want.nodes[i]).column);
        EXPECT_EQ(got.fields[i], want.fields[i]) << describe(n) << " child " << i;
      }
      compared += want.nodes.size();
      // The walkers' lists (code/walk.h) give what indexed access gives: ts_node_named_child(i)
      // and ts_node_child(i), which the brace front ends called before.
      if (named_only) {
        const anchorfs::analysis::code::NamedChildren listed(n);
        EXPECT_EQ(listed.size(), ts_node_named_child_count(n)) << describe(n);
        for (uint32_t i = 0; i < listed.size(); ++i) {
          EXPECT_TRUE(ts_node_eq(listed[i], ts_node_named_child(n, i))) << describe(n) << " " << i;
        }
        EXPECT_TRUE(ts_node_is_null(listed[listed.size()]));
      } else {
        const anchorfs::analysis::code::AllChildren listed(n);
        EXPECT_EQ(listed.size(), ts_node_child_count(n)) << describe(n);
        for (uint32_t i = 0; i < listed.size(); ++i) {
          EXPECT_TRUE(ts_node_eq(listed[i], ts_node_child(n, i))) << describe(n) << " " << i;
        }
      }
      if (named_only) {
        for (TSFieldId f = 0; f <= ts_language_field_count(language); ++f) {
          // each_in_field: the children a cursor reports in field f.
          std::vector<TSNode> in_field;
          anchorfs::analysis::code::each_in_field(n, f, [&](TSNode c) { in_field.push_back(c); });
          std::vector<TSNode> want_in_field;
          const Listed all = by_cursor(n, false);
          for (size_t i = 0; i < all.nodes.size(); ++i) {
            if (all.fields[i] == f) want_in_field.push_back(all.nodes[i]);
          }
          EXPECT_EQ(in_field.size(), want_in_field.size()) << describe(n) << " field " << f;
          for (size_t i = 0; i < in_field.size() && i < want_in_field.size(); ++i) {
            EXPECT_TRUE(ts_node_eq(in_field[i], want_in_field[i])) << describe(n) << " field " << f;
          }
          const TSNode want_field = ts_node_child_by_field_id(n, f);
          const TSNode got_field = anchorfs_child_by_field(n, f);
          EXPECT_TRUE(ts_node_eq(got_field, want_field)) << describe(n) << " field " << f;
          // FieldChildren (code/walk.h): the first child listed in the field is that node
          // (not in Python: match_statement's `body`, which no Python walk asks for that way).
          if (language != tree_sitter_python()) {
            const anchorfs::analysis::code::FieldChildren by_fields(n);
            EXPECT_TRUE(ts_node_eq(by_fields[f], want_field)) << describe(n) << " field " << f;
          }
          if (!ts_node_is_null(want_field)) {
            EXPECT_EQ(ts_node_symbol(got_field), ts_node_symbol(want_field)) << describe(n);
            EXPECT_EQ(ts_node_start_point(got_field).column,
                      ts_node_start_point(want_field).column) << describe(n);
          }
        }
      }
      if (!named_only) pending.insert(pending.end(), want.nodes.begin(), want.nodes.end());
    }
  }
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return compared;
}

TEST(ChildList, PythonChildrenAndFieldsAreTheCursorsWithCommentsAliasesAndErrors) {
  const std::string source =
      "import os, sys as system  # extra between\n"
      "from . import (a,  # comment inside\n    b)\n"
      "@decorate(1)\n"
      "class C(Base, metaclass=M):\n"
      "    '''doc'''\n"
      "    def f(self, x: int = 1, *args, y, **kw) -> str:\n"
      "        return f\"{x!r:>{width}} {y}\" + self.g(x)[1:2, ::3]\n"
      "    async def g(self):\n"
      "        async with a as (b, c):\n"
      "            yield [i for i in range(3) if i if not i]\n"
      "match p:\n"
      "    case Point(x=0, y=[1, *rest]) | {'k': v, **kw} if v:\n"
      "        pass\n"
      "x = lambda a, /, b=2: (yield)\n"
      "print >> sys.stderr, 'py2'\n"
      "exec 'code'\n"
      "def broken(:\n"
      "    return ]\n"
      "type Alias[T] = list[T]\n"
      "global g; nonlocal n; del a[0], b\n"
      "try:\n    pass\nexcept* (E, F) as e:\n    raise X from e\nfinally:\n    pass\n";
  EXPECT_GT(compare_everywhere(tree_sitter_python(), source), 300u);
}

TEST(ChildList, OtherGrammarsHiddenNodesAndInheritedFields) {
  struct Case {
    const TSLanguage* language;
    const char* source;
  };
  const Case cases[] = {
      {tree_sitter_javascript(),
       "import {a as b} from 'm';\nexport default class A extends B {\n  #p = 1; static { "
       "this.x = `t${y}`; }\n  get v() { return <div a={1}>x</div>; }\n}\n"
       "const {q, ...r} = o?.f?.(1);\n"
       // Wider than the walkers' buffers on the stack (code/walk.h): their second pass.
       "const wide = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];\n"},
      {tree_sitter_typescript(),
       "interface I<T extends U = V> { m?(x: T): void }\ntype F = (a: number) => string | "
       "undefined;\nenum E { A = 1 }\nabstract class K implements I<number> {}\n"},
      {tree_sitter_java(),
       "package p;\n@A(x = 1) public class C<T> extends D implements E {\n  /* c */ int f(int... "
       "a) throws X { return switch (a[0]) { case 1 -> 2; default -> { yield 3; } }; }\n"
       "  record R(int a) {}\n}\n"},
      {tree_sitter_go(),
       "package m\nimport (f \"fmt\"; _ \"x\")\ntype T[K comparable] struct { a, b int `tag` }"
       "\nfunc (t *T[K]) M(x ...int) (r int, err error) {\n  select { case v := <-ch: _ = v }\n"
       "  return\n}\n"
       // A node wider than each_in_field's buffer with fields on its children.
       "var a, b, c, d, e, f, g, h, i, j, k int\n"},
      {tree_sitter_rust(),
       "#[derive(Debug)]\npub struct S<'a, T: Tr> { f: &'a T }\nimpl<T> Tr for S<'_, T> where "
       "T: Copy { fn m(&self) -> i32 { macro_rules! m { ($x:expr) => { $x } } m!(1) } }\n"},
      {tree_sitter_cpp(),
       "#include <x>\ntemplate <typename T> struct A : B<T> {\n  A() : b_(1) {}\n  operator "
       "int() const;\n  int b_;\n};\nnamespace n { using V = std::vector<int>; }\n#ifdef X\n"
       "int y;\n#endif\n"},
  };
  for (const Case& c : cases) EXPECT_GT(compare_everywhere(c.language, c.source), 50u) << c.source;
}

// A caller's buffer smaller than the list gets its first entries, and the count of all.
TEST(ChildList, FillsOnlyTheCapacityAndCountsAll) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  const std::string source = "f(a, b, c, d, e)\n";
  TSTree* tree =
      ts_parser_parse_string(parser, nullptr, source.data(), static_cast<uint32_t>(source.size()));
  const TSNode call = ts_node_named_child(ts_node_named_child(ts_tree_root_node(tree), 0), 0);
  const TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  TSNode nodes[3] = {};
  TSFieldId fields[3] = {7, 7, 7};
  EXPECT_EQ(anchorfs_child_list(args, true, nodes, fields, 2), 5u);
  EXPECT_EQ(ts_node_start_byte(nodes[0]), 2u);
  EXPECT_EQ(ts_node_start_byte(nodes[1]), 5u);
  EXPECT_TRUE(ts_node_is_null(nodes[2]));
  EXPECT_EQ(fields[2], 7);
  EXPECT_EQ(anchorfs_child_list(args, false, nullptr, nullptr, 0), 11u);  // ( a , b , ... )
  EXPECT_EQ(anchorfs_child_list(TSNode{}, true, nodes, fields, 3), 0u);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
}

}  // namespace
