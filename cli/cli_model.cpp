// Reads the command line's structure out of the CLI11 app (see cli_model.h).
#include "cli/cli_model.h"

#include <algorithm>

namespace anchorfs::cli {
namespace {

// CLI11 writes the type of an option checked by IsMember as "TEXT:{a,b,c}": the braces list
// the values it accepts.
std::vector<std::string> choices_of(const std::string& type_name) {
  std::vector<std::string> choices;
  const size_t open = type_name.find(":{");
  const size_t close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return choices;
  std::string item;
  for (size_t i = open + 2; i < close; ++i) {
    if (type_name[i] == ',') {
      choices.push_back(item);
      item.clear();
    } else {
      item += type_name[i];
    }
  }
  if (!item.empty()) choices.push_back(item);
  return choices;
}

// The value's name as a person reads it: the declared type name before any checks; CLI11's
// generic names are replaced by what they stand for.
std::string value_name_of(const CLI::Option& option, const std::vector<std::string>& choices) {
  if (!choices.empty()) return "{" + CLI::detail::join(choices, "|") + "}";
  std::string name = option.get_type_name();
  name = name.substr(0, name.find(':'));
  if (name == "TEXT") return "VALUE";
  if (name == "UINT" || name == "INT") return "N";
  if (name == "FLOAT") return "NUM";
  return name;
}

bool is_path_type(const std::string& value_name) {
  return value_name == "FILE" || value_name == "DIR" || value_name == "PATH";
}

OptionModel describe_option(const CLI::Option& option) {
  OptionModel model;
  model.short_names = option.get_snames();
  model.long_names = option.get_lnames();
  model.description = option.get_description();
  if (option.get_items_expected_max() != 0) {
    model.choices = choices_of(option.get_type_name());
    model.value_name = value_name_of(option, model.choices);
    model.takes_path = is_path_type(model.value_name);
    model.default_value = option.get_default_str();
  }
  return model;
}

PositionalModel describe_positional(const CLI::Option& option) {
  PositionalModel model;
  model.name = option.get_name(true, false);
  model.description = option.get_description();
  model.required = option.get_required();
  model.repeated = option.get_items_expected_max() > 1;
  return model;
}

CommandModel describe_command(const CLI::App& app) {
  CommandModel model;
  model.names.push_back(app.get_name());
  for (const std::string& alias : app.get_aliases()) model.names.push_back(alias);
  model.description = app.get_description();
  for (const CLI::Option* option : app.get_options()) {
    if (option == app.get_help_ptr() || option->get_group().empty()) continue;
    if (option->get_positional() && option->get_lnames().empty() && option->get_snames().empty()) {
      model.positionals.push_back(describe_positional(*option));
    } else {
      model.options.push_back(describe_option(*option));
    }
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) {
         return !s->get_group().empty();
       })) {
    model.subcommands.push_back(describe_command(*sub));
  }
  return model;
}

}  // namespace

CommandModel describe(const CLI::App& app) { return describe_command(app); }

}  // namespace anchorfs::cli
