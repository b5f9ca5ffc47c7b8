// The Rust resolver's rules where a guess would be easy and wrong: editions, #[path], ambiguous
// trait methods and crate names, shadowing, use cycles, constructors that are not functions.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "analysis/graph.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::languages_test {
namespace {

using analysis::Relation;
using analysis::test::has_edge;
using analysis::test::TempRepo;

bool calls(const analysis::Graph& graph, std::string_view from, std::string_view to) {
  return has_edge(graph, Relation::Calls, from, to);
}

TEST(RustResolve, Edition2015UsePathsAreCrateRelative) {
  TempRepo repo;
  repo.write("Cargo.toml", "[package]\nname = \"old\"\n");
  repo.write("src/lib.rs", "mod a;\nmod b;\n");
  repo.write("src/a.rs", "pub fn f() {}\n");
  repo.write("src/b.rs", "use a::f;\npub fn g() { f(); }\n");
  const analysis::Analysis result = repo.analyze();
  EXPECT_TRUE(calls(result.graph, "src/b.rs:g", "src/a.rs:f"));
  EXPECT_TRUE(has_edge(result.graph, Relation::Imports, "src/b.rs", "src/a.rs"));
}

TEST(RustResolve, PathAttributesAndNestedModuleFiles) {
  TempRepo repo;
  repo.write("Cargo.toml", "[package]\nname = \"p\"\nedition = \"2018\"\n");
  repo.write("src/lib.rs", "#[path = \"sys/unix.rs\"]\nmod imp;\nmod outer;\n"
                           "pub fn run() { imp::go(); outer::inner::deep(); }\n");
  repo.write("src/sys/unix.rs", "pub fn go() {}\n");
  repo.write("src/outer.rs", "pub mod inner;\n");
  repo.write("src/outer/inner.rs", "pub fn deep() { super::super::run(); }\n");
  const analysis::Analysis result = repo.analyze();
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:run", "src/sys/unix.rs:go"));
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:run", "src/outer/inner.rs:deep"));
  EXPECT_TRUE(calls(result.graph, "src/outer/inner.rs:deep", "src/lib.rs:run"));
  EXPECT_TRUE(has_edge(result.graph, Relation::Imports, "src/outer.rs", "src/outer/inner.rs"));
}

TEST(RustResolve, InherentMethodsWinAndTwoTraitsDefiningOneNameAreAmbiguous) {
  TempRepo repo;
  repo.write("Cargo.toml", "[package]\nname = \"p\"\nedition = \"2021\"\n");
  repo.write("src/lib.rs", R"(pub trait A { fn show(&self); fn go(&self); }
pub trait B { fn show(&self); fn go(&self); }
pub struct S;
impl S { pub fn go(&self) {} }
impl A for S { fn show(&self) {} fn go(&self) {} }
impl B for S { fn show(&self) {} fn go(&self) {} }
pub fn use_it(s: &S) {
    s.show();
    s.go();
}
)");
  const analysis::Analysis result = repo.analyze();
  const std::vector<std::string> edges = analysis::test::edges_of(result.graph, Relation::Calls);
  ASSERT_EQ(edges.size(), 1u) << edges[0];
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:use_it", "src/lib.rs:S.go"));
  // The impls derive nothing themselves: S derives from both traits.
  EXPECT_TRUE(has_edge(result.graph, Relation::Inherits, "src/lib.rs:S", "src/lib.rs:A"));
  EXPECT_TRUE(has_edge(result.graph, Relation::Inherits, "src/lib.rs:S", "src/lib.rs:B"));
}

TEST(RustResolve, NothingForUnknownTypesConstructorsOrUnboundedGenerics) {
  TempRepo repo;
  repo.write("Cargo.toml", "[package]\nname = \"p\"\nedition = \"2021\"\n");
  repo.write("src/lib.rs", R"(pub struct Pair(u8, u8);
pub struct K;
impl K { pub fn len(&self) -> usize { 0 } }
pub fn f<T>(t: T, v: Vec<u8>) -> usize {
    let _p = Pair(1, 2);
    let _ = t.len();
    v.len()
}
)");
  const analysis::Analysis result = repo.analyze();
  EXPECT_TRUE(analysis::test::edges_of(result.graph, Relation::Calls).empty());
}

TEST(RustResolve, LocalItemsShadowModuleItems) {
  TempRepo repo;
  repo.write("src/lib.rs", R"(fn helper() {}
pub fn outer() {
    fn helper() {}
    helper();
}
pub fn plain() { helper(); }
)");
  const analysis::Analysis result = repo.analyze();
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:outer", "src/lib.rs:outer.helper"));
  EXPECT_FALSE(calls(result.graph, "src/lib.rs:outer", "src/lib.rs:helper"));
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:plain", "src/lib.rs:helper"));
}

TEST(RustResolve, UseCyclesAndModCyclesEndWithoutEdges) {
  TempRepo repo;
  repo.write("src/lib.rs", "mod a;\nmod b;\npub fn f() { a::x(); }\n");
  repo.write("src/a.rs", "pub use crate::b::x;\nmod lib;\n");
  repo.write("src/b.rs", "pub use crate::a::x;\n");
  repo.write("src/a/lib.rs", "#[path = \"../lib.rs\"]\nmod again;\n");
  const analysis::Analysis result = repo.analyze();
  EXPECT_TRUE(analysis::test::edges_of(result.graph, Relation::Calls).empty());
}

TEST(RustResolve, TwoCratesOfOneNameAreAmbiguousButAPackageSeesItsOwn) {
  TempRepo repo;
  for (const char* dir : {"one/", "two/"}) {
    repo.write(std::string(dir) + "Cargo.toml", "[package]\nname = \"dup\"\nedition = \"2021\"\n");
    repo.write(std::string(dir) + "src/lib.rs", "pub fn f() {}\n");
    repo.write(std::string(dir) + "tests/t.rs", "#[test]\nfn t() { dup::f(); }\n");
  }
  repo.write("user/Cargo.toml", "[package]\nname = \"user\"\nedition = \"2021\"\n");
  repo.write("user/src/lib.rs", "pub fn g() { dup::f(); }\n");
  const analysis::Analysis result = repo.analyze();
  EXPECT_TRUE(calls(result.graph, "one/tests/t.rs:t", "one/src/lib.rs:f"));
  EXPECT_TRUE(calls(result.graph, "two/tests/t.rs:t", "two/src/lib.rs:f"));
  EXPECT_FALSE(calls(result.graph, "user/src/lib.rs:g", "one/src/lib.rs:f"));
  EXPECT_FALSE(calls(result.graph, "user/src/lib.rs:g", "two/src/lib.rs:f"));
}

TEST(RustResolve, ReceiversTypedByReturnTypesFieldsAndBounds) {
  TempRepo repo;
  repo.write("src/lib.rs", R"(pub trait Run { fn run(&self); }
pub struct Engine;
impl Engine {
    pub fn start(&self) {}
    pub fn open() -> Result<Engine, ()> { Ok(Engine) }
}
pub struct Car { engine: Engine }
impl Car {
    pub fn new() -> Self { Car { engine: Engine } }
    pub fn engine(&self) -> &Engine { &self.engine }
    pub fn drive(&self) {
        self.engine.start();
        self.engine().start();
    }
}
pub fn go<R>(r: &R) where R: Run {
    r.run();
    let e = Engine::open()?;
    e.start();
    let maybe = Engine::open();
    maybe.start();
    Car::new().engine().start();
}
)");
  const analysis::Analysis result = repo.analyze();
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:Car.drive", "src/lib.rs:Engine.start"));
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:Car.drive", "src/lib.rs:Car.engine"));
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:go", "src/lib.rs:Run.run"));
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:go", "src/lib.rs:Engine.start"));
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:go", "src/lib.rs:Car.engine"));
  const std::vector<std::string> edges = analysis::test::edges_of(result.graph, Relation::Calls);
  EXPECT_EQ(edges.size(), 7u);  // `maybe` is a Result: its start() is not Engine's
}

}  // namespace
}  // namespace anchorfs::languages_test

