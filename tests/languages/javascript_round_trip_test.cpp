// JavaScript/TypeScript tags change no program: in every view and style the tagged file strips
// back to the original bytes and parses (with its own grammar) to the original's syntax tree.
#include <gtest/gtest.h>

#include <string>

#include "analysis/javascript/dialect.h"
#include "tests/analysis/temp_repo.h"
#include "tests/languages/language_support.h"

namespace anchorfs::languages_test {
namespace {

using analysis::javascript::Dialect;
using analysis::javascript::grammar_of;

// Blocks must appear for the round trip to mean anything: every fixture has calls and bases.
size_t tagged_entities(const analysis::Graph& graph) {
  size_t n = 0;
  for (const analysis::Edge& e : graph.edges) n += e.relation == analysis::Relation::Calls;
  return n;
}

TEST(JavaScriptRoundTrip, JavaScriptWithJsxTemplatesAndRegularExpressions) {
  analysis::test::TempRepo repo;
  repo.write("util.js",
             "#!/usr/bin/env node\n"
             "'use strict';\n"
             "/**\n * Formats.\n */\n"
             "function format(x) { return `${x}`; }\n"
             "const page = (items) => `<ul>\n"
             "${items.map((item) => {\n"
             "  const row = () => format(item);\n"
             "  return row();\n"
             "}).join('')}\n"
             "function notCode() {}\n"
             "</ul>`;\n"
             "const re = /\\/\\/ function x() {}/g;\n"
             "module.exports = { format, page, helper() { return format(re); } };\n");
  repo.write("app.jsx",
             "import React from 'react';\n"
             "const { format } = require('./util');\n"
             "\n"
             "export function Button({ label }) {\n"
             "  return <button>{format(label)}</button>;\n"
             "}\n"
             "\n"
             "export default function App() {\n"
             "  return (\n"
             "    <div>\n"
             "      function text() {'{'}{'}'}\n"
             "      <Button label=\"go\" />\n"
             "      {[1, 2].map(function each(n) {\n"
             "        return <Button label={format(n)} />;\n"
             "      })}\n"
             "    </div>\n"
             "  );\n"
             "}\n"
             "class Legacy extends React.Component {\n"
             "  @bound\n"
             "  render() { return <App />; }\n"
             "}\n");
  const analysis::Analysis result = repo.analyze();
  EXPECT_GT(tagged_entities(result.graph), 3u);
  expect_tags_change_no_program(repo.root(), result.graph, "javascript",
                                grammar_of(Dialect::JavaScript));
}

TEST(JavaScriptRoundTrip, TypeScriptDecoratorsOverloadsNamespacesAndGenerics) {
  analysis::test::TempRepo repo;
  repo.write("shapes.ts",
             "\xEF\xBB\xBF" "declare const VERSION: string;\n"
             "declare module 'ext' { export function ext(): void; }\n"
             "export interface Shape { area(): number; }\n"
             "export abstract class Base<T extends object> implements Shape {\n"
             "  abstract area(): number;\n"
             "  describe(): string { return `area ${\n"
             "    this.area()\n"
             "  }`; }\n"
             "}\n"
             "/** A square. */\n"
             "@sealed\n"
             "export class Square extends Base<{}> {\n"
             "  constructor(private readonly side: number) { super(); }\n"
             "  @memo()\n"
             "  area(): number { return this.side * this.side; }\n"
             "  scale(by: number): Square;\n"
             "  scale(by: string): Square;\n"
             "  scale(by: any): Square { return new Square(this.side * by); }\n"
             "}\n"
             "export namespace Geometry {\n"
             "  export function unit(): Square { return new Square(1); }\n"
             "}\n");
  repo.write("main.ts",
             "import { Square, Geometry } from './shapes';\n"
             "export function total<T extends Square>(shapes: T[]): number;\n"
             "export function total(shapes: Square[]): number {\n"
             "  const s: Square = Geometry.unit();\n"
             "  return s.area() + shapes.length;\n"
             "}\n"
             "const cast = <Square>Geometry.unit();\n"
             "total([cast]);\n");
  const analysis::Analysis result = repo.analyze();
  EXPECT_GT(tagged_entities(result.graph), 3u);
  expect_tags_change_no_program(repo.root(), result.graph, "javascript",
                                grammar_of(Dialect::TypeScript));
}

TEST(JavaScriptRoundTrip, TsxComponents) {
  analysis::test::TempRepo repo;
  repo.write("view.tsx",
             "type Props = { title: string };\n"
             "export const Title = ({ title }: Props) => <h1>{title}</h1>;\n"
             "export function Page(props: Props) {\n"
             "  const render = () => (\n"
             "    <section>\n"
             "      text with function inside() {'{'}{'}'}\n"
             "      <Title title={props.title} />\n"
             "    </section>\n"
             "  );\n"
             "  return render();\n"
             "}\n");
  const analysis::Analysis result = repo.analyze();
  EXPECT_GT(tagged_entities(result.graph), 1u);
  expect_tags_change_no_program(repo.root(), result.graph, "javascript",
                                grammar_of(Dialect::Tsx));
}

}  // namespace
}  // namespace anchorfs::languages_test
