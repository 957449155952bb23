"""Checks exported projects with the real parsers; driven by test/hostile/harness.ts.

Reads one JSON manifest per line on stdin (a list of projects, see harness.ts) and writes
one JSON report per line: {"projects": [{"id", "problems": [...]}], "stats": {...}}.
Needs Python >= 3.11 (tomllib) and PyYAML. Standard library otherwise: the generated code
is parsed, never imported, so no framework is needed.

What is checked, per project:
  - the tree on disk is exactly the file set: no extra file, no symlink, nothing outside
    the root; the ZIP's entries are the same paths under one prefix, none absolute or `..`;
  - every .py file parses and compiles (warnings are errors), every YAML (no duplicate key),
    TOML and JSON (no duplicate key) file loads, every text file is UTF-8, the package is
    an identifier that shadows no keyword or standard-library module, and the pyproject
    name is a valid distribution name;
  - no generated file but the prompts and the provenance copy holds a raw control or
    bidi character, .env.example holds names only, and a workflow's `${{ }}` expressions
    and `run:` commands hold nothing from the definition;
  - every expected string is recovered from the parsed values (see expectations.ts);
  - each prompt, rendered by the project's own functions (prompts.py, CrewAI's texts.py),
    equals the rendering the team model documents.
"""

from __future__ import annotations

import ast
import json
import keyword
import os
import re
import secrets
import sys
import tomllib
import warnings
import zipfile
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

BIDI_OR_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
MD_ESCAPE = re.compile(r"\\(.)", re.S)
GHA_EXPRESSION = re.compile(r"\$\{\{.*?\}\}", re.S)
# The generator's own expressions: a secret or variable by name, and the workflow run's id
# (the Actions cache key of waiting runs).
GHA_ALLOWED = re.compile(r"\$\{\{ ((secrets|vars)\.[A-Z][A-Z0-9_]*|github\.run_id) \}\}")
SAFE_RUN = re.compile(r"[A-Za-z0-9_ .:+$\"{}/=@&-]*")  # & : the generator's own `sweep && run`
ENV_LINE = re.compile(r"[A-Z][A-Z0-9_]*=")
# Lines the templates write themselves, never from a definition: values are allowed there.
FIXED_ENV_LINES = frozenset({"LANGGRAPH_NO_VERSION_CHECK=true"})
DISTRIBUTION = re.compile(r"([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])", re.I)  # PEP 508


class UniqueKeyLoader(yaml.SafeLoader):
    """yaml.safe_load, the loader the generated projects use (pure Python: libyaml refuses
    a `\\ud800` escape), refusing duplicate keys."""


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise ValueError(f"duplicate YAML key {key!r}")
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def _json_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate JSON key")
    return dict(pairs)


def strings_in(value: Any, out: list[str]) -> None:
    """Every string in loaded data, keys included."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            strings_in(k, out)
            strings_in(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            strings_in(v, out)


def python_strings(source: str, path: str) -> tuple[list[str], ast.Module]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tree = ast.parse(source, path)
        compile(tree, path, "exec", dont_inherit=True)
    out = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    # A key can also be carried as a class field's name (pydantic models, TypedDicts).
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef):
            out += [n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
    return out, tree


def entities_undone(source: str) -> str:
    """Markdown documents (md_doc) show raw HTML as text through these two entities."""
    return source.replace("&lt;", "<").replace("&amp;", "&")


def display(value: str) -> str:
    """A one-line Markdown rendering of a definition string (mdText): line breaks as spaces, invisible characters dropped."""
    flat = re.sub(r"\r\n|\r|\n", " ", value)
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]", "", flat)


def prompt_functions(tree: ast.Module) -> dict[str, Any] | None:
    """`PLACEHOLDER`, `render` and `placeholder_values` from the project's rendering module (placeholders.py), run as written."""
    wanted = [
        node
        for node in tree.body
        if (isinstance(node, ast.FunctionDef) and node.name in ("render", "placeholder_values", "reference_name"))
        or (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets))
    ]
    namespace: dict[str, Any] = {"re": re, "json": json, "secrets": secrets, "Mapping": Mapping, "Sequence": Sequence, "Any": Any}
    module = ast.Module(body=wanted, type_ignores=[])
    try:
        exec(compile(module, "prompts.py", "exec"), namespace)
    except Exception:
        return None
    return namespace if "render" in namespace and "placeholder_values" in namespace else None


