#!/usr/bin/env python3
"""Checks .github/workflows/ci.yml, which cannot run here: it parses as YAML,
and its job graph holds together. The `portable` job uploads the portable
build, which `record` and `merge` download. Each image of the `record` job uploads one
record artifact, the `merge` job needs that job, downloads every one of those
artifacts, merges what it downloaded and checks each against the baseline
committed in docs/distros/. Exit 0 when all hold, 1 with one line per broken
rule, 77 (skip) without PyYAML.

Usage: workflow_check.py SOURCE_DIR [WORKFLOW]   (default SOURCE_DIR/.github/workflows/ci.yml)
"""
import fnmatch
import os
import re
import sys

try:
    import yaml
except ImportError:
    print("skipped: PyYAML not installed (ci/setup installs python3-yaml)")
    sys.exit(77)


def steps_using(job, action):
    return [s for s in job.get("steps", []) if str(s.get("uses", "")).startswith(action)]


def run_text(job):
    return "\n".join(str(s.get("run", "")) for s in job.get("steps", []))


def expand(template, values):
    """TEMPLATE with ${{ matrix.KEY }} replaced from VALUES."""
    return re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", lambda m: str(values[m.group(1)]), template)


def check_record(job, errors):
    """The record artifacts: one per image, each holding RELEASE.json."""
    include = job.get("strategy", {}).get("matrix", {}).get("include", [])
    if not include:
        errors.append("record: no images in strategy.matrix.include")
    uploads = steps_using(job, "actions/upload-artifact@")
    if len(uploads) != 1:
        errors.append("record: want one upload-artifact step, found %d" % len(uploads))
        return []
    up = uploads[0]["with"]
    if "matrix --all --json >" not in run_text(job):
        errors.append("record: no step writes `matrix --all --json` to a file")
    artifacts = []
    for entry in include:
        name, path = expand(up["name"], entry), expand(up["path"], entry)
        if path != entry["release"] + ".json":
            errors.append("record: %s uploads %s, not %s.json" % (entry["image"], path, entry["release"]))
        if expand("${{ matrix.release }}.json", entry) not in expand(run_text(job), entry):
            errors.append("record: %s never writes %s.json" % (entry["image"], entry["release"]))
        artifacts.append((name, entry["release"]))
    names = [a for a, _ in artifacts]
    if len(set(names)) != len(names):
        errors.append("record: two images upload artifacts of one name: %s" % names)
    return artifacts


def check_merge(job, artifacts, source, errors):
    """Every record artifact is downloaded, merged and checked against its baseline."""
    needs = job.get("needs", [])
    if "record" not in ([needs] if isinstance(needs, str) else needs):
        errors.append("merge: does not need the record job")
    # the records' download is the one by pattern (another may fetch the portable build)
    downloads = [s for s in steps_using(job, "actions/download-artifact@")
                 if "pattern" in s.get("with", {})]
    if len(downloads) != 1:
        errors.append("merge: want one download-artifact step by pattern, found %d" % len(downloads))
        return
    down = downloads[0].get("with", {})
    pattern, path = down.get("pattern", ""), down.get("path", ".")
    if down.get("merge-multiple") is not True:
        errors.append("merge: download-artifact without merge-multiple: records land in subfolders")
    for name, release in artifacts:
        if not fnmatch.fnmatchcase(name, pattern):
            errors.append("merge: artifact %s is not downloaded (pattern %r)" % (name, pattern))
        if not os.path.exists(os.path.join(source, "docs/distros", release + ".json.gz")):
            print("note: no committed record docs/distros/%s.json.gz: %s has no baseline" % (release, release))
    text = run_text(job)
    if "--merge %s/*.json" % path not in text:
        errors.append("merge: no `matrix --merge %s/*.json`" % path)
    if "--baseline" not in text or "docs/distros/" not in text:
        errors.append("merge: no `matrix --baseline` against docs/distros/")


def check_portable(jobs, errors):
    """The portable build is uploaded once and used by every job that records or merges."""
    uploads = steps_using(jobs["portable"], "actions/upload-artifact@")
    name = uploads[0].get("with", {}).get("name") if len(uploads) == 1 else None
    if name is None or "ci/portable" not in run_text(jobs["portable"]):
        errors.append("portable: no step runs ci/portable and uploads its tarball")
        return
    for user in ("record", "merge"):
        got = [s.get("with", {}).get("name") for s in steps_using(jobs[user], "actions/download-artifact@")]
        if name not in got:
            errors.append("%s: does not download the portable build (artifact %s)" % (user, name))
    needs = jobs["record"].get("needs", [])
    if "portable" not in ([needs] if isinstance(needs, str) else needs):
        errors.append("record: does not need the portable job")


def check_jobs(jobs, errors):
    for name, job in jobs.items():
        minutes = job.get("timeout-minutes")
        if not isinstance(minutes, int) or minutes > 90:
            errors.append("%s: timeout-minutes %r (want at most 90)" % (name, minutes))
        for step in job.get("steps", []):
            uses = str(step.get("uses", ""))
            if uses and not re.search(r"@v\d+$", uses):
                errors.append("%s: %s is not pinned to a major version" % (name, uses))


def main():
    source = sys.argv[1]
    path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(source, ".github/workflows/ci.yml")
    with open(path) as f:
        doc = yaml.safe_load(f)
    errors = []
    jobs = doc.get("jobs", {})
    if True not in doc and "on" not in doc:  # YAML 1.1 reads the key `on` as true
        errors.append("no `on:` trigger")
    for needed in ("test", "portable", "record", "merge"):
        if needed not in jobs:
            errors.append("no job %s" % needed)
    if not errors:
        check_jobs(jobs, errors)
        check_portable(jobs, errors)
        artifacts = check_record(jobs["record"], errors)
        check_merge(jobs["merge"], artifacts, source, errors)
        print("%s: %d jobs; record artifacts %s, all merged by `merge`" % (
            path, len(jobs), ", ".join(a for a, _ in artifacts)))
    for e in errors:
        print("workflow_check: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
