"""From the rule text to the exact P(win), in process, beside icepool's reroll form of the same game.

    python bench/bench_exact.py [--rounds 20] [--repeat 3] [--no-icepool] [--baseline DIR] [--cpu]
        [--default-collector] [--write-docs [FILE]]

Ours: the built-in rule file's text read and checked, no cache, in two ways side by side: whole
(`check.reading.read_ruleset`, every section, as `check` and every command read it) and the game
alone (`check.reading.read_game`, the question's own path: its bets and fees read when first
asked for, its sources, notes and printed figures not at all); then compiled into the machine
(`compile.compiler.compile_ruleset` with no bets: the game, its fees and when the dice pass) and
solved for P(win) (`solve.markov.Solver.forward`) — the path an editor or the workbench takes
after each keystroke, without the start-up of a command. Theirs: icepool (installed from PyPI
into a virtualenv of its own, /tmp/hazard-bench-icepool, made on first use; `--no-icepool` skips
it), the same games written by hand as icepool writes a game that throws again: `Die.reroll(…,
depth='inf')`. Both give Cotton's 1979/4032 and the pass line's 244/495, checked. Ours twice:
the same text read again (its YAML's nodes kept in the process, which keeps the last few texts')
and a text not read before (its YAML parsed and its sections found anew, as after an edit);
either way the parse trees of its expressions are kept in the process, as after an edit of one
of them. Each is the best of `--rounds` calls (one of each in turn) in each of `--repeat` turns,
each side in its own process; the processes run one after the other, in turns, so that a busy
spell slows each (the first line says how busy the machine was). `--baseline DIR` (another
checkout, e.g. `git archive a57f543 | tar -x -C DIR`) times that checkout's reading too, in a
third process of the same run: its rows are `before`. `--cpu`: each call timed by the processor
time its process spent, both sides (on a machine others keep busy). Ours runs with the cycle
collector set as hazard-dsl's programs set it (`hazard_dsl/collector.py`: the language server
and the workbench's processes, whose path this is); `--default-collector` times it with Python's own
setting too (about 4% slower for Cotton, best of 300 calls in one process). The targets, for the game read alone:
Cotton ≤ 2×, craps ≤ 10× (craps' file carries 39 bets that P(win) never reads).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

HERE = Path(__file__).resolve().parent.parent
ICEPOOL_VENV = Path(os.environ.get("HAZARD_BENCH_ICEPOOL", "/tmp/hazard-bench-icepool"))
TARGETS = {"cotton": 2.0, "craps": 10.0}
EXPECTED = {"cotton": "1979/4032", "craps": "244/495"}

OURS = r"""
import gc, json, os, sys, time
os.environ["HAZARD_DSL_NO_CACHE"] = "1"
from pathlib import Path
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.compile.machine import END
from hazard_dsl.check.reading import read_ruleset
try:
    from hazard_dsl.check.reading import read_game
except ImportError:  # a checkout from before the game's reading (--baseline)
    read_game = None
from hazard_dsl.solve.markov import Solver
if COLLECTOR:  # as the language server and the workbench's processes run (hazard_dsl/collector.py)
    try:
        from hazard_dsl.collector import for_a_program
    except ImportError:  # a checkout from before the setting had a module of its own: its command line's
        def for_a_program():
            gc.set_threshold(200_000, 30, 30)
    for_a_program()

from hazard_dsl.parse import yaml_nodes
try:
    from hazard_dsl.parse.sections import game_cut as cut_cache
except ImportError:  # a checkout from before the game's reading (--baseline)
    cut_cache = None

def p_win(name, text, new, read):
    if new:  # a text not read before (after an edit): its YAML parsed anew, its sections found anew
        yaml_nodes._load.cache_clear()
        if cut_cache is not None:
            cut_cache.cache_clear()
    gc.collect()  # each call from the same start: a collection falls where its own garbage puts it
    t0 = time.CLOCK()
    ruleset = read(name + ".yaml", text=text, named=name + ".yaml")
    t1 = time.CLOCK()
    machine = compile_ruleset(ruleset, bets=())  # P(win) reads no bet: none asked for
    t2 = time.CLOCK()
    solver = Solver(machine)
    solver.set_policy("optimal")
    visits = solver.forward()
    win = visits.total(s.index for s in machine.states if s.kind == END and s.result == "win")
    t3 = time.CLOCK()
    return win, (t1 - t0, t2 - t1, t3 - t2)

texts = {name: (Path(sys.argv[1]) / (name + ".yaml")).read_text(encoding="utf-8") for name in sys.argv[2:]}
best = {}
for _ in range(ROUNDS):  # one call of each in turn, so that a busy spell slows them all alike
    for name, text in texts.items():
        for reading, read in (("whole", read_ruleset), ("game", read_game)):
            if read is None:
                continue
            for new in (False, True):
                key = f"{name} {reading}" + (" new" if new else "")
                if not new:  # read just before: its nodes and cut kept, as for a text read again
                    p_win(name, text, False, read)
                win, parts = p_win(name, text, new, read)
                if key not in best or sum(parts) < sum(best[key][1]):
                    best[key] = (win, parts)
out = {key: {"win": str(win), "read": parts[0], "compile": parts[1], "solve": parts[2], "total": sum(parts)}
       for key, (win, parts) in best.items()}
print(json.dumps(out))
"""

THEIRS = r"""
import json, time
import icepool

