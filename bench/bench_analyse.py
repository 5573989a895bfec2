"""Does `analyse` feel instant? Whole commands against the time Python takes to import NumPy.

Two parts:

1. **In process**, for every built-in ruleset: reading the rule file, compiling the game with
   every bet and fee, the exact analysis (game, bets and fees), the whole analysis with the
   machine compiled now and with it loaded from the cache (what a command does when the rule
   file has not changed), and the table of each option's effect on the bets — the best of
   several rounds, in milliseconds.
2. **Whole commands**, as a user runs them: `hazard-dsl analyse R --json` for each built-in R,
   `hazard-dsl check rulesets/*.yaml` and `hazard-dsl compare` of the six built-ins, each run
   alternately with `python -c "import numpy"` on the same machine in the same rounds, so the
   ratio holds when the machine's speed drifts. It prints the median wall time of each and the
   median of the per-round ratios, against the targets (analyse at most 1.0× the
   NumPy import; check and compare at most 1.5×). The targets are for the command run again
   on an unchanged file (the cache of read rulesets and compiled machines filled by the
   warm-up round); the same commands with ``HAZARD_DSL_NO_CACHE=1`` — the first run after an
   edit — are printed below them, without a target.

    python bench/bench_analyse.py [--rounds 9] [--repeat 20] [--write-docs [FILE]]

Run it on an idle machine; a loaded one widens every figure. The first round of each command
is a warm-up (it fills the parser cache and Python's bytecode cache), not counted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

HERE = Path(__file__).resolve().parent.parent
RULESETS = sorted(p.stem for p in (HERE / "rulesets").glob("*.yaml"))
BASELINE = [sys.executable, "-c", "import numpy"]


def hazard_dsl() -> list[str]:
    """The installed command beside this Python, as a user runs it (or the module)."""
    script = Path(sys.executable).parent / "hazard-dsl"
    if script.exists():
        return [str(script)]
    found = shutil.which("hazard-dsl")
    return [found] if found else [sys.executable, "-m", "hazard_dsl"]


def in_process(repeat: int) -> None:
    from hazard_dsl.commands.analyse import bets_by_option
    from hazard_dsl.compile.compiler import compile_ruleset
    from hazard_dsl import cache
    from hazard_dsl.parse.expressions import _tree  # parse trees are kept per process: start afresh
    from hazard_dsl.check.reading import read_ruleset
    from hazard_dsl.solve.analysis import analyse

    def best(fn):
        least, value = float("inf"), None
        for _ in range(repeat):
            start = time.perf_counter()
            value = fn()
            least = min(least, time.perf_counter() - start)
        return least * 1e3, value

    print(f"In process, best of {repeat} (ms):")
    print(f"{'ruleset':<13} {'states':>6} {'bets':>4} {'read':>7} {'compile':>8} {'analyse':>8} "
          f"{'whole':>7} {'kept':>6} {'options':>8}")
    for name in RULESETS:
        path = HERE / "rulesets" / f"{name}.yaml"
        read_ms, ruleset = best(lambda: (_tree.cache_clear(), read_ruleset(path))[1])
        # every bet compiled, as the analysis reads them
        compile_ms, machine = best(lambda: _every_bet(compile_ruleset(ruleset)))
        analyse_ms, analysis = best(lambda: analyse(machine))
        whole_ms, _ = best(lambda: analyse(compile_ruleset(ruleset)))
        through_cache = cache.read_ruleset(path)
        cache.compile_ruleset(through_cache)  # compiled and kept
        kept_ms, _ = best(lambda: analyse(cache.compile_ruleset(through_cache)))
        edges = {bet: f.edge for bet, f in analysis.bets.items()}
        options_ms, _ = best(lambda: bets_by_option(ruleset, analysis.options, "optimal", edges,
                                                    analyse(machine).bet_table))
        print(f"{name:<13} {len(machine.states):>6} {len(machine.bets):>4} {read_ms:>7.2f} {compile_ms:>8.2f} "
              f"{analyse_ms:>8.2f} {whole_ms:>7.2f} {kept_ms:>6.2f} {options_ms:>8.2f}")
    print("whole = compile (game, bets, fees) + exact analysis; kept = the same with the machine loaded from the\n"
          "cache; options = each option's effect on the bets (with the analysis it needs)\n")


def _every_bet(machine):
    for name in machine.bets:
        machine.bets[name]
    return machine


def wall(command: list[str], env: dict | None = None) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=HERE,
                          env=None if env is None else dict(os.environ, **env))
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):  # check exits 1 on a file with errors; anything else is wrong
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}")
    return elapsed


def side_by_side(rounds: int) -> bool:
    tool = hazard_dsl()
    commands = [(f"analyse {name} --json", tool + ["analyse", name, "--json"], 1.0) for name in RULESETS]
    commands.append(("check rulesets/*.yaml", tool + ["check"] + [f"rulesets/{n}.yaml" for n in RULESETS], 1.5))
    commands.append(("compare (six built-ins)", tool + ["compare"] + RULESETS + ["--json"], 1.5))
    print(f"Whole commands against `python -c \"import numpy\"`, run alternately, {rounds} rounds "
          f"(medians; wall seconds):")
    print(f"{'command':<30} {'command s':>9} {'numpy s':>8} {'ratio':>6} {'target':>7}")
    met = True
    for label, command, target in commands:
        ratio = _pair(label, command, rounds)
        met &= ratio <= target
        print(f"{'≤' + format(target, '.1f') + 'x':>7}{'' if ratio <= target else '  (over)'}")
    print("\nThe same, the first run after an edit (HAZARD_DSL_NO_CACHE=1: every file read and compiled):")
    for label, command, _ in commands:
        _pair(label, command, rounds, {"HAZARD_DSL_NO_CACHE": "1"})
        print()
    return met


def _pair(label: str, command: list[str], rounds: int, env: dict | None = None) -> float:
    wall(command, env), wall(BASELINE)  # warm-up
    ours, theirs, ratios = [], [], []
    for _ in range(rounds):
        a, b = wall(command, env), wall(BASELINE)
        ours.append(a)
        theirs.append(b)
        ratios.append(a / b)
    ratio = statistics.median(ratios)
    print(f"{label:<30} {statistics.median(ours):>9.3f} {statistics.median(theirs):>8.3f} {ratio:>5.2f}x ", end="")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="alternate runs of each command and the baseline")
    parser.add_argument("--repeat", type=int, default=20, help="repetitions of each in-process measurement")
    parser.add_argument("--in-process-only", action="store_true")
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("bench_analyse", args.write_docs):
        in_process(args.repeat)
        if not args.in_process_only:
            met = side_by_side(args.rounds)
            print("every target met" if met else "some targets not met")


if __name__ == "__main__":
    main()
