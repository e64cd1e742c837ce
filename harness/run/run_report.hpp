#pragma once
/// The observation as the CLI prints it: the JSON contract of docs/cli.md, and
/// a summary for people, and a page with its picture.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "escape.hpp"  // printable, shell_quote: report users print with them
#include "observation.hpp"
#include "repro.hpp"  // repro_command, printed beside every observation
#include "run.hpp"
#include "timeline_svg.hpp"  // to_html draws it

namespace flushcheck {

/// Each byte becomes the code point of the same value, so ASCII stays
/// readable and any byte string round-trips through JSON.
std::string bytes_as_code_points(const std::string& bytes);

/// Each string through bytes_as_code_points: argv, notes, any bytes.
nlohmann::json strings_json(const std::vector<std::string>& v);

nlohmann::json to_json(const observation& obs);
/// {"status": "exited"|"signaled"|"timeout", "code": N | "signal": "KILL"}
nlohmann::json to_json(const wait_status& status);

/// "writes": one object per destination {fd, fds, what, role, calls, bytes,
/// by_call, sizes}, in order of first use.
nlohmann::json writes_json(const trace_summary& t);
/// "trace": the ordered event log and totals per call.
nlohmann::json trace_json(const trace_summary& t);
/// Each fault plan, whether it was reached, and the calls it selected.
nlohmann::json faults_json(const trace_summary& t);
/// "fault:   SPEC: what it did" for each fault plan ("never reached" if nothing).
std::string fault_lines(const trace_summary& t);

/// Where the call a write:N cut stopped was going: "pipe:[123] (stdout)".
std::string stopped_destination(const trace_summary& t);

/// A few lines for people: exit status, the kill, bytes per stream, what survived.
std::string to_text(const observation& obs);

/// One self-contained HTML page: the timeline (timeline_svg.hpp), the
/// text (to_text) and REPRO, the command that runs it again.
std::string to_html(const observation& obs, const timeline_options& o, const std::string& repro);

}  // namespace flushcheck