def cotton():
    throw = icepool.d6 + icepool.d6
    main = throw.reroll([2, 3, 4, 10, 11, 12], depth="inf")  # thrown until 5-9

    def game(m):
        def chance_throw(t):
            if t == m or (m in (6, 8) and t == 12) or (m == 7 and t == 11):
                return 1  # nicks
            if t in (2, 3, 11, 12):
                return 0  # throws out
            return throw.reroll(lambda x: x not in (t, m), depth="inf").map(lambda x: int(x == t))
        return throw.map(chance_throw)

    return main.map(game).probability(1)

def craps():
    throw = icepool.d6 + icepool.d6

    def come_out(t):
        if t in (7, 11):
            return 1
        if t in (2, 3, 12):
            return 0
        return throw.reroll(lambda x: x not in (t, 7), depth="inf").map(lambda x: int(x == t))

    return throw.map(come_out).probability(1)

out = {}
for game in (cotton, craps):
    best = None
    for _ in range(ROUNDS):
        t = time.CLOCK()
        win = game()
        t = time.CLOCK() - t
        best = t if best is None else min(best, t)
    out[game.__name__] = {"win": str(win), "total": best, "version": icepool.__version__}
print(json.dumps(out))
"""


def icepool_python() -> Path:
    python = ICEPOOL_VENV / "bin" / "python"
    if not python.exists():
        venv.create(ICEPOOL_VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "icepool"], check=True)
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="calls of each, the best kept")
    parser.add_argument("--repeat", type=int, default=3, help="turns of the processes, one after another")
    parser.add_argument("--no-icepool", action="store_true", help="time ours alone")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout of hazard-dsl, its reading timed beside (rows 'before')")
    parser.add_argument("--cpu", action="store_true",
                        help="time each call by the processor time the process spent (time.process_time), both "
                             "sides, not by the wall clock: on a machine others keep busy, a call cut off by "
                             "another's turn is not counted in its time")
    parser.add_argument("--default-collector", action="store_true",
                        help="ours with Python's own setting of the cycle collector (a collection every 700 "
                             "allocations), not the programs' (hazard_dsl/collector.py: the language server "
                             "and the workbench's processes collect every 200,000)")
    _docs.add_option(parser)
    args = parser.parse_args()
    clock = "process_time" if args.cpu else "perf_counter"
    with _docs.recording("bench_exact", args.write_docs):
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; best of {args.rounds} calls "
              f"in each of {args.repeat} turns, in ms" + (" of processor time" if args.cpu else ""))
        print("ours with the cycle collector " + ("as Python sets it (every 700 allocations)" if args.default_collector
              else "as hazard-dsl's programs set it (every 200,000 allocations: hazard_dsl/collector.py)"))
        def run_ours(root: Path) -> dict:
            env = dict(os.environ, PYTHONPATH=str(root))
            code = OURS.replace("ROUNDS", str(args.rounds)).replace("CLOCK", clock) \
                .replace("COLLECTOR", str(not args.default_collector))
            return json.loads(subprocess.run([sys.executable, "-c", code,
                                              str(HERE / "rulesets"), *TARGETS], capture_output=True, text=True,
                                             check=True, env=env, cwd=root).stdout)

        def best(found: dict, more: dict) -> None:  # each figure's best run kept
            for key, value in more.items():
                if key not in found or value["total"] < found[key]["total"]:
                    found[key] = value

        ours: dict = {}
        theirs: dict = {}
        code = THEIRS.replace("ROUNDS", str(args.rounds)).replace("CLOCK", clock)
        for _ in range(args.repeat):  # the processes in turn, so that a busy spell slows each
            best(ours, run_ours(HERE))
            if args.baseline is not None:  # its whole reading is the figures before
                best(ours, {key.replace(" whole", " before"): value
                            for key, value in run_ours(args.baseline.resolve()).items() if " whole" in key})
            if not args.no_icepool:
                best(theirs, json.loads(subprocess.run([str(icepool_python()), "-c", code], capture_output=True,
                                                       text=True, check=True).stdout))
        print(f"{'game':<8} {'reads':<6} {'text':<6} {'read':>6} {'compile':>8} {'solve':>6} {'ours':>7} "
              f"{'icepool':>8} {'ratio':>7} {'target':>7}")
        for name, target in TARGETS.items():
            for reading in ("before", "whole", "game"):
                for new in (False, True):
                    o = ours.get(f"{name} {reading}" + (" new" if new else ""))
                    if o is None:
                        continue  # no --baseline: no rows before
                    assert o["win"] == EXPECTED[name], (name, o["win"])
                    line = (f"{name:<8} {reading:<6} {'new' if new else 'again':<6} {o['read'] * 1e3:>6.2f} "
                            f"{o['compile'] * 1e3:>8.2f} {o['solve'] * 1e3:>6.2f} {o['total'] * 1e3:>7.2f}")
                    if name in theirs:
                        t = theirs[name]
                        assert t["win"] == EXPECTED[name], (name, t["win"])
                        ratio = o["total"] / t["total"]
                        line += f" {t['total'] * 1e3:>8.2f} {ratio:>6.2f}×"
                        if reading == "game":  # the targets are the question's own path
                            line += f" {'≤ %g×' % target:>7} {'met' if ratio <= target else 'not met'}"
                    print(line)
        print("before: the baseline's reading (--baseline); whole: every section read and checked\n"
              "(read_ruleset, as check and every command read); game: the game alone, its bets and fees\n"
              "read when first asked for, its sources, notes and printed figures not at all (read_game,\n"
              "the question's path).\n"
              "again: the same text read again (its YAML's nodes kept in the process, as the language service\n"
              "reads each version of a document twice); new: a text not read before, its YAML parsed anew.\n"
              "Either way the expressions' parse trees are kept in the process (an edit changes one or two).")
        if theirs:
            print(f"icepool {next(iter(theirs.values()))['version']}")


if __name__ == "__main__":
    main()
