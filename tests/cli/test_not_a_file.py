"""A name on the command line that is there but is no rule file (a folder, a device, a pipe, a
link to nothing) is said to be what it is: `check /dev/zero` said "no such file", and `analyse
rf` of a folder "no ruleset file or built-in ruleset named 'rf'" with the 19 built-ins' names
on one line of 274 columns (audit 10 finding 13)."""

from __future__ import annotations

import os
import sys

import pytest

from hazard_dsl.cli import main


def _said(argv, capsys) -> tuple[int, list[str]]:
    code = main(argv)
    return code, capsys.readouterr().err.splitlines()


def _things(tmp_path) -> dict[str, str]:
    """Each kind of thing made here, by what it should be said to be."""
    made = {"a folder": str(tmp_path / "rules")}
    os.mkdir(made["a folder"])
    made["a link to nothing"] = str(tmp_path / "gone.yaml")
    os.symlink(tmp_path / "nowhere.yaml", made["a link to nothing"])
    if hasattr(os, "mkfifo"):
        made["a pipe"] = str(tmp_path / "fifo.yaml")
        os.mkfifo(made["a pipe"])
    if os.path.exists("/dev/null"):
        made["a device"] = "/dev/null"
    return made


def test_check_says_what_is_there(tmp_path, capsys):
    for kind, name in _things(tmp_path).items():
        assert _said(["check", name], capsys) == (1, [f"hazard-dsl: error: {name}: {kind}, not a rule file",
                                                      f"{name}: 1 error"])
    missing = str(tmp_path / "missing.yaml")
    assert _said(["check", missing], capsys) == (1, [f"hazard-dsl: error: {missing}: no such file",
                                                     f"{missing}: 1 error"])


@pytest.mark.parametrize("command", ["analyse", "show", "run"])
def test_a_command_on_a_folder_says_it_is_a_folder(tmp_path, capsys, command):
    folder = tmp_path / "rf"
    folder.mkdir()
    assert _said([command, str(folder)], capsys) == (2, [f"hazard-dsl: error: '{folder}' is a folder, not a "
                                                         f"rule file"])


@pytest.mark.skipif(sys.platform == "win32", reason="a named pipe of the file system")
def test_a_pipe_is_never_opened(tmp_path, capsys):
    # opening a FIFO with no writer would block for ever: it is judged by its kind alone
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    assert _said(["analyse", str(fifo)], capsys) == (2, [f"hazard-dsl: error: '{fifo}' is a pipe, not a rule file"])
