"""The speed targets side by side in one run: a cold start, the text `compare`, the kernels, simulations.

    python bench/bench_speed.py [--rounds 7] [--baseline DIR] [--no-simulate] [--write-docs [FILE]]
    python bench/bench_speed.py --baseline DIR --same-files --no-simulate --cache empty,off,warm
    python bench/bench_speed.py --kernels --baseline DIR --write-docs   # the kernels, before and after

1. **Cold start.** `analyse R --json` for every built-in R, and `check rulesets/*.yaml`, each with
   an empty cache (a new, empty ``XDG_CACHE_HOME`` for every run: the first run after an edit
   or an install), against `python -c "import numpy"`; the text `compare` of six built-ins
   against its `--json`. Commands are run in turn, A B A B …, and the ratio taken pair by pair
   (its median printed), so that it holds while the machine's speed drifts. With
   ``--baseline DIR`` (another checkout of hazard-dsl, e.g. ``git archive main | tar -x -C DIR``)
   the same command of that checkout runs in the same rounds (ours, theirs, the baseline, in
   turn): both ratios are to the same runs of the baseline, before and after in one run.
   ``--cache empty,off,warm`` runs the cold start once with each state of the cache, one after
   the other: empty (the default, as above), off (``HAZARD_DSL_NO_CACHE=1``) and warm (a folder
   of each checkout's own, filled by the warm-up run), so that what the cache costs a first run
   and what it saves the next are told apart from the rest.
2. **Kernels** (one core, in process): throws per second of the NumPy engine and of the compiled
   kernel (`simulate --engine compiled`, when Numba is installed) on cotton and on craps, as a
   share of the NumPy floor — one `Generator.integers(0, 36)` draw and one `numpy.take` per
   throw — each measured alternately with the floor, best and median of the rounds, in CPU seconds
   of this process on one core. The compiled kernel's first call (compiling it, or loading it
   from Numba's cache) is made before the clock starts. With ``--baseline DIR`` the compiled
   kernel of that checkout (its ``_kernel.py``, on this checkout's tables) is measured beside.
   ``--kernels`` runs this part alone, and ``--write-docs`` then writes its own section.
3. **Simulations** (whole commands, `simulate … --json`, the games per second each reports): sessions
   at the table (`--players Ann,Ben,Cat`) ÷ plain games of cotton, one worker (and the same with
   `--engine compiled` on both sides, shown beside without a target); craps with two bets
   (`--bet pass=1 --bet odds=3-4-5x`) ÷ without, one worker; cotton on two workers ÷ one. Each
   pair in turn, A B A B, the ratio taken pair by pair (its median printed). Two workers need two
   idle cores: the load average printed beside says how far the machine was from that.

Both run as `python -m hazard_dsl` in the checkout's folder (and on PYTHONPATH), with bytecode
compiled, so the two checkouts start alike. The machine is shared: the first line says how busy
it was (the load average), and a loaded machine widens every figure.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

HERE = Path(__file__).resolve().parent.parent
RULESETS = sorted(p.stem for p in (HERE / "rulesets").glob("*.yaml"))
SIX = ["chicken", "cotton", "craps", "french", "hoyle", "petty"]
NUMPY = [sys.executable, "-c", "import numpy"]
TARGETS = {"analyse": 1.0, "check": 1.5, "compare": 1.1, "compiled": 2.5, "numpy": 0.6, "sessions": 0.3,
           "bets": 0.7, "workers": 1.7}


def environment(root: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "HAZARD_DSL_NO_CACHE")}
    env["PYTHONPATH"] = str(root)
    return env


CACHES = ("empty", "off", "warm")


def wall(command: list[str], env: dict, cold: bool) -> float:
    """Seconds of one run, in the folder of the checkout it runs (`python -m` puts the working
    folder first on the path); `cold`: with a cache folder of its own, empty (else as `env` has
    it: off, or a folder kept between runs)."""
    with tempfile.TemporaryDirectory(prefix="hazard-bench-") as cache:
        if cold:
            env = dict(env, XDG_CACHE_HOME=cache)
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=env["PYTHONPATH"],
                              env=env)
        elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}")
    return elapsed


def paired(runs: list, rounds: int, rounds_kept: list | None = None) -> list[float]:
    """Each of `runs` (command, env, cold) in turn, `rounds` times after a warm-up; the median wall
    time of each, and the median of the pair-by-pair ratios of each to the last. `rounds_kept`:
    a list given is filled with every run's times, for other ratios pair by pair."""
    for command, env, cold in runs:
        wall(command, env, cold)
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(rounds):
        for k, (command, env, cold) in enumerate(runs):
            times[k].append(wall(command, env, cold))
    ratios = [statistics.median(a / b for a, b in zip(t, times[-1])) for t in times[:-1]]
    if rounds_kept is not None:
        rounds_kept.extend(times)
    return [statistics.median(t) for t in times], ratios