namespace anchorfs::languages_test {
namespace {

TEST(RustResolve, TupleFieldsAndFieldsOfTypedNames) {
  TempRepo repo;
  repo.write("src/lib.rs", R"(pub struct Exec;
impl Exec { pub fn search(&self) {} }
pub struct Regex(pub Exec);
pub struct Holder { pub inner: Regex }
impl Regex {
    pub fn find(&self) { self.0.search(); }
}
pub fn run(h: &Holder) {
    h.inner.find();
    h.inner.0.search();
}
pub fn tuple(pair: (Exec, Exec)) {
    pair.0.search();
}
)");
  const analysis::Analysis result = repo.analyze();
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:Regex.find", "src/lib.rs:Exec.search"));
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:run", "src/lib.rs:Regex.find"));
  // Fields of fields are typed at any depth; tuple values are not.
  EXPECT_TRUE(calls(result.graph, "src/lib.rs:run", "src/lib.rs:Exec.search"));
  EXPECT_FALSE(calls(result.graph, "src/lib.rs:tuple", "src/lib.rs:Exec.search"));
}

}  // namespace
}  // namespace anchorfs::languages_test

namespace anchorfs::languages_test {
namespace {

// Modules globbing their parent and their neighbours form cycles and diamonds; a name no module
// defines (every std name) is looked up through all of them. Searched per path through the
// globs, the work grows with the number of paths; searched once per namespace and name, with
// cycles cut, it stays linear.
TEST(RustResolve, GlobCyclesAndDiamondsAreSearchedOncePerNamespace) {
  TempRepo repo;
  std::string lib;
  constexpr int kModules = 80;
  for (int i = 0; i < kModules; ++i) {
    lib += "pub mod m" + std::to_string(i) + ";\npub use m" + std::to_string(i) + "::*;\n";
    std::string body = "use super::*;\nuse crate::*;\n";
    for (int j = std::max(0, i - 5); j < i; ++j) body += "pub use crate::m" + std::to_string(j) + "::*;\n";
    body += "pub fn f" + std::to_string(i) + "() { Box::new(1); Some(2); f0(); }\n";
    repo.write("src/m" + std::to_string(i) + ".rs", body);
  }
  repo.write("src/lib.rs", lib);
  const analysis::Analysis result = repo.analyze();
  EXPECT_TRUE(calls(result.graph, "src/m79.rs:f79", "src/m0.rs:f0"));
  EXPECT_TRUE(calls(result.graph, "src/m0.rs:f0", "src/m0.rs:f0"));
}

}  // namespace
}  // namespace anchorfs::languages_test
