#!/usr/bin/env bash
# Runs each command a Markdown file shows, as a user pastes it into a shell,
# in a scratch directory: in FILE.md, each "    $ COMMAND" block (with its
# continuation lines, those after a line ending in '\'); in each FILE.md after
# --repro, each `env -i ... flushcheck ...` or `flushcheck ...` in backticks
# that runs a program (the repro lines of the generated tables).
# A command passes when flushcheck ran: exit 0, or 1 (a finding: something
# lost, a FAIL); 2, 3 and 4 (usage, could not start the program, harness
# failure) fail, but for a program that is not installed here (a runtime
# the package only suggests, a toolchain set it does not carry): that one is
# counted as not run, naming it. One line per command, then the counts.
#   pasted-commands.sh FILE.md... [--repro FILE.md...]
set -u
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0 not_run=0 failed=0

blocks() {  # FILE: its "    $ " commands, NUL-separated
  awk '
    /^    \$ / { cmd = substr($0, 7); more = (cmd ~ /\\$/); if (!more) printf "%s%c", cmd, 0; next }
    more { cmd = cmd "\n" $0; more = ($0 ~ /\\$/); if (!more) printf "%s%c", cmd, 0 }
  ' "$1"
}
repro_lines() {  # FILE: its backticked flushcheck commands that run a program, NUL-separated
  grep -oE '`(env -i [^`]*)?flushcheck [a-z]+ [^`]* -- [^`]*`' "$1" | sort -u | tr -d '`' | tr '\n' '\0'
}
# The program a command runs (the first word after its first " -- "), when it
# is not here: a path that does not exist, or a name not on PATH.
missing_program() {
  local rest=${1#* -- } prog
  prog=${rest%% *}
  prog=${prog//\'/}
  if [[ $prog == */* ]]; then
    [[ -e $prog ]] || echo "$prog"
  else
    command -v "$prog" >/dev/null || echo "$prog"
  fi
}
paste_one() {  # COMMAND
  local c=$1 status missing
  (cd "$scratch" && bash -c "$c" >"$scratch/out" 2>&1)
  status=$?
  if ((status <= 1)); then
    echo "ok (exit $status): $(head -1 <<<"$c")"
    passed=$((passed + 1))
  elif missing=$(missing_program "$c") && [[ -n $missing ]]; then
    echo "not run ($missing is not installed here): $(head -1 <<<"$c")"
    not_run=$((not_run + 1))
  else
    echo "FAILED (exit $status): $c"
    tail -n 5 "$scratch/out"
    failed=$((failed + 1))
  fi
}

mode=blocks
for file in "$@"; do
  [[ $file == --repro ]] && { mode=repro_lines; continue; }
  mapfile -d '' -t commands < <("$mode" "$file")
  for c in "${commands[@]}"; do paste_one "$c"; done
done
echo "pasted: $passed ran, $not_run not run (their program is not installed here), $failed failed"
((failed == 0))