def cold_start(rounds: int, baseline: Path | None, same_files: bool = False, cache: str = "empty") -> bool:
    """`same_files`: both checkouts read the baseline's rule files (by path), so that the ratio
    is the code's alone, not also what the rule files came to carry since (printed figures and
    their ledger, more options). `cache`: empty (a new folder for every run), off, or warm (a
    folder of each checkout's own for the whole table, filled by the warm-up run)."""
    with tempfile.TemporaryDirectory(prefix="hazard-bench-warm-") as warm:
        return _cold_start(rounds, baseline, same_files, cache, Path(warm))


def _cold_start(rounds: int, baseline: Path | None, same_files: bool, cache: str, warm: Path) -> bool:
    roots = [("now", HERE)] + ([("before", baseline)] if baseline else [])
    for _, root in roots:
        compileall.compile_dir(root / "hazard_dsl", quiet=1)
    # With a baseline, the rulesets both checkouts have: the same commands on both sides (a
    # baseline from before a ruleset was added would fail on it, and a script run in each tree
    # alone, as bench/before_after.py runs it, times more commands in the tree with more rulesets).
    names = [n for n in RULESETS if baseline is None or (baseline / "rulesets" / f"{n}.yaml").exists()]
    def file(n: str) -> str:  # a built-in by name, or (same_files) the baseline's file of it
        return str(baseline.resolve() / "rulesets" / f"{n}.yaml") if same_files and baseline else n

    cases = [(f"analyse {n} --json", ["analyse", file(n), "--json"], "numpy", "analyse") for n in names]
    cases.append(("check rulesets/*.yaml", ["check"] + [file(n) if same_files and baseline else f"rulesets/{n}.yaml"
                                                        for n in names], "numpy", "check"))
    cases.append(("compare (six), text ÷ --json", ["compare"] + SIX, "json", "compare"))
    heading = "".join(f" {label + ' s':>10} {label:>8}" for label, _ in roots)
    state = {"empty": "empty cache", "off": "cache off", "warm": "warm cache"}[cache]
    print(f"Whole commands, {state}, {rounds} rounds in turn (median wall seconds; median of the ratios pair "
          f"by pair):")
    print(f"{'command':<31}{heading} {'base s':>7} {'target':>7}{' now÷before' if baseline else ''}")
    met = True
    for label, args, against, kind in cases:
        runs = []
        for k, (_, root) in enumerate(roots):
            command = [sys.executable, "-m", "hazard_dsl", *args]
            env = environment(root)
            if cache == "off":
                env["HAZARD_DSL_NO_CACHE"] = "1"
            elif cache == "warm":  # each checkout its own folder: their entries are keyed apart anyway
                env["XDG_CACHE_HOME"] = str(warm / str(k))
            runs.append((command, env, cache == "empty"))
        if against == "numpy":  # one run of the import a round, after each checkout's: all ratios share it
            kept: list = []
            t, ratios = paired(runs + [(NUMPY, environment(HERE), True)], rounds, kept)
            times = [(t[k], t[-1]) for k in range(len(roots))]
            # now against before directly, pair by pair (the same rounds, in turn)
            versus = statistics.median(a / b for a, b in zip(kept[0], kept[1])) if baseline else None
        else:  # each checkout's text against its own --json
            times, ratios, versus = [], [], None
            for run, (_, root) in zip(runs, roots):
                t, r = paired([run, (run[0] + ["--json"], run[1], run[2])], rounds)
                times.append(t)
                ratios.append(r[0])
        target = TARGETS[kind]
        met &= ratios[0] <= target
        row = "".join(f" {t[0]:>10.3f} {r:>7.2f}x" for t, r in zip(times, ratios))
        beside = "" if not baseline else f" {versus:>9.2f}x" if versus is not None else f" {'—':>10}"
        print(f"{label:<31}{row} {times[0][1]:>7.3f} {'≤' + format(target, '.1f') + 'x':>7}{beside}"
              f"{'' if ratios[0] <= target else '  (not met)'}")
    return met


