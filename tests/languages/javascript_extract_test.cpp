// JavaScript/TypeScript extraction: which definitions become entities, where their blocks go,
// what is recorded of imports, exports, calls and types, and what never is (text in templates,
// JSX text, regular expressions).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/code/syntax.h"
#include "analysis/javascript/dialect.h"
#include "analysis/javascript/extract.h"
#include "analysis/javascript/front_end.h"

namespace anchorfs::analysis::javascript {
namespace {

code::CodeFacts extract(std::string_view source, Dialect dialect = Dialect::JavaScript) {
  return extract_facts(source, dialect);
}

// "Parent.name:role" per definition, in source order.
std::vector<std::string> outline(const code::CodeFacts& facts) {
  std::vector<std::string> out;
  for (size_t d = 1; d < facts.definitions.size(); ++d) {
    const code::Definition& def = facts.definitions[d];
    std::string name = def.name;
    for (uint32_t p = def.parent; p != 0; p = facts.definitions[p].parent) {
      name = facts.definitions[p].name + "." + name;
    }
    out.push_back(name + ":" + def.role);
  }
  return out;
}

// Nothing of the file may take a block.
bool untagged(const code::CodeFacts& facts) {
  if (!facts.parsed_cleanly) return true;
  for (const code::Definition& def : facts.definitions) {
    if (def.has_anchor) return false;
  }
  return !facts.has_file_anchor;
}

const code::Definition& named(const code::CodeFacts& facts, std::string_view name) {
  for (const code::Definition& def : facts.definitions) {
    if (def.name == name) return def;
  }
  ADD_FAILURE() << "no definition " << name;
  return facts.definitions[0];
}

TEST(JavaScriptExtract, DefinitionsOfEveryFormWithTheirNesting) {
  const code::CodeFacts facts = extract(
      "'use strict';\n"
      "function top() { function inner() {} }\n"
      "function* gen() {}\n"
      "const arrow = () => 1, expr = function () {};\n"
      "class Shape extends Base {\n"
      "  constructor() { super(); }\n"
      "  get area() { return 1; }\n"
      "  set area(v) {}\n"
      "  static make() {}\n"
      "  handle = () => {};\n"
      "  #secret() {}\n"
      "  [Symbol.iterator]() {}\n"
      "}\n"
      "Shape.prototype.legacy = function () {};\n"
      "exports.helper = function () {};\n"
      "module.exports = { run() {}, go: () => 2, top };\n"
      "items.forEach(function callback() {});\n");
  EXPECT_TRUE(facts.parsed_cleanly);
  EXPECT_EQ(outline(facts),
            (std::vector<std::string>{"top:function", "top.inner:function", "gen:generator",
                                      "arrow:arrow", "expr:function", "Shape:class",
                                      "Shape.constructor:constructor", "Shape.area:getter",
                                      "Shape.area:setter", "Shape.make:static",
                                      "Shape.handle:field", "Shape.#secret:method",
                                      "Shape.legacy:method", "helper:function", "run:function",
                                      "go:function"}));
  EXPECT_EQ(named(facts, "Shape").bases, std::vector<std::string>{"Base"});
  EXPECT_TRUE(named(facts, "helper").exported);
  EXPECT_TRUE(named(facts, "run").exported);
}

TEST(JavaScriptExtract, TypeScriptInterfacesNamespacesOverloadsAndAmbientDeclarations) {
  const code::CodeFacts facts = extract(
      "declare function ambient(x: number): void;\n"
      "declare namespace Lib { function f(): void; }\n"
      "export interface Named extends Base, ns.Other<T> { name(): string; }\n"
      "export abstract class Repo<T> extends Store<T> implements Named {\n"
      "  abstract find(id: string): T;\n"
      "  load(a: string): void;\n"
      "  load(a: number): void;\n"
      "  load(a: any) {}\n"
      "}\n"
      "export function parse(a: string): number;\n"
      "export function parse(a: number): number;\n"
      "export function parse(a: any) { return 1; }\n"
      "namespace Geometry.Shapes { export function area() {} }\n"
      "enum Color { Red }\n",
      Dialect::TypeScript);
  EXPECT_TRUE(facts.parsed_cleanly);
  EXPECT_EQ(outline(facts),
            (std::vector<std::string>{"Named:interface", "Repo:class", "Repo.load:method",
                                      "parse:function", "Geometry.Shapes:namespace",
                                      "Geometry.Shapes.area:function"}));
  EXPECT_EQ(named(facts, "Named").bases, (std::vector<std::string>{"Base", "ns.Other"}));
  EXPECT_EQ(named(facts, "Repo").bases, (std::vector<std::string>{"Store", "Named"}));
  // An overloaded function's block goes above its first signature (line 10).
  const std::string_view text =
      "declare function ambient(x: number): void;\n"
      "declare namespace Lib { function f(): void; }\n"
      "export interface Named extends Base, ns.Other<T> { name(): string; }\n"
      "export abstract class Repo<T> extends Store<T> implements Named {\n"
      "  abstract find(id: string): T;\n"
      "  load(a: string): void;\n";
  EXPECT_EQ(named(facts, "load").anchor_offset, text.size() - std::string_view("  load(a: string): void;\n").size());
  EXPECT_EQ(named(facts, "load").anchor_indent, "  ");
}

TEST(JavaScriptExtract, BlocksGoAboveDocCommentsDecoratorsAndExportStatements) {
  const std::string source =
      "#!/usr/bin/env node\n"
      "/** Top. */\n"
      "export default function main() {}\n"
      "\n"
      "@Component({selector: 'x'})\n"
      "export class Widget {\n"
      "  // Field doc.\n"
      "  @Input()\n"
      "  render() {}\n"
      "}\n";
  const code::CodeFacts facts = extract(source, Dialect::TypeScript);
  ASSERT_TRUE(facts.parsed_cleanly);
  EXPECT_TRUE(facts.has_file_anchor);
  EXPECT_EQ(facts.file_anchor, source.find("/**"));
  EXPECT_EQ(named(facts, "main").anchor_offset, source.find("/**"));
  EXPECT_EQ(named(facts, "main").line, 3u);
  EXPECT_EQ(named(facts, "Widget").anchor_offset, source.find("@Component"));
  EXPECT_EQ(named(facts, "render").anchor_offset, source.find("  // Field doc."));
}

TEST(JavaScriptExtract, FileAnchorFollowsAByteOrderMarkAndAShebang) {
  EXPECT_EQ(extract("\xEF\xBB\xBF" "f();\n").file_anchor, 3u);
  EXPECT_EQ(extract("\xEF\xBB\xBF#!/usr/bin/env node\nf();\n").file_anchor, 23u);
}

TEST(JavaScriptExtract, NothingIsTakenFromTemplateTextJsxTextOrRegularExpressions) {
  const code::CodeFacts facts = extract(
      "const page = `\n"
      "function fromTemplate() {}\n"
      "${(() => {\n"
      "  const inside = () => 1;\n"
      "  return inside();\n"
      "})()}\n"
      "`;\n"
      "const re = /function fromRegex() {}/;\n"
      "function App() {\n"
      "  return (\n"
      "    <div>\n"
      "      function fromJsx() {}\n"
      "      <Button />\n"
      "    </div>\n"
      "  );\n"
      "}\n");
  ASSERT_TRUE(facts.parsed_cleanly);
  EXPECT_EQ(outline(facts), (std::vector<std::string>{"inside:arrow", "App:function"}));
  // The substitution is code: a block above `inside` is a comment there, not template text.
  EXPECT_TRUE(named(facts, "inside").has_anchor);
  bool renders_button = false;
  for (const code::Call& call : facts.calls) {
    renders_button |= call.form == code::CallForm::Construct && call.name == "Button";
  }
  EXPECT_TRUE(renders_button);
}

TEST(JavaScriptExtract, ImportsExportsAndRequires) {
  const code::CodeFacts facts = extract(
      "import def, {a as b, c} from './m';\n"
      "import * as ns from '../n';\n"
      "import './side';\n"
      "import type {T} from './types';\n"
      "export {x as y} from './r';\n"
      "export * from './all';\n"
      "const m = require('./cjs');\n"
      "const {f, g: h} = require('./cjs2');\n"
      "const k = require('./cjs3').k;\n"
      "import('./lazy');\n"
      "export {local as publicName};\n"
      "export default local;\n",
      Dialect::TypeScript);
  ASSERT_TRUE(facts.parsed_cleanly);
  std::vector<std::string> lines;
  for (const code::Import& imp : facts.imports) {
    lines.push_back(imp.source + "|" + imp.name + "|" + imp.alias + (imp.reexport ? "|re" : ""));
  }
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "./m|default|def", "./m|a|b", "./m|c|c", "../n|*|ns", "./side||",
                       "./types|T|T", "./r|x|y|re", "./all|*||re", "./cjs||m", "./cjs2|f|f",
                       "./cjs2|g|h", "./cjs3|k|k", "./lazy||",
                       "|local|publicName|re", "|local|default|re"}));
}

