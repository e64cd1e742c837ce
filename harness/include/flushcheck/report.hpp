#pragma once
/// The observation as the CLI prints it: the JSON contract of DESIGN.md, and
/// a summary for people.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "flushcheck/observation.hpp"
#include "flushcheck/run.hpp"

namespace flushcheck {

/// Each byte becomes the code point of the same value, so ASCII stays
/// readable and any byte string round-trips through JSON.
std::string bytes_as_code_points(const std::string& bytes);

/// Each string through bytes_as_code_points: argv, notes, any bytes.
nlohmann::json strings_json(const std::vector<std::string>& v);

/// "schema" in every JSON object the CLI prints; bumped when a name changes.
/// 2: "writes" is a list of destinations; every byte string is encoded as
/// "data" is (argv, labels, paths, notes).
inline constexpr int json_schema_version = 2;

/// Bytes for people: \n, \r and \xHH escapes, cut after MAX bytes with a count.
std::string printable(const std::string& data, std::size_t max);

nlohmann::json to_json(const observation& obs);
/// {"status": "exited"|"signaled"|"timeout", "code": N | "signal": "KILL"}
nlohmann::json to_json(const wait_status& status);

/// "writes": one object per destination {fd, fds, what, role, calls, bytes,
/// by_call, sizes}, in order of first use.
nlohmann::json writes_json(const trace_summary& t);
/// "trace": the ordered event log and totals per call.
nlohmann::json trace_json(const trace_summary& t);

/// A few lines: exit status, the kill, bytes per stream, what survived.
std::string summary(const observation& obs);

/// S quoted for a POSIX shell, on one line ($'...' when it has a newline).
std::string shell_quote(const std::string& s);

/// The one `env -i ... flushcheck run ...` command line that repeats a run
/// with options O (its environment, sinks, stdin, kill, trace, program).
std::string repro_command(const run_options& o);

}  // namespace flushcheck
