"""Three dice beside two: what issue 37 holds the dice of any number to.

    python bench/bench_dice.py              # about half a minute
    python bench/bench_dice.py --rounds 7   # more rounds, steadier medians

Two figures, each a ratio against Cotton's game (two dice, 36 throws) measured in the same run,
the cases in turn round after round (the machine is shared: alternate runs are the fairest):

* **exact analysis**: `hazard-dsl analyse GAME --json` as a whole process, without the reading
  cache (`HAZARD_DSL_NO_CACHE=1`), for a three-dice game — Passage (216 throws, thrown until
  doublets) and, where the built-in exists, Sic Bo with its layout of one-throw bets — over
  Cotton's. Held to at most 2: the compiler works each kind of throw out once (56 kinds of three
  dice), so the three-dice game costs about what a two-dice game of as many states does.
* **the compiled simulator**: throws per second over 216 outcomes (Passage) against over 36, one
  worker, 20,000,000 games each: against Cotton, and against a two-dice game as short as Passage
  (one that ends on a throw with chance 4/9, 2.25 throws a game; Passage 2.48), since a game's
  end costs the kernel more than a throw does and Cotton's games are twice as long. Held to at
  most 1.5: a draw below 216 takes more random bits than one below 36, and nothing else in the
  kernel grows with the throws.

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
    parser.add_argument("--games", type=int, default=20_000_000)
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
    rates: dict = {"cotton": [], "short 2d6": [], "passage": []}
    for _ in range(max(3, args.rounds // 2)):
        for name, target in (("cotton", "cotton"), ("short 2d6", str(short)), ("passage", passage)):
            _, out = cpu_of(["simulate", target, "--games", str(args.games), "--seed", "1", "--engine", "compiled",
                             "--workers", "1", "--json"])
            rates[name].append(json.loads(out)["throws_per_second"])
    print(f"compiled simulator, one worker, {args.games:,} games (million throws per second, best)")
    best = {name: max(r) for name, r in rates.items()}
    for name in rates:
        print(f"  {name:<9} {best[name] / 1e6:7.1f}")
    print(f"  over 36 / over 216: Cotton {best['cotton'] / best['passage']:.2f}, a two-dice game as short as "
          f"Passage {best['short 2d6'] / best['passage']:.2f} (held to at most 1.5)")
    return 0


if __name__ == "__main__":
    started = time.perf_counter()
    code = main()
    print(f"({time.perf_counter() - started:.0f} s)")
    raise SystemExit(code)
