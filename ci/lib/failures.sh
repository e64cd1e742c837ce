# Shared by ci/test and ci/flakes (sourced): print what ctest's logs say of
# the tests that failed.

# Each failed test's output (the last 200 lines), then each one's first
# failure in short, last, where a log's tail shows it. DIR is ctest's
# Testing/Temporary folder.
failures() {
  local dir=$1 name
  [ -f "$dir/LastTestsFailed.log" ] && [ -f "$dir/LastTest.log" ] || return 0
  while IFS=: read -r _ name; do
    echo "== output of failed test $name"
    section "$dir/LastTest.log" "$name" | tail -n 200
  done < "$dir/LastTestsFailed.log"
  echo "== failed, in short"
  while IFS=: read -r _ name; do
    echo "$name"
    section "$dir/LastTest.log" "$name" |
      grep -m 1 -A 8 -E ': Failure$|Exception|Sanitizer|Timeout' || true
  done < "$dir/LastTestsFailed.log"
}

# The part of ctest's LastTest.log for the test NAME (matched literally).
section() {
  t="$2" awk '
    { i = index($0, " Testing: ") }
    i && substr($0, i + 10) == ENVIRON["t"] { on = 1 }
    on { print }
    on && / end time: / { exit }' "$1"
}
