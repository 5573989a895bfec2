"""How fast is exact analysis? Every shipped ruleset, our solver against a plain baseline.

The baseline is the textbook method: one dense Gauss-Jordan elimination of (I − Q) over all
transient states, with the same exact Fractions. Ours solves one strongly connected component
at a time (most are a single state with a self-loop). Both must give the same P(win); the
ratio printed is baseline time / our time, so larger is better. The last columns time the exact
analysis of every bet the ruleset declares (on the product of game and bet machines).

    python bench/bench_solve.py [--repeat N] [--write-docs [FILE]]
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.compile.machine import END
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.solve.analysis import analyse
from hazard_dsl.solve.bets import BetTable
from hazard_dsl.solve.markov import Solver, gauss

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


def baseline_win(machine) -> Fraction:
    """P(win) by dense elimination of x (I − Q) = e_start over every transient state."""
    solver = Solver(machine)
    solver.set_policy("optimal")
    transient = solver.transient
    where = {s: k for k, s in enumerate(transient)}
    n = len(transient)
    matrix = [[Fraction(0)] * (n + 1) for _ in range(n)]
    for s, k in where.items():
        matrix[k][k] += 1
        for t, p in solver.row(s).items():
            if t in where:
                matrix[where[t]][k] -= p
    matrix[where[machine.start.target]][n] = Fraction(1)
    visits = gauss(matrix)
    win = Fraction(0)
    for s, k in where.items():
        for t, p in solver.row(s).items():
            if machine.states[t].kind == END and machine.states[t].result == "win":
                win += visits[k] * p
    return win


def timed(fn, repeat: int) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("bench_solve", args.write_docs):
        print(f"{'ruleset':<10} {'states':>6} {'compile ms':>10} {'analyse ms':>10} {'P(win) ms':>10} "
              f"{'baseline ms':>11} {'ratio':>7} {'bets':>5} {'ms/bet':>7}")
        for path in sorted(RULESETS.glob("*.yaml")):
            ruleset = read_ruleset(path)
            compile_time, machine = timed(lambda: compile_ruleset(ruleset), args.repeat)
            analyse_time, analysis = timed(lambda: analyse(machine), args.repeat)

            def ours():
                solver = Solver(machine)
                solver.set_policy("optimal")
                visits = solver.forward()
                return sum((x for s, x in visits.items() if machine.states[s].kind == END
                            and machine.states[s].result == "win"), Fraction(0))

            ours_time, ours_win = timed(ours, args.repeat)
            base_time, base_win = timed(lambda: baseline_win(machine), args.repeat)
            assert ours_win == base_win == analysis.win, path.stem

            def bets():
                solver = Solver(machine)
                solver.set_policy("optimal")
                table = BetTable(machine, solver)
                return [table.figures(name) for name in ruleset.bets]

            bets_time, _ = timed(bets, args.repeat)
            per_bet = bets_time * 1e3 / max(len(ruleset.bets), 1)
            print(f"{path.stem:<10} {len(machine.states):>6} {compile_time * 1e3:>10.2f} {analyse_time * 1e3:>10.2f} "
                  f"{ours_time * 1e3:>10.2f} {base_time * 1e3:>11.2f} {base_time / ours_time:>6.1f}x "
                  f"{len(ruleset.bets):>5} {per_bet:>7.2f}")


if __name__ == "__main__":
    main()
