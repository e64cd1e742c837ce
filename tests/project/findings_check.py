#!/usr/bin/env python3
"""Runs one finding's standalone repro (docs/findings/ID/repro.sh) and checks
that it shows what docs/findings.md says for the library version here.

A repro prints `result: shows` or `result: gone` and `version: LIBRARY X.Y`.
Its header may say `# fixed in: X.Y` (the library fixed it: shows before X.Y,
gone from it) or `# since: X.Y` (a behaviour change: shows from X.Y on);
with neither, the finding is open and must show. A finding that stops
showing fails the test with what to write down, rather than passing in
silence. Exit 0 as documented, 1 not, 77 (skip) when what the repro needs is
missing. With FLUSHCHECK_FINDINGS_TABLE set, appends "ID<TAB>library<TAB>status"
to that file (ci/update-docs: the README's findings table).

Usage: findings_check.py DIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NODE_MODULES = os.path.join(ROOT, "targets/loggers/node/node_modules")

# What each library's repros need, beyond sh, a compiler and strace (globs).
NEEDS = {
    "glibc": [],
    "log4cxx": ["/usr/include/log4cxx/logger.h"],
    "boost-log": ["/usr/include/boost/log/core.hpp"],
    "easyloggingpp": ["/usr/include/easylogging++.cc"],
    "log4cplus": ["/usr/include/log4cplus/logger.h"],
    "log4cpp": ["/usr/include/log4cpp/Category.hh", "/usr/lib/*/pkgconfig/log4cpp.pc"],
    "spdlog": ["/usr/include/spdlog/spdlog.h"],
    "log4js": [os.path.join(NODE_MODULES, "log4js/package.json"), "/usr/bin/node"],
    "winston": [os.path.join(NODE_MODULES, "winston/package.json"), "/usr/bin/node"],
    "env_logger": ["/usr/bin/cargo", "/usr/share/cargo/registry/env_logger-0.9*"],
}
PACKAGES = {"log4cxx": "liblog4cxx-dev", "boost-log": "libboost-log-dev",
            "easyloggingpp": "libeasyloggingpp-dev", "log4cplus": "liblog4cplus-dev",
            "log4cpp": "liblog4cpp5-dev (with pkg-config's log4cpp.pc)",
            "spdlog": "libspdlog-dev", "log4js": "nodejs and log4js (npm ci in targets/loggers/node)",
            "winston": "nodejs and winston (npm ci in targets/loggers/node)",
            "env_logger": "cargo and librust-env-logger-dev 0.9 (Debian 12's)"}


def header(path):
    """The `# key: value` lines at the top of repro.sh."""
    fields = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"# (finding|library|fixed in|since): (.*)", line)
            if m:
                fields[m.group(1)] = m.group(2).strip()
    return fields


def numbers(version):
    return [int(x) for x in re.findall(r"\d+", version)]


def missing(library):
    tools = [t for t in ("cc", "c++", "strace") if shutil.which(t) is None]
    files = [f for f in NEEDS.get(library, []) if not glob.glob(f)]
    if files:
        tools.append(PACKAGES[library])
    return tools


def expectation(fields, version):
    """(should it show here, the status in words)."""
    here = numbers(version.split()[-1])
    if "fixed in" in fields:
        fixed = fields["fixed in"]
        if here >= numbers(fixed):
            return False, "fixed in %s (gone on %s)" % (fixed, version)
        return True, "open on %s (fixed in %s)" % (version, fixed)
    if "since" in fields:
        since = fields["since"]
        if here >= numbers(since):
            return True, "behaviour change since %s (seen on %s)" % (since, version)
        return False, "not yet on %s (since %s)" % (version, since)
    return True, "open (seen on %s)" % version


def run(repro):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C", "HOME": os.environ.get("HOME", "/")}
    p = subprocess.run(["sh", repro], env=env, capture_output=True, text=True, timeout=300)
    sys.stdout.write(p.stdout + p.stderr)
    return p.returncode, p.stdout


def main():
    d = sys.argv[1].rstrip("/")
    name = os.path.basename(d)
    repro = os.path.join(d, "repro.sh")
    fields = header(repro)
    page = os.path.join(os.path.dirname(os.path.dirname(d)), "findings.md")
    if "(findings/%s)" % name not in open(page).read():
        print("%s: docs/findings.md has no section linking findings/%s" % (name, name))
        return 1
    need = missing(fields.get("library", ""))
    if need:
        print("skipped: %s needs %s (Debian packages ci/setup installs where the release has them)"
              % (name, ", ".join(need)))
        return 77
    code, out = run(repro)
    result = re.search(r"^result: (shows|gone)$", out, re.M)
    version = re.search(r"^version: (.+)$", out, re.M)
    if code != 0 or not result or not version:
        print("%s: the repro did not finish (exit %d, no result or version line)" % (name, code))
        return 1
    shows = result.group(1) == "shows"
    want, status = expectation(fields, version.group(1))
    table = os.environ.get("FLUSHCHECK_FINDINGS_TABLE")
    if table:
        with open(table, "a") as f:
            f.write("%s\t%s\t%s\n" % (name, fields.get("library", ""), status if shows == want
                                      else "CHANGED on " + version.group(1)))
    if shows == want:
        print("%s: %s" % (name, status))
        return 0
    if want:
        print("%s: no longer shows on %s. If %s fixed it, write `# fixed in: %s` in repro.sh and "
              "the fix in docs/findings.md" % (name, version.group(1), fields.get("library"),
                                               version.group(1).split()[-1]))
    else:
        print("%s: shows again on %s, though docs/findings.md says: %s" % (
            name, version.group(1), status))
    return 1


if __name__ == "__main__":
    sys.exit(main())
