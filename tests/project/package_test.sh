#!/bin/sh
# Installs flushcheck from BUILD into a fresh prefix, then configures, builds
# and runs docs/gate-example against it, as a user's CI would (docs/gate.md).
#   package_test.sh CMAKE BUILD SOURCE WORK GENERATOR
set -eu
cmake=$1 build=$2 source=$3 work=$4 generator=$5
rm -rf "$work"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
"$work/prefix/bin/flushcheck" explore --help >/dev/null
# the installed binary finds the installed targets, relative to itself
"$work/prefix/bin/flushcheck" --version >"$work/version.txt"
grep -q "^toolchain sets in $work/prefix/lib/flushcheck:" "$work/version.txt"
grep -q "^  default: glibc" "$work/version.txt"
test -f "$work/prefix/lib/flushcheck/runtimes/script.py"
test -f "$work/prefix/lib/flushcheck/skipped-sets.txt"
test -f "$work/prefix/share/man/man1/flushcheck.1"
test -f "$work/prefix/share/bash-completion/completions/flushcheck"
# the public API is installed (docs/architecture.md), the stages' internals
# are not, and no installed header needs nlohmann/json
inc=$work/prefix/include/flushcheck
test -f "$inc/gate.hpp"
for internal in tracer.hpp perf_counter.hpp run.hpp model.hpp conformance.hpp gate_report.hpp \
  sink.hpp unique_fd.hpp temporary.hpp; do
  if test -e "$inc/$internal"; then
    echo "package_test: internal header $internal was installed" >&2
    exit 1
  fi
done
# every header an installed header includes is installed: the set is closed
for h in "$inc"/*.hpp; do
  for dep in $(sed -n 's/^#include "\([^"/]*\)"$/\1/p' "$h"); do
    if ! test -f "$inc/$dep"; then
      echo "package_test: $(basename "$h") includes $dep, which is not installed" >&2
      exit 1
    fi
  done
done
if grep -l 'nlohmann' "$inc"/*.hpp >&2; then
  echo "package_test: an installed header includes nlohmann/json (above)" >&2
  exit 1
fi
"$cmake" -S "$source/docs/gate-example" -B "$work/build" -G "$generator" \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
"$cmake" --build "$work/build" -j 2
cd "$work/build"
ctest --output-on-failure
ctest -N | grep -q "minilog_gate.catches_a_logger_without_flush_on"
ctest -N | grep -q "minilog_file.catches_a_logger_without_flush_on"
echo "package_test: the installed package built and ran the example gate"
