#!/bin/sh
# finding: spdlog's stdout/stderr sinks lose a record to a failed write without a word; the file sink reports it
# library: spdlog
#
# Needs a C++ compiler, libspdlog-dev (pkg-config spdlog) and strace.
set -eu
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
c++ -std=c++17 -O2 -o "$work/repro" repro.cpp $(pkg-config --cflags --libs spdlog)
cd "$work"
touch out app.log
strace -f -o /dev/null -P "$(pwd -P)/out" -e trace=write -e inject=write:error=EIO:when=1 \
  ./repro stdout >out 2>err.stdout
strace -f -o /dev/null -P "$(pwd -P)/app.log" -e trace=write -e inject=write:error=EIO:when=1 \
  ./repro file 2>err.file
echo "stdout sink: $(tr '\n' '|' <out) on stderr: $(wc -c <err.stdout) bytes"
echo "file sink:   $(tr '\n' '|' <app.log) on stderr: $(head -c 90 err.file)"
echo "expected (wiki, Error handling): \"If an error happens during logging, the library will print"
echo "  an error message to stderr\"; sinks/stdout_sinks-inl.h calls fwrite and fflush and looks at"
echo "  neither (POSIX branch; the Windows branch throws on a failed WriteFile)"
if ! grep -q "record 0" out && [ ! -s err.stdout ] && grep -q "LOG ERROR" err.file; then
  echo "result: shows"
else
  echo "result: gone"
fi
echo "version: spdlog $(pkg-config --modversion spdlog)"
cd "$here"
