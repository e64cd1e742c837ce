#pragma once
/// The helper conformance kit (`flushcheck workload check`, docs/workload.md):
/// a fixed set of workloads, valid and malformed, run against any driver and
/// against the C reference (targets/workload/stdio_driver.c, flushcheck/
/// workload.h), and what each run shows of the workload protocol compared:
/// the records and their order, their messages, what a reader had at each
/// marker (a flush), the markers, the threads' records, the ends' exit
/// statuses, and a malformed workload's one line on stderr and exit 64. A
/// user who writes a helper in another language checks it with a driver
/// whose library is that language's own stdout, as the six in
/// targets/workload/ are.
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "observation.hpp"

namespace flushcheck {

/// How a kit workload's run is compared with the reference's.
enum class kit_compare {
  same,      ///< records in order, their messages, markers, what each marker saw, status
  same_set,  ///< the same, records in any order (`threads`)
  status,    ///< the exit status only: an end whose records are the language's own (exit)
  refusal,   ///< a malformed workload: exit 64, one line on stderr, the reference's words
  /// `throw`: any abnormal end (a signal, a status not 0) but a refusal
  /// (exit 64, a bad-workload line); what arrived before it is the
  /// language's own (a C++ terminate loses stdio's buffer)
  uncaught,
};

/// One workload of the kit.
struct kit_case {
  std::string name;
  std::vector<std::string> args;  ///< the driver's workload arguments (one op each, mostly)
  kit_compare compare = kit_compare::same;
  /// An op a language without it may refuse (exit 64, one line naming it):
  /// "threads" (one thread, Node), "abort" and "raise" (no signals, Java),
  /// "throw" (no exceptions, C). "": none may be.
  std::string may_refuse;
  std::string what;  ///< what it checks, for people
};

/// The kit's workloads, in the order they run.
const std::vector<kit_case>& kit_cases();

/// What one run shows of the protocol.
struct protocol_view {
  wait_status status = wait_status::exited(0);
  /// Record numbers in the order they arrived on stdout (whole lines only).
  std::vector<long> records;
  /// Each record's message ("rec N" and its padding), by its number.
  std::vector<std::pair<long, std::string>> messages;
  std::vector<std::string> markers;  ///< labels, in order
  /// Per marker: the records the reader had whole while the driver waited.
  std::vector<std::vector<long>> seen_at_marker;
  std::vector<std::string> stderr_lines;
};

/// The protocol view of OBS (its stdout kept whole).
protocol_view view_of(const observation& obs);

struct kit_result {
  std::string name, what;
  bool pass = false;
  std::string why;  ///< how the driver differs from the reference ("" when it passes)
};

struct workload_check_report {
  std::vector<std::string> driver;     ///< its command, before the workload
  std::vector<std::string> reference;  ///< the C reference driver's
  std::vector<kit_result> results;
  long failed() const;
};

struct workload_check_options {
  std::vector<std::string> driver;     ///< the driver's command, before the workload
  std::vector<std::string> reference;  ///< the reference's (stdio_driver)
  /// The drivers' environment: PATH, LANG, the marker protocol's, and these.
  std::vector<std::string> env;
  std::chrono::milliseconds timeout{20000};  ///< each run's
  std::function<void(int)> on_spawn;         ///< as run_options::on_spawn
  /// Called with each case's result as it is known.
  std::function<void(const kit_result&)> on_result;
};

/// Runs every kit case against O's driver and its reference; throws
/// spawn_error when the driver cannot be started at all.
workload_check_report check_workload_helper(const workload_check_options& o);

/// Why DRIVER's run of C differs from the reference's, or "" (for the tests).
std::string kit_difference(const kit_case& c, const protocol_view& driver,
                           const protocol_view& reference);

/// For people: a case's line (PASS, or FAIL and how it differs).
std::string to_text(const kit_result& r);
/// For people: a line per case, then summary_text.
std::string to_text(const workload_check_report& r);
/// "DRIVER: 40 of 43 workloads as the C reference's (REFERENCE)".
std::string summary_text(const workload_check_report& r);
/// One JSON object (kind "workload-check", json_document.hpp; docs/cli.md).
nlohmann::json to_json(const workload_check_report& r);

}  // namespace flushcheck
