#pragma once
// Building blocks the property checks share: payload bytes, reading the
// visible counts at markers, and verdicts with readable explanations.
#include <string>
#include <string_view>
#include <vector>

#include "conformance.hpp"
#include "model.hpp"

namespace flushcheck::detail {

// all_sinks and buffered_sinks: sink_kind.hpp (the language table uses them too).
inline const std::vector<sink_kind> tty_sinks = {sink_kind::pty};
inline const std::vector<sink_kind> full_sink = {sink_kind::full};
inline const std::vector<lang> both_langs = {lang::c, lang::cxx};
inline const std::vector<lang> c_only = {lang::c};
inline const std::vector<lang> cxx_only = {lang::cxx};

/// The bytes op INDEX of a script writes (docs/script.md): N times its letter.
std::string payload(int index, std::size_t n);

/// Records of several writers, one a line: whole when a line is made of
/// runs of RUNS bytes each of one letter (one op's payload: {99}, or {50,
/// 49} for a line of two writes), torn otherwise.
struct record_count {
  std::size_t whole = 0;
  std::size_t torn = 0;
};
record_count count_records(std::string_view data, const std::vector<std::size_t>& runs);

/// "setvbuf none; fork PROCS; [AFTER_FORK;] line N ...; exit 0": every
/// process writes RECORDS records of N bytes and a newline, one write(2)
/// each (an unbuffered stdout), op k's records all of letter k.
std::string record_writers(int procs, int records, std::size_t n,
                           const std::string& after_fork = "");

/// Printable form of bytes for explanations: "AAA\n" -> "AAA\\n".
std::string show(const std::string& bytes);

enum class stream { out, err };

/// Runs SCRIPT with stderr (not stdout) on the sink under test.
observation run_stderr_on_sink(property_context& ctx, const std::string& script);

/// Verdict of "at marker M (1-based), STREAM had WANT bytes at the reader".
verdict visible_is(const observation& obs, std::size_t marker, stream s, std::size_t want,
                   const std::string& claim);

/// Verdict of "STREAM received exactly WANT".
verdict data_is(const observation& obs, stream s, const std::string& want,
                const std::string& claim);

/// Verdict of "the child ended as WANT (exited N / killed by S)".
verdict status_is(const observation& obs, const wait_status& want);

/// The script "line 3; write 2; marker m" (or the same on stderr) seen at
/// the marker: 6 bytes "unbuffered", 4 "line buffered", 0 "fully buffered"
/// (the observed value). Passes when the reader had WANT bytes.
verdict buffering_at_marker(const observation& obs, stream s, std::size_t want,
                            const std::string& claim);

/// Both must pass; the first failure explains.
verdict both(verdict a, const verdict& b);

/// An observed-tier verdict: never fails, records VALUE.
verdict record(std::string value, std::string explanation);

bool is_glibc(const impl_profile& p);
bool is_glibc_or_musl(const impl_profile& p);
bool is_glibc_libstdcxx(const impl_profile& p);

/// Each appends its part of the catalogue to OUT, in the order of docs/semantics.md,
/// one designated-initializer `property` per entry.
/// ROWS, a section's table, at the end of OUT.
template <std::size_t N>
void append(std::vector<property>& out, const property (&rows)[N]) {
  out.insert(out.end(), rows, rows + N);
}

void add_stdio_properties(std::vector<property>& out);
void add_death_properties(std::vector<property>& out);
void add_iostream_properties(std::vector<property>& out);
void add_merged_and_error_properties(std::vector<property>& out);
void add_fault_properties(std::vector<property>& out);
void add_backpressure_properties(std::vector<property>& out);
void add_pipe_properties(std::vector<property>& out);
void add_concurrency_properties(std::vector<property>& out);
void add_file_properties(std::vector<property>& out);
void add_page_cache_properties(std::vector<property>& out);
void add_runtime_properties(std::vector<property>& out);
void add_runtime_switch_properties(std::vector<property>& out);

}  // namespace flushcheck::detail
