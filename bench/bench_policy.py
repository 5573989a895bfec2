"""The best stake for a purse against a plain analyse: is the decision process cheap?

In process, best of several rounds, in milliseconds, with the cache off: a plain exact analysis
of Cotton's Hazard (compile, the game and its bets solved, as `hazard-dsl analyse cotton
--no-options` does); the best stake for Cotton's caster from a purse of 100 to a goal of 200
with stakes 1 to 100 (exact policy iteration over 199 purses; the bar: under a second); the
same for the setter, who has the edge and plays timidly (more rounds of iteration); Kelly; and
a martingale from 10 to 20 with a cap of 8 as an exact chain. Each line says its figure
(1979/4032 for the caster, bold play), so the times are of something checked.

    python bench/bench_policy.py [--rounds 3] [--write-docs [FILE]]
"""

from __future__ import annotations

import argparse
import os

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

os.environ.setdefault("HAZARD_DSL_NO_CACHE", "1")  # time the work, not the cache

from bench_risk import best, command_ms  # noqa: E402

from hazard_dsl.compile.compiler import compile_ruleset  # noqa: E402
from hazard_dsl.commands.loading import load  # noqa: E402
from hazard_dsl.solve.analysis import analyse  # noqa: E402
from hazard_dsl.solve.policy import best_stake, caster_outcomes, kelly, other_side  # noqa: E402
from hazard_dsl.solve.progressions import progression_run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="calls of each, the best kept")
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("bench_policy", args.write_docs):
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; best of {args.rounds} calls, in ms")
        ruleset = load("cotton")

        def plain():
            return analyse(compile_ruleset(ruleset, {}))

        t_plain, analysis = best(args.rounds, plain)
        caster = caster_outcomes(analysis.figures.win, analysis.figures.lose)
        t_best, b = best(args.rounds, lambda: best_stake(caster, 200, 100))
        t_setter, s = best(args.rounds, lambda: best_stake(other_side(caster), 200, 100))
        t_kelly, k = best(args.rounds, lambda: kelly(other_side(caster)))
        t_mart, m = best(args.rounds, lambda: progression_run(caster, "martingale", 10, 20, 1, cap=8))
        rows = [
            ("plain analyse cotton (compile + game + bets)", t_plain, f"edge {analysis.edge}"),
            ("best stake, caster, 100 -> 200, stakes 1-100", t_best,
             f"stake {b.stakes[100]}, P {b.chance(100)} ({b.rounds} round)"),
            ("best stake, setter, 100 -> 200, stakes 1-100", t_setter,
             f"stake {s.stakes[100]}, P {float(s.chance(100)):.5f} ({s.rounds} rounds)"),
            ("Kelly, the setter", t_kelly, f"fraction {k.fraction}"),
            ("martingale 10 -> 20, cap 8 (exact chain)", t_mart, f"P {float(m.reach_goal):.5f}, {m.states} states"),
        ]
        print(f"{'what':<46} {'ms':>8} {'x plain':>8}  figure")
        for what, ms, figure in rows:
            print(f"{what:<46} {ms:>8.1f} {ms / t_plain:>8.2f}  {figure}")
        plain_cmd = ["analyse", "cotton", "--no-options", "--json"]
        best_cmd = plain_cmd[:-1] + ["--bankroll", "100", "--goal", "200", "--stake", "best", "--limit", "100",
                                     "--json"]
        t_a, t_b = command_ms(plain_cmd, args.rounds), command_ms(best_cmd, args.rounds)
        print(f"whole commands (median wall time, ms): hazard-dsl {' '.join(plain_cmd)}: {t_a:.0f}; "
              f"with --bankroll 100 --goal 200 --stake best --limit 100: {t_b:.0f} ({t_b / t_a:.2f}x)")
        verdict = "met" if t_best < 1000 else "NOT met"
        print(f"bar: the best stake from 100 to 200, stakes 1 to 100, under 1,000 ms: {verdict} ({t_best:.1f} ms)")


if __name__ == "__main__":
    main()
