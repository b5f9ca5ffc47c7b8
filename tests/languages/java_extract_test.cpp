// Java extraction: roles, names, arity, anchors above doc comments and annotations, imports,
// call forms and typed names, and graceful handling of broken input.
#include <gtest/gtest.h>

#include <string>

#include "analysis/code/code_facts.h"
#include "analysis/java/extract.h"

namespace anchorfs::analysis::java {
namespace {

code::CodeFacts extract(std::string_view source) {
  return extract_facts(source);
}

const code::Definition* named(const code::CodeFacts& facts, std::string_view name) {
  for (const code::Definition& d : facts.definitions) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

TEST(JavaExtract, DefinitionsCarryRolesParentsAndArity) {
  const code::CodeFacts facts = extract(
      "package a.b;\n"
      "public class A extends B implements I, J<String> {\n"
      "  A(int x) {}\n"
      "  void m(String s, int... rest) {}\n"
      "  interface K extends I {}\n"
      "  enum E { X, Y { void f() {} } }\n"
      "  record R(int a, int b) { R {} }\n"
      "  @interface Note {}\n"
      "  Object o = new Object() { public String toString() { return \"\"; } };\n"
      "}\n");
  ASSERT_TRUE(facts.parsed_cleanly);
  EXPECT_EQ(facts.package, "a.b");
  const code::Definition* a = named(facts, "A");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->role, "class");
  EXPECT_EQ(a->bases, (std::vector<std::string>{"B", "I", "J"}));
  EXPECT_TRUE(a->exported);
  const code::Definition* m = named(facts, "m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->arity, 2u);
  EXPECT_TRUE(m->variadic);
  EXPECT_EQ(named(facts, "K")->bases, (std::vector<std::string>{"I"}));
  EXPECT_EQ(named(facts, "K")->role, "interface");
  EXPECT_EQ(named(facts, "E")->role, "enum");
  EXPECT_EQ(named(facts, "Y")->role, "enum_constant");
  EXPECT_EQ(named(facts, "Y")->bases, (std::vector<std::string>{"E"}));
  EXPECT_EQ(named(facts, "Note")->role, "annotation");
  const code::Definition* anonymous = named(facts, "<anonymous1>");
  ASSERT_NE(anonymous, nullptr);
  EXPECT_EQ(anonymous->bases, (std::vector<std::string>{"Object"}));
  EXPECT_FALSE(anonymous->has_anchor);
  // Constructors are named after their class; a compact one takes the record's components.
  int constructors = 0;
  for (const code::Definition& d : facts.definitions) {
    if (d.role != "constructor") continue;
    ++constructors;
    EXPECT_EQ(d.arity, d.name == "R" ? 2u : 1u) << d.name;
  }
  EXPECT_EQ(constructors, 2);
}

TEST(JavaExtract, AnchorsGoAboveDocCommentsAndAnnotations) {
  const std::string source =
      "// header\n"
      "package p;\n"
      "\n"
      "/** Doc. */\n"
      "@Deprecated(\n"
      "    since = \"1\")\n"
      "class C {\n"
      "  // detached\n"
      "\n"
      "  @Override\n"
      "  public String toString() { return \"\"; } void same() {}\n"
      "}\n";
  const code::CodeFacts facts = extract(source);
  ASSERT_TRUE(facts.parsed_cleanly);
  EXPECT_TRUE(facts.has_file_anchor);
  EXPECT_EQ(facts.file_anchor, 0u);
  const code::Definition* c = named(facts, "C");
  EXPECT_EQ(c->anchor_offset, source.find("/** Doc."));
  EXPECT_EQ(c->line, 7u);
  const code::Definition* to_string = named(facts, "toString");
  EXPECT_EQ(to_string->anchor_offset, source.find("  @Override"));
  EXPECT_EQ(to_string->anchor_indent, "  ");
  EXPECT_FALSE(named(facts, "same")->has_anchor);  // not at the start of its line
}

TEST(JavaExtract, ImportsOfEveryForm) {
  const code::CodeFacts facts = extract(
      "import a.B;\n"
      "import a . c.*;\n"
      "import static a.B.m;\n"
      "import static a.B.*;\n"
      "class X {}\n");
  ASSERT_EQ(facts.imports.size(), 4u);
  EXPECT_EQ(facts.imports[0].source, "a.B");
  EXPECT_EQ(facts.imports[0].name, "");
  EXPECT_EQ(facts.imports[1].source, "a.c");
  EXPECT_EQ(facts.imports[1].name, "*");
  EXPECT_EQ(facts.imports[2].source, "a.B");
  EXPECT_EQ(facts.imports[2].name, "m");
  EXPECT_EQ(facts.imports[3].name, "*");
}

TEST(JavaExtract, CallsAndTypedNames) {
  const code::CodeFacts facts = extract(
      "class X<T> extends Y {\n"
      "  java.util.List<String> names;\n"
      "  T item;\n"
      "  X() { super(1); }\n"
      "  void f(Z z) {\n"
      "    var w = new W<>(1, 2);\n"
      "    var u = z.make();\n"
      "    g(); this.g(); super.h(); z.k(a, b); this.names.size(); Outer.this.q();\n"
      "    make().chained(); new V().v(); ((Q) z).q2(); (new Object() {}).hidden();\n"
      "    Runnable r = () -> w.run();\n"
      "    list.forEach(item -> item.go());\n"
      "  }\n"
      "}\n");
  ASSERT_TRUE(facts.parsed_cleanly);
  std::vector<std::string> calls;
  for (const code::Call& c : facts.calls) {
    calls.push_back(std::to_string(static_cast<int>(c.form)) + " " + c.receiver + "|" + c.name +
                    "/" + std::to_string(c.arity));
  }
  EXPECT_EQ(calls, (std::vector<std::string>{
                       "3 |super/1", "3 |W/2", "1 z|make/0", "0 |g/0", "1 this|g/0",
                       "1 super|h/0", "1 z|k/2", "1 this.names|size/0", "1 Outer.this|q/0",
                       "1 make(0)|chained/0", "0 |make/0", "1 new V|v/0", "3 |V/0", "1 (Q)|q2/0",
                       "3 |Object/0", "1 w|run/0", "1 list|forEach/1", "1 item|go/0"}));
  std::vector<std::string> typed;
  for (const code::TypedName& t : facts.typed_names) {
    typed.push_back(std::to_string(t.scope) + " " + t.name + ":" + t.type);
  }
  // The type parameter T is written as its erasure, marked (no receiver type); lambda parameters
  // have no evident type; `var` from a call is typed by resolution through the call's result.
  EXPECT_EQ(typed, (std::vector<std::string>{"1 names:java.util.List", "1 item:<java.lang.Object>",
                                             "3 return:void", "3 z:Z", "3 w:W", "3 u:z.make(0)",
                                             "3 r:Runnable", "3 item:"}));
}

TEST(JavaExtract, ArgumentAndParameterTypesForOverloads) {
  const code::CodeFacts facts = extract(
      "class X<T> {\n"
      "  <U, V extends Number> void m(int a, String[] b, T c, U d, V e, U[] f, long g[],\n"
      "                             Object... rest) {}\n"
      "  record R<E>(E e, int n) { R {} }\n"
      "  void f(X<T> self) {\n"
      "    m(1, -2L, 1.5, 2f, 'c', true, \"s\", null, \"a\" + k, k + 1, -k);\n"
      "    m(this, self, new W<>(), (Q) self, (self), g(), new Object() {}, x[0], 0x1F, 1e3);\n"
      "    m(self.f, this.f, self.g(1).h(), a.b.c);\n"
      "  }\n"
      "}\n");
  ASSERT_TRUE(facts.parsed_cleanly);
  const code::Definition* m = named(facts, "m");
  ASSERT_NE(m, nullptr);
  // A method's own type parameters stand for their erasure (marked as type variables); the
  // class's are not evident, nor is a C-style array.
  EXPECT_EQ(m->parameter_types,
            (std::vector<std::string>{"int", "String[]", "", "<java.lang.Object>", "<Number>",
                                      "<java.lang.Object>[]", "", "Object"}));
  const code::Definition* compact = nullptr;
  for (const code::Definition& d : facts.definitions) {
    if (d.role == "constructor" && d.name == "R") compact = &d;
  }
  ASSERT_NE(compact, nullptr);
  EXPECT_EQ(compact->parameter_types, (std::vector<std::string>{"", "int"}));
  std::vector<std::vector<std::string>> arguments;
  for (const code::Call& c : facts.calls) {
    if (c.name == "m") arguments.push_back(c.argument_types);
  }
  ASSERT_EQ(arguments.size(), 3u);
  EXPECT_EQ(arguments[2], (std::vector<std::string>{"var:self.f", "var:this.f",
                                                    "call:self.g(1).h(0)", ""}));
  EXPECT_EQ(arguments[0], (std::vector<std::string>{"int", "long", "double", "float", "char",
                                                    "boolean", "java.lang.String", "null",
                                                    "java.lang.String", "", ""}));
  EXPECT_EQ(arguments[1], (std::vector<std::string>{"this", "var:self", "W", "Q", "var:self",
                                                    "call:g(0)", "", "", "int", "double"}));
}

bool untagged(const code::CodeFacts& facts) {
  if (!facts.parsed_cleanly) return true;
  for (const code::Definition& def : facts.definitions) {
    if (def.has_anchor) return false;
  }
  return !facts.has_file_anchor;
}

TEST(JavaExtract, BrokenInputIsNotTaggableButDoesNotFail) {
  // One line holding the errors: no block can stay clear of them.
  const code::CodeFacts facts = extract("class A { void f( { }\n");
  EXPECT_GT(facts.error_regions, 0u);
  EXPECT_TRUE(untagged(facts));
  std::string deep = "class A { int x = ";
  for (int i = 0; i < 10000; ++i) deep += "(";
  EXPECT_TRUE(untagged(extract(deep)));
  // Past kMaxOpenBrackets open brackets (analysis/parse_budget.h): no tree, no crash.
  deep.append(100000, '(');
  const code::CodeFacts deeper = extract(deep);
  EXPECT_FALSE(deeper.parsed_cleanly);
  EXPECT_EQ(deeper.definitions.size(), 1u);
}

}  // namespace
}  // namespace anchorfs::analysis::java
