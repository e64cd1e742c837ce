// Why a stream is held back, in words: from the language table for a
// runtime, from C stdio's rules for a native program, and only as far as the
// runs bear it out.
#include "doctor_why.hpp"

#include <algorithm>

#include "languages.hpp"

namespace flushcheck {

namespace {

/// Why a native program writes in lines on a terminal and in blocks elsewhere.
std::string stdio_why(const program_kind& k) {
  if (k.elf.is_static)
    return "a static program holds output in a buffer of its own (C stdio fully buffers a "
           "stdout that is not a terminal, ISO C 7.21.3p7), and no LD_PRELOAD (stdbuf) reaches "
           "a static program";
  if (!k.recognised || k.elf.libc == libc_impl::unknown)
    return "it writes line by line to a terminal and in blocks otherwise: it holds output in a "
           "buffer before writing it";
  return "C stdio fully buffers a stdout that is not a terminal (ISO C 7.21.3p7; glibc "
         "libio/filedoalloc.c, musl src/stdio/__stdout_write.c)";
}

/// The most writes the program made on a sink other than the pty.
long most_writes_elsewhere(const diagnosis& d) {
  long elsewhere = 0;
  for (std::size_t i = 1; i < d.sinks.size(); ++i)
    elsewhere = std::max(elsewhere, d.sinks[i].writes);
  return elsewhere;
}

/// Why, when it writes the same way to a terminal as elsewhere.
std::string same_everywhere_why(long on_pty, long elsewhere) {
  return "it writes the same way to a terminal (" + std::to_string(on_pty) + " write(s) there, " +
         std::to_string(elsewhere) +
         " elsewhere): what a cut loses was in a buffer of its own or in a write not yet made";
}

}  // namespace

std::string why(const program_kind& k, const diagnosis& d) {
  if (d.held())
    return "it holds its output in a buffer of its own on a terminal too (a Go bufio.Writer, a "
           "Rust BufWriter, a Java BufferedOutputStream, a logging library, setvbuf): no reader "
           "gets a line before that buffer is written";
  const long elsewhere = most_writes_elsewhere(d);
  const long on_pty = d.sinks.front().writes;
  const bool out = d.stream != doctor_stream::err;
  if (out && k.runtime && *facts_of(*k.runtime).held_because != '\0')
    return facts_of(*k.runtime).held_because;
  if (on_pty > elsewhere)  // it flushes more often to a terminal
    return out ? stdio_why(k) : "it writes stderr in lines to a terminal and in blocks otherwise";
  return same_everywhere_why(on_pty, elsewhere);
}

}  // namespace flushcheck
