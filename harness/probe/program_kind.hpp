#pragma once
/// What a program is, read from its file: an ELF linked against glibc or
/// musl (or static), with libstdc++ or libc++, or a script whose `#!` names
/// an interpreter, and which runtime that interpreter is. `flushcheck
/// doctor` picks the fixes worth trying from it.
#include <optional>
#include <string>
#include <vector>

#include "profile.hpp"

namespace flushcheck {

/// One ELF file, as far as buffering cares.
struct elf_info {
  bool is_elf = false;     ///< false: not a 64-bit ELF file (a script, ...)
  bool is_static = false;  ///< no PT_INTERP: nothing can be preloaded
  libc_impl libc = libc_impl::unknown;
  cxx_impl cxxlib = cxx_impl::none;  ///< none: not linked against a C++ library
  std::string interp;                ///< PT_INTERP ("/lib64/ld-linux-x86-64.so.2")
  std::vector<std::string> needed;   ///< DT_NEEDED, in order

  /// "dynamic, glibc, libstdc++" / "static".
  std::string describe() const;
};

/// Reads PATH's ELF headers; nullopt if it is not a 64-bit ELF file.
std::optional<elf_info> read_elf(const std::string& path);

struct program_kind {
  std::string path;         ///< the resolved program
  std::string interpreter;  ///< a script's interpreter, resolved ("" for an ELF)
  /// The interpreter as the #! line names it (env's found on PATH), unresolved:
  /// what runs it (a venv's bin/python3 is a link out of the venv).
  std::string interpreter_named;
  /// What its `#!` line gives the interpreter before the script ("-f" of
  /// "#!/usr/bin/awk -f"; env -S splits its words), to run it the same way.
  std::vector<std::string> interpreter_args;
  /// The runtime the program (or its interpreter) is, if flushcheck knows it
  /// (python, node, perl, ruby, java); nullopt for C, C++ and the unknown.
  std::optional<lang> runtime;
  bool recognised = true;  ///< false: a script whose interpreter is no runtime we know
  elf_info elf;            ///< of the program, or of a script's interpreter

  /// One line for people: "a Python script run by /usr/bin/python3.11
  /// (dynamic, glibc)", "an ELF program (static)".
  std::string describe() const;
  /// The file name of what runs: the interpreter's for a script ("mawk"
  /// for "#!/usr/bin/awk -f" where awk is mawk), else the program's.
  std::string name() const;
  /// An ELF program that is no runtime flushcheck knows and no shell: a C or
  /// C++ program (it starts no Python, say).
  bool is_native() const;
};

/// Identifies ARGV (argv[0] resolved on ENV's PATH; `env NAME` shebangs and
/// `python3 script.py` style command lines are followed). Throws spawn_error
/// if argv[0] is not found or not executable.
program_kind identify(const std::vector<std::string>& argv, const std::vector<std::string>& env);

/// A variable that changes buffering, and what it changes.
struct buffering_variable {
  std::string name;
  std::string what;
  std::optional<lang> only;  ///< read only by this runtime: left out for a program of another kind
};

/// The runtimes' own (the language table's switches set by a variable),
/// then those of C stdio, the loader and the C++ loggers: the one list
/// buffering_notes and the man page's ENVIRONMENT read.
std::vector<buffering_variable> buffering_variables();

/// Variables in ENV that change buffering (PYTHONUNBUFFERED, _STDBUF_O,
/// LD_PRELOAD, ...), one note each, worded as what they affect; those only
/// another runtime reads are left out for a program of KIND (nullptr: not
/// known, none left out).
std::vector<std::string> buffering_notes(const std::vector<std::string>& env,
                                         const program_kind* kind);

}  // namespace flushcheck
