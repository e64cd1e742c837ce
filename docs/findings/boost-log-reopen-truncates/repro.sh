#!/bin/sh
# finding: after one failed write Boost.Log's text_file_backend reopens its file with trunc, erasing the records before it
# library: boost-log
#
# Needs a C++ compiler, libboost-log-dev and strace.
set -eu
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
c++ -std=c++17 -O2 -DBOOST_LOG_DYN_LINK -o "$work/repro" repro.cpp -lboost_log -lboost_thread -pthread
cd "$work"
touch app.log
strace -f -o /dev/null -P "$(pwd -P)/app.log" -e trace=write -e inject=write:error=ENOSPC:when=3 ./repro
echo "app.log: $(tr '\n' '|' <app.log)"
echo "expected: records 0, 1 and 3..9 (record 2 hit ENOSPC); src/text_file_backend.cpp (consume)"
echo "  reopens the file with its open mode, and text_file_backend.hpp: \"If not specified,"
echo "  trunc | out will be used\""
if [ "$(head -1 app.log)" != "record 0" ]; then echo "result: shows"; else echo "result: gone"; fi
echo "version: boost $(printf '#include <boost/version.hpp>\nBOOST_LIB_VERSION\n' | c++ -E -P - | tail -1 | tr -d '"' | tr _ .)"
cd "$here"
