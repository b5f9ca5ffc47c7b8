// The Rust front end's extraction: entities, ids, anchors above doc comments and attributes, the
// file anchor, and tags that never change a program (raw strings, macros, inner attributes).
#include <gtest/gtest.h>

#include <string>

#include "analysis/code/code_facts.h"
#include "analysis/code/syntax.h"
#include "analysis/rust/extract.h"
#include "analysis/rust/grammar.h"
#include "analysis/language.h"
#include "render/view.h"
#include "tests/languages/language_support.h"

namespace anchorfs::languages_test {
namespace {

using analysis::EntityKind;
using analysis::code::CodeFacts;

CodeFacts extract(std::string_view source) {
  return analysis::rust::extract_facts(source);
}

std::vector<std::string> ids(const analysis::Graph& graph) {
  std::vector<std::string> out;
  for (analysis::EntityIndex e = 0; e < graph.entities.size(); ++e) out.push_back(graph.id(e));
  return out;
}

TEST(RustExtract, EntitiesAndTheirIds) {
  analysis::test::TempRepo repo;
  repo.write("src/lib.rs", R"(//! Crate docs.
#![allow(dead_code)]

/// A point.
#[derive(Debug, Clone)]
pub struct Point {
    x: i32,
}

pub enum Shape { Dot(Point) }
union Bits { i: u32, f: f32 }

pub trait Area: Clone {
    fn area(&self) -> f64;
    fn twice(&self) -> f64 { self.area() * 2.0 }
}

impl Point {
    pub const fn new(x: i32) -> Self { Point { x } }
    async fn later(&self) {}
}

impl<T> std::fmt::Display for Wrapper<T> where T: Area {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { Ok(()) }
}

macro_rules! square {
    ($x:expr) => { fn not_an_entity() {} };
}

extern "C" {
    fn abs(input: i32) -> i32;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds() {
        fn helper() {}
        helper();
    }
}

mod declared;
)");
  const analysis::Analysis result = repo.analyze();
  EXPECT_EQ(ids(result.graph),
            (std::vector<std::string>{
                "src/lib.rs", "src/lib.rs:Point", "src/lib.rs:Shape", "src/lib.rs:Bits",
                "src/lib.rs:Area", "src/lib.rs:Area.area", "src/lib.rs:Area.twice",
                "src/lib.rs:Point", "src/lib.rs:Point.new", "src/lib.rs:Point.later",
                "src/lib.rs:Wrapper", "src/lib.rs:Wrapper.fmt", "src/lib.rs:square!",
                "src/lib.rs:abs", "src/lib.rs:tests", "src/lib.rs:tests.builds",
                "src/lib.rs:tests.builds.helper"}));
}

TEST(RustExtract, RolesOwnersAndBases) {
  const CodeFacts facts = extract(R"(trait A: B + Send + 'static {}
impl<'a> crate::x::Tr<u8> for &'a mut Foo<'a> {}
impl !Send for Foo {}
)");
  ASSERT_EQ(facts.definitions.size(), 4u);
  EXPECT_EQ(facts.definitions[1].role, "trait");
  EXPECT_EQ(facts.definitions[1].bases, (std::vector<std::string>{"B", "Send"}));
  EXPECT_EQ(facts.definitions[2].role, "impl");
  EXPECT_EQ(facts.definitions[2].name, "Foo");
  EXPECT_EQ(facts.definitions[2].owner, "Foo");
  EXPECT_EQ(facts.definitions[2].bases, (std::vector<std::string>{"crate::x::Tr"}));
  EXPECT_TRUE(facts.definitions[3].bases.empty());
}

TEST(RustExtract, AnchorsGoAboveDocCommentsAndAttributesButNotInnerDocs) {
  const std::string source =
      "//! Module docs.\n"
      "fn first() {}\n"
      "\n"
      "// A plain comment.\n"
      "/// Docs.\n"
      "#[inline]\n"
      "    #[must_use]\n"
      "fn second() {}\n"
      "\n"
      "/// Detached by a blank line.\n"
      "\n"
      "fn third() {}\n"
      "fn a() {} fn b() {}\n";
  const CodeFacts facts = extract(source);
  ASSERT_EQ(facts.definitions.size(), 6u);
  EXPECT_EQ(facts.definitions[1].anchor_offset, source.find("fn first"));
  EXPECT_EQ(facts.definitions[2].anchor_offset, source.find("// A plain"));
  EXPECT_EQ(facts.definitions[3].anchor_offset, source.find("fn third"));
  EXPECT_TRUE(facts.definitions[4].has_anchor);
  EXPECT_FALSE(facts.definitions[5].has_anchor);  // not at the start of its line
}

TEST(RustExtract, FileAnchorAfterByteOrderMarkAndShebangButNotInnerAttribute) {
  const std::string script = "\xEF\xBB\xBF#!/usr/bin/env run-cargo-script\nfn main() {}\n";
  EXPECT_EQ(extract(script).file_anchor, script.find("fn main"));
  const CodeFacts attribute = extract("#![no_std]\nfn f() {}\n");
  EXPECT_TRUE(attribute.has_file_anchor);
  EXPECT_EQ(attribute.file_anchor, 0u);
}

TEST(RustExtract, MacroBodiesHoldNoEntitiesAndOnlyExpressionMacrosCalls) {
  const CodeFacts facts = extract(R"(fn real() {
    thread_local! { static X: u8 = 0; }
    let s = r#"
fn in_raw_string() {}
"#;
    vec![make()];
    println!("{}", other());
}
)");
  ASSERT_EQ(facts.definitions.size(), 2u);
  ASSERT_EQ(facts.calls.size(), 3u);
  EXPECT_EQ(facts.calls[0].name, "thread_local!");  // a macro call; its body is not code
  EXPECT_EQ(facts.calls[1].name, "make");
  EXPECT_EQ(facts.calls[2].name, "other");
}

TEST(RustExtract, CallsInStandardExpressionMacrosOnly) {
  const CodeFacts facts = extract(R"(fn t() {
    assert_eq!(self.x.m(a), crate::b::g(1), "{}", !h(2).k());
    println!("{}", Vec::<u8>::new(), y.0.z(), a.b.c());
    std::println!("{}", w(), fn_like!(q()));
    quote!(r(1));
}
)");
  std::vector<std::string> calls;
  for (const auto& c : facts.calls) calls.push_back(c.receiver + "|" + c.name);
  // A crate macro's token calls follow it, counted in its arity: resolution keeps them only if
  // the macro wraps an expression.
  EXPECT_EQ(calls,
            (std::vector<std::string>{"self.x|m", "crate::b|g", "|h", "|w", "|quote!", "|r"}));
  EXPECT_EQ(facts.calls[4].arity, 1u);
}

