#!/bin/sh
# finding: after one failed write log4cplus's ConsoleAppender drops every later record, without a word
# library: log4cplus
#
# Needs a C++ compiler, liblog4cplus-dev (pkg-config log4cplus) and strace.
set -eu
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
c++ -std=c++17 -O2 -o "$work/repro" repro.cpp $(pkg-config --cflags --libs log4cplus) -pthread
cd "$work"
touch err
# A record on stderr is two write(2) calls ("record N", then "\n"): the 3rd is record 1's text.
strace -f -o /dev/null -P "$(pwd -P)/err" -e trace=write -e inject=write:error=EIO:when=3 ./repro >out 2>err
kept=$(grep -c '^record' err || true)
echo "stderr: $(tr '\n' '|' <err) ($kept of 10; the write of record 1 failed with EIO)"
echo "stdout: $(cat out)"
echo "expected: records 2..9 written, or the failure reported through the appender's ErrorHandler"
echo "  (appender.h: \"used to 'handle' errors encountered in an Appender\"; FileAppender reports"
echo "  \"file is not open\" and reopens after ReopenDelay). ConsoleAppender::append"
echo "  (src/consoleappender.cxx) never looks at the stream: std::cerr keeps badbit, every later"
echo "  record (and the program's own std::cerr output) is dropped"
if [ "$kept" -le 1 ] && grep -q "bad() = 1" out; then echo "result: shows"; else echo "result: gone"; fi
echo "version: log4cplus $(pkg-config --modversion log4cplus)"
cd "$here"
