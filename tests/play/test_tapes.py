"""Replay the dice tapes in tests/data/tapes/*.yaml and check every throw against the events they must give.

Each tape names a built-in ruleset, its options, an optional policy, a string of throws and the
events those throws must produce under the ruleset's own rules (derived by hand from the rule
files and from the reference, hazard-rules.md §§1, 2, 5, 6 and 8, not copied from the program).

An expected event is a subset of the JSON object `hazard-dsl run … --json` prints for that throw:
every key given must be present with that value. A value of `null` means "this key must be
absent" (e.g. `set: null` on a throw that sets nothing, `choices: null` where nothing is chosen).
`stops: true` means the tape runs out mid-game: stderr must say so and the exit code is still 0.
A tape with `xfail_reason:` documents a known bug: it is run as a strict xfail.

Besides the tapes: `--seed` reproducibility, and the shape (and the rules) of a random craps run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from hazard_dsl.cli import main
from tests.tapes_common import assert_subset, load_tape, run_argv, tape_params, tape_throws

TAPES_DIR = Path(__file__).resolve().parents[1] / "data" / "tapes"
TAPE_KEYS = {"ruleset", "options", "policy", "dice", "games", "why", "events", "stops", "xfail_reason"}
EVENT_KEYS = {"game", "throw", "dice", "total", "name", "phase", "choices", "set", "rule", "result", "label", "next",
              "casts"}




def test_there_are_enough_tapes():
    assert len(list(TAPES_DIR.glob("*.yaml"))) >= 35


@pytest.mark.parametrize("path", tape_params(TAPES_DIR))
def test_tape(path: Path, capsys):
    tape = load_tape(path)
    # The tape file itself: no misspelt keys, a reason, events that say where each game goes.
    assert set(tape) <= TAPE_KEYS, f"unknown keys {set(tape) - TAPE_KEYS}"
    assert tape.get("why"), "every tape says why its events are right"
    events = tape["events"]
    for i, event in enumerate(events, 1):
        assert set(event) <= EVENT_KEYS, f"event {i}: unknown keys {set(event) - EVENT_KEYS}"
        assert ("result" in event) != ("next" in event), f"event {i} must give exactly one of result/next"

    code = main(run_argv(tape))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = [json.loads(line) for line in captured.out.splitlines() if line.strip()]

    assert len(lines) == len(events), (
        f"{len(lines)} throws played, {len(events)} expected:\n{captured.out}\n{captured.err}")
    throws = tape_throws(tape["dice"])
    for i, (actual, expected) in enumerate(zip(lines, events), 1):
        # Every throw replays the tape in order, and its total is the sum of its dice.
        assert actual["dice"] == throws[i - 1], f"throw {i}: {actual}"
        assert actual["total"] == sum(throws[i - 1]), f"throw {i}: {actual}"
        assert ("result" in actual) != ("next" in actual), f"throw {i}: {actual}"
        assert_subset(f"throw {i}", actual, expected)

    if tape.get("stops"):
        assert "ran out" in captured.err, captured.err
        assert "result" not in lines[-1], "a tape that runs out mid-game cannot end on a result"
    else:
        assert "ran out" not in captured.err, captured.err
        assert "result" in lines[-1], "the last throw of a complete tape ends its game"


# --------------------------------------------------------------------------- random runs


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hazard_dsl", "run", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def _transcript(seed: int) -> str:
    proc = _run("cotton", "--seed", str(seed))
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_same_seed_same_games():
    first, second = _transcript(1), _transcript(1)
    assert first == second
    assert first.strip()


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_different_seeds_different_games():
    def games(seed):  # the closing line names the seed, so leave it out of the comparison
        return [line for line in _transcript(seed).splitlines() if not line.startswith("Seed ")]

    base = games(1)
    assert any(games(seed) != base for seed in range(2, 6))


def _craps_oracle(totals: list[int]) -> tuple[str, str, int]:
    """The pass line by hand (reference §8): (result, label, throws used) for one game's totals."""
    first = totals[0]
    if first in (7, 11):
        return "win", "natural", 1
    if first in (2, 3, 12):
        return "lose", "craps", 1
    for n, total in enumerate(totals[1:], 2):
        if total == first:
            return "win", "point_made", n
        if total == 7:
            return "lose", "seven_out", n
    raise AssertionError(f"game not decided by {totals}")


def test_random_craps_json_shape_and_rules():
    proc = _run("craps", "--seed", "3", "--games", "20", "--json")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert lines
    by_game = defaultdict(list)
    for obj in lines:
        for key in ("game", "dice", "total"):
            assert key in obj, obj
        assert obj["total"] == sum(obj["dice"]) and all(1 <= d <= 6 for d in obj["dice"]), obj
        by_game[obj["game"]].append(obj)
    assert sorted(by_game) == list(range(1, 21))
    for game, throws in by_game.items():
        assert [t["throw"] for t in throws] == list(range(1, len(throws) + 1)), game
        last = throws[-1]
        assert "result" in last and "label" in last, last
        assert all("result" not in t and "next" in t for t in throws[:-1]), throws
        result, label, used = _craps_oracle([t["total"] for t in throws])
        assert (last["result"], last["label"], len(throws)) == (result, label, used), throws
