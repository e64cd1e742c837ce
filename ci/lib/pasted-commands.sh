#!/usr/bin/env bash
# Runs each command a Markdown file shows as "    $ COMMAND" (with its
# continuation lines, those after a line ending in '\'), as a user pastes it
# into a shell, in a scratch directory. A command passes when flushcheck ran:
# exit 0, or 1 (a finding: something lost, a FAIL); 2, 3 and 4 (usage, could
# not start the program, harness failure) fail. One line per command.
#   pasted-commands.sh FILE.md...
set -u
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0
for file in "$@"; do
  mapfile -d '' -t commands < <(awk '
    /^    \$ / { cmd = substr($0, 7); more = (cmd ~ /\\$/); if (!more) printf "%s%c", cmd, 0; next }
    more { cmd = cmd "\n" $0; more = ($0 ~ /\\$/); if (!more) printf "%s%c", cmd, 0 }
  ' "$file")
  for c in "${commands[@]}"; do
    (cd "$scratch" && bash -c "$c" >"$scratch/out" 2>&1)
    status=$?
    if ((status <= 1)); then
      echo "ok (exit $status): $(head -1 <<<"$c")"
    else
      echo "FAILED (exit $status): $c"
      tail -n 5 "$scratch/out"
      failed=1
    fi
  done
done
exit "$failed"
