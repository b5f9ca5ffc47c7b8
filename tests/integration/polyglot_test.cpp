// One mount of a repository mixing Python, Go, Rust, Java, TypeScript and JavaScript: each
// language's files carry tags in its own comment syntax with links resolved within the language,
// files no front end claims stay byte-identical, strip and git see the checkout's bytes, and
// stats report every language.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support.h"

namespace anchorfs::itest {
namespace {

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

class Polyglot : public ::testing::Test {
 protected:
  void SetUp() override {
    make_dirs(repo_ + "/py/app");
    write_file(repo_ + "/py/app/__init__.py", "");
    write_file(repo_ + "/py/app/core.py", "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n");
    make_dirs(repo_ + "/go/store");
    write_file(repo_ + "/go/go.mod", "module example.com/shop\n\ngo 1.19\n");
    write_file(repo_ + "/go/store/store.go",
               "package store\n\n// Store keeps items.\ntype Store struct{ items []string }\n\n"
               "// Add appends an item.\nfunc (s *Store) Add(item string) { s.items = append(s.items, item) }\n\n"
               "// New makes an empty store.\nfunc New() *Store { return &Store{} }\n");
    write_file(repo_ + "/go/main.go",
               "package main\n\nimport \"example.com/shop/store\"\n\nfunc main() {\n\ts := store.New()\n"
               "\ts.Add(\"x\")\n}\n");
    make_dirs(repo_ + "/rs/src");
    write_file(repo_ + "/rs/Cargo.toml", "[package]\nname = \"shapes\"\nversion = \"0.1.0\"\n");
    write_file(repo_ + "/rs/src/lib.rs",
               "pub mod area;\n\n/// A square.\npub struct Square { pub side: u32 }\n\nimpl Square {\n"
               "    pub fn new(side: u32) -> Self { Square { side } }\n}\n\n"
               "pub fn demo() -> u32 { area::of(&Square::new(2)) }\n");
    write_file(repo_ + "/rs/src/area.rs",
               "use crate::Square;\n\npub fn of(s: &Square) -> u32 { s.side * s.side }\n");
    make_dirs(repo_ + "/java/src/com/shop");
    write_file(repo_ + "/java/src/com/shop/Cart.java",
               "package com.shop;\n\n/** A cart. */\npublic class Cart {\n"
               "    private final Pricing pricing = new Pricing();\n\n"
               "    public int total(int n) {\n        return pricing.price(n);\n    }\n}\n");
    write_file(repo_ + "/java/src/com/shop/Pricing.java",
               "package com.shop;\n\nclass Pricing {\n    int price(int n) {\n        return 2 * n;\n"
               "    }\n}\n");
    make_dirs(repo_ + "/web/src");
    write_file(repo_ + "/web/src/format.ts",
               "/** Formats a price. */\nexport function formatPrice(cents: number): string {\n"
               "  return `${(cents / 100).toFixed(2)}\n// not a comment`;\n}\n");
    write_file(repo_ + "/web/src/view.js",
               "import { formatPrice } from \"./format\";\n\nexport class View {\n"
               "  render(cents) {\n    return formatPrice(cents);\n  }\n}\n");
    make_dirs(repo_ + "/native");
    write_file(repo_ + "/native/util.h", "int util(void);\n");
    write_file(repo_ + "/native/util.c", "#include \"util.h\"\n\nint util(void) { return 1; }\n");
    write_file(repo_ + "/native/main.c", "#include \"util.h\"\n\nint main(void) { return util(); }\n");
    write_file(repo_ + "/native/build.sh", "#!/bin/sh\n# no front end reads shell\ncc *.c\n");
    write_file(repo_ + "/README.md", "# polyglot\n");
    make_dirs(mnt_);
  }

  std::string view(const std::string& path) { return read_file(mnt_ + "/" + path); }
  std::string checkout(const std::string& path) { return read_file(repo_ + "/" + path); }

