"""What the two kinds of dice tapes (tests/data/tapes, tests/data/money_tapes) share: loading, xfail marks,
and the `hazard-dsl run` command line a tape stands for."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml


def load_tape(path: Path) -> dict:
    with path.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def tape_params(folder: Path) -> list:
    """One pytest param per tape; `xfail_reason:` (and `xfail_python_below:`) make a strict xfail."""
    params = []
    for path in sorted(folder.glob("*.yaml")):
        tape = load_tape(path)
        marks = []
        if tape.get("xfail_reason"):
            below = tape.get("xfail_python_below")
            applies = below is None or sys.version_info[:2] < tuple(int(n) for n in str(below).split("."))
            marks.append(pytest.mark.xfail(applies, reason=tape["xfail_reason"], strict=True))
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


def tape_throws(dice: str) -> list[list[int]]:
    """The throws that stand on a tape: `3-4`; or `x-4` (a die off), then maybe `off`/`both` (the
    recast), the off die's face alone (`2`, or `x` off again) — or a new cast of both."""
    throws, shown = [], None  # shown: (the off die, the other's face) while a die is off
    for token in dice.replace(",", " ").split():
        if token in ("off", "both"):
            continue
        if "-" in token:
            a, b = token.split("-")
            shown = None
            if "x" in (a, b):
                if (a, b) != ("x", "x"):
                    shown = (1, int(b)) if a == "x" else (2, int(a))
                continue
            throws.append([int(a), int(b)])
        elif token != "x":
            die, face = shown
            throws.append([int(token), face] if die == 1 else [face, int(token)])
            shown = None
    return throws


def run_argv(tape: dict) -> list[str]:
    argv = ["run", tape["ruleset"], "--dice", tape["dice"], "--json"]
    for name, value in (tape.get("options") or {}).items():
        argv += ["--option", f"{name}={value}"]
    if tape.get("policy") is not None:
        argv += ["--policy", str(tape["policy"])]
    if tape.get("games") is not None:
        argv += ["--games", str(tape["games"])]
    return argv


def assert_subset(where: str, actual: dict, expected: dict, as_text: bool = False) -> None:
    """Every key of `expected` is in `actual` with that value (compared as text where money
    strings meet YAML numbers); a value of None means the key must be absent."""
    for key, value in expected.items():
        if value is None:
            assert key not in actual, f"{where}: {key!r} should be absent in {actual}"
            continue
        assert key in actual, f"{where}: {key!r} missing from {actual}"
        got = str(actual[key]) if as_text else actual[key]
        assert got == (str(value) if as_text else value), f"{where}: {key} is {actual[key]!r}, expected {value!r}\n{actual}"
