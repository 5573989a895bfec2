"""The command line run inside the test's own process: `main(argv)` with its output captured,
answered as `subprocess.run` answers (returncode, stdout, stderr), so that a test written for a
subprocess reads the same.

Why: each `python -m hazard_dsl …` starts a fresh interpreter and imports the package again
(about 0.4 CPU-s before any work, more than most of these commands take), and CI runs the suite
on two cores. A test about the process itself (its exit code as the shell sees it, a terminal,
signals, a fresh interpreter's imports, a cold cache, memory, locks between processes) keeps its
subprocess; this is only for tests of what a command says and writes."""

from __future__ import annotations

import subprocess

from hazard_dsl.cli import main


def hazard(capsys, *argv: str) -> subprocess.CompletedProcess:
    """`hazard-dsl ARGV…` as `main` runs it, its exit code as the program's would be (argparse's
    own refusals leave by SystemExit, which the program turns into its exit code)."""
    capsys.readouterr()  # only this command's output
    try:
        code = main(list(argv))
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else (0 if leaving.code is None else 1)
    said = capsys.readouterr()
    return subprocess.CompletedProcess(["hazard-dsl", *argv], code, said.out, said.err)


def said(*argv: str, words: bool = False) -> tuple[int, str, str]:
    """`hazard-dsl ARGV…` as `main` runs it, without pytest's capture: (exit code, what it
    printed, what it said on stderr). `words`: stderr's words joined by single spaces, as a test
    reads a message that wraps at the terminal's width."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as leaving:
            code = leaving.code
    return code, out.getvalue(), " ".join(err.getvalue().split()) if words else err.getvalue()
