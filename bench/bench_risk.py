"""Risk, exactly, against a plain analyse: is the distribution of a session cheap beside the
figures every `analyse` prints?

In process, best of several rounds, in milliseconds, with the cache off (the work, not the
cache): a plain exact analysis of craps (compile with every bet, solve the game and every bet,
as `hazard-dsl analyse craps --no-options` does); the spread of one decision of pass with 3-4-5x
odds (its product chain); the exact distribution of the net over fifty such decisions (the bar:
under a second); the same with a stop-loss and a stop-win; every bet's spread (`--spread`); and
P(a craps hand lasts 154 throws or more). Each line says its figure, so the times are of
something checked: P(ahead) 0.48323 after fifty, 1 in 5,590,264,072 for the hand. Then
sessions to a goal at Cotton's table in lanes and on the table (their time includes the exact
chain printed beside them), and each seat's exact strategy chain there beside the plain
analyse (solve.table_strategy: martingale, Fibonacci, d'Alembert from 10 to 20).

    python bench/bench_risk.py [--rounds 5] [--write-docs [FILE]]
"""

from __future__ import annotations

import argparse
import os
import time

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

os.environ.setdefault("HAZARD_DSL_NO_CACHE", "1")  # time the work, not the cache

from hazard_dsl.compile.compiler import compile_ruleset  # noqa: E402
from hazard_dsl.commands.loading import load  # noqa: E402
from hazard_dsl.solve.analysis import analyse  # noqa: E402
from hazard_dsl.solve.distribution import session  # noqa: E402
from hazard_dsl.solve.spread import bet_spread, plan_spread  # noqa: E402
from hazard_dsl.solve.tails import lengths, one_in  # noqa: E402

PLAN = [("pass", "1"), ("odds", "3-4-5x")]


def best(rounds: int, work):
    """(the least time of `rounds` calls in ms, the last result)."""
    times, result = [], None
    for _ in range(rounds):
        start = time.perf_counter()
        result = work()
        times.append((time.perf_counter() - start) * 1000)
    return min(times), result


def command_ms(argv: list, rounds: int) -> float:
    """The median wall time of `hazard-dsl ARGV` as a user runs it (the cache as it is)."""
    import statistics
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "HAZARD_DSL_NO_CACHE"}
    subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], capture_output=True, env=env, check=True)  # warm
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], capture_output=True, env=env, check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="calls of each, the best kept")
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("bench_risk", args.write_docs):
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; best of {args.rounds} calls, in ms")
        ruleset = load("craps")

        def plain():
            machine = compile_ruleset(ruleset, {})
            return machine, analyse(machine)

        t_plain, (machine, analysis) = best(args.rounds, plain)
        table = analysis.bet_table
        t_plan, spread = best(args.rounds, lambda: plan_spread(table, PLAN))

        def fifty():
            s = plan_spread(table, PLAN)
            return session(s.outcomes, 50, staked=s.staked)

        t_fifty, fifty_net = best(args.rounds, fifty)
        t_stops, stopped = best(args.rounds, lambda: session(spread.outcomes, 50, 20, 30, staked=spread.staked))
        t_bets, _ = best(args.rounds, lambda: [bet_spread(table, name) for name in analysis.bets])
        t_tail, tail = best(args.rounds, lambda: lengths(machine, 154, solver=table.solver))
        rows = [
            ("plain analyse craps (compile + game + 39 bets)", t_plain, f"edge {analysis.edge}"),
            ("spread of pass + 3-4-5x odds (one decision)", t_plan, f"variance {spread.variance}"),
            ("net over 50 decisions of pass + 3-4-5x odds", t_fifty, f"P(ahead) {float(fifty_net.ahead):.5f}"),
            ("  the same, stop-loss 20, stop-win 30", t_stops, f"P(ahead) {float(stopped.ahead):.5f}"),
            ("every bet's spread (--spread)", t_bets, f"{len(analysis.bets)} bets"),
            ("P(hand >= 154 throws), exact", t_tail, one_in(tail.at_least(154))),
        ]
        print(f"{'what':<48} {'ms':>8} {'x plain':>8}  figure")
        for what, ms, figure in rows:
            print(f"{what:<48} {ms:>8.1f} {ms / t_plain:>8.2f}  {figure}")
        plain_cmd = ["analyse", "craps", "--no-options", "--json"]
        risk_cmd = plain_cmd[:-1] + ["--bet", "pass=1", "--bet", "odds=3-4-5x", "--games", "50", "--json"]
        t_a, t_b = command_ms(plain_cmd, args.rounds), command_ms(risk_cmd, args.rounds)
        print(f"whole commands (median wall time, ms): hazard-dsl {' '.join(plain_cmd)}: {t_a:.0f}; "
              f"with --bet pass=1 --bet odds=3-4-5x --games 50: {t_b:.0f} ({t_b / t_a:.2f}x)")
        verdict = "met" if t_fifty < 1000 else "NOT met"
        print(f"bar: fifty decisions with 3-4-5x odds under 1,000 ms: {verdict} ({t_fifty:.1f} ms)")
        to_goal(min(args.rounds, 3))
        strategy_chains(min(args.rounds, 3), t_plain)


def to_goal(rounds: int) -> None:
    """Sessions to a goal at Cotton's table (setters answer the caster, who casts changes with
    the passing rules), martingale capped at 8 from 10 to 20 for each of three seats: played in
    lanes (simulate.sessions.play_to_goal) and one by one on the table, in one run (issue 38)."""
    from fractions import Fraction

    from hazard_dsl.commands.strategy_goal import strategy_to_goal

    settings = dict(players=["Ann", "Ben", "Cat"], purse=Fraction(10), stake=Fraction(1), strategy="martingale",
                    rounds=1, policy="optimal", ruleset="cotton")
    cotton = load("cotton")
    per = {}
    for on_table, count in ((False, 3000), (True, 30)):
        ms, report = best(rounds, lambda count=count, on_table=on_table: strategy_to_goal(
            cotton, settings, count, 1, Fraction(20), cap=Fraction(8), on_table=on_table))
        per[on_table] = ms / (3 * count) * 1000
        print(f"cotton martingale 10->20 cap 8, {'on the table' if on_table else 'in lanes':<12}: "
              f"{per[on_table]:>9.0f} ms per 1,000 sessions  (Ann reached {report['seats']['Ann']['reached']:.3f})")
    print(f"  lanes: {per[True] / per[False]:.0f}x faster than one by one")


def strategy_chains(rounds: int, t_plain: float) -> None:
    """Each seat's exact strategy chain at Cotton's table from 10 to 20, first stake 1 (who
    holds the box, the passing, the purse and the progression: solve.table_strategy, as
    `analyse --players … --strategy` and `simulate --players … --goal` print it), beside the
    plain analyse of craps above (issue 38)."""
    from hazard_dsl.commands.loading import build_machine
    from hazard_dsl.solve.table_strategy import exact_at_table

    machine = build_machine(load("cotton"), [])
    for name, players, cap in (("martingale", ["Ann", "Ben", "Cat"], 8), ("fibonacci", ["Ann", "Ben", "Cat"], None),
                               ("dalembert", ["Ann", "Ben"], None)):
        ms, found = best(rounds, lambda: exact_at_table(machine, None, players, name, 10, 20, 1, cap))
        run = found[players[0]][0]
        what = f"exact {name} chain, {len(players)} seats" + (f", cap {cap}" if cap else "")
        print(f"{what:<48} {ms:>8.1f} {ms / t_plain:>8.2f}  {run.states:,} states, "
              f"{players[0]} P(goal) {float(run.reach_goal):.5f}")


if __name__ == "__main__":
    main()
