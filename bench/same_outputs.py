"""Every example of the README and the docs, run by two versions of the code, byte for byte.

    python bench/same_outputs.py [REF] [--docs] [--only TEXT] [--write-docs]

REF (default: HEAD) is checked out into a temporary `git worktree`; each `$ hazard-dsl …` line of
README.md (and, with --docs, of every docs/*.md) runs once with that tree first on `PYTHONPATH` and
once with the working tree's, each in its own empty folder with the same environment (no cache,
no colour, 80 columns, a fixed HOME). What is compared: the exit status, standard output, standard
error, and every file the command wrote (`-o petty.svg`, `--log session.log`). The README's Python
example runs the same way, a line at a time, printing the `repr` of each expression.

A refactor behind the tests (issue 36) must show no difference here: "Nothing a user sees changes".
A command that is not deterministic by design (a session without `--seed` draws its dice from the
system) is run twice with the reference and reported as such instead of as a difference. Exit
status: 0 when every example is the same, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 300  # seconds for one example: a hang is reported as one, not waited on for ever


def examples(docs: bool) -> list[str]:
    """The `$ hazard-dsl …` lines, without the prompt and the trailing comment, in order, once each."""
    files = [ROOT / "README.md"] + (sorted((ROOT / "docs").glob("*.md")) if docs else [])
    seen: dict[str, None] = {}
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            match = re.match(r"\s*\$ (hazard-dsl .*)", line)
            if not match:
                continue
            command = _without_comment(match[1]).strip()
            if command and "…" not in command and "FILE" not in command:
                seen.setdefault(command, None)
    return list(seen)


def _without_comment(command: str) -> str:
    """The command before a `   # comment`, and before a `> FILE` redirection (standard output is
    compared anyway)."""
    command = re.sub(r"\s+#\s.*$", "", command)
    return re.sub(r"\s>\s*\S+$", "", command)


def python_example() -> str:
    """The README's Python block as a script printing the repr of each expression statement."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Python API\s+```python\n(.*?)```", text, re.DOTALL)
    if not block:
        return ""
    lines = []
    for line in block[1].splitlines():
        code = line.split("  #", 1)[0].rstrip()
        if not code:
            continue
        if re.match(r"^[A-Za-z_][\w.]*\s*=[^=]", code) or code.startswith(("import ", "from ")):
            lines.append(code)
        else:
            lines.append(f"print(repr({code}))")
    return "\n".join(lines) + "\n"


def run_all(tree: Path, cases: list) -> list[tuple]:
    """Every example in order in one folder, as a reader follows the README (`replay session.log`
    reads the log `run … --log session.log` wrote): (status, stdout, stderr, {file: bytes}) each."""
    results = []
    with tempfile.TemporaryDirectory(prefix="same-") as folder:
        env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(tree), "HOME": folder, "NO_COLOR": "1",
               "COLUMNS": "80", "LINES": "40", "HAZARD_DSL_NO_CACHE": "1", "LANG": "C.UTF-8",
               "PYTHONHASHSEED": "0", "TZ": "UTC"}

        def same_words(data: bytes) -> bytes:
            return data.replace(folder.encode(), b"<folder>").replace(str(tree).encode(), b"<tree>")

        seen: dict[str, bytes] = {}
        for _name, command, stdin in cases:
            try:
                done = subprocess.run(command, check=False, cwd=folder, env=env, input=stdin.encode(), capture_output=True,
                                      timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                results.append(("timeout", b"", b"", {}))
                continue
            now = {p.relative_to(folder).as_posix(): same_words(p.read_bytes())
                   for p in sorted(Path(folder).rglob("*")) if p.is_file() and ".cache" not in p.parts}
            written = {name: data for name, data in now.items() if seen.get(name) != data}  # this step's
            seen = now
            results.append((done.returncode, same_words(done.stdout), same_words(done.stderr), written))
    return results


def first_difference(a: bytes, b: bytes) -> str:
    for number, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return f"line {number}:\n    before: {x.decode(errors='replace')[:200]}\n    after:  {y.decode(errors='replace')[:200]}"
    return f"lengths {len(a.splitlines())} and {len(b.splitlines())} lines"


def compare(before: tuple, after: tuple) -> list[str]:
    said = []
    if before[0] != after[0]:
        said.append(f"exit status {before[0]} -> {after[0]}")
    for name, a, b in (("stdout", before[1], after[1]), ("stderr", before[2], after[2])):
        if a != b:
            said.append(f"{name} differs at {first_difference(a, b)}")
    for name in sorted(set(before[3]) | set(after[3])):
        a, b = before[3].get(name), after[3].get(name)
        if a != b:
            said.append(f"file {name} differs" + (f" at {first_difference(a, b)}" if a and b else ""))
    return said


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ref", nargs="?", default="HEAD")
    parser.add_argument("--docs", action="store_true", help="also every docs/*.md example")
    parser.add_argument("--only", help="only the examples containing this text")
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("same_outputs", args.write_docs):
        return compare_trees(args)


def compare_trees(args) -> int:

    with tempfile.TemporaryDirectory(prefix="same-ref-") as holder:
        before_tree = Path(holder) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(before_tree), args.ref],
                       check=True)
        try:
            cases = [(c, [sys.executable, "-m", "hazard_dsl", *shlex.split(c)[1:]], "")
                     for c in examples(args.docs)]
            script = python_example()
            # a session without --seed draws from the system: the same command with a seed too
            cases += [(c + " --seed 1", [*command, "--seed", "1"], "") for c, command, _ in list(cases)
                      if re.match(r"hazard-dsl (run|play) ", c) and "--seed" not in c and "--dice" not in c]
            if script:
                cases.append(("README's Python example", [sys.executable, "-c", script], ""))
            if args.only:
                cases = [case for case in cases if args.only in case[0]]

            with ThreadPoolExecutor(2) as pool:
                before, after = pool.map(lambda tree: run_all(tree, cases), (before_tree, ROOT))
            again = None
            same = changed = 0
            for index, (name, _command, _stdin) in enumerate(cases):
                differences = compare(before[index], after[index])
                if differences:
                    again = again or run_all(before_tree, cases)
                    if compare(before[index], again[index]):
                        print(f"varies  {name}  (differs between two runs of {args.ref} itself)")
                        continue
                    changed += 1
                    print(f"CHANGED {name}")
                    for line in differences:
                        print("   ", line)
                else:
                    same += 1
                    print(f"same    {name}")
            print(f"{same} the same, {changed} changed, of {len(cases)} examples ({args.ref} against the working tree)")
            return 1 if changed else 0
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before_tree)], check=False)


if __name__ == "__main__":
    sys.exit(main())
