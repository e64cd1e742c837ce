// Whether, and why not, the pty run is a reference for a pipe's or a
// file's run: the programs each ran, how each ended, the bytes each wrote.
#include "doctor_reference.hpp"

#include <algorithm>
#include <array>

#include "escape.hpp"
#include "masked_compare.hpp"

namespace flushcheck {

namespace {

using std::chrono::milliseconds;

std::string ms(milliseconds t) { return std::to_string(t.count()) + " ms"; }

}  // namespace

bool is_pager(const std::string& path) {
  constexpr std::array<std::string_view, 5> pagers{"less", "more", "most", "pg", "pager"};
  const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
  return std::find(pagers.begin(), pagers.end(), name) != pagers.end();
}

namespace {

/// The first escape sequence in DATA (ESC up to a CSI's final byte, 12 bytes
/// at most), or "".
std::string first_escape(std::string_view data) {
  const auto at = data.find('\x1b');
  if (at == std::string_view::npos) return "";
  std::size_t end = at + 2;
  while (end < data.size() && end - at < 12 &&
         (data[end - 1] < 0x40 || data[end - 1] > 0x7e || end - at == 2))
    ++end;
  return std::string(data.substr(at, std::min(end, data.size()) - at));
}

/// What the program wrote at AT on one side, for the text.
std::string bytes_at(std::string_view data, std::size_t at) {
  return at >= data.size() ? "its end"
                           : "\"" + printable(std::string(data.substr(at, 24)), 24) + "\"";
}

std::string ending_gap(const doctor_sink& pty, const doctor_sink& s) {
  const std::string sink(to_string(s.sink));
  if (pty.ended)
    return "on the " + sink + " it was still running at " + ms(s.limit) +
           ", where on the pty it ended in " + ms(duration_of(pty)) +
           ": the machine is loaded or it waits there (--deadline=" +
           std::to_string(std::min<long>(600000, 4 * s.limit.count())) + " waits longer)";
  return "on the pty it was still running at " + ms(pty.limit) + ", where on the " + sink +
         " it ended in " + ms(duration_of(s)) + ": at a terminal it waits (for a key?)";
}

/// Where A (the pty's) and B (the sink's) differ: at a byte, or, compared
/// around what M masks, in a line.
std::string difference(std::string_view a, std::string_view b, const std::string& sink,
                       const field_mask& m) {
  if (m.empty()) {
    const std::size_t at = common_prefix(a, b);
    return "its output on the " + sink + " differs from the pty's at byte " + std::to_string(at) +
           ": " + bytes_at(b, at) + " there, " + bytes_at(a, at) + " on the pty";
  }
  const line_difference d = first_difference(m, a, b);
  auto line = [](const std::string& text) { return "\"" + printable(text, 60) + "\""; };
  return "its output on the " + sink + " differs from the pty's in line " +
         std::to_string(d.line + 1) + " (compared around what varies between runs): " + line(d.b) +
         " there, " + line(d.a) + " on the pty";
}

std::string content_gap(std::string_view a, std::string_view b, const std::string& sink,
                        const field_mask& m) {
  if (const std::string esc = first_escape(a); !esc.empty() && b.find('\x1b') == b.npos)
    return "on the pty its output has terminal escape sequences (" + printable(esc, 12) +
           ": colour, cursor moves) that it does not write to a " + sink;
  return difference(a, b, sink, m);
}

/// S's output is a prefix of the pty's (of what both wrote, when neither
/// ended), compared around M.
bool agrees(const doctor_sink& pty, const doctor_sink& s, const field_mask& m) {
  const std::string_view a = pty.output().data, b = s.output().data;
  if (!m.empty()) return masked_prefix(m, a, b) || (!pty.ended && masked_prefix(m, b, a));
  const std::size_t both = pty.ended ? b.size() : std::min(a.size(), b.size());
  return common_prefix(a, b) >= both && (!pty.ended || a.size() >= b.size());
}

/// Neither run's output is past what a run keeps.
bool kept_whole(const doctor_sink& pty, const doctor_sink& s) {
  return pty.output().dropped == 0 && s.output().dropped == 0;
}

/// Why S's output is no prefix of the pty's, or S's run ended otherwise ("":
/// it is, and did not).
std::string output_gap(const doctor_sink& pty, const doctor_sink& s, const field_mask& m) {
  if (!kept_whole(pty, s)) return "its output is past the 16 MiB a diagnosis keeps";
  if (pty.ended != s.ended) return ending_gap(pty, s);
  if (agrees(pty, s, m)) return "";
  return content_gap(pty.output().data, s.output().data, std::string(to_string(s.sink)), m);
}

}  // namespace

std::string ran_only_on_pty(const doctor_sink& pty, const doctor_sink& s) {
  if (!pty.reference.trace || !s.reference.trace) return "";
  const auto& theirs = s.reference.trace->programs;
  for (const auto& p : pty.reference.trace->programs)
    if (std::find(theirs.begin(), theirs.end(), p) == theirs.end()) return p;
  return "";
}

std::size_t common_prefix(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  return static_cast<std::size_t>(std::mismatch(a.begin(), a.begin() + n, b.begin()).first -
                                  a.begin());
}

std::string reference_gap(const doctor_sink& pty, const doctor_sink& s, const field_mask& mask) {
  const std::string gap = output_gap(pty, s, mask);
  const std::string p = gap.empty() ? "" : ran_only_on_pty(pty, s);
  if (p.empty()) return gap;
  const std::string ran = "on the pty it ran " + printable(p, 120) + ", which it did not on the " +
                          std::string(to_string(s.sink));
  return is_pager(p) ? ran + " (a pager: at a terminal it waits for a key)" : ran + ": " + gap;
}

bool differs_in_bytes(const doctor_sink& pty, const doctor_sink& s) {
  return kept_whole(pty, s) && pty.ended == s.ended && !agrees(pty, s, field_mask{});
}

milliseconds run_limit(milliseconds deadline, milliseconds ended_in) {
  return std::max(deadline, 8 * ended_in + milliseconds(5000));
}

milliseconds duration_of(const doctor_sink& s) {
  return milliseconds((s.reference.duration_us + 999) / 1000);
}

}  // namespace flushcheck
