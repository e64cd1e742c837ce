# Shared by ci/test-in and ci/distro (sourced): one Debian root per release,
# made once with debootstrap, with the kernel's file systems bound in for a
# run and a clean clone of what is committed here in /opt/flushcheck.
#
# The caller sets SUITE and NAME (its own name, for messages); this sets CACHE
# and ROOT ($FLUSHCHECK_DISTRO_CACHE/SUITE, /var/cache/flushcheck/SUITE).
CACHE=${FLUSHCHECK_DISTRO_CACHE:-/var/cache/flushcheck}
ROOT=$CACHE/$SUITE
MIRROR=${FLUSHCHECK_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# Root, debootstrap and the archive are needed: exit 2 without root, 3 when
# debootstrap cannot make the release's root.
need_root() {
  if [[ $(id -u) -ne 0 ]]; then
    echo "$NAME: needs root (debootstrap, chroot and bind mounts): run it as root, or with sudo" >&2
    exit 2
  fi
  command -v debootstrap >/dev/null ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >&2
}

make_root() {
  [[ -x $ROOT/usr/bin/apt-get && -e $ROOT/.flushcheck-root ]] && return 0
  echo "$NAME: creating the Debian $SUITE root in $ROOT (a few minutes, once)" >&2
  rm -rf "$ROOT" && mkdir -p "$CACHE"
  if ! debootstrap --variant=minbase --include=ca-certificates,git "$SUITE" "$ROOT" "$MIRROR" \
      >"$CACHE/$SUITE.debootstrap.log" 2>&1; then
    echo "$NAME: debootstrap $SUITE failed: no route to $MIRROR, or the suite is unknown" \
         "(log: $CACHE/$SUITE.debootstrap.log)" >&2
    exit 3
  fi
  touch "$ROOT/.flushcheck-root"
}

# The kernel's file systems, as a machine of that release has them: the
# tests need /proc (fds, process trees), /sys (tracefs, perf), /dev/pts (ptys).
# Unmounted when the caller's shell exits, however it exits.
MOUNTED=()
bind_mounts() {
  trap unmount_all EXIT
  mount -t proc proc "$ROOT/proc" && MOUNTED=("$ROOT/proc")
  local d
  for d in sys dev; do
    mount --rbind "/$d" "$ROOT/$d" && mount --make-rslave "$ROOT/$d" && MOUNTED+=("$ROOT/$d")
  done
}
unmount_all() {
  local m
  for m in "${MOUNTED[@]}"; do umount -R -l "$m" 2>/dev/null || true; done
  MOUNTED=()
}

# The host's way to the archive in the root: DNS, a proxy, a frozen mirror's
# Check-Valid-Until.
archive_access() {
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  grep -lsE '^[^/#]*Acquire::(http|https)?:?:?(Proxy|Check-Valid-Until|Check-Date)' \
    /etc/apt/apt.conf.d/* | xargs -r cp -t "$ROOT/etc/apt/apt.conf.d/"
}

# A clean clone of HEAD in the root's /opt/flushcheck, with archive_access.
# Prints the clone's short commit.
clone_into_root() {
  archive_access
  rm -rf "$ROOT/opt/flushcheck"
  git clone -q --no-local "$PWD" "$ROOT/opt/flushcheck"
  git -C "$ROOT/opt/flushcheck" rev-parse --short HEAD
}

# Runs bash -c SCRIPT ARGS... in the root, in DIR, with a clean environment
# (what a user of that release starts from; PYTHONUNBUFFERED passes, as
# machines here export it and the tests must not depend on it).
root_shell() {
  local dir=$1 script=$2
  shift 2
  chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    ${PYTHONUNBUFFERED:+PYTHONUNBUFFERED=$PYTHONUNBUFFERED} /bin/bash -c "cd $dir && $script" "$NAME" "$@"
}

# root_shell in the root's clone of flushcheck (/opt/flushcheck).
in_root() {
  local script=$1
  shift
  root_shell /opt/flushcheck "$script" "$@"
}

# "2.41 / 14.2.0": the root's glibc and g++.
root_versions() {
  chroot "$ROOT" /bin/sh -c \
    'echo "$(ldd --version | head -1 | sed "s/.* //") / $(g++ -dumpfullversion 2>/dev/null)"'
}