TEST(RustExtract, UsesModsAndTypedNames) {
  const CodeFacts facts = extract(R"(use crate::a::{b, c::{d as e, *}, self};
pub use super::f;
#[path = "other.rs"]
mod g;
extern crate h as i;
fn k<T: Tr + Other>(p: &mut Foo, q: Box<dyn Bar>) -> Option<Self> where T: Third {
    let x = Foo::new();
    let y: Vec<u8> = Vec::new();
    let s: &[Foo] = &[];
    let z = Foo::open()?;
    let w = Foo { a: 1 };
    let v = self.make().build();
    x.m();
    self.field.n();
    Foo::new().o();
    crate::util::f();
}
)");
  std::vector<std::string> imports;
  for (const auto& i : facts.imports) {
    imports.push_back(i.source + "|" + i.name + "|" + i.alias + (i.reexport ? "|pub" : ""));
  }
  EXPECT_EQ(imports, (std::vector<std::string>{"crate::a::b|b|", "crate::a::c::d|d|e",
                                               "crate::a::c|*|", "crate::a|a|",
                                               "super::f|f||pub", "mod|g|other.rs", "h|h|i"}));
  std::vector<std::string> typed;
  for (const auto& t : facts.typed_names) typed.push_back(t.name + ":" + t.type);
  EXPECT_EQ(typed, (std::vector<std::string>{"->:?Self", "<T>:Tr", "<T>:Other", "p:Foo",
                                             "q:Bar", "<T>:Third", "x:Foo::new()", "s:[Foo",
                                             "z:?Foo::open()", "w:Foo",
                                             "v:self.make().build()"}));
  std::vector<std::string> calls;
  for (const auto& c : facts.calls) calls.push_back(c.receiver + "|" + c.name);
  EXPECT_EQ(calls, (std::vector<std::string>{"Foo|new", "Vec|new", "Foo|open", "self.make()|build", "self|make", "x|m",
                                             "self.field|n", "Foo::new()|o", "Foo|new",
                                             "crate::util|f"}));
}

