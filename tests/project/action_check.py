#!/usr/bin/env python3
"""Checks ci/action/action.yml, the composite GitHub Action, which cannot run
here: it parses as YAML and holds to GitHub's action metadata syntax
(https://docs.github.com/en/actions/creating-actions/metadata-syntax-for-github-actions,
the rules SchemaStore's github-action.json encodes for a composite action):
name, description and runs; each input with a description and only
description, required, default, deprecationMessage; each output with a
description and a value; runs.using composite with steps, each step either
run with shell or uses, and no other keys than a step may have. And what the
metadata cannot say: every inputs.X and steps.X.outputs it reads exists, no
run script expands an input itself (inputs reach scripts through env), every
action it uses is pinned to a version. Exit 0 when all hold, 1 with one line
per broken rule, 77 (skip) without PyYAML.

Usage: action_check.py ACTION_YML
"""
import re
import sys

try:
    import yaml
except ImportError:
    print("skipped: PyYAML not installed (ci/setup installs python3-yaml)")
    sys.exit(77)

ID = re.compile(r"^[_a-zA-Z][a-zA-Z0-9_-]*$")
INPUT_KEYS = {"description", "required", "default", "deprecationMessage"}
STEP_KEYS = {"run", "shell", "uses", "with", "name", "id", "if", "env", "working-directory",
             "continue-on-error"}


def check_metadata(doc, errors):
    for key in ("name", "description", "runs"):
        if key not in doc:
            errors.append(f"no {key}")
    for key in set(doc) - {"name", "author", "description", "inputs", "outputs", "runs",
                           "branding"}:
        errors.append(f"unknown top-level key {key}")
    for name, spec in (doc.get("inputs") or {}).items():
        if not ID.match(name):
            errors.append(f"input {name}: not a valid id")
        if "description" not in spec:
            errors.append(f"input {name}: no description")
        for key in set(spec) - INPUT_KEYS:
            errors.append(f"input {name}: unknown key {key}")
    for name, spec in (doc.get("outputs") or {}).items():
        if "description" not in spec or "value" not in spec:
            errors.append(f"output {name}: a composite action's output needs description and value")


def check_steps(steps, errors):
    ids = set()
    for i, step in enumerate(steps, 1):
        where = f"step {i} ({step.get('name', '?')})"
        if ("run" in step) == ("uses" in step):
            errors.append(f"{where}: needs run or uses, not both")
        if "run" in step and "shell" not in step:
            errors.append(f"{where}: run without shell (a composite step must name it)")
        for key in set(step) - STEP_KEYS:
            errors.append(f"{where}: unknown key {key}")
        if "uses" in step and not re.search(r"@(v\d+|[0-9a-f]{40})$", step["uses"]):
            errors.append(f"{where}: {step['uses']} is not pinned to a version")
        if "${{" in str(step.get("run", "")) and "inputs." in str(step.get("run", "")):
            errors.append(f"{where}: its script expands an input itself (pass it through env)")
        ids.add(step.get("id"))
    return ids


def check_references(text, doc, ids, errors):
    inputs = set(doc.get("inputs") or {})
    for name in sorted(set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text))):
        if name not in inputs:
            errors.append(f"inputs.{name} is read but not declared")
    for name in sorted(set(re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", text))):
        if name not in ids:
            errors.append(f"steps.{name}.outputs is read but no step has id {name}")


def main():
    path = sys.argv[1]
    text = open(path, encoding="utf-8").read()
    doc = yaml.safe_load(text)
    errors = []
    check_metadata(doc, errors)
    runs = doc.get("runs") or {}
    if runs.get("using") != "composite" or not runs.get("steps"):
        errors.append("runs: not a composite action with steps")
    ids = check_steps(runs.get("steps") or [], errors)
    check_references(text, doc, ids, errors)
    for e in errors:
        print(f"{path}: {e}")
    if not errors:
        print(f"{path}: a composite action, {len(doc.get('inputs') or {})} inputs, "
              f"{len(runs['steps'])} steps: holds")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
