#!/usr/bin/env bash
# The bash completion as the build wrote it, run as bash runs it for Tab:
# `complete -F` names _flushcheck, which is called with COMP_LINE and
# COMP_POINT set and bash's own COMP_WORDBREAKS, and what it puts in
# COMPREPLY replaces the word after its last break (after '=', ':'; from an
# '@', which readline keeps in the word). Checked by hand in bash 5.2 under
# tmux: "run --kill=KILL@ma" Tab gives "--kill=KILL@marker:".
#   completion_test.sh FLUSHCHECK SCRIPT
set -u
flushcheck=$1 script=$2
"$flushcheck" --completion=bash | cmp - "$script" || {
  echo "the script is not what --completion=bash prints now" >&2
  exit 1
}
# shellcheck source=/dev/null
source "$script"
[[ $(complete -p flushcheck) == "complete -F _flushcheck flushcheck" ]] || {
  echo "flushcheck is not completed by _flushcheck: $(complete -p flushcheck)" >&2
  exit 1
}
COMP_WORDBREAKS=$' \t\n"\'@><=;|&(:'  # bash's default (interactive shells set it)
failed=0
expect() {  # LINE EXPECTED: the candidates for LINE with the cursor at its end
  COMP_LINE=$1 COMP_POINT=${#1} COMPREPLY=()
  _flushcheck
  local got="${COMPREPLY[*]}"
  if [[ $got != "$2" ]]; then
    echo "FAIL: [$1] gave [$got], expected [$2]" >&2
    failed=1
  fi
}
expect "flushcheck " "run matrix count explore gate bench doctor model targets workload durability"
expect "flushcheck ex" "explore"
expect "flushcheck --ver" "--version"
expect "flushcheck run --st" "--stdout --stderr --stdin"
expect "flushcheck run --stdout=" "pty pty-cooked pipe file null full"
expect "flushcheck run --stdout=pty" "pty pty-cooked"
expect "flushcheck run --stdout p" "pty pty-cooked pipe"
expect "flushcheck run --stderr=std" "stdout"
expect "flushcheck run --kill=TE" "TERM@"
expect "flushcheck run --kill=KILL@m" "@marker:"  # readline keeps the '@' in the word
expect "flushcheck run --kill=KILL@stderr" "@stderr:write: @stderr:after-write:"
expect "flushcheck run --kill=KILL@stderr:wr" "write:"
expect "flushcheck run --reader=pa" "paused paused-until=marker: paused-then-close="
expect "flushcheck run --keep=e" "ends:"
expect "flushcheck run --fault=EPI" "EPIPE@"
expect "flushcheck count --fault=ENOSPC@e" "@every"
expect "flushcheck explore --stdout=pipe,f" "pipe,file"  # explore takes no /dev/full sink
expect "flushcheck explore --signal=KILL,TE" "KILL,TERM"
expect "flushcheck explore --faults=EAGAIN,sh" "EAGAIN,short:"
expect "flushcheck count --backend p" "ptrace perf"
expect "flushcheck bench p" "pipe pagecache program"
expect "flushcheck --completion=" "bash"
expect "flushcheck run --json --kill=KILL@time:5 -- flushcheck-no-such-prog" ""
# An empty line said "bad array subscript"; a word of 20,000 characters took
# 44 s (two loops quadratic in its length): candidates as for a short one.
errors=$( { expect "" "run matrix count explore gate bench doctor model targets workload durability"; } 2>&1 )
[[ -z $errors ]] || { echo "FAIL: an empty line printed: $errors" >&2; failed=1; }
long=$(printf 'a%.0s' {1..20000})
expect "flushcheck run --stdout=$long" ""
expect "flushcheck run --kill=KILL@$long" ""
expect "flushcheck explore --stdout=pipe,$long,f" "pipe,${long},file"
# every option of every verb is offered after "--"
for verb in run matrix count explore gate bench doctor model targets workload durability; do
  for option in $("$flushcheck" "$verb" --help | sed -n 's/^ *\(-[a-zA-Z],\)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p'); do
    [[ " $(_flushcheck_options "$verb") " == *" $option "* ]] || {
      echo "FAIL: $verb $option is not completed" >&2
      failed=1
    }
  done
done
((failed == 0)) && echo "completion_test: every prefix gave its candidates"
exit "$failed"
