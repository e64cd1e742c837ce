#pragma once
/// Bytes made safe to print: for people (explanations, the model's MUST and
/// MAY), for a POSIX shell (repro lines) and for HTML or SVG text.
#include <cstddef>
#include <string>

namespace flushcheck {

/// Bytes for people: \n, \r and \xHH escapes, cut after MAX bytes with a count.
std::string printable(const std::string& data, std::size_t max);

/// S cut to at most MAX bytes (MAX >= 3) at a UTF-8 character's start, with
/// "..." in place of what was cut: a title that must fit.
std::string cut_text(const std::string& s, std::size_t max);

/// S quoted for a shell, on one line: '...', or bash's $'...' when it has a
/// newline (see posix_line).
std::string shell_quote(const std::string& s);

/// LINE, whose words shell_quote quoted, as any POSIX shell (dash, a CI
/// step's sh) runs it: itself, or `bash -c 'LINE'` when BASH_QUOTED (a word
/// had a newline, quoted $'...', which sh does not know).
std::string posix_line(const std::string& line, bool bash_quoted);

/// S as HTML or XML text or a quoted attribute value, the one way for every
/// page, plot and JUnit file: <, >, &, " and ' as entities, tab, newline and
/// carriage return as character references (kept in attributes), and each
/// byte XML 1.0 cannot carry (other control bytes, invalid UTF-8) as the
/// text "\xHH". Valid UTF-8 passes unchanged.
std::string markup_escape(const std::string& s);

/// S for a terminal: valid UTF-8, newline and tab pass; every other control
/// byte (ESC, BEL, CR, DEL, a C1 control) and each byte of invalid UTF-8 as
/// the text "\xHH", so that a record or a program's message cannot set the
/// terminal's title or clear its screen. Every text reporter's last step.
std::string terminal_text(const std::string& s);

/// S on one line of an error message: terminal_text, with newline and tab
/// as \n and \t, so that a value with a newline in it (a flag's, a
/// program's name) still makes the promised one-line error.
std::string error_line(const std::string& s);

/// S as Markdown text on one line (a table cell, a list item): terminal_text,
/// then <, > and & as entities (no raw HTML reaches a forge's page), a line
/// break as a space, and | escaped (a table cell's end).
std::string markdown_text(const std::string& s);

/// S as a Markdown code span on one line (a repro command): in backticks one
/// more than its longest run of them, so nothing in it ends the span.
std::string markdown_code(const std::string& s);

}  // namespace flushcheck