  TempDir dir_{"anchorfs-polyglot"};
  std::string repo_ = dir_ / "repo";
  std::string mnt_ = dir_ / "mnt";
};

TEST_F(Polyglot, EachLanguageIsTaggedInItsOwnSyntaxAndOtherFilesPassThrough) {
  Mount mount(repo_, mnt_, {"--view", "topo", "--no-cache"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;

  const std::string py = view("py/app/core.py");
  EXPECT_TRUE(contains(py, "# === Function Annotation ===")) << py;
  EXPECT_TRUE(contains(py, "# CALLS: helper")) << py;

  const std::string go_store = view("go/store/store.go");
  EXPECT_TRUE(contains(go_store, "// === Function Annotation ===")) << go_store;
  EXPECT_TRUE(contains(go_store, "// CALLED_BY: go/main.go:main")) << go_store;
  EXPECT_FALSE(contains(go_store, "# ===")) << go_store;

  const std::string rs_area = view("rs/src/area.rs");
  EXPECT_TRUE(contains(rs_area, "// CALLED_BY: rs/src/lib.rs:demo")) << rs_area;
  const std::string rs_lib = view("rs/src/lib.rs");
  EXPECT_TRUE(contains(rs_lib, "// CALLS: Square.new, rs/src/area.rs:of")) << rs_lib;

  // Links stay within a language's own resolution root: nothing links Go to Rust or Python.
  for (const std::string path : {"go/store/store.go", "go/main.go"}) {
    EXPECT_FALSE(contains(view(path), ".rs")) << path;
    EXPECT_FALSE(contains(view(path), ".py")) << path;
    EXPECT_FALSE(contains(view(path), ".java")) << path;
  }

  const std::string java_pricing = view("java/src/com/shop/Pricing.java");
  EXPECT_TRUE(contains(java_pricing, "// CALLED_BY: java/src/com/shop/Cart.java:Cart.total"))
      << java_pricing;

  // A TypeScript function called from JavaScript: one front end resolves both.
  const std::string ts_format = view("web/src/format.ts");
  EXPECT_TRUE(contains(ts_format, "// CALLED_BY: web/src/view.js:View.render")) << ts_format;
  EXPECT_TRUE(contains(ts_format, "`${(cents / 100).toFixed(2)}\n// not a comment`;\n"))
      << ts_format;

  const std::string c_util = view("native/util.c");
  EXPECT_TRUE(contains(c_util, "// CALLED_BY: native/main.c:main")) << c_util;
  EXPECT_EQ(view("native/build.sh"), checkout("native/build.sh"));
  EXPECT_EQ(view("README.md"), checkout("README.md"));
  for (const std::string path :
       {"py/app/core.py", "go/store/store.go", "go/main.go", "rs/src/lib.rs", "rs/src/area.rs",
        "java/src/com/shop/Cart.java", "java/src/com/shop/Pricing.java", "web/src/format.ts",
        "web/src/view.js", "native/util.c", "native/main.c"}) {
    const ProcessResult stripped = anchorfs({"strip", mnt_ + "/" + path});
    ASSERT_EQ(stripped.exit_code, 0) << stripped.err;
    EXPECT_EQ(stripped.out, checkout(path)) << path;
  }
}

TEST_F(Polyglot, StatsReportEveryLanguage) {
  const ProcessResult stats = anchorfs({"stats", "--json", "--no-cache", repo_});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  const nlohmann::json json = nlohmann::json::parse(stats.out);
  std::set<std::string> names;
  for (const nlohmann::json& language : json["languages"]) {
    names.insert(language["name"].get<std::string>());
    EXPECT_GT(language["functions"].get<int>(), 0) << language.dump();
    EXPECT_GT(language["edges"]["calls"].get<int>(), 0) << language.dump();
  }
  EXPECT_EQ(names, (std::set<std::string>{"c", "go", "java", "javascript", "python", "rust"}));
}

TEST_F(Polyglot, GitInTheMountSeesTheCheckoutsBytesInEveryLanguage) {
  ASSERT_EQ(run({"git", "init", "-q", "-b", "main"}, in_dir(repo_)).exit_code, 0);
  ASSERT_EQ(run({"git", "add", "-A"}, in_dir(repo_)).exit_code, 0);
  ASSERT_EQ(run({"git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"},
                in_dir(repo_))
                .exit_code,
            0);
  Mount mount(repo_, mnt_, {"--view", "topo", "--no-cache"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  ASSERT_TRUE(contains(view("go/main.go"), "// === "));
  const ProcessResult status = run({"git", "status", "--porcelain"}, in_dir(mnt_));
  EXPECT_EQ(status.exit_code, 0) << status.err;
  EXPECT_EQ(status.out, "");
  EXPECT_EQ(run({"git", "diff", "--stat"}, in_dir(mnt_)).out, "");
}

}  // namespace
}  // namespace anchorfs::itest
