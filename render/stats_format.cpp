// Printing RepoStats as a human table and as the JSON document of docs/views.md.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "render/stats.h"

namespace anchorfs::render {

namespace {

std::string cap_text(const ViewOptions& options) {
  std::string text = options.max_links == 0 ? "no cap" : fmt::format("max {}", options.max_links);
  if (options.hub_threshold) text += fmt::format(", hub > {}", *options.hub_threshold);
  return text;
}

nlohmann::ordered_json choice_json(const ViewChoice& choice) {
  nlohmann::ordered_json json;
  json["view"] = view_name(choice.view);
  json["style"] = style_name(choice.options.style);
  json["max_links"] = choice.options.max_links;
  json["hub_threshold"] = choice.options.hub_threshold
                              ? nlohmann::ordered_json(*choice.options.hub_threshold)
                              : nullptr;
  json["reason"] = choice.reason;
  return json;
}

}  // namespace

std::string format_table(const RepoStats& stats) {
  std::string out;
  auto row = [&](std::string_view name, const std::string& value) {
    out += fmt::format("{:<24} {}\n", name, value);
  };
  row("files", fmt::format("{} analysed, {} taggable", stats.files, stats.taggable_files));
  if (stats.files_with_errors > 0) {
    row("syntax errors", fmt::format("{} taggable files, tagged outside them: {} of {} entities",
                                     stats.files_with_errors, stats.error_file_entities_anchored,
                                     stats.error_file_entities));
  }
  row("lines", fmt::format("{}", stats.lines));
  row("source bytes", fmt::format("{}", stats.source_bytes));
  row("entities", fmt::format("{} files, {} classes, {} functions", stats.file_entities,
                              stats.classes, stats.functions));
  std::string edges;
  for (size_t r = 0; r < kRelationCount; ++r) {
    size_t count = stats.edges[r] + stats.labels[r];
    if (count == 0) continue;
    if (!edges.empty()) edges += ", ";
    edges += fmt::format("{} {}", relation_name(static_cast<analysis::Relation>(r)), count);
  }
  row("edges", edges.empty() ? "none" : edges);
  row("call out-degree",
      fmt::format(
          "mean {:.2f} over {} callers, max {}{}", stats.mean_call_out_degree, stats.callers,
          stats.max_call_out_degree,
          stats.max_call_out_id.empty() ? "" : fmt::format(" ({})", stats.max_call_out_id)));
  row("hubs", fmt::format("{} with in-degree > {} ({:.1f}% of call-graph nodes, {:.1f}% of calls)",
                          stats.hubs, stats.hub_threshold, 100 * stats.hub_share,
                          100 * stats.hub_call_share));
  for (const Hub& hub : stats.top_hubs) row("", fmt::format("{:>6}  {}", hub.in_degree, hub.id));
  for (const LanguageStats& language : stats.languages) {
    std::string tags;
    if (!stats.views.empty() && !language.tag_bytes.empty()) {
      tags = fmt::format("; {} {} tags {:.1f}%", view_name(stats.views.front().requested),
                         style_name(stats.views.front().choice.options.style),
                         language.source_bytes == 0
                             ? 0.0
                             : 100.0 * static_cast<double>(language.tag_bytes.front()) /
                                   static_cast<double>(language.source_bytes));
    }
    auto count = [&](analysis::Relation relation) { return language.edges[static_cast<size_t>(relation)]; };
    row(stats.languages.size() == 1 ? "language" : "",
        fmt::format("{}: {} files ({} taggable), {} bytes, {} classes, {} functions; imports {}, "
                    "calls {}, inherits {}{}",
                    language.name, language.files, language.taggable_files, language.source_bytes,
                    language.classes, language.functions, count(analysis::Relation::Imports),
                    count(analysis::Relation::Calls), count(analysis::Relation::Inherits), tags));
  }
  row("auto", stats.auto_choice.reason);
  if (!stats.tokenizer.empty()) {
    row("tokens", fmt::format("{} in the sources, counted with {}", stats.source_tokens,
                              stats.tokenizer));
  }
  if (!stats.views.empty()) {
    out += fmt::format("\n{:<6} {:<6} {:<7} {:<5} {:<15} {:>10} {:>6} {:>7} {:>8} {:>10} {:>6} "
                       "{:>15} {:>6} {:>7} {:>13}\n",
                       "view", "style", "budget", "as", "caps", "tag bytes", "share", "/paper",
                       "words", "tokens", "share", "file med/p90/max", "files", "blocks",
                       "hubs kept r/v1");
    for (const ViewCost& cost : stats.views) {
      out += fmt::format(
          "{:<6} {:<6} {:<7} {:<5} {:<15} {:>10} {:>5.1f}% {:>7} {:>8} {:>10} {:>5.1f}% {:>15} "
          "{:>6} {:>7} {:>13}\n",
          view_name(cost.requested), style_name(cost.choice.options.style),
          cost.budget ? fmt::format("{}%", *cost.budget) : "-", view_name(cost.choice.view),
          cap_text(cost.choice.options), cost.tag_bytes, 100 * cost.share,
          cost.vs_paper ? fmt::format("{:.3f}", *cost.vs_paper) : "-",
          cost.coverage ? fmt::format("{:.4f}", cost.coverage->mean) : "-", cost.tag_tokens,
          100 * cost.token_share,
          fmt::format("{}/{}/{}", cost.per_file.median, cost.per_file.p90, cost.per_file.max),
          cost.tagged_files, cost.blocks,
          fmt::format("{}/{}", cost.links.hub_shown, cost.links.hub_shown_by_id));
    }
    out += "\n/paper: tag bytes over paper's for the same request; words: mean word coverage per "
           "block (identifier words of paper's block that this style's block keeps)\n"
           "hubs kept r/v1: links into hubs shown with ranked links / had capped fields kept the "
           "first ids (format v1)\n";
  }
  return out;
}

std::string format_json(const RepoStats& stats) {
  nlohmann::ordered_json json;
  json["files"] = {{"analysed", stats.files},
                   {"taggable", stats.taggable_files},
                   {"with_syntax_errors", stats.files_with_errors},
                   {"error_file_entities", stats.error_file_entities},
                   {"error_file_entities_tagged", stats.error_file_entities_anchored},
                   {"lines", stats.lines},
                   {"source_bytes", stats.source_bytes}};
  json["entities"] = {
      {"file", stats.file_entities}, {"class", stats.classes}, {"function", stats.functions}};
  nlohmann::ordered_json edges = nlohmann::ordered_json::object();
  nlohmann::ordered_json labels = nlohmann::ordered_json::object();
  for (size_t r = 0; r < kRelationCount; ++r) {
    std::string name(relation_name(static_cast<analysis::Relation>(r)));
    edges[name] = stats.edges[r];
    labels[name] = stats.labels[r];
  }
  json["edges"] = edges;
  json["labels"] = labels;
  nlohmann::ordered_json hubs = nlohmann::ordered_json::array();
  for (const Hub& hub : stats.top_hubs)
    hubs.push_back({{"id", hub.id}, {"in_degree", hub.in_degree}});
  json["calls"] = {{"edges", stats.edges[static_cast<size_t>(analysis::Relation::Calls)]},
                   {"callers", stats.callers},
                   {"mean_out_degree", stats.mean_call_out_degree},
                   {"max_out_degree", stats.max_call_out_degree},
                   {"max_out_id", stats.max_call_out_id},
                   {"hub_threshold", stats.hub_threshold},
                   {"hubs", stats.hubs},
                   {"hub_share", stats.hub_share},
                   {"hub_call_share", stats.hub_call_share},
                   {"top_hubs", hubs}};
  nlohmann::ordered_json languages = nlohmann::ordered_json::array();
  for (const LanguageStats& language : stats.languages) {
    nlohmann::ordered_json edges_of = nlohmann::ordered_json::object();
    for (size_t r = 0; r < kRelationCount; ++r) {
      edges_of[std::string(relation_name(static_cast<analysis::Relation>(r)))] = language.edges[r];
    }
    languages.push_back({{"name", language.name},
                         {"files", language.files},
                         {"taggable", language.taggable_files},
                         {"source_bytes", language.source_bytes},
                         {"classes", language.classes},
                         {"functions", language.functions},
                         {"edges", edges_of},
                         {"tag_bytes", language.tag_bytes}});
  }
  json["languages"] = languages;
  json["auto"] = choice_json(stats.auto_choice);
  json["tokens"] = {{"counter", stats.tokenizer}, {"source_tokens", stats.source_tokens}};
  nlohmann::ordered_json views = nlohmann::ordered_json::array();
  for (const ViewCost& cost : stats.views) {
    nlohmann::ordered_json view = choice_json(cost.choice);
    view["requested"] = view_name(cost.requested);
    view["tag_budget"] = cost.budget ? nlohmann::ordered_json(*cost.budget) : nullptr;
    view["tag_bytes"] = cost.tag_bytes;
    view["tagged_files"] = cost.tagged_files;
    view["blocks"] = cost.blocks;
    view["share"] = cost.share;
    view["tag_tokens"] = cost.tag_tokens;
    view["token_share"] = cost.token_share;
    view["tokens_per_file"] = {{"median", cost.per_file.median},
                               {"p90", cost.per_file.p90},
                               {"max", cost.per_file.max}};
    view["vs_paper"] = cost.vs_paper ? nlohmann::ordered_json(*cost.vs_paper) : nullptr;
    if (cost.coverage) {
      view["word_coverage"] = {{"blocks", cost.coverage->blocks},
                               {"full_blocks", cost.coverage->full_blocks},
                               {"words", cost.coverage->words},
                               {"covered", cost.coverage->covered},
                               {"mean", cost.coverage->mean}};
    } else {
      view["word_coverage"] = nullptr;
    }
    view["links"] = {{"values", cost.links.links},
                     {"shown", cost.links.shown},
                     {"capped_fields", cost.links.capped_fields},
                     {"hubs_shown", cost.links.hub_shown},
                     {"hubs_shown_v1_order", cost.links.hub_shown_by_id},
                     {"tests_shown", cost.links.test_shown},
                     {"tests_shown_v1_order", cost.links.test_shown_by_id}};
    views.push_back(std::move(view));
  }
  json["views"] = views;
  return json.dump(2) + "\n";
}

}  // namespace anchorfs::render