def check_project(p: dict[str, Any], stats: dict[str, int]) -> list[str]:
    problems: list[str] = []
    root = os.path.realpath(p["root"])
    expected_files = set(p["files"])

    # The tree on disk is the file set, and nothing lies outside the root.
    found: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            if os.path.islink(full):
                problems.append(f"symlink in output: {os.path.relpath(full, root)}")
        for name in filenames:
            full = os.path.join(dirpath, name)
            if not os.path.realpath(full).startswith(root + os.sep):
                problems.append(f"path outside the output: {full}")
            found.add(os.path.relpath(full, root).replace(os.sep, "/"))
    # The package: an identifier that is no keyword and shadows no standard-library module.
    for package in {rel.split("/")[1] for rel in expected_files if rel.startswith("src/") and rel.count("/") > 1}:
        if not package.isidentifier() or keyword.iskeyword(package) or package in sys.stdlib_module_names:
            problems.append(f"package name {package!r} cannot be imported as itself")
    if found != expected_files:
        problems.append(f"tree differs from the file set: extra {sorted(found - expected_files)[:5]}, missing {sorted(expected_files - found)[:5]}")
    if p.get("zip"):
        with zipfile.ZipFile(p["zip"]) as archive:
            names = archive.namelist()
            bad = [n for n in names if n.startswith("/") or "\\" in n or ".." in n.split("/") or re.match(r"[A-Za-z]:", n)]
            if bad:
                problems.append(f"unsafe archive entries: {bad[:5]}")
            if archive.testzip() is not None:
                problems.append("corrupt archive entry")
            prefix = p["zipPrefix"]
            if sorted(names) != sorted(prefix + f for f in expected_files):
                problems.append("archive entries differ from the file set")

    pool: list[str] = []
    markdown: list[str] = []
    modules: dict[str, ast.Module] = {}
    for rel in p["parse"]:
        path = os.path.join(root, rel)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            problems.append(f"{rel}: unreadable or not UTF-8: {error}")
            continue
        stats["files"] += 1
        is_prompt = "/prompts/" in rel and rel.endswith(".txt")
        if rel != p["provenance"] and not is_prompt and not rel.endswith(".md"):
            bad = BIDI_OR_CONTROL.search(text)
            if bad:
                problems.append(f"{rel}: raw control or bidi character U+{ord(bad.group()):04X}")
        if rel.endswith(".md") and re.search(r"[\x00\u202a-\u202e\u2066-\u2069]", text):
            problems.append(f"{rel}: raw NUL or bidi character")
        try:
            values: list[str] = []
            if rel.endswith(".py"):
                values, tree = python_strings(text, rel)
                modules[rel] = tree
            elif rel.endswith((".yaml", ".yml")):
                loaded = yaml.load(text, Loader=UniqueKeyLoader)
                strings_in(loaded, values)
                if rel.startswith(".github/workflows/"):
                    problems += check_workflow(rel, text, loaded)
            elif rel.endswith(".toml"):
                loaded = tomllib.loads(text)
                strings_in(loaded, values)
                name = loaded.get("project", {}).get("name") if rel == "pyproject.toml" else None
                if name is not None and not DISTRIBUTION.fullmatch(name):
                    problems.append(f"{rel}: not a valid distribution name: {name!r}")
            elif rel.endswith(".json"):
                strings_in(json.loads(text, object_pairs_hook=_json_pairs), values)
            elif rel.endswith(".txt"):
                values = [text]
            elif rel.endswith(".md"):
                markdown.append(text)
            elif rel == ".env.example":
                for line in text.splitlines():
                    if line in FIXED_ENV_LINES:
                        continue
                    if line and not line.startswith("#") and not ENV_LINE.fullmatch(line):
                        problems.append(f"{rel}: not a bare name: {line[:80]!r}")
        except Exception as error:  # noqa: BLE001 - every parser failure is a finding
            problems.append(f"{rel}: does not parse: {type(error).__name__}: {str(error)[:300]}")
            stats["syntax_errors"] += 1
            continue
        if rel != p["provenance"]:
            pool += values
    # Strings parsed on the TypeScript side (harness.ts: langgraph-js's .ts files).
    pool += p.get("strings", [])
    stats["strings"] += len(pool)

    exact = set(pool)
    shown = MD_ESCAPE.sub(r"\1", "\n".join(markdown))
    document = entities_undone("\n".join(markdown))
    for e in p["expect"]:
        stats["expectations"] += 1
        value, how = e["value"], e["how"]
        ok = (
            value in exact
            if how == "exact"
            else any(value in s for s in pool)
            if how == "inside"
            else display(value) in shown
            if how == "markdown"
            else value in document
            if how == "document"
            else False
        )
        if not ok:
            stats["not_exact"] += 1
            problems.append(f"not recovered ({how}) {e['pointer']}: {json.dumps(value)[:200]}")

    prompts = p.get("prompts")
    if prompts:
        tree = modules.get(prompts["module"])
        functions = prompt_functions(tree) if tree else None
        if functions is None:
            problems.append(f"{prompts['module']}: no render/placeholder_values to check prompts with")
        else:
            values = call_placeholder_values(functions["placeholder_values"], prompts)
            for agent in prompts["agents"]:
                with open(os.path.join(root, agent["file"]), "rb") as handle:
                    raw = handle.read().decode("utf-8")
                if "entry" in agent:  # CrewAI: the backstory of the agent's agents.yaml entry
                    raw = yaml.safe_load(raw)[agent["entry"]]["backstory"]
                got = functions["render"](raw, values)
                want = agent["rendered"]
                if got != want:
                    stats["not_exact"] += 1
                    at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
                    problems.append(
                        f"prompt of {agent['key']!r} renders differently from the model at {at}: "
                        f"{json.dumps(got[max(0, at - 40):at + 80])} != {json.dumps(want[max(0, at - 40):at + 80])}"
                    )
    return problems


