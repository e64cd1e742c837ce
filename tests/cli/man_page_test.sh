#!/bin/sh
# flushcheck(1) as the build wrote it: what the binary prints now, rendered by
# groff with every warning on (-ww) and by man -l without a word on stderr,
# with every option of every verb in it. The locale is set (C.UTF-8, which
# every Debian has): man warns on stderr when the caller's is not installed.
#   man_page_test.sh FLUSHCHECK PAGE
set -eu
flushcheck=$1 page=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! command -v groff >/dev/null; then
  echo "skipped: groff is not installed (Debian package groff-base)"
  exit 77
fi
"$flushcheck" --manpage | cmp - "$page" || { echo "the page is not what --manpage prints now" >&2; exit 1; }
LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>"$work/groff.err"
if test -s "$work/groff.err"; then
  echo "groff -ww warned:" >&2; cat "$work/groff.err" >&2; exit 1
fi
if command -v man >/dev/null; then
  LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat man -l "$page" >"$work/page.txt" 2>"$work/man.err"
  if test -s "$work/man.err"; then echo "man -l said:" >&2; cat "$work/man.err" >&2; exit 1; fi
  grep -q "EXIT STATUS" "$work/page.txt"
else
  echo "note: man is not installed (Debian package man-db): rendered with groff only"
fi
# every verb has its section, every option of it its entry (as man(7) source: \-\-NAME)
for verb in run matrix count explore gate bench doctor model targets; do
  grep -q "^\.SS \"$verb\"" "$page" || { echo "no section for $verb" >&2; exit 1; }
  for option in $("$flushcheck" "$verb" --help | sed -n 's/^ *\(-[a-zA-Z],\)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p'); do
    roff=$(printf '%s' "$option" | sed 's/-/\\\\-/g')
    grep -q "fB$roff" "$page" || { echo "$verb $option is not in the page" >&2; exit 1; }
  done
done
for section in NAME SYNOPSIS DESCRIPTION COMMANDS '"EXIT STATUS"' ENVIRONMENT FILES EXAMPLES; do
  grep -q "^\.SH $section" "$page" || { echo "no section $section" >&2; exit 1; }
done
echo "man_page_test: the page renders without warnings and names every verb and option"
