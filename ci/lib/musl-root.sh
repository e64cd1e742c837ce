# Sourced by ci/distro for its release "musl", after ci/lib/debian-root.sh
# (CACHE, ROOT, bind_mounts): a root with no glibc at all, made of two
# Debian packages, musl (its loader and libc, one file) and busybox-static
# (a shell and the usual tools), as an Alpine userland is. No compiler runs
# there (Debian's need glibc): its targets are built outside, with musl-gcc
# linking against the same musl release, and carried in (docs/portable.md).

# The root, made once: the host's musl release (the one musl-gcc links
# against here) and busybox-static, unpacked; busybox's applets as links.
make_musl_root() {
  [[ -x $ROOT/bin/busybox && -e $ROOT/.flushcheck-root ]] && return 0
  echo "$NAME: creating the musl-only root in $ROOT (musl and busybox-static)" >&2
  local musl debs
  musl=$(dpkg-query -W -f='${Version}' musl 2>/dev/null) ||
    { echo "$NAME: musl is not installed here (ci/setup installs musl-tools)" >&2; exit 3; }
  debs=$(mktemp -d) && chmod a+rwx "$debs"  # apt-get download runs as _apt
  if ! (cd "$debs" && apt-get download "musl=$musl" busybox-static) >"$CACHE/musl.download.log" 2>&1; then
    echo "$NAME: apt-get download musl=$musl busybox-static failed (log: $CACHE/musl.download.log)" >&2
    rm -rf "$debs"
    exit 3
  fi
  rm -rf "$ROOT" && mkdir -p "$ROOT"/{proc,sys,dev,tmp,root,opt}
  local deb
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$ROOT"; done
  rm -rf "$debs"
  chmod 1777 "$ROOT/tmp"
  chroot "$ROOT" /bin/busybox --install -s /bin
  touch "$ROOT/.flushcheck-root"
}

# Runs sh -c SCRIPT in the musl root, in DIR, with a clean environment.
musl_shell() {
  local dir=$1 script=$2
  chroot "$ROOT" /bin/busybox env -i HOME=/root LANG=C TERM=dumb PATH=/bin:/usr/bin \
    /bin/sh -c "cd $dir && $script"
}

# "musl 1.2.3": what the root's loader says it is.
musl_root_version() {
  # run alone, the loader prints its usage and version, and exits 1
  { chroot "$ROOT" /lib/ld-musl-x86_64.so.1 2>&1 || true; } | sed -n 's/^Version \(.*\)/musl \1/p'
}