TEST(RustExtract, GarbageAndDeepNestingNeverCrash) {
  const CodeFacts garbage = extract("fn (((( {{{{ \xff\xfe");
  EXPECT_GT(garbage.error_regions, 0u);
  EXPECT_FALSE(garbage.has_file_anchor);
  for (const analysis::code::Definition& def : garbage.definitions) {
    EXPECT_FALSE(def.has_anchor);
  }
  std::string deep = "fn f() { let x = ";
  for (int i = 0; i < 5000; ++i) deep += "(";
  deep += "1";
  for (int i = 0; i < 5000; ++i) deep += ")";
  deep += "; }\n";
  EXPECT_EQ(extract(deep).definitions.size(), 2u);
}

TEST(RustTags, TaggedFilesParseToTheSameProgramAndStripBack) {
  analysis::test::TempRepo repo;
  repo.write("Cargo.toml", "[package]\nname = \"demo\"\n");
  repo.write("src/lib.rs", R"(#![cfg_attr(docsrs, feature(doc_cfg))]
//! Demo crate.

pub mod shapes;

/// Raw strings hold lines that look like code.
pub const SQL: &str = r#"
fn not_code() {}
// not a comment
"#;

/// Generic and where clauses.
pub fn largest<T: PartialOrd + Copy>(items: &[T]) -> T
where
    T: std::fmt::Debug,
{
    let mut best = items[0];
    for &item in items {
        if item > best {
            best = item;
        }
    }
    best
}

pub async fn fetch() -> u8 { helper() }

const fn helper() -> u8 { 7 }

extern "C" {
    fn abs(input: i32) -> i32;
}

macro_rules! make {
    ($name:ident) => {
        fn $name() {}
    };
}
make!(generated);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_works() {
        assert_eq!(helper(), 7);
        let _ = largest(&[1, 2]);
    }
}
)");
  repo.write("src/shapes.rs", R"(use std::fmt;

pub trait Shape: fmt::Debug {
    fn area(&self) -> f64;
    fn describe(&self) -> String {
        format!("{}", self.area())
    }
}

#[derive(Debug)]
pub struct Square {
    side: f64,
}

impl Square {
    pub fn new(side: f64) -> Self {
        Square { side }
    }
}

impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.describe())
    }
}

pub fn unit() -> f64 {
    let s = Square::new(1.0);
    s.area()
}
)");
  repo.write("src/main.rs", "#!/usr/bin/env rust\nfn main() {\n    demo::shapes::unit();\n}\n");
  repo.write("src/crlf.rs",
             "/// Windows line ends.\r\npub fn a() {\r\n    b();\r\n}\r\n\r\nfn b() {}\r\n");
  const analysis::Analysis result = repo.analyze();
  size_t tagged = 0;
  for (const analysis::FileInfo& info : result.graph.files) tagged += info.taggable;
  EXPECT_EQ(tagged, 4u);
  expect_tags_change_no_program(repo.root(), result.graph, "rust", tree_sitter_rust());
}

}  // namespace
}  // namespace anchorfs::languages_test

namespace anchorfs::languages_test {
namespace {

TEST(RustFrontEnd, ClaimsRustFilesAndItsFactsRoundTripThroughTheCacheEncoding) {
  const analysis::LanguageFrontEnd* rust = analysis::front_end_named("rust");
  ASSERT_NE(rust, nullptr);
  EXPECT_TRUE(rust->claims("src/lib.rs"));
  EXPECT_FALSE(rust->claims("src/.rs"));
  EXPECT_FALSE(rust->claims("Cargo.toml"));
  EXPECT_EQ(rust->tag_syntax().line_comment, "//");
  const auto state = rust->new_state();
  const auto facts = rust->extract(*state, "mod a;\nuse a::b;\nfn f(x: &T) { x.m(); }\n", {});
  const std::string bytes = rust->serialize_facts(*facts);
  const auto back = rust->deserialize_facts(bytes);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(static_cast<const CodeFacts&>(*back), static_cast<const CodeFacts&>(*facts));
  EXPECT_EQ(rust->deserialize_facts(bytes.substr(0, bytes.size() / 2)), nullptr);
  EXPECT_EQ(rust->deserialize_facts("go-facts-1 garbage"), nullptr);
}

}  // namespace
}  // namespace anchorfs::languages_test