TEST(JavaScriptExtract, CallsAndEvidentTypes) {
  const code::CodeFacts facts = extract(
      "class Service {\n"
      "  constructor(private repo: Repo, name) { this.cache = new Cache(); }\n"
      "  run(input: Input, other) {\n"
      "    const parsed = new Parser();\n"
      "    this.repo.find(parse(input));\n"
      "    super.run();\n"
      "    ns.helper().then(done);\n"
      "    return <View.Item />;\n"
      "  }\n"
      "}\n",
      Dialect::Tsx);
  ASSERT_TRUE(facts.parsed_cleanly);
  std::vector<std::string> calls;
  for (const code::Call& c : facts.calls) {
    calls.push_back(std::to_string(static_cast<int>(c.form)) + " " + c.receiver + " " + c.name);
  }
  EXPECT_EQ(calls, (std::vector<std::string>{"3  Cache", "3  Parser", "1 this.repo find",
                                             "0  parse", "1 super run", "1 ns helper",
                                             "3 View Item"}));
  std::vector<std::string> typed;
  for (const code::TypedName& t : facts.typed_names) {
    typed.push_back(facts.definitions[t.scope].name + " " + t.name + ":" + t.type);
  }
  EXPECT_EQ(typed, (std::vector<std::string>{"constructor repo:Repo", "Service this.repo:Repo",
                                             "constructor name:", "Service this.cache:Cache",
                                             "run input:Input", "run other:",
                                             "run parsed:Parser"}));
}

