#!/bin/sh
# Each installed header compiles alone (issue 58: the installed API exposes
# no header that needs another included first): a translation unit of
# `#include <flushcheck/H>` and nothing else, for every H in
# INCLUDE/flushcheck, compiled by CXX as C++20, two at a time.
#   headers_alone.sh CXX INCLUDE
# Exit status: 0 every header compiles alone; 1 one does not (named, with
# the compiler's first lines); 2 usage.
set -eu
[ $# -eq 2 ] || { echo "usage: headers_alone.sh CXX INCLUDE" >&2; exit 2; }
cxx=$1 include=$2
[ -d "$include/flushcheck" ] || { echo "headers_alone: no $include/flushcheck" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for h in "$include"/flushcheck/*.hpp; do basename "$h"; done |
  CXX=$cxx INCLUDE=$include WORK=$work xargs -P 2 -I{} sh -c '
    printf "#include <flushcheck/%s>\n" "$1" > "$WORK/$1.cpp"
    "$CXX" -std=c++20 -fsyntax-only -I"$INCLUDE" "$WORK/$1.cpp" 2> "$WORK/$1.err" ||
      { echo "headers_alone: flushcheck/$1 does not compile alone:"; head -5 "$WORK/$1.err"; }
  ' sh {} > "$work/report"
cat "$work/report"
n=$(ls "$include"/flushcheck/*.hpp | wc -l)
if [ -s "$work/report" ]; then exit 1; fi
echo "headers_alone: all $n installed headers compile alone"
