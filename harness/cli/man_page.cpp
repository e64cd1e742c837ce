// The page's sections: NAME, SYNOPSIS, DESCRIPTION, COMMANDS (one per verb),
// OPTIONS (the top app's), EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES, SEE ALSO.
#include "man_page.hpp"

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "option_values.hpp"
#include "program_kind.hpp"
#include "report_file.hpp"
#include "usage.hpp"

namespace flushcheck::cli {

namespace {

constexpr const char* k_description = R"roff(.SH DESCRIPTION
.B flushcheck
tests buffering semantics from the outside.
It starts a real program with its stdout and stderr on a pty, a pipe, a regular file,
.I /dev/null
or
.IR /dev/full ,
stops or kills it at an exact point (a marker the program writes to fd 3, the N\-th write
system call, a time), and reports what the reader received, when, in which order, and how
many
.BR write (2)
calls it took, counted by its own ptrace tracer.
.PP
The program says where to cut it by writing a line to fd 3 and waiting for one byte back
(the marker protocol, /usr/share/doc/flushcheck/markers.md); without flushcheck, fd 3 is
closed and the marker is a no\-op.
)roff";

constexpr const char* k_environment = R"roff(.SH ENVIRONMENT
.TP
.B TMPDIR
Where file sinks, logs and temporary reports are made (default
.IR /tmp );
an interrupted run leaves nothing there.
.PP
.BR run ,
.B count
and
.B explore
give the program flushcheck's own environment, plus FLUSHCHECK_MARKER_FD and
FLUSHCHECK_RELEASE_FD (the marker protocol), and name in a
.B note:
line each of the variables below that is set, as it changes buffering.
.BR doctor ,
.B matrix
and
.B bench
run programs in a clean environment (PATH and LANG only), as a service manager does.
)roff";

constexpr const char* k_files = R"roff(.TP
.I BIN/../lib/flushcheck/
The targets: stdio_script, iostream_script and the bench programs of the default toolchain
set, one directory per other set (musl, glibc\-static, ...), the runtimes' scripts in
runtimes/, and skipped\-sets.txt, which names each set not there and the Debian packages
that bring it. BIN is the directory of the flushcheck binary
.RI ( /usr/lib/flushcheck/
in the Debian package); a binary in a build tree uses that tree's targets/.
.TP
.I /usr/share/doc/flushcheck/
The documentation (the properties and their sources, the CLI and its JSON, the marker
protocol, gate files), and in examples/ the logger gate files and the gate example that
builds with find_package(flushcheck).
)roff";

constexpr const char* k_examples = R"roff(.SH EXAMPLES
Why did my log lines vanish when the container was killed?
.PP
.RS
.nf
flushcheck run \-\-stdout=pipe \-\-kill=KILL@marker:1 \-\- python3 \-c \e
  "import os; print('first line'); os.write(3, b'cut\en'); os.read(3, 1)"
.fi
.RE
.PP
Where is a program's output lost or late, and which fix keeps it?
.PP
.RS
.nf
flushcheck doctor \-\- python3 \-c "print(1)"
.fi
.RE
.PP
How many write calls, to which destination?
.PP
.RS
.nf
flushcheck count \-\- /usr/lib/flushcheck/stdio_script 'putc 100000; exit 0'
.fi
.RE
.PP
The conformance matrix of this machine's C and C++ libraries, every toolchain set:
.PP
.RS
.nf
flushcheck matrix \-\-all
.fi
.RE
.PP
A logging library's gate, with a JUnit report for CI:
.PP
.RS
.nf
flushcheck gate /usr/share/doc/flushcheck/examples/tests/loggers/python_logging.gate.toml \e
  \-\-junit gate.xml
.fi
.RE
)roff";

constexpr const char* k_see_also = R"roff(.SH "SEE ALSO"
.BR strace (1),
.BR stdbuf (1),
.BR setvbuf (3),
.BR pty (7),
.BR pipe (7)
)roff";

/// TEXT as one line of man(7) input: backslashes escaped, a leading '.' or
/// '\'' (a request) made text, leading spaces (a break) dropped.
std::string roff(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  std::string out = !text.empty() && (text.front() == '.' || text.front() == '\'') ? "\\&" : "";
  for (char c : text) out += c == '\\' ? std::string("\\e") : std::string(1, c);
  return out;
}

/// An option's name as the help shows it, with '-' as \- (a minus, to copy).
std::string option_name(const CLI::Option* opt) {
  std::string name = help_formatter().make_option_name(opt, false), out;
  for (char c : name)
    out += c == '-' ? std::string("\\-") : c == ',' ? std::string(", ") : std::string(1, c);
  return out;
}

std::string placeholder(const CLI::Option* opt) {
  const std::string type = opt->get_type_name();
  if (type.starts_with("INT") || type.starts_with("UINT")) return "N";
  if (type.starts_with("FLOAT")) return "X";
  return "VALUE";
}

std::string upper(std::string word) {
  for (char& c : word) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return word;
}