TEST(JavaScriptExtract, FileSelectionAndGrammarPerExtension) {
  const JavaScriptFrontEnd front_end;
  for (const char* path : {"a.js", "b/c.jsx", "d.mjs", "e.cjs", "f.ts", "g.tsx", "h.mts", "i.cts"}) {
    EXPECT_TRUE(front_end.claims(path)) << path;
  }
  for (const char* path : {"a.d.ts", "vendor/jquery.min.js", "a.json", "ts", "x.d.mts"}) {
    EXPECT_FALSE(front_end.claims(path)) << path;
  }
  EXPECT_EQ(front_end.grammar("x.tsx"), grammar_of(Dialect::Tsx));
  EXPECT_EQ(front_end.grammar("x.mts"), grammar_of(Dialect::TypeScript));
  EXPECT_EQ(front_end.grammar("x.jsx"), grammar_of(Dialect::JavaScript));
  EXPECT_NE(front_end.dialect("x.ts"), front_end.dialect("x.tsx"));
  // `<T>x` is a type assertion in .ts but an element in .tsx: each parses with its own grammar.
  ExtractorState state;
  const auto ts = front_end.extract(state, "const y = <T>x;\n", {.dense = true, .path = "a.ts"});
  const auto tsx = front_end.extract(state, "const y = <T>x;\n", {.dense = true, .path = "a.tsx"});
  EXPECT_TRUE(ts->parsed_cleanly);
  EXPECT_EQ(ts->error_regions, 0u);
  EXPECT_GT(tsx->error_regions, 0u);
}

TEST(JavaScriptExtract, FactsSurviveTheCacheEncodingAndGarbageIsRejected) {
  const JavaScriptFrontEnd front_end;
  ExtractorState state;
  const auto facts = front_end.extract(
      state, "import {a} from './a';\nexport class C extends a.B { m() { a.f(); } }\n",
      {.dense = true, .path = "x.ts"});
  const std::string bytes = front_end.serialize_facts(*facts);
  const auto back = front_end.deserialize_facts(bytes);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(static_cast<const code::CodeFacts&>(*back), static_cast<const code::CodeFacts&>(*facts));
  EXPECT_EQ(front_end.deserialize_facts(bytes.substr(0, bytes.size() / 2)), nullptr);
  EXPECT_EQ(front_end.deserialize_facts("python-facts"), nullptr);
}

TEST(JavaScriptExtract, HostileDeepParentheses) {
  // Past kMaxOpenBrackets levels no tree is built (analysis/parse_budget.h).
  EXPECT_FALSE(extract(std::string(200000, '(')).parsed_cleanly);
  EXPECT_FALSE(extract("x = " + std::string(70000, '[') + std::string(70000, ']') + ";\n").parsed_cleanly);
}

TEST(JavaScriptExtract, HostileDeepFunctions) {
  std::string nested;
  for (int i = 0; i < 3000; ++i) nested += "function f" + std::to_string(i) + "() {";
  // One line, its functions never closed: no block can stay clear of the errors.
  EXPECT_TRUE(untagged(extract(nested, Dialect::TypeScript)));
}

TEST(JavaScriptExtract, HostileBytes) {
  EXPECT_TRUE(untagged(extract(std::string("\0\xff\xfe`${", 6))));
}

}  // namespace
}  // namespace anchorfs::analysis::javascript
