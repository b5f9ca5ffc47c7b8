// JavaScript/TypeScript resolution: module specifiers (extensions, index files, TypeScript's .js
// mapping, tsconfig baseUrl/paths with comments and trailing commas, the package's own name) and
// calls, with no edge where the callee is not evident.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/javascript/module_paths.h"
#include "analysis/javascript/project_config.h"
#include "tests/analysis/temp_repo.h"
#include "tests/languages/language_support.h"

namespace anchorfs::analysis::javascript {
namespace {

using test::TempRepo;

std::vector<std::string> edges(const TempRepo& repo) {
  return languages_test::edge_lines(repo.analyze().graph);
}

bool has(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

TEST(JavaScriptModules, RelativeSpecifiersProbeExtensionsIndexFilesAndCompiledNames) {
  const std::vector<std::string_view> paths = {"src/a.ts", "src/b.tsx", "src/lib/index.js",
                                               "src/c.mjs", "src/d.mts", "top.cjs"};
  const ModulePaths modules(paths, {});
  EXPECT_EQ(modules.resolve("src/a.ts", "./b"), 1u);
  EXPECT_EQ(modules.resolve("src/a.ts", "./b.js"), 1u);  // TypeScript: .js names the .tsx source
  EXPECT_EQ(modules.resolve("src/a.ts", "./lib"), 2u);
  EXPECT_EQ(modules.resolve("src/a.ts", "./lib/index.js"), 2u);
  EXPECT_EQ(modules.resolve("src/a.ts", "./c.mjs"), 3u);
  EXPECT_EQ(modules.resolve("src/a.ts", "./d.mjs"), 4u);
  EXPECT_EQ(modules.resolve("src/a.ts", "../top.cjs"), 5u);
  EXPECT_EQ(modules.resolve("src/a.ts", "../../escape"), std::nullopt);
  EXPECT_EQ(modules.resolve("src/a.ts", "react"), std::nullopt);
  EXPECT_EQ(modules.resolve("src/a.ts", "./missing"), std::nullopt);
}

TEST(JavaScriptModules, TsconfigWithCommentsAndTrailingCommasAndThePackageName) {
  TempRepo repo;
  repo.write("tsconfig.json",
             "{\n  // paths\n  \"compilerOptions\": {\n    \"baseUrl\": \"./src\", /* base */\n"
             "    \"paths\": { \"@app/*\": [\"app/*\", ], \"@core\": [\"core/main\"], },\n  },\n}\n");
  repo.write("package.json", "{\"name\": \"@scope/pkg\", \"version\": \"1.0.0\"}");
  const ProjectConfig config = read_project_config(repo.root());
  EXPECT_EQ(config.base_url, "src");
  ASSERT_EQ(config.packages.size(), 1u);
  EXPECT_EQ(config.packages[0].name, "@scope/pkg");
  const std::vector<std::string_view> paths = {"src/app/x.ts", "src/core/main.ts", "src/util.ts",
                                               "lib/y.js"};
  const ModulePaths modules(paths, config);
  EXPECT_EQ(modules.resolve("src/app/x.ts", "@app/x"), 0u);
  EXPECT_EQ(modules.resolve("src/app/x.ts", "@core"), 1u);
  EXPECT_EQ(modules.resolve("src/app/x.ts", "util"), 2u);
  EXPECT_EQ(modules.resolve("src/app/x.ts", "@scope/pkg/lib/y"), 3u);
  EXPECT_EQ(strict_json("{\"a\": \"//,}\", \"b\": [1,],}"), "{\"a\": \"//,}\", \"b\": [1 ] }");
}

TEST(JavaScriptResolve, EsmCommonJsAndMixedTypeScript) {
  TempRepo repo;
  repo.write("lib/math.js",
             "function add(a, b) { return a + b; }\n"
             "function unused() {}\n"
             "module.exports = { add, sum: add };\n");
  repo.write("lib/format.ts",
             "export function pad(s: string) { return s; }\n"
             "export default function format(n: number) { return pad(String(n)); }\n");
  repo.write("lib/index.ts", "export * from './format';\nexport { default as fmt } from './format';\n");
  repo.write("main.ts",
             "import fmt, * as F from './lib/format.js';\n"
             "import { pad } from './lib';\n"
             "const math = require('./lib/math');\n"
             "const { sum } = require('./lib/math');\n"
             "export function run(pad2: (s: string) => string) {\n"
             "  fmt(math.add(1, 2));\n"
             "  F.pad(String(sum(1, 2)));\n"
             "  pad('x');\n"
             "  pad2('y');\n"
             "  unknown();\n"
             "}\n");
  const std::vector<std::string> lines = edges(repo);
  for (const char* line : {"main.ts imports lib/format.ts", "main.ts imports lib/index.ts",
                           "main.ts imports lib/math.js", "main.ts:run calls lib/format.ts:format",
                           "main.ts:run calls lib/format.ts:pad", "main.ts:run calls lib/math.js:add",
                           "lib/format.ts:format calls lib/format.ts:pad"}) {
    EXPECT_TRUE(has(lines, line)) << line;
  }
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.find(" calls ") != std::string::npos; }),
            4);
}

