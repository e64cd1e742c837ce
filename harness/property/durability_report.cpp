// The durability table's reporters (durability.hpp): Markdown for
// docs/loggers.md, an SVG heat map, one JSON object.
#include <filesystem>

#include "durability.hpp"
#include "escape.hpp"
#include "json_document.hpp"
#include "svg.hpp"

namespace flushcheck {

namespace {

/// "lost: `log info 0; _exit 0` (stdout on pipe)" or "kept (100)": a cell of the Markdown table.
std::string cell_text(const durability_cell& c) {
  switch (c.kind) {
    case durability_kind::kept: return "kept (" + std::to_string(c.cases) + ")";
    case durability_kind::racy:
      return "racy, " + markdown_text(c.rate) + ": " + markdown_code(c.workload) + " (" +
             markdown_text(c.ended) + ")";
    case durability_kind::not_tested:
    case durability_kind::hung:
    case durability_kind::error: return to_string(c.kind);
    default:
      return to_string(c.kind) + ": " + markdown_code(c.workload) + " (" + markdown_text(c.ended) +
             ")";
  }
}

/// "[zap](../tests/loggers/zap.property.toml) `file_writes_every_record`", and its
/// finding (the gate file's own link, as it wrote it).
std::string row_name(const durability_row& r, const std::string& docs_dir) {
  const std::filesystem::path file(r.file);
  const std::string stem = file.stem().stem().string();  // zap.property.toml: zap
  const std::string link =
      std::filesystem::relative(std::filesystem::absolute(file), docs_dir).generic_string();
  std::string out = "[" + markdown_text(stem) + "](" + link + ") " + markdown_code(r.property);
  if (!r.finding.empty()) out += " ([finding](" + r.finding + "))";
  return out;
}

}  // namespace

std::string to_text(const durability_row& r, const durability_cell& c) {
  std::string out = r.property + " at " + end_name(c.end) + ": " + to_string(c.kind);
  if (!c.workload.empty()) out += ": " + c.workload + " (" + c.ended + "; " + c.rate + ")";
  if (c.kind != durability_kind::lost && c.kind != durability_kind::torn) out += "; " + c.what;
  return terminal_text(out + "\n");
}

std::string to_markdown(const std::vector<durability_row>& rows, const std::string& docs_dir) {
  std::string out = "| configuration |";
  for (property_end e : property_ends()) out += " " + end_name(e) + " |";
  out += "\n|---|";
  for (std::size_t i = 0; i < property_ends().size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : rows) {
    out += "| " + row_name(r, docs_dir) + " |";
    for (const auto& c : r.cells) out += " " + cell_text(c) + " |";
    out += "\n";
  }
  return out;
}

namespace {

constexpr double k_cell = 46, k_name = 330, k_top = 70;

/// A kind's fill: kept white, then the loss's weight in one hue (svg::shade).
const char* fill_of(durability_kind k) {
  switch (k) {
    case durability_kind::kept: return svg::shade(0);
    case durability_kind::racy: return svg::shade(2);
    case durability_kind::torn: return svg::shade(3);
    case durability_kind::lost: return svg::shade(4);
    case durability_kind::hung: return "#8c6bb1";  // apart from the losses' hue
    case durability_kind::not_tested:
    case durability_kind::error: break;
  }
  return "#d9d9d9";
}

/// The ends' names over the columns.
void header(svg::drawing& d) {
  for (std::size_t i = 0; i < property_ends().size(); ++i)
    d.label(k_name + k_cell * (static_cast<double>(i) + 0.5), k_top - 8, "middle",
            end_name(property_ends()[i]));
}

/// Row I: its name, then a square per cell with its text as a tooltip.
void row(svg::drawing& d, const durability_row& r, std::size_t i) {
  const double y = k_top + k_cell * static_cast<double>(i);
  d.label(k_name - 8, y + k_cell / 2 + 4, "end",
          std::filesystem::path(r.file).stem().stem().string() + " " + r.property);
  for (std::size_t j = 0; j < r.cells.size(); ++j) {
    const durability_cell& c = r.cells[j];
    const std::string title = r.property + " at " + end_name(c.end) + ": " + to_string(c.kind) +
                              (c.workload.empty() ? "" : ": " + c.workload) +
                              (c.rate.empty() ? "" : " (" + c.ended + "; " + c.rate + ")") + "; " +
                              c.what;
    d.rect(k_name + k_cell * static_cast<double>(j), y, k_cell - 2, k_cell - 2,
           svg::attr("fill", fill_of(c.kind)) + svg::attr("stroke", "#999999"), title);
    d.label(k_name + k_cell * (static_cast<double>(j) + 0.5) - 1, y + k_cell / 2 + 3, "middle",
            to_string(c.kind), svg::attr("font-size", 10.0));
  }
}

}  // namespace

std::string to_svg(const std::vector<durability_row>& rows) {
  const double width = k_name + k_cell * static_cast<double>(property_ends().size()) + 10;
  const double height = k_top + k_cell * static_cast<double>(rows.size()) + 10;
  svg::drawing d(width, height, "What each end does to the records, per logger configuration");
  d.label(10, 24, "start", "Durability: every record logged arrived and no line torn, per end",
          svg::attr("font-weight", "bold"));
  header(d);
  for (std::size_t i = 0; i < rows.size(); ++i) row(d, rows[i], i);
  return d.finish();
}

nlohmann::json to_json(const std::vector<durability_row>& rows) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json cells = nlohmann::json::object();
    for (const auto& c : r.cells)
      cells[end_name(c.end)] = {{"kind", to_string(c.kind)},
                                {"cases", c.cases},
                                {"workload", c.workload},
                                {"what", c.what},
                                {"rate", c.rate},
                                {"ended", c.ended}};
    all.push_back(
        {{"file", r.file}, {"property", r.property}, {"finding", r.finding}, {"ends", cells}});
  }
  nlohmann::json j = json_document(json_kind::durability);
  j["rows"] = all;
  return j;
}

}  // namespace flushcheck
