"""Rebuild every output and figure of the tutorial (docs/tutorial.md) and the README's figures
from the code as it is, so that none of them drifts from what the commands do.

    python docs/build.py            # rewrite the outputs in docs/tutorial.md and docs/figures/*
    python docs/build.py --check    # exit 1, naming the block, if an output in the tutorial differs
                                    # (run on a copy of docs/: nothing here is written)

In docs/tutorial.md:

* a ```console block holds commands, each on a line starting with "$ hazard-dsl", each followed
  by what it prints (standard output, then standard error); the outputs are rewritten;
* ``<!-- file: PATH -->`` before a fenced block: the block is the file's text;
* ``<!-- output: COMMAND -->`` before a fenced block: the block is what the command prints (a
  Mermaid diagram that GitHub draws, say).

A command may end with ``| head -N`` or ``| tail -N`` (only those lines are kept), ``> /dev/null``
(standard output dropped) or ``> FILE`` (written to FILE). Commands run in this process, from the
repository's root, with a terminal 110 columns wide and no colour. Graphviz (`dot`) and
matplotlib must be installed (the figures need them).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = Path("docs/tutorial.md")
COLUMNS = "110"

# The README's figures: one diagram, one chart.
README_FIGURES = [
    "hazard-dsl graph petty --format svg -o docs/figures/petty.svg",
    "hazard-dsl compare cotton hoyle chicken french petty craps --plot docs/figures/edges.png > /dev/null",
]

CONSOLE = re.compile(r"```console\n(.*?)```", re.S)
MARKED = re.compile(r"<!-- (file|output): (.+?) -->\n```([\w-]*)\n(.*?)```", re.S)


def run(command: str) -> str:
    """What a `hazard-dsl …` command prints, run in this process."""
    from hazard_dsl.cli import main

    command, keep, target = _tail(command)
    words = shlex.split(command)
    if not words or words[0] != "hazard-dsl":
        raise ValueError(f"not a hazard-dsl command: {command!r}")
    out, err = io.StringIO(), io.StringIO()
    saved = {k: os.environ.get(k) for k in ("COLUMNS", "NO_COLOR")}
    os.environ.update(COLUMNS=COLUMNS, NO_COLOR="1")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(words[1:])
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    text = out.getvalue()
    if target == "/dev/null":
        text = ""
    elif target:
        Path(target).write_text(text, encoding="utf-8")
        text = ""
    if keep is not None:
        lines = text.splitlines(keepends=True)
        text = "".join(lines[:keep[1]] if keep[0] == "head" else lines[-keep[1]:])
    return text + err.getvalue()


def _tail(command: str):
    """The command without its `| head -N`, `| tail -N` and `> FILE`."""
    target = None
    if ">" in command:
        command, _, target = command.rpartition(">")
        command, target = command.strip(), target.strip()
    keep = None
    match = re.search(r"\|\s*(head|tail)\s+-(\d+)\s*$", command)
    if match:
        keep = (match.group(1), int(match.group(2)))
        command = command[:match.start()].strip()
    return command, keep, target


def _drawn(command: str) -> list[str]:
    """The files a command draws into (`-o`, `--output`, `--plot`), under docs/figures only."""
    words = shlex.split(_tail(command)[0])
    return [b for a, b in zip(words, words[1:])
            if a in ("-o", "--output", "--plot") and b.replace("\\", "/").startswith("docs/figures/")]


def rebuild(text: str) -> str:
    """The tutorial with every output made afresh."""

    def console(match: re.Match) -> str:
        commands = [line[2:] for line in match.group(1).splitlines() if line.startswith("$ ")]
        body = "".join(f"$ {c}\n{run(c)}" for c in commands)
        return f"```console\n{body}```"

    def marked(match: re.Match) -> str:
        kind, what, lang = match.group(1), match.group(2).strip(), match.group(3)
        body = Path(what).read_text(encoding="utf-8") if kind == "file" else run(what)
        if not body.endswith("\n"):
            body += "\n"
        return f"<!-- {kind}: {what} -->\n```{lang}\n{body}```"

    text = MARKED.sub(marked, text)
    return CONSOLE.sub(console, text)


def differences(old: str, new: str) -> list[str]:
    """The blocks (by their first line) whose text differs."""
    olds = CONSOLE.findall(old) + [m[3] for m in MARKED.findall(old)]
    news = CONSOLE.findall(new) + [m[3] for m in MARKED.findall(new)]
    return [(a.splitlines() or ["(empty)"])[0] for a, b in zip(olds, news) if a != b]


def build(root: Path = ROOT, check: bool = False) -> list[str]:
    """Rebuild (or, with `check`, compare) the tutorial and the README's figures under `root`;
    returns the blocks that differ (check) or changed (build)."""
    here = os.getcwd()
    os.chdir(root)
    try:
        old = TUTORIAL.read_text(encoding="utf-8")
        Path("docs/figures").mkdir(exist_ok=True)
        # the figures are drawn afresh: a command's -o and --plot never write over a file (a
        # reader's own would be lost), so the ones this build made before are taken away first
        for command in README_FIGURES + [line[2:] for block in CONSOLE.findall(old)
                                          for line in block.splitlines() if line.startswith("$ ")]:
            for drawn in _drawn(command):
                Path(drawn).unlink(missing_ok=True)
        new = rebuild(old)
        for command in README_FIGURES:
            run(command)
        changed = differences(old, new)
        if not check and new != old:
            TUTORIAL.write_text(new, encoding="utf-8")
        return changed
    finally:
        os.chdir(here)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    sys.path.insert(0, str(ROOT))
    if check:
        import shutil
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(ROOT / "docs", Path(tmp) / "docs")
            changed = build(Path(tmp), check)
    else:
        changed = build(ROOT, check)
    if check and changed:
        print("docs/tutorial.md is out of date in the blocks starting:", *changed, sep="\n  ", file=sys.stderr)
        print("run: python docs/build.py", file=sys.stderr)
        return 1
    print(f"docs/tutorial.md: {len(changed)} block(s) {'differ' if check else 'rewritten'}; figures in docs/figures/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