// What a file resolves to does not depend on the files resolved before it (they resolve in
// parallel): a.js, resolved first, reaches f through a re-export chain longer than the hop limit
// and finds nothing; z.js imports f from the chain's middle and still finds it (a memo of
// exports shared across files once handed z.js a.js's cut-short answer).
TEST(JavaScriptResolve, AFileFindsWhatItsOwnImportsReachWhateverWasResolvedBefore) {
  TempRepo repo;
  constexpr int kChain = 20;
  for (int k = 0; k < kChain; ++k) {
    repo.write("m" + std::to_string(100 + k) + ".js",
               "export * from './m" + std::to_string(101 + k) + "';\n");
  }
  repo.write("m" + std::to_string(100 + kChain) + ".js", "export function f() {}\n");
  repo.write("a.js", "import { f } from './m100';\nexport function run() { f(); }\n");
  repo.write("z.js", "import { f } from './m110';\nexport function run() { f(); }\n");
  for (const unsigned threads : {1u, 2u}) {
    const std::vector<std::string> lines = languages_test::edge_lines(repo.analyze(threads).graph);
    EXPECT_FALSE(has(lines, "a.js:run calls m120.js:f")) << threads;  // beyond the hop limit
    EXPECT_TRUE(has(lines, "z.js:run calls m120.js:f")) << threads;
  }
}

TEST(JavaScriptResolve, ClassesThisSuperTypedReceiversAndNoGuesses) {
  TempRepo repo;
  repo.write("base.ts",
             "export class Base {\n"
             "  constructor() {}\n"
             "  save() { this.validate(); }\n"
             "  validate() {}\n"
             "  static create() { return new Base(); }\n"
             "}\n");
  repo.write("user.ts",
             "import { Base } from './base';\n"
             "export class User extends Base {\n"
             "  save() { super.save(); this.validate(); this.notify(); }\n"
             "  notify() {}\n"
             "}\n"
             "export function main(u: User, anything) {\n"
             "  const v = new User();\n"
             "  v.save();\n"
             "  u.notify();\n"
             "  anything.save();\n"
             "  Base.create();\n"
             "  Base.validate();\n"
             "  function inner() { this.save(); }\n"
             "}\n");
  const std::vector<std::string> lines = edges(repo);
  const std::vector<std::string> calls = [&] {
    std::vector<std::string> out;
    for (const std::string& l : lines) {
      if (l.find(" calls ") != std::string::npos) out.push_back(l);
    }
    return out;
  }();
  EXPECT_EQ(calls, (std::vector<std::string>{
                       "base.ts:Base.create calls base.ts:Base.constructor",
                       "base.ts:Base.save calls base.ts:Base.validate",
                       "user.ts:User.save calls base.ts:Base.save",
                       "user.ts:User.save calls base.ts:Base.validate",
                       "user.ts:User.save calls user.ts:User.notify",
                       "user.ts:main calls base.ts:Base.create",
                       "user.ts:main calls user.ts:User",
                       "user.ts:main calls user.ts:User.notify",
                       "user.ts:main calls user.ts:User.save"}));
  EXPECT_TRUE(has(lines, "user.ts:User inherits base.ts:Base"));
}

TEST(JavaScriptResolve, CallbackLocalsAndPrototypeMethodsShadowNothingThemselves) {
  TempRepo repo;
  repo.write("view.js",
             "var resolve = require('path').resolve;\n"
             "function View(name) { this.name = name; }\n"
             "View.prototype.lookup = function lookup(name) { return resolve(name) + this.resolve(); };\n"
             "View.prototype.resolve = function resolve() {};\n"
             "function render() {}\n"
             "app.render = function (options) {\n"
             "  var View = options.view;\n"
             "  new View('x');\n"
             "  [1].forEach(function (render) { render(); });\n"
             "  render();\n"
             "};\n"
             "module.exports = View;\n");
  const std::vector<std::string> lines = edges(repo);
  std::vector<std::string> calls;
  for (const std::string& l : lines) {
    if (l.find(" calls ") != std::string::npos) calls.push_back(l);
  }
  // `resolve(name)` is path.resolve, not the prototype method; `new View` is the callback's own
  // local; the inner `render()` is the callback's parameter, the outer one the function.
  EXPECT_EQ(calls, (std::vector<std::string>{"view.js calls view.js:render",
                                             "view.js:View.lookup calls view.js:View.resolve"}));
}

}  // namespace
}  // namespace anchorfs::analysis::javascript