def call_placeholder_values(fn: Any, prompts: dict[str, Any]) -> dict[str, str]:
    import inspect

    params = inspect.signature(fn).parameters
    kwargs = {"declared": prompts["declared"]} if "declared" in params else {}
    return fn(prompts["envNames"], prompts["environ"], prompts["inputs"], **kwargs)


def check_workflow(rel: str, text: str, loaded: Any) -> list[str]:
    problems = []
    found: list[str] = []
    strings_in(loaded, found)
    for s in found:
        for expr in GHA_EXPRESSION.findall(s):
            if not GHA_ALLOWED.fullmatch(expr):
                problems.append(f"{rel}: expression from outside the generator: {expr[:80]!r}")

    def runs(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "run" and isinstance(v, str) and not SAFE_RUN.fullmatch(v):
                    problems.append(f"{rel}: unexpected characters in a run command: {v[:80]!r}")
                runs(v)
        elif isinstance(node, list):
            for v in node:
                runs(v)

    runs(loaded)
    return problems


def main() -> None:
    for line in sys.stdin:
        stats = {"files": 0, "strings": 0, "expectations": 0, "not_exact": 0, "syntax_errors": 0}
        report = []
        for project in json.loads(line):
            try:
                problems = check_project(project, stats)
            except Exception as error:  # noqa: BLE001 - a checker crash is reported, not hidden
                problems = [f"checker crashed: {type(error).__name__}: {error}"]
            report.append({"id": project["id"], "problems": problems})
        sys.stdout.write(json.dumps({"projects": report, "stats": stats}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
