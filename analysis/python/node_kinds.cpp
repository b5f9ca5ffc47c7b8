// The node-kind table of tree-sitter-python, built once, and the plain string literal reader.
#include "analysis/python/node_kinds.h"

#include "analysis/code/symbols.h"
#include "analysis/python/grammar.h"

namespace anchorfs::analysis::python {
namespace {

using K = NodeKind;

constexpr code::SymbolKind<K> kNamedKinds[] = {
    {"module", K::Module},
    {"block", K::Block},
    {"identifier", K::Identifier},
    {"attribute", K::Attribute},
    {"call", K::Call},
    {"argument_list", K::ArgumentList},
    {"keyword_argument", K::KeywordArgument},
    {"list_splat", K::ListSplat},
    {"dictionary_splat", K::DictionarySplat},
    {"parenthesized_list_splat", K::ParenthesizedListSplat},
    {"subscript", K::Subscript},
    {"list", K::List},
    {"tuple", K::Tuple},
    {"set", K::Set},
    {"dictionary", K::Dictionary},
    {"pair", K::Pair},
    {"expression_list", K::ExpressionList},
    {"pattern_list", K::PatternList},
    {"tuple_pattern", K::TuplePattern},
    {"list_pattern", K::ListPattern},
    {"list_splat_pattern", K::ListSplatPattern},
    {"dictionary_splat_pattern", K::DictionarySplatPattern},
    {"list_comprehension", K::ListComprehension},
    {"set_comprehension", K::SetComprehension},
    {"dictionary_comprehension", K::DictionaryComprehension},
    {"generator_expression", K::GeneratorExpression},
    {"for_in_clause", K::ForInClause},
    {"if_clause", K::IfClause},
    {"parenthesized_expression", K::ParenthesizedExpression},
    {"slice", K::Slice},
    {"boolean_operator", K::BooleanOperator},
    {"comparison_operator", K::ComparisonOperator},
    {"conditional_expression", K::ConditionalExpression},
    {"named_expression", K::NamedExpression},
    {"lambda", K::Lambda},
    {"await", K::Await},
    {"yield", K::Yield},
    {"string", K::String},
    {"interpolation", K::Interpolation},
    {"concatenated_string", K::ConcatenatedString},
    {"string_content", K::StringContent},
    {"string_start", K::StringStart},
    {"as_pattern", K::AsPattern},
    {"as_pattern_target", K::AsPatternTarget},
    {"case_pattern", K::CasePattern},
    {"expression_statement", K::ExpressionStatement},
    {"assignment", K::Assignment},
    {"augmented_assignment", K::AugmentedAssignment},
    {"return_statement", K::ReturnStatement},
    {"delete_statement", K::DeleteStatement},
    {"raise_statement", K::RaiseStatement},
    {"assert_statement", K::AssertStatement},
    {"print_statement", K::PrintStatement},
    {"exec_statement", K::ExecStatement},
    {"pass_statement", K::PassStatement},
    {"break_statement", K::BreakStatement},
    {"continue_statement", K::ContinueStatement},
    {"global_statement", K::GlobalStatement},
    {"nonlocal_statement", K::NonlocalStatement},
    {"import_statement", K::ImportStatement},
    {"import_from_statement", K::ImportFromStatement},
    {"future_import_statement", K::FutureImportStatement},
    {"dotted_name", K::DottedName},
    {"aliased_import", K::AliasedImport},
    {"relative_import", K::RelativeImport},
    {"import_prefix", K::ImportPrefix},
    {"wildcard_import", K::WildcardImport},
    {"if_statement", K::IfStatement},
    {"elif_clause", K::ElifClause},
    {"else_clause", K::ElseClause},
    {"while_statement", K::WhileStatement},
    {"for_statement", K::ForStatement},
    {"try_statement", K::TryStatement},
    {"except_clause", K::ExceptClause},
    {"except_group_clause", K::ExceptGroupClause},
    {"finally_clause", K::FinallyClause},
    {"with_statement", K::WithStatement},
    {"with_clause", K::WithClause},
    {"with_item", K::WithItem},
    {"match_statement", K::MatchStatement},
    {"case_clause", K::CaseClause},
    {"function_definition", K::FunctionDefinition},
    {"class_definition", K::ClassDefinition},
    {"decorated_definition", K::DecoratedDefinition},
    {"decorator", K::Decorator},
    {"parameters", K::Parameters},
    {"lambda_parameters", K::LambdaParameters},
    {"default_parameter", K::DefaultParameter},
    {"typed_parameter", K::TypedParameter},
    {"typed_default_parameter", K::TypedDefaultParameter},
    {"keyword_separator", K::KeywordSeparator},
    {"positional_separator", K::PositionalSeparator},
    {"type_alias_statement", K::TypeAliasStatement},
    {"type", K::Type},
    {"comment", K::Comment},
    {"ERROR", K::Error},
};

}  // namespace

Grammar::Grammar()
    : kinds(tree_sitter_python(), kNamedKinds, K::Other, {"ERROR"}),
      f_name(code::field_id(tree_sitter_python(), "name")),
      f_value(code::field_id(tree_sitter_python(), "value")),
      f_left(code::field_id(tree_sitter_python(), "left")),
      f_right(code::field_id(tree_sitter_python(), "right")),
      f_body(code::field_id(tree_sitter_python(), "body")),
      f_function(code::field_id(tree_sitter_python(), "function")),
      f_arguments(code::field_id(tree_sitter_python(), "arguments")),
      f_object(code::field_id(tree_sitter_python(), "object")),
      f_attribute(code::field_id(tree_sitter_python(), "attribute")),
      f_subscript(code::field_id(tree_sitter_python(), "subscript")),
      f_key(code::field_id(tree_sitter_python(), "key")),
      f_parameters(code::field_id(tree_sitter_python(), "parameters")),
      f_superclasses(code::field_id(tree_sitter_python(), "superclasses")),
      f_definition(code::field_id(tree_sitter_python(), "definition")),
      f_module_name(code::field_id(tree_sitter_python(), "module_name")),
      f_alias(code::field_id(tree_sitter_python(), "alias")),
      f_alternative(code::field_id(tree_sitter_python(), "alternative")),
      f_condition(code::field_id(tree_sitter_python(), "condition")),
      f_consequence(code::field_id(tree_sitter_python(), "consequence")),
      f_subject(code::field_id(tree_sitter_python(), "subject")) {}

const Grammar& grammar() {
  static const Grammar g;
  return g;
}

// A string node's children are few (start, content, end), so reading them by index is cheap.
std::optional<std::string> plain_string(TSNode n, std::string_view text) {
  const Grammar& g = grammar();
  if (ts_node_is_null(n) || g.kind(n) != K::String) return std::nullopt;
  std::string value;
  const uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode c = ts_node_named_child(n, i);
    switch (g.kind(c)) {
      case K::StringStart:
        if (node_text(text, c).find_first_of("fFbB") != std::string_view::npos) {
          return std::nullopt;
        }
        break;
      case K::StringContent:
        if (ts_node_named_child_count(c) != 0) return std::nullopt;
        value += node_text(text, c);
        break;
      case K::Other:
        break;  // string_end
      default:
        return std::nullopt;
    }
  }
  return value;
}

}  // namespace anchorfs::analysis::python
