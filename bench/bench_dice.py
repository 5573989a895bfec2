"""Three dice beside two: what issue 37 holds the dice of any number to.

    python bench/bench_dice.py              # about half a minute
    python bench/bench_dice.py --rounds 7   # more rounds, steadier medians
    python bench/bench_dice.py --write-docs # and its figures into docs/performance.md

Two figures, each a ratio against Cotton's game (two dice, 36 throws) measured in the same run,
the cases in turn round after round (the machine is shared: alternate runs are the fairest):

* **exact analysis**: `hazard-dsl analyse GAME --json` as a whole process, without the reading
  cache (`HAZARD_DSL_NO_CACHE=1`), for a three-dice game — Passage (216 throws, thrown until
  doublets) and, where the built-in exists, Sic Bo with its layout of one-throw bets — over
  Cotton's. Held to at most 2: the compiler works each kind of throw out once (56 kinds of three
  dice), so the three-dice game costs about what a two-dice game of as many states does.
* **the compiled simulator**: throws per second over three dice against over two, one core:
  the kernel in this process on each game's table, in CPU seconds pinned to one core, the games
  in turn round after round — Passage (three dice until doublets: 72 columns, 2.48 throws a
  game) and Raffle (one throw of three dice a game: 216 columns, every throw a game's end)
  against Cotton (36 columns, 5.24 throws a game), and against a two-dice game as short as
  Passage (2.25 throws). Held to at most 1.5. Beside it, whole `simulate … --engine compiled`
  commands of as many throws each (about 100 million: games = throws ÷ the game's exact throws
  per game), their reported throws per second, which count Numba's import and the kernel's
  loading (a few tenths of a second, the same for every game) — so a game of short games, given
  as many games as Cotton, would make half the throws in the same fixed time and seem slower for
  it: the ratios of 1.6–2.5 measured that way were that, not the kernel.

The built-in `passage` is used where it exists; else the tutorial's sketch of it
(docs/examples/passage-sketch.yaml), the same game.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

ROOT = Path(__file__).resolve().parent.parent


# A two-dice game whose games are as short as Passage's: a throw ends it with chance 16/36.
SHORT_TWO_DICE = """name: Short two-dice game (bench_dice)
sources: [{title: bench/bench_dice.py}]
phases:
  cast:
    - when: total >= 9
      do: win
    - when: total <= 4
      do: lose
    - otherwise: throw again
"""


def game(name: str, sketch: str | None = None) -> str | None:
    if (ROOT / "rulesets" / f"{name}.yaml").exists():
        return name
    return sketch


def cpu_of(argv: list[str]) -> tuple[float, str]:
    """CPU seconds (user + system) of a whole process running the command, and its output."""
    env = {**os.environ, "HAZARD_DSL_NO_CACHE": "1", "NO_COLOR": "1"}
    before = os.times()
    done = subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system), done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--throws", type=int, default=100_000_000,
                        help="throws of each whole simulate command (games = throws ÷ throws a game)")
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("bench_dice", args.write_docs):
        return _measure(args)


def _measure(args) -> int:
    passage = game("passage", "docs/examples/passage-sketch.yaml")
    exact = {"cotton": "cotton", "passage": passage}
    if game("sic_bo"):
        exact["sic_bo"] = "sic_bo"
    times: dict = {name: [] for name in exact}
    for _ in range(args.rounds):
        for name, target in exact.items():
            times[name].append(cpu_of(["analyse", target, "--json"])[0])
    print("exact analysis, whole process, no cache (CPU s, median of", args.rounds, "rounds)")
    base = statistics.median(times["cotton"])
    for name in exact:
        median = statistics.median(times[name])
        held = "" if name == "cotton" else f"  ratio {median / base:.2f} (held to at most 2)"
        print(f"  {name:<8} {median:6.3f} s{held}")
    short = Path(tempfile.mkdtemp()) / "short-two-dice.yaml"
    short.write_text(SHORT_TWO_DICE)
    games = {"cotton": "cotton", "short 2d6": str(short), "passage": passage}
    if game("raffle"):
        games["raffle"] = "raffle"
    rounds = max(3, args.rounds)
    if not kernels(games, rounds):
        return 0
    whole(games, rounds, args.throws)
    return 0


def kernels(games: dict, rounds: int) -> bool:
    """The compiled kernel in process, on one core: throws per CPU second of each game's table."""
    import numpy as np

    from hazard_dsl.commands.loading import build_machine, load
    from hazard_dsl.simulate import compiled
    from hazard_dsl.simulate.simulation import prepare_games

    if not compiled.available():
        print("(the compiled simulator needs Numba: pip install 'hazard-dsl[fast]')")
        return False
    clock = time.process_time  # this process's CPU, not the wall: others hold the core too
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if cores:
        os.sched_setaffinity(0, {min(cores)})
    tables = {}
    for name, target in games.items():
        tables[name] = prepare_games(build_machine(load(target), []), 10, 1).tables[0]
        compiled.run_chunk(tables[name], 1000, np.random.SeedSequence(0))  # compiled or loaded: not timed
    rates: dict = {name: [] for name in games}
    for r in range(rounds):
        for name, table in tables.items():
            games_ = int(20_000_000 / table.mean_throws)  # about 20 million throws a run
            begun = clock()
            _, throws = compiled.run_chunk(table, games_, np.random.SeedSequence(r))
            rates[name].append(throws / (clock() - begun))
    if cores:
        os.sched_setaffinity(0, cores)
    print(f"compiled simulator, in process, one core (million throws per CPU second, best and median of {rounds})")
    for name, table in tables.items():
        print(f"  {name:<9} {max(rates[name]) / 1e6:7.1f} {statistics.median(rates[name]) / 1e6:7.1f}"
              f"   {table.columns} columns, {table.mean_throws:.2f} throws a game")
    _ratios(rates)
    return True


def whole(games: dict, rounds: int, throws: int) -> None:
    """Whole commands of about `throws` throws each, their reported throws per second."""
    from hazard_dsl.commands.loading import build_machine, load
    from hazard_dsl.simulate.simulation import prepare_games

    counts = {name: str(int(throws / prepare_games(build_machine(load(target), []), 10, 1).tables[0].mean_throws))
              for name, target in games.items()}
    rates: dict = {name: [] for name in games}
    for _ in range(rounds):
        for name, target in games.items():
            _, out = cpu_of(["simulate", target, "--games", counts[name], "--seed", "1", "--engine", "compiled",
                             "--workers", "1", "--json"])
            rates[name].append(json.loads(out)["throws_per_second"])
    print(f"whole commands, one worker, about {throws:,} throws each (million throws per second as reported, "
          f"Numba's import and the kernel's loading included; best and median of {rounds})")
    for name in games:
        print(f"  {name:<9} {max(rates[name]) / 1e6:7.1f} {statistics.median(rates[name]) / 1e6:7.1f}"
              f"   {int(counts[name]):,} games")
    _ratios(rates)


def _ratios(rates: dict) -> None:
    best = {name: max(r) for name, r in rates.items()}
    said = [f"Passage {best['cotton'] / best['passage']:.2f}"]
    if "raffle" in best:
        said.append(f"Raffle {best['cotton'] / best['raffle']:.2f}")
    print(f"  over 36 / over three dice (Cotton's throws a second ÷ the game's): {', '.join(said)} (held to at most "
          f"1.5); a two-dice game as short as Passage ÷ Passage {best['short 2d6'] / best['passage']:.2f}")


if __name__ == "__main__":
    started = time.perf_counter()
    code = main()
    print(f"({time.perf_counter() - started:.0f} s)")
    raise SystemExit(code)
