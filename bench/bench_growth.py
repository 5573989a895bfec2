"""Does exact analysis stay near linear as a game grows? Two families of games, and the Fractions baseline.

**Stages** (the family whose numbers stay small): N stages, each thrown until a 7 or an 11, the
game won or lost by how the last stage ended: 2N + 3 states, every chance a small fraction (P(win)
is 3/4 at every N), so the time of the exact solve shows how the solver grows with the states
alone. Printed per N: compile, the solve (P(win) and the expected throws), `analyse` as a whole
(which adds the table of P(T = n), the throws per game, whose exact masses are over 36**n and
so do grow with the game: it stops at a bound on the size of those numbers, and the share left
beyond the table is printed), and the solve's milliseconds per 1,000 states: near linear when
that column stays level.

**Long counters** (the family whose numbers grow): A long counter is three phases, each throwing until a number has come N times (N up to 4,000:
about 4N states). Its chances have thousands of digits. The forward pass is timed both ways on
the same machine: over `Smooth` numbers (what `analyse` uses: denominators kept as exponents of
small primes, no gcd until a figure is reported) and over normalised Fractions (the baseline,
one gcd per operation). Both must give the same P(win) and expected throws. The last line times
how long a game that exceeds the state limit takes to be refused.

    python bench/bench_growth.py [--sizes 1000,2000,3000,4000] [--stages 1000,2000,4000,8000] [--write-docs [FILE]]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

os.environ.setdefault("HAZARD_DSL_NO_CACHE", "1")  # time the work, not the cache

from hazard_dsl.compile.compiler import MAX_STATES, compile_ruleset, explore  # noqa: E402
from hazard_dsl.compile.machine import END, THROW  # noqa: E402
from hazard_dsl.check.reading import read_ruleset  # noqa: E402
from hazard_dsl.solve.markov import FRACTIONS, Solver, exact_sum  # noqa: E402

COUNTER = """\
name: Long counter
variables:
  n:
    range: 0..{n}
start: a
phases:
  a:
    rules:
      - when: n == {n}
        do: set n = 0; goto b
      - when: total == 7
        do: set n = n + 1; throw again
      - when: total == 2
        do: lose
      - otherwise: throw again
  b:
    rules:
      - when: n == {n}
        do: set n = 0; goto c
      - when: total in {{6, 8}}
        do: set n = n + 1; throw again
      - when: total == 12
        do: lose
      - otherwise: throw again
  c:
    rules:
      - when: n == {n}
        do: win
      - when: total == 7
        do: set n = n + 1; throw again
      - when: total == 3
        do: lose
      - otherwise: throw again
"""

STAGES = """\
name: Stages
variables:
  n:
    range: 0..{n}
  last:
    range: 0..1
start: stage
phases:
  stage:
    rules:
      - when: n == {n} and last == 1
        do: win
      - when: n == {n}
        do: lose
      - when: total == 7
        do: set n = n + 1; set last = 1; throw again
      - when: total == 11
        do: set n = n + 1; set last = 0; throw again
      - otherwise: throw again
"""

ENDLESS = """\
name: Too long
variables:
  n:
    range: 0..1000000
start: a
phases:
  a:
    rules:
      - when: total == 7
        do: set n = n + 1; throw again
      - when: total == 2
        do: lose
      - otherwise: throw again
"""


def figures(machine, visits, total) -> tuple:
    wins = [s.index for s in machine.states if s.kind == END and s.result == "win"]
    throws = [s for s in visits if machine.states[s].kind == THROW]
    return total(visits, wins), total(visits, throws)


def stages(folder: Path, sizes: list) -> None:
    from hazard_dsl.solve.analysis import analyse

    print("stages: the numbers stay small (P(win) = 3/4 at every N)")
    print(f"{'N':>6} {'states':>7} {'compile s':>10} {'solve s':>8} {'ms / 1,000 states':>18} "
          f"{'analyse s':>10} {'P(T = n) to':>12} {'beyond':>8}")
    for n in sizes:
        path = folder / f"stages{n}.yaml"
        path.write_text(STAGES.format(n=n))
        t0 = time.perf_counter()
        machine = compile_ruleset(read_ruleset(path))
        t1 = time.perf_counter()
        solver = Solver(machine)
        solver.set_policy("optimal")
        visits = solver.chain.forward({machine.start.target: 1}, smooth=True)
        win, _ = figures(machine, visits, lambda v, nodes: v.total(nodes))
        t2 = time.perf_counter()
        a = analyse(machine)
        t3 = time.perf_counter()
        assert win == a.win == Fraction(3, 4), win
        print(f"{n:>6} {len(machine.states):>7} {t1 - t0:>10.2f} {t2 - t1:>8.3f} "
              f"{(t2 - t1) * 1e6 / len(machine.states):>18.2f} {t3 - t2:>10.2f} {len(a.throws) - 1:>12} "
              f"{float(a.throws_tail):>8.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,2000,3000,4000", help="values of N, comma-separated")
    parser.add_argument("--stages", default="1000,2000,4000,8000", help="the stages' N, comma-separated")
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("bench_growth", args.write_docs):
        folder = Path(tempfile.mkdtemp(prefix="hazard-growth-"))
        stages(folder, [int(x) for x in args.stages.split(",")])
        print()
        print("long counters: the numbers grow with N (P(win) has thousands of digits)")
        print(f"{'N':>6} {'states':>7} {'compile s':>10} {'smooth s':>9} {'fractions s':>12} {'ratio':>7}")
        for n in (int(x) for x in args.sizes.split(",")):
            path = folder / f"counter{n}.yaml"
            path.write_text(COUNTER.format(n=n))
            t0 = time.perf_counter()
            machine = compile_ruleset(read_ruleset(path))
            t1 = time.perf_counter()
            solver = Solver(machine)
            solver.set_policy("optimal")
            start = {machine.start.target: 1}
            t2 = time.perf_counter()
            visits = solver.chain.forward(start, smooth=True)
            ours = figures(machine, visits, lambda v, nodes: v.total(nodes))
            t3 = time.perf_counter()
            plain = solver.chain._forward(start, FRACTIONS)
            theirs = figures(machine, plain, lambda v, nodes: exact_sum([v[s] for s in nodes if s in v]))
            t4 = time.perf_counter()
            assert ours == theirs, "the two solves disagree"
            print(f"{n:>6} {len(machine.states):>7} {t1 - t0:>10.2f} {t3 - t2:>9.2f} {t4 - t3:>12.2f} "
                  f"{(t4 - t3) / (t3 - t2):>6.1f}×")
        path = folder / "endless.yaml"
        path.write_text(ENDLESS)
        t0 = time.perf_counter()
        result = explore(read_ruleset(path))
        print(f"refusing a game of more than {MAX_STATES} states: {time.perf_counter() - t0:.2f} s "
              f"({'refused' if result.too_large else 'NOT refused'})")


if __name__ == "__main__":
    main()