def baseline_kernel(root: Path):
    """The compiled kernel of another checkout (``--baseline DIR``), run on this checkout's tables:
    its `_kernel.py` loaded by path (it imports only NumPy and Numba), called as its `compiled.py`
    calls it — with the batched draw's arguments if its `play` takes them, else as before them
    (two draws from each word). None if that checkout has no compiled kernel."""
    import importlib.util
    import inspect

    import numpy as np

    from hazard_dsl.simulate import compiled
    from hazard_dsl.simulate.engine import not_thrown

    path = root / "hazard_dsl" / "simulate" / "_kernel.py"
    if not path.exists():
        return None
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    name = "baseline_kernel_" + "".join(c if c.isalnum() else "_" for c in str(root.resolve()))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    for function in vars(module).values():  # compiled here, not cached: a cache written under this
        if isinstance(function, CPUDispatcher):  # module's name would be read by that checkout's own
            function._cache = NullCache()  # runs, which know no such module
    batched = "powers" in inspect.signature(module.play.py_func).parameters

    def run(table, games: int, seed=None):
        seed = seed if seed is not None else np.random.SeedSequence(games)
        words = seed.generate_state(4, np.uint64)
        counts = np.zeros(table.rows, dtype=np.int64)
        lanes = max(1, min(compiled.LANES, games))
        extra = compiled._drawing(table.columns) if batched else ()
        draws = module.play(table.step, table.finish, table.start, table.start_digits, table.excluded,
                            table.columns, table.first_tag, table.first_done, table.redraws[0], table.redraws[1],
                            games, lanes, words, counts, *extra)
        return counts, int(draws) - not_thrown(table, counts)

    return run


def kernels(rounds: int, baseline: Path | None = None) -> bool:
    import numpy as np

    from hazard_dsl.commands.loading import build_machine, load
    from hazard_dsl.simulate import engine
    from hazard_dsl.simulate.simulation import prepare_games

    try:
        from hazard_dsl.simulate import compiled
        have_compiled = compiled.available()
    except ImportError:
        have_compiled = False

    # The clock: this process's CPU seconds, not the wall's — on a shared machine the wall counts
    # the time other programs hold the core, which is not the kernel's. All on one core (the one
    # this process may use first), so that a run is not moved between caches.
    clock = time.process_time
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        cores = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(cores)})

    def floor() -> float:
        rng = np.random.default_rng(1)
        table = np.arange(36, dtype=np.int32)
        lanes = 1 << 16
        out = np.empty(lanes, dtype=np.int32)
        count = 1500
        begun = clock()
        for _ in range(count):
            np.take(table, rng.integers(0, 36, size=lanes, dtype=np.int16), out=out)
        return count * lanes / (clock() - begun)

    def rate(run, table, games: int) -> float:
        begun = clock()
        _, throws = run(table, games)
        return throws / (clock() - begun)

    before = baseline_kernel(baseline) if baseline and have_compiled else None
    print(f"\nOne core, in process: throws per CPU second ÷ the NumPy floor's (best and median of {rounds}, each "
          f"beside a floor run{'; before: the compiled kernel of ' + str(baseline) if before else ''}):")
    print(f"{'game':<8} {'engine':<9} {'M throws/s':>10} {'floor M/s':>10} {'ratio':>6} {'median':>7} {'target':>7}")
    met = True
    for name in ("cotton", "craps"):
        table = prepare_games(build_machine(load(name), []), 10, 1).tables[0]
        engines = [("numpy", lambda t, n: engine.run_chunk(t, n, engine.generator(np.random.SeedSequence(n))))]
        if have_compiled:
            engines.append(("compiled", lambda t, n: compiled.run_chunk(t, n, np.random.SeedSequence(n))))
            compiled.run_chunk(table, 1000, np.random.SeedSequence(0))  # compiled or loaded: not timed
        if before:
            engines.append(("before", before))
            before(table, 1000)
        for label, run in engines:
            best, best_floor, ratio, ratios = 0.0, 0.0, 0.0, []
            for _ in range(rounds):
                f = floor()
                r = rate(run, table, 2_000_000)
                ratios.append(r / f)
                if r / f > ratio:
                    best, best_floor, ratio = r, f, r / f
            target = TARGETS.get(label)  # none for the baseline: shown beside
            met &= target is None or ratio >= target
            shown = '≥' + format(target, '.1f') + 'x' if target else '—'
            print(f"{name:<8} {label:<9} {best / 1e6:>10.0f} {best_floor / 1e6:>10.0f} {ratio:>5.2f}x "
                  f"{statistics.median(ratios):>6.2f}x {shown:>7}"
                  f"{'' if target is None or ratio >= target else '  (not met)'}")
    if not have_compiled:
        print("(the compiled kernel needs Numba: pip install 'hazard-dsl[fast]')")
        met = False
    if pinned:
        os.sched_setaffinity(0, cores)
    return met


