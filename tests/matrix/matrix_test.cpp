// The matrix stage through its C++ API, on records made in memory: merging
// machines' records, the baseline comparison, the checks a saved record (an
// untrusted input) passes before anything reads it, and the record's round trip.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "conformance.hpp"
#include "error.hpp"
#include "input_file.hpp"
#include "json_document.hpp"
#include "matrix.hpp"
#include "matrix_baseline.hpp"
#include "matrix_merge.hpp"
#include "matrix_report.hpp"
#include "profile.hpp"
#include "record_cell.hpp"
#include "record_check.hpp"
#include "result_wire.hpp"
#include "sink_kind.hpp"
#include "temporary.hpp"
#include "verdict.hpp"

namespace flushcheck {
namespace {

using json = nlohmann::json;

template <class T>
bool has(const std::vector<T>& v, T x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/// The first property of the catalogue at LEVEL with a C row on a pty, a pipe and a file.
const property& first_at(tier level) {
  for (const auto& p : catalogue())
    if (p.level == level && has(p.langs, lang::c) && has(p.sinks, sink_kind::pty) &&
        has(p.sinks, sink_kind::pipe) && has(p.sinks, sink_kind::file))
      return p;
  throw std::logic_error(std::string("no such property of tier ") + to_string(level));
}

const property& required_prop() { return first_at(tier::required); }
const property& observed_prop() { return first_at(tier::observed); }

std::string id_of(const property& p, sink_kind sink) {
  return property_case{&p, lang::c, sink}.id();
}

/// A C cell of P on SINK; asserted unless P is of the observed tier.
case_result result_of(const property& p, sink_kind sink, bool pass, const std::string& observed) {
  verdict v;
  v.pass = pass;
  v.observed = observed;
  v.explanation = "why " + observed;
  v.repro = "flushcheck run -- stdio_script '" + observed + "'";
  return {property_case{&p, lang::c, sink}, v, p.level != tier::observed};
}

matrix_column column_named(const std::string& name) {
  impl_profile profile;
  profile.libc = libc_impl::glibc;
  profile.cxxlib = cxx_impl::libstdcxx;
  profile.version = "glibc 2.36, libstdc++ 12 (" + name + ")";
  return {name, profile, {}};
}

/// The record (matrix --json) of what the columns ran.
json record_of(std::vector<column_results> columns) {
  return to_json(make_matrix(std::move(columns)));
}

/// Set "default": a pass, a FAIL, a skipped cell and an observed value with a figure.
json sample_record() {
  const property &r = required_prop(), &o = observed_prop();
  case_result skipped = result_of(r, sink_kind::pty, true, "");
  skipped.outcome.skipped = "no pty here";
  case_result sized = result_of(o, sink_kind::pipe, true, "4096");
  sized.outcome.figures["buffer_bytes"] = 4096;
  return record_of({{column_named("default"),
                     {result_of(r, sink_kind::pipe, true, "0 of 4"),
                      result_of(r, sink_kind::file, false, "4 of 4"), skipped, sized}}});
}

/// The cell of RECORD with ID.
json& cell_in(json& record, const std::string& id) {
  for (auto& row : record["rows"])
    for (auto& c : row["cells"])
      if (c["id"] == id) return c;
  throw std::logic_error("no cell " + id);
}

/// What F threw as usage_error; "" (and a failure) when it threw none.
std::string usage_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const usage_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no usage_error";
  return "";
}

const matrix_row* row_of(const matrix& m, const property& p) {
  for (const auto& row : m.rows)
    if (row.prop == &p && row.language == lang::c) return &row;
  return nullptr;
}

std::vector<std::string> column_names(const matrix& m) {
  std::vector<std::string> out;
  for (const auto& c : m.columns) out.push_back(c.name);
  return out;
}

// --- merge -------------------------------------------------------------------

/// Two machines: bookworm with set "default"; trixie with "default" and "musl".
std::vector<labelled_record> two_machines() {
  const property &r = required_prop(), &o = observed_prop();
  json bookworm = record_of(
      {{column_named("default"),
        {result_of(r, sink_kind::pipe, true, "x"), result_of(o, sink_kind::pipe, true, "4096")}}});
  json trixie = record_of(
      {{column_named("default"),
        {result_of(r, sink_kind::file, true, "x"), result_of(o, sink_kind::pipe, true, "4096")}},
       {column_named("musl"), {result_of(r, sink_kind::pipe, true, "x")}}});
  return {{"bookworm", bookworm}, {"trixie", trixie}};
}

TEST(matrix_merge, gives_a_column_per_record_and_set_and_every_cell) {
  std::size_t unknown = 99;
  const matrix m = merge_records(two_machines(), unknown);
  EXPECT_EQ(unknown, 0u);
  EXPECT_EQ(column_names(m),
            (std::vector<std::string>{"bookworm/default", "trixie/default", "trixie/musl"}));
  EXPECT_EQ(m.case_count(0), 2u);
  EXPECT_EQ(m.case_count(1), 2u);
  EXPECT_EQ(m.case_count(2), 1u);
  EXPECT_EQ(m.rows.size(), 2u);
  const matrix_row* row = row_of(m, required_prop());
  ASSERT_NE(row, nullptr);
  const std::set<sink_kind> sinks(row->sinks.begin(), row->sinks.end());
  EXPECT_EQ(sinks, (std::set<sink_kind>{sink_kind::pipe, sink_kind::file}));  // the union
  EXPECT_TRUE(m.differences.empty());
  EXPECT_TRUE(m.failures.empty());
}

TEST(matrix_merge, keeps_each_records_cells_in_its_own_column) {
  std::size_t unknown = 0;
  const matrix m = merge_records(two_machines(), unknown);
  const matrix_row* row = row_of(m, required_prop());
  ASSERT_NE(row, nullptr);
  EXPECT_NE(row->find(0, sink_kind::pipe), nullptr);
  EXPECT_EQ(row->find(0, sink_kind::file), nullptr);
  EXPECT_EQ(row->find(1, sink_kind::pipe), nullptr);
  EXPECT_NE(row->find(1, sink_kind::file), nullptr);
  EXPECT_NE(row->find(2, sink_kind::pipe), nullptr);
  EXPECT_EQ(row->text(2, sink_kind::file), "-");
}

// Where the records disagree on a value, the merge reports a difference; on
// an asserted property, the FAIL is a failure of that column. Neither is refused.
TEST(matrix_merge, reports_disagreeing_records_as_a_difference_and_a_failure) {
  auto records = two_machines();
  cell_in(records[1].record, id_of(observed_prop(), sink_kind::pipe))["observed"] = "65536";
  cell_in(records[1].record, id_of(required_prop(), sink_kind::file))["pass"] = false;
  std::size_t unknown = 0;
  const matrix m = merge_records(records, unknown);
  ASSERT_EQ(m.differences.size(), 1u);
  ASSERT_EQ(m.differences[0].outcomes.size(), 2u);
  EXPECT_EQ(m.rows[m.differences[0].row].prop, &observed_prop());
  EXPECT_EQ(m.differences[0].outcomes[0].observed, "4096");
  EXPECT_EQ(m.differences[0].outcomes[0].columns, std::vector<std::size_t>{0});
  EXPECT_EQ(m.differences[0].outcomes[1].columns, std::vector<std::size_t>{1});
  ASSERT_EQ(m.failures.size(), 1u);
  EXPECT_EQ(m.failures[0].column, 1u);
  EXPECT_EQ(m.at(m.failures[0]).prop_case.id(), id_of(required_prop(), sink_kind::file));
}

TEST(matrix_merge, counts_and_leaves_out_the_cells_it_does_not_know) {
  json record = two_machines()[0].record;
  const json stranger = {{"column", "default"}, {"sink", "pipe"}, {"id", "x"}};
  record["rows"].push_back(
      {{"property", "no.such_property"}, {"language", "c"}, {"cells", json::array({stranger})}});
  json& cells = record["rows"][0]["cells"];
  cells.push_back({{"column", "default"}, {"sink", "tape"}, {"id", "x"}});
  cells.push_back({{"column", "no-such-set"}, {"sink", "pipe"}, {"id", "x"}});
  std::size_t unknown = 0;
  const matrix m = merge_records({{"here", record}}, unknown);
  EXPECT_EQ(unknown, 3u);
  EXPECT_EQ(m.case_count(0), 2u);
}

TEST(matrix_merge, refuses_a_record_that_is_not_one_naming_its_label) {
  auto records = two_machines();
  records.push_back({"broken", json::array()});
  std::size_t unknown = 0;
  const std::string what = usage_error_of([&] { merge_records(records, unknown); });
  EXPECT_NE(what.find("broken"), std::string::npos) << what;
}

// --- baseline ----------------------------------------------------------------

/// BEFORE and NOW of set "default": the required property passes on the
/// pipe, then fails; fails on the file, then passes; the observed value on
/// the pipe stays; the file's value vanishes and a pty cell is new.
std::pair<json, json> before_and_now() {
  const property &r = required_prop(), &o = observed_prop();
  json before = record_of(
      {{column_named("default"),
        {result_of(r, sink_kind::pipe, true, "x"), result_of(r, sink_kind::file, false, "x"),
         result_of(o, sink_kind::pipe, true, "4096"),
         result_of(o, sink_kind::file, true, "8192")}}});
  json now = record_of(
      {{column_named("default"),
        {result_of(r, sink_kind::pipe, false, "x"), result_of(r, sink_kind::file, true, "x"),
         result_of(o, sink_kind::pipe, true, "4096"), result_of(r, sink_kind::pty, true, "x")}}});
  return {before, now};
}

/// A cell run here, written as a record holds it and read back, is the same
/// value, whatever bytes its run observed: a baseline compares the two alike.
TEST(record_cell, a_cell_written_and_read_back_is_the_same_value_whatever_bytes_it_holds) {
  case_result r = result_of(required_prop(), sink_kind::pipe, false, "\xff\x01 of 4");
  r.outcome.figures["buffer_bytes"] = 4096;
  const record_cell c = cell_of(r, "default");
  const record_cell back = read_cell(nlohmann::json::parse(to_json(c).dump()));
  EXPECT_EQ(back.id, id_of(required_prop(), sink_kind::pipe));
  EXPECT_EQ(back.column, "default");
  EXPECT_EQ(back.sink, "pipe");
  EXPECT_TRUE(back.asserted);
  EXPECT_EQ(back.outcome.figures, r.outcome.figures);
  EXPECT_EQ(back.outcome.repro, c.outcome.repro);
  EXPECT_EQ(verdict_text(back), verdict_text(c));
  EXPECT_EQ(verdict_text(back), "FAIL, observed \u00ff\u0001 of 4");  // each byte a code point
  r.outcome.skipped = "tmpfs";
  EXPECT_EQ(verdict_text(read_cell(to_json(cell_of(r, "default")))), "skipped (tmpfs)");
  EXPECT_EQ(verdict_text(read_cell(nlohmann::json{{"observed", 3}})), "not asserted, observed ");
}

TEST(matrix_baseline, a_record_against_itself_changes_nothing) {
  const json record = sample_record();
  const record_changes c = compare_records(record, record, "test");
  EXPECT_EQ(c.compared, 4u);
  EXPECT_TRUE(c.changes.empty());
  EXPECT_EQ(c.confirmed(), 0u);
  EXPECT_TRUE(c.libraries.empty());
  EXPECT_TRUE(c.only_before.empty());
  EXPECT_TRUE(c.only_now.empty());
}

TEST(matrix_baseline, finds_exactly_the_cells_whose_verdict_changed) {
  const auto [before, now] = before_and_now();
  const record_changes c = compare_records(before, now, "test");
  EXPECT_EQ(c.compared, 3u);  // in both records
  std::set<std::string> changed;
  for (const auto& ch : c.changes) changed.insert(ch.id);
  EXPECT_EQ(changed, (std::set<std::string>{id_of(required_prop(), sink_kind::pipe),
                                            id_of(required_prop(), sink_kind::file)}));
  EXPECT_EQ(c.confirmed(), 2u);  // nothing re-run
  EXPECT_EQ(c.only_before, std::vector<std::string>{"default: 1 cell"});
  EXPECT_EQ(c.only_now, std::vector<std::string>{"default: 1 cell"});
}

TEST(matrix_baseline, names_both_verdicts_and_the_repro_of_a_change) {
  auto [before, now] = before_and_now();
  const record_changes c = compare_records(before, now, "test");
  const std::string id = id_of(required_prop(), sink_kind::pipe);
  const auto ch = std::find_if(c.changes.begin(), c.changes.end(),
                               [&](const cell_change& x) { return x.id == id; });
  ASSERT_NE(ch, c.changes.end());
  EXPECT_EQ(ch->column, "default");
  EXPECT_EQ(ch->before, "pass, observed x");
  EXPECT_EQ(ch->now, "FAIL, observed x");
  EXPECT_EQ(ch->before, verdict_text(read_cell(cell_in(before, id))));
  EXPECT_EQ(ch->repro, "flushcheck run -- stdio_script 'x'");
}

// What is compared is the verdict and the observed value, not the explanation.
TEST(matrix_baseline, an_observed_value_counts_and_an_explanation_does_not) {
  const json before = sample_record();
  json now = before;
  cell_in(now, id_of(observed_prop(), sink_kind::pipe))["observed"] = "8192";
  cell_in(now, id_of(required_prop(), sink_kind::pipe))["explanation"] = "another reason";
  const record_changes c = compare_records(before, now, "test");
  ASSERT_EQ(c.changes.size(), 1u);
  EXPECT_EQ(c.changes[0].id, id_of(observed_prop(), sink_kind::pipe));
  EXPECT_EQ(c.changes[0].before, "not asserted, observed 4096");
  EXPECT_EQ(c.changes[0].now, "not asserted, observed 8192");
}

TEST(matrix_baseline, lists_a_set_whose_libraries_changed) {
  const json before = sample_record();
  json now = before;
  now["columns"][0]["version"] = "glibc 9.99";
  const record_changes c = compare_records(before, now, "test");
  ASSERT_EQ(c.libraries.size(), 1u);
  EXPECT_EQ(c.libraries[0].column, "default");
  EXPECT_EQ(c.libraries[0].before, before["columns"][0]["version"].get<std::string>());
  EXPECT_EQ(c.libraries[0].now, "glibc 9.99");
  EXPECT_TRUE(c.changes.empty());
}

// A change that re-runs do not all repeat varies, and is no regression.
TEST(matrix_baseline, a_change_its_reruns_do_not_repeat_varies) {
  const auto [before, now] = before_and_now();
  const auto flip = [](const cell_change& ch) {
    return std::vector<std::string>{ch.now, ch.before};
  };
  const auto same = [](const cell_change& ch) { return std::vector<std::string>{ch.now, ch.now}; };
  const record_changes flipped = compare_records(before, now, "test", flip);
  ASSERT_EQ(flipped.changes.size(), 2u);
  EXPECT_TRUE(flipped.changes[0].varies());
  EXPECT_EQ(flipped.confirmed(), 0u);
  const record_changes repeated = compare_records(before, now, "test", same);
  EXPECT_EQ(repeated.confirmed(), 2u);
  EXPECT_EQ(repeated.changes[0].reruns.size(), 2u);
}

TEST(matrix_baseline, refuses_what_is_not_a_record_naming_it) {
  const json record = sample_record();
  const std::string what =
      usage_error_of([&] { compare_records(json::object(), record, "--baseline=old.json"); });
  EXPECT_NE(what.find("--baseline=old.json"), std::string::npos) << what;
  EXPECT_THROW(compare_records(record, json::array(), "test"), usage_error);
}

// --- record_check: a saved record is untrusted input -------------------------

TEST(record_check, passes_a_record_flushcheck_wrote_and_fields_it_does_not_know) {
  json record = sample_record();
  EXPECT_NO_THROW(check_record(record));
  record["added_later"] = {{"anything", json::array({1, "two"})}};
  record["rows"][0]["cells"][0]["added_later"] = json::object();
  record["columns"][0]["added_later"] = nullptr;
  EXPECT_NO_THROW(check_record(record));
}

/// Ways a record can be wrong, each by name.
std::vector<std::pair<const char*, std::function<void(json&)>>> wrong_records() {
  return {
      {"an array", [](json& j) { j = json::array(); }},
      {"another schema", [](json& j) { j["schema"] = 1; }},
      {"another kind", [](json& j) { j["kind"] = "bench"; }},
      {"rows a string", [](json& j) { j["rows"] = "x"; }},
      {"no columns", [](json& j) { j.erase("columns"); }},
      {"machine a string", [](json& j) { j["machine"] = "x"; }},
      {"machine's kernel an array", [](json& j) { j["machine"]["kernel"] = json::array(); }},
      {"a column a number", [](json& j) { j["columns"][0] = 1; }},
      {"a column without a name", [](json& j) { j["columns"][0].erase("name"); }},
      {"a set twice", [](json& j) { j["columns"].push_back(j["columns"][0]); }},
      {"cases -1", [](json& j) { j["columns"][0]["cases"] = -1; }},
      {"failures 1.5", [](json& j) { j["columns"][0]["failures"] = 1.5; }},
      {"a tally -1", [](json& j) { j["columns"][0]["tally"]["required"]["pass"] = -1; }},
      {"runtimes a string", [](json& j) { j["columns"][0]["runtimes"] = "python"; }},
      {"a row a string", [](json& j) { j["rows"][0] = "x"; }},
      {"property a number", [](json& j) { j["rows"][0]["property"] = 1; }},
      {"cells an object", [](json& j) { j["rows"][0]["cells"] = json::object(); }},
      {"a cell a number", [](json& j) { j["rows"][0]["cells"][0] = 1; }},
      {"pass a string", [](json& j) { j["rows"][0]["cells"][0]["pass"] = "true"; }},
      {"observed a number", [](json& j) { j["rows"][0]["cells"][0]["observed"] = 4096; }},
      {"figures an array", [](json& j) { j["rows"][0]["cells"][0]["figures"] = json::array(); }},
      {"a figure 1.5", [](json& j) { j["rows"][0]["cells"][0]["figures"]["n"] = 1.5; }},
  };
}

TEST(record_check, refuses_each_wrong_type_with_usage_error) {
  const json good = sample_record();
  for (const auto& [name, spoil] : wrong_records()) {
    json bad = good;
    spoil(bad);
    EXPECT_THROW(check_record(bad), usage_error) << name;
  }
}

// The record reader (parse_json_input) bounds the nesting: a deep document
// is refused as it is read, however deep, never recursed into.
TEST(record_check, refuses_what_is_not_json_or_too_deep) {
  EXPECT_NO_THROW(parse_json_input(std::string(8, '[') + std::string(8, ']')));
  for (std::size_t depth : {std::size_t{100}, std::size_t{100000}}) {
    const std::string deep = std::string(depth, '[') + std::string(depth, ']');
    EXPECT_THROW(parse_json_input(deep), usage_error) << depth;
  }
  json record = sample_record();
  EXPECT_NO_THROW(parse_json_input(dump_json(record), 16));  // flushcheck's own: under 8
  record["rows"][0]["added_later"] = parse_json_input(std::string(20, '[') + std::string(20, ']'));
  EXPECT_THROW(parse_json_input(dump_json(record), 16), usage_error);
  EXPECT_THROW(parse_json_input("{\"kind\": \"matrix\", "), usage_error);
}

// A record file is read with a bound (read_input_file): a larger one is refused.
TEST(record_check, refuses_a_record_file_larger_than_the_bound) {
  temporary_directory dir(temp_dir() + "/flushcheck-matrix-test-");
  const std::string path = dir.path() + "/big.json";
  std::ofstream(path) << dump_json(sample_record()) << std::string(std::size_t{2} << 20, ' ');
  EXPECT_THROW(read_input_file(path, std::size_t{1} << 20), usage_error);
  const json back = parse_json_input(read_input_file(path, std::size_t{4} << 20));
  EXPECT_NO_THROW(check_record(back));
}

// --- the round trip ------------------------------------------------------------

TEST(matrix_record, written_then_read_back_is_equal) {
  const json record = sample_record();
  const json back = parse_json_input(dump_json(record, 2));
  EXPECT_EQ(back, record);
  EXPECT_NO_THROW(check_record(back));
}

/// RECORD as merge_records reads it back into a matrix and to_json writes it
/// again, its one record labelled LABEL, the label taken off again.
json merged_back(const json& record, const std::string& label) {
  std::size_t unknown = 0;
  json back = to_json(merge_records({{label, record}}, unknown));
  EXPECT_EQ(unknown, 0u);
  for (auto& c : back["columns"]) c["name"] = c["name"].get<std::string>().substr(label.size() + 1);
  for (auto& row : back["rows"])
    for (auto& c : row["cells"])
      c["column"] = c["column"].get<std::string>().substr(label.size() + 1);
  return back;
}

// Every column and cell survives the record's read: verdicts, values,
// figures, skips, repros, tallies.
TEST(matrix_record, read_back_into_a_matrix_writes_the_same_record) {
  const json record = sample_record();
  const json back = merged_back(record, "here");
  EXPECT_EQ(back["columns"], record["columns"]);
  EXPECT_EQ(back["rows"], record["rows"]);
  EXPECT_EQ(back["differences"], record["differences"]);
  EXPECT_EQ(back["failures"], record["failures"]);
  EXPECT_EQ(back["failures"], 1);
}

// A case's result crosses from a matrix worker as bytes: every field back,
// its case found by id; bytes cut short or too long, or a case not run, throw.
TEST(matrix_wire, a_result_comes_back_as_it_went) {
  target_set set;  // a set of C and C++ targets: their cases (nothing runs)
  set.stdio_script = "/nonexistent/stdio_script";
  set.iostream_script = "/nonexistent/iostream_script";
  const auto all = cases(set);
  std::map<std::string, property_case> by_id;
  for (const auto& c : all) by_id.emplace(c.id(), c);
  ASSERT_FALSE(all.empty());
  case_result r{all.back(), {}, false};
  r.outcome = {false,
               "4096",
               "held 4096 bytes",
               "flushcheck run -- x",
               {{"buffer_bytes", 4096}},
               std::string("tmpfs: no O_DIRECT")};
  for (const case_result& sent : {r, case_result{all.front(), {}, true}}) {
    const std::string bytes = encode_conformance_result(sent);
    const case_result back = decode_conformance_result(bytes, by_id);
    EXPECT_EQ(back.prop_case.id(), sent.prop_case.id());
    EXPECT_EQ(back.asserted, sent.asserted);
    EXPECT_EQ(back.outcome.pass, sent.outcome.pass);
    EXPECT_EQ(back.outcome.observed, sent.outcome.observed);
    EXPECT_EQ(back.outcome.explanation, sent.outcome.explanation);
    EXPECT_EQ(back.outcome.repro, sent.outcome.repro);
    EXPECT_EQ(back.outcome.figures, sent.outcome.figures);
    EXPECT_EQ(back.outcome.skipped, sent.outcome.skipped);
    EXPECT_THROW(decode_conformance_result(bytes.substr(0, bytes.size() - 1), by_id),
                 harness_error);
    EXPECT_THROW(decode_conformance_result(bytes + "x", by_id), harness_error);
    EXPECT_THROW(decode_conformance_result(bytes, {}), harness_error);
  }
}

}  // namespace
}  // namespace flushcheck
