"""Keep docs/performance.md current: a benchmark run with ``--write-docs`` rewrites its own section
of the page, between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->``, with what the run printed,
when, on what machine and from which commit. Nothing outside the markers is touched, so the prose
around the figures (what is measured, how the program works) stays as written.

    python bench/bench_growth.py --write-docs            # docs/performance.md
    python bench/bench_growth.py --write-docs /tmp/p.md  # another copy of the page

A run that stops early (an error, Ctrl-C) writes nothing: half a table would pass for a whole one.
"""

from __future__ import annotations

import contextlib
import io
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "performance.md"


def add_option(parser) -> None:
    """The ``--write-docs [FILE]`` option every benchmark takes."""
    parser.add_argument("--write-docs", nargs="?", const=str(PAGE), default=None, metavar="FILE",
                        help="write this run's figures into its section of docs/performance.md "
                             "(or of FILE), between its markers")


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def machine() -> str:
    """The machine in one line: system, processor, cores, Python."""
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (f"{platform.system()} {platform.machine()}, {model}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}")


def commit() -> str:
    """The checkout's commit (`-dirty` when its tree has changes not committed), or "unknown"."""
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def section(name: str, output: str, command: str, load: float, when: float | None = None) -> str:
    """The text between (and including) the markers: who wrote it, then the output as printed."""
    begin, end = markers(name)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when if when is not None else time.time()))
    body = output.rstrip("\n").replace("```", "'''")  # the output cannot close its own fence
    return (f"{begin}\n*Written by `{command}` on {stamp}: {machine()}; load average {load:.2f} at the "
            f"start; commit {commit()}.*\n\n```text\n{body}\n```\n{end}")


def write_section(path: Path | str, name: str, text: str) -> None:
    """Replace the section NAME of the page at `path` by `text` (from `section`); a page without
    the section's markers gets it at its end, under a heading of its name."""
    path = Path(path)
    page = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    begin, end = markers(name)
    found = re.search(re.escape(begin) + r".*?" + re.escape(end), page, re.S)
    if found:
        page = page[:found.start()] + text + page[found.end():]
    elif begin in page or end in page:
        raise SystemExit(f"error: {path}: the markers of {name} are not a pair ({begin} … {end}); "
                         f"mend them by hand")
    else:
        page = page.rstrip("\n") + f"\n\n## {name}\n\n{text}\n"
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(page, encoding="utf-8")
    temporary.replace(path)


def _without_write_docs(args: list[str]) -> list[str]:
    """The command's arguments without ``--write-docs`` and its file (where the page went is not
    a figure of the run)."""
    kept, skip = [], False
    for arg in args:
        if skip and not arg.startswith("-"):
            skip = False
            continue
        skip = arg == "--write-docs"
        if not skip and not arg.startswith("--write-docs="):
            kept.append(arg)
    return kept


class _Tee(io.TextIOBase):
    """Standard output as it was, and a copy of everything written to it."""

    def __init__(self, out):
        self.out, self.copy = out, io.StringIO()

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


class Record:
    """What `recording` yields: `cancel()` when the run has no figures to keep (a server that did
    not start), so the page keeps its last ones."""

    def __init__(self):
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


@contextlib.contextmanager
def recording(name: str, path: str | None):
    """Run the body; with a `path`, copy what it prints and, if it finishes and is not cancelled,
    write it as the section NAME of that page (see `write_section`)."""
    record = Record()
    if path is None:
        yield record
        return
    load, started = os.getloadavg()[0], time.time()
    command = " ".join(["python", "bench/" + Path(sys.argv[0]).name, *_without_write_docs(sys.argv[1:]),
                        "--write-docs"])
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield record
    if record.cancelled:
        return
    write_section(path, name, section(name, tee.copy.getvalue(), command, load, started))
    print(f"{path}: section {name} rewritten", file=sys.stderr)