def games_per_second(args: list[str]) -> float:
    """The games per second a `simulate … --json` reports (the chunks' time, not the start-up)."""
    import json

    env = environment(HERE)
    done = subprocess.run([sys.executable, "-m", "hazard_dsl", "simulate", *args, "--json"], capture_output=True,
                          text=True, cwd=env["PYTHONPATH"], env=env)
    if done.returncode != 0:
        raise SystemExit(f"simulate {' '.join(args)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return float(json.loads(done.stdout)["games_per_second"])


SIMULATIONS = [  # (what, the command measured, the command it is divided by, its target in TARGETS or None)
    ("sessions ÷ plain games (cotton)", ["cotton", "--players", "Ann,Ben,Cat", "--games", "2000000", "--workers", "1"],
     ["cotton", "--games", "20000000", "--workers", "1"], "sessions"),
    ("  the same, --engine compiled", ["cotton", "--players", "Ann,Ben,Cat", "--games", "4000000", "--workers", "1",
                                      "--engine", "compiled"],
     ["cotton", "--games", "100000000", "--workers", "1", "--engine", "compiled"], None),
    ("two bets ÷ none (craps)", ["craps", "--bet", "pass=1", "--bet", "odds=3-4-5x", "--games", "20000000",
                                 "--workers", "1"], ["craps", "--games", "20000000", "--workers", "1"], "bets"),
    ("two workers ÷ one (cotton)", ["cotton", "--games", "60000000", "--workers", "2"],
     ["cotton", "--games", "60000000", "--workers", "1"], "workers"),
]


def simulations(rounds: int) -> bool:
    print(f"\nWhole simulations, games per second as each reports it ({rounds} rounds in turn; median of the "
          f"ratios pair by pair):")
    print(f"{'measure':<32} {'M games/s':>10} {'base M/s':>9} {'ratio':>6} {'target':>7}  load (1 min)")
    met = True
    for label, measured, base, kind in SIMULATIONS:
        games_per_second(measured), games_per_second(base)  # warm: the cache of rule files, Numba's
        ours, theirs, ratios, loads = [], [], [], []
        for _ in range(rounds):
            loads.append(os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"))
            a, b = games_per_second(measured), games_per_second(base)
            ours.append(a)
            theirs.append(b)
            ratios.append(a / b)
        ratio = statistics.median(ratios)
        target = TARGETS[kind] if kind else None  # none: shown beside, not a target of the issue
        met &= target is None or ratio >= target
        shown = '≥' + format(target, '.1f') + 'x' if target else '—'
        print(f"{label:<32} {statistics.median(ours) / 1e6:>10.1f} {statistics.median(theirs) / 1e6:>9.1f} "
              f"{ratio:>5.2f}x {shown:>7}  {min(loads):.2f}–{max(loads):.2f}"
              f"{'' if target is None or ratio >= target else '  (not met)'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", type=Path, default=None, help="another checkout of hazard-dsl, run beside")
    parser.add_argument("--same-files", action="store_true",
                        help="with --baseline: both checkouts read the baseline's rule files, so that the ratio is "
                             "the code's alone")
    parser.add_argument("--no-simulate", action="store_true", help="the cold start only")
    parser.add_argument("--cache", default="empty",
                        help="the cold start with the cache in each of these states in turn, a comma between: "
                             "empty (a new folder each run), off, warm (default: empty)")
    parser.add_argument("--no-commands", action="store_true", help="the kernels and simulations only")
    parser.add_argument("--kernels", action="store_true",
                        help="the kernels alone (with --write-docs: into their own section, bench_speed_kernel)")
    _docs.add_option(parser)
    args = parser.parse_args()
    caches = [c.strip() for c in args.cache.split(",") if c.strip()]
    if not caches or any(c not in CACHES for c in caches):
        parser.error(f"--cache takes {', '.join(CACHES)}, a comma between (not {args.cache!r})")
    if args.kernels:
        args.no_commands = True
    with _docs.recording("bench_speed" if not args.kernels else "bench_speed_kernel", args.write_docs):
        load = os.getloadavg() if hasattr(os, "getloadavg") else None
        print(f"{os.cpu_count()} cores; load average {' '.join(f'{x:.2f}' for x in load) if load else 'unknown'} "
              f"(1, 5, 15 min) at the start")
        met = True
        if not args.no_commands:
            for k, cache in enumerate(caches):
                if k:
                    print()
                met &= cold_start(args.rounds, args.baseline, args.same_files, cache)
        if not args.no_simulate:
            met &= kernels(args.rounds, args.baseline)
            if not args.kernels:
                met &= simulations(args.rounds)
        if load is not None:
            print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print("every target met" if met else "some targets not met")


if __name__ == "__main__":
    main()