/// "Values: pty, pipe, ..." or, for SIG@WHEN, "Values: never; before @: HUP, ...; after @: ...".
std::string values_text(const option_values& v) {
  std::vector<std::string> whole, before_at;
  for (const auto& w : v.words)
    (w.ends_with('@') ? before_at : whole)
        .push_back(w.ends_with('@') ? w.substr(0, w.size() - 1) : w);
  std::string text = "Values: " + joined(whole, ", ");
  if (!before_at.empty())
    text += (whole.empty() ? "" : "; ") + std::string("before @: ") + joined(before_at, ", ");
  if (!v.after_at.empty()) text += "; after @: " + joined(v.after_at, ", ");
  return text + (v.comma_list ? " (a comma-separated list)." : ".");
}

bool is_help(const CLI::Option* opt) {
  return opt->check_lname("help") || opt->check_lname("help-all");
}

void write_option(std::ostream& out, const CLI::Option* opt) {
  const std::string name = option_name(opt);
  out << ".TP\n\\fB" << name << "\\fR";
  const bool report_flag = name.find('[') != std::string::npos;              // --json[=FILE]
  const bool takes_value = !help_formatter().make_option_opts(opt).empty();  // as --help shows it
  if (takes_value && !report_flag) out << "=\\fI" << placeholder(opt) << "\\fR";
  out << "\n" << roff(opt->get_description()) << "\n";
  if (const auto* v = values_of(opt)) out << ".br\n" << roff(values_text(*v)) << "\n";
  if (!opt->get_default_str().empty() && !report_flag)
    out << ".br\nDefault: " << roff(opt->get_default_str()) << ".\n";
}

/// "flushcheck: test ..." without "flushcheck: ".
std::string_view without_prefix(std::string_view text) {
  if (text.starts_with("flushcheck: ")) text.remove_prefix(12);
  return text;
}

/// "[OPTIONS] \-\- PROG [ARG...]", "[OPTIONS] FILE", "[OPTIONS] [SUITE...]".
std::string verb_arguments(const CLI::App* verb) {
  std::string args = "[\\fIOPTIONS\\fR]";
  for (const CLI::Option* opt : verb->get_options()) {
    if (!opt->get_positional()) continue;
    const std::string name = opt->get_name(true);
    if (name == "command")
      args += " \\-\\- \\fIPROG\\fR [\\fIARG\\fR...]";
    else if (opt->get_required())
      args += " \\fI" + upper(name) + "\\fR";
    else
      args += " [\\fI" + upper(name) + "\\fR...]";
  }
  return args;
}

void write_verb(std::ostream& out, const CLI::App* verb) {
  out << ".SS \"" << verb->get_name() << "\"\n.B flushcheck " << verb->get_name() << "\n"
      << verb_arguments(verb) << "\n.PP\n"
      << roff(verb->get_description()) << ".\n";
  for (const CLI::Option* opt : verb->get_options())
    if (!opt->get_positional() && !is_help(opt)) write_option(out, opt);
  std::istringstream footer(verb->get_footer());
  out << ".PP\n";
  for (std::string line; std::getline(footer, line);) out << roff(line) << "\n";
}

/// SYNOPSIS: a line per verb, with its arguments.
void write_synopsis(std::ostream& out, const CLI::App& app) {
  out << ".SH SYNOPSIS\n";
  for (const CLI::App* verb : app.get_subcommands({}))
    out << ".B flushcheck " << verb->get_name() << "\n" << verb_arguments(verb) << "\n.br\n";
}

/// EXIT STATUS: what each status means, whichever verb returns it.
void write_exit_statuses(std::ostream& out) {
  out << ".SH \"EXIT STATUS\"\nEach verb's own are in its section above.\n";
  for (const auto& [code, meaning] : exit_statuses())
    out << ".TP\n.B " << code << "\n" << roff(meaning) << "\n";
}

/// ENVIRONMENT: TMPDIR, then the variables that change buffering.
void write_environment(std::ostream& out) {
  out << k_environment;
  for (const auto& v : buffering_variables())
    out << ".TP\n.B " << roff(v.name) << "\n" << roff(v.what) << "\n";
}

}  // namespace

std::string man_page(const CLI::App& app) {
  std::ostringstream out;
  out << ".TH FLUSHCHECK 1 \"\" \"flushcheck " << FLUSHCHECK_VERSION << "\" \"User Commands\"\n"
      << ".SH NAME\nflushcheck \\- " << roff(without_prefix(app.get_description())) << "\n";
  write_synopsis(out, app);
  out << k_description << ".SH COMMANDS\n";
  for (const CLI::App* verb : app.get_subcommands({})) write_verb(out, verb);
  out << ".SH OPTIONS\nThese come before the command.\n";
  for (const CLI::Option* opt : app.get_options()) write_option(out, opt);
  write_exit_statuses(out);
  write_environment(out);
  out << ".SH FILES\n" << k_files << k_examples << k_see_also;
  return out.str();
}

}  // namespace flushcheck::cli
