"""How fast `hazard-dsl simulate` plays, beside the floor of NumPy, plain Python and crapssim.

    python bench/bench_simulate.py            # about a minute and a half
    python bench/bench_simulate.py --full     # also 10^9 games, for the peak memory (a few minutes more)
    python bench/bench_simulate.py --write-docs   # and its figures into docs/performance.md

Each case runs in a fresh process (its peak memory is that process's), and the cases are run
in turn three times, keeping each one's best: the development machine is shared, and the best
of alternate runs is the fairest comparison of what each can do. Printed: games and throws per
second, peak memory (MiB), and the ratios the simulator is held to:

* one core: throws per second on cotton and on craps (the pass line game), as a share of the
  floor — one `Generator.integers(0, 36)` draw per throw and a `numpy.take` into a table;
* games per second against crapssim's pass line (installed from PyPI into a virtualenv of its
  own, /tmp/hazard-bench-crapssim, made on first use; `--no-crapssim` skips it);
* two workers against one (needs two cores);
* peak memory for 10^7, 10^8 (and with --full 10^9) games: flat in N.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

ROOT = Path(__file__).resolve().parent.parent
CRAPSSIM_VENV = Path(os.environ.get("HAZARD_BENCH_CRAPSSIM", "/tmp/hazard-bench-crapssim"))
CRAPS_THROWS_PER_GAME = 557 / 165  # exact (hazard-dsl analyse craps): games = rolls / this


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --------------------------------------------------------------------------- the cases (each in its own process)


def case_floor() -> dict:
    import numpy as np

    rng = np.random.default_rng(1)
    table = np.arange(36, dtype=np.int32)
    lanes = 1 << 16
    out = np.empty(lanes, dtype=np.int32)
    rounds = 3000
    begun = time.perf_counter()
    for _ in range(rounds):
        np.take(table, rng.integers(0, 36, size=lanes, dtype=np.int16), out=out)
    seconds = time.perf_counter() - begun
    return {"throws": rounds * lanes, "games": None, "seconds": seconds}


def _engine(name: str, games: int, bets=(), workers: int = 1) -> dict:
    from hazard_dsl.cli.requests import bet_orders
    from hazard_dsl.commands.loading import build_machine, load
    from hazard_dsl.simulate.simulation import execute, prepare_games

    ruleset = load(name)
    machine = build_machine(ruleset, [], [b.partition("=")[0] for b in bets])
    # the bets as `simulate --bet` reads them (the simulator takes orders, not their text)
    context = prepare_games(machine, games, 1, bets=list(bet_orders(bets, at_throw=False)))
    report = execute(context, workers)[0]
    return {"throws": report["throws_made"], "games": report["games"], "seconds": report["seconds"]}


def case_cotton() -> dict:
    return _engine("cotton", 20_000_000)


def case_craps() -> dict:
    return _engine("craps", 30_000_000)


def case_craps_pass_bet() -> dict:
    return _engine("craps", 10_000_000, ["pass=1"])


def case_craps_pass_odds_place() -> dict:
    return _engine("craps", 10_000_000, ["pass=1", "odds=3-4-5x", "place_6=6"])


def case_cotton_1_worker() -> dict:
    return _engine("cotton", 100_000_000, workers=1)


def case_cotton_2_workers() -> dict:
    return _engine("cotton", 100_000_000, workers=2)


def case_python_cotton() -> dict:
    """Cotton's game written out by hand in plain Python: the main thrown until 5-9, nicks and
    outs, then the chance against the main."""
    import random

    rng = random.Random(1)
    nicks = {5: {5}, 6: {6, 12}, 7: {7, 11}, 8: {8, 12}, 9: {9}}
    games = throws = wins = 0
    begun = time.perf_counter()
    while throws < 2_000_000:
        games += 1
        while True:
            throws += 1
            main = rng.randint(1, 6) + rng.randint(1, 6)
            if 5 <= main <= 9:
                break
        throws += 1
        t = rng.randint(1, 6) + rng.randint(1, 6)
        if t in nicks[main]:
            wins += 1
            continue
        if t in (2, 3) or t in (11, 12):
            continue
        chance = t
        while True:
            throws += 1
            t = rng.randint(1, 6) + rng.randint(1, 6)
            if t == chance:
                wins += 1
                break
            if t == main:
                break
    return {"throws": throws, "games": games, "seconds": time.perf_counter() - begun}


def case_python_craps() -> dict:
    """The pass line game written out by hand in plain Python."""
    import random

    rng = random.Random(1)
    games = throws = 0
    begun = time.perf_counter()
    while throws < 2_000_000:
        games += 1
        throws += 1
        t = rng.randint(1, 6) + rng.randint(1, 6)
        if t in (2, 3, 7, 11, 12):
            continue
        point = t
        while True:
            throws += 1
            t = rng.randint(1, 6) + rng.randint(1, 6)
            if t in (point, 7):
                break
    return {"throws": throws, "games": games, "seconds": time.perf_counter() - begun}


def case_memory(games: int) -> dict:
    from hazard_dsl.cli import main

    with open(os.devnull, "w") as sink:
        stdout, sys.stdout = sys.stdout, sink
        try:
            begun = time.perf_counter()
            main(["simulate", "cotton", "--games", str(games), "--seed", "1", "--workers", "1", "--json"])
            seconds = time.perf_counter() - begun
        finally:
            sys.stdout = stdout
    return {"throws": None, "games": games, "seconds": seconds}


CRAPSSIM = r"""
import json, resource, time
from crapssim import Table
from crapssim.strategy import BetPassLine
table = Table(seed=1)
table.add_player(bankroll=10**12, strategy=BetPassLine(1))
rolls = 100_000
begun = time.perf_counter()
table.run(max_rolls=rolls, verbose=False)
seconds = time.perf_counter() - begun
print(json.dumps({"throws": rolls, "games": rolls / %r, "seconds": seconds,
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""" % CRAPS_THROWS_PER_GAME


def crapssim_python() -> Path | None:
    """The virtualenv holding crapssim (made and filled on first use), or None if pip cannot."""
    python = CRAPSSIM_VENV / "bin" / "python"
    if python.exists() and subprocess.run([str(python), "-c", "import crapssim"], capture_output=True).returncode == 0:
        return python
    print(f"installing crapssim into {CRAPSSIM_VENV} (once) ...", file=sys.stderr)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(CRAPSSIM_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "crapssim"], check=True)
    except (subprocess.CalledProcessError, OSError) as exc:
        print(f"crapssim could not be installed ({exc}); install it with: python -m venv {CRAPSSIM_VENV} && "
              f"{python} -m pip install crapssim", file=sys.stderr)
        return None
    return python


CASES = {
    "floor": case_floor,
    "cotton": case_cotton,
    "craps": case_craps,
    "craps pass bet": case_craps_pass_bet,
    "craps pass+odds+place_6": case_craps_pass_odds_place,
    "cotton 1 worker": case_cotton_1_worker,
    "cotton 2 workers": case_cotton_2_workers,
    "python cotton": case_python_cotton,
    "python craps": case_python_craps,
}


def run_case(name: str) -> dict:
    """The case in a fresh process: its figures and its peak memory."""
    if name == "crapssim":
        python = crapssim_python()
        if python is None:
            return {}
        out = subprocess.run([str(python), "-c", CRAPSSIM], capture_output=True, text=True, check=True)
        return json.loads(out.stdout)
    out = subprocess.run([sys.executable, __file__, "--case", name], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=3, help="runs of every case, alternately (best kept)")
    parser.add_argument("--full", action="store_true", help="also 10^9 games, for the peak memory")
    parser.add_argument("--no-crapssim", action="store_true")
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("bench_simulate", args.write_docs):
        if args.case:
            if args.case.startswith("memory "):
                result = case_memory(int(float(args.case.split()[1])))
            else:
                result = CASES[args.case]()
            result["peak_mib"] = peak_mib()
            print(json.dumps(result))
            return
        names = list(CASES) + ([] if args.no_crapssim else ["crapssim"])
        best: dict = {}
        for round_ in range(args.rounds):
            for name in names:
                result = run_case(name)
                if not result:
                    continue
                rate = result["throws"] / result["seconds"] if result["throws"] else result["games"] / result["seconds"]
                kept = best.get(name)
                if kept is None or rate > kept["rate"]:
                    best[name] = dict(result, rate=rate)
                print(f"  round {round_ + 1}: {name}: {rate / 1e6:.1f} M/s", file=sys.stderr)
        sizes = [10 ** 7, 10 ** 8] + ([10 ** 9] if args.full else [])
        for n in sizes:
            out = subprocess.run([sys.executable, __file__, "--case", f"memory {n}"], capture_output=True, text=True,
                                 check=True, cwd=ROOT)
            best[f"memory {n:.0e}"] = json.loads(out.stdout.strip().splitlines()[-1])

        print(f"{'case':<28} {'games/s':>14} {'throws/s':>14} {'peak MiB':>9}")
        for name, r in best.items():
            games = f"{r['games'] / r['seconds']:,.0f}" if r.get("games") else ""
            throws = f"{r['throws'] / r['seconds']:,.0f}" if r.get("throws") else ""
            print(f"{name:<28} {games:>14} {throws:>14} {r['peak_mib']:>9.1f}")

        def tps(name):
            r = best.get(name)
            return r["throws"] / r["seconds"] if r else None

        def gps(name):
            r = best.get(name)
            return r["games"] / r["seconds"] if r else None

        floor = tps("floor")
        print("\nratios (targets in brackets)")
        for name in ("cotton", "craps"):
            print(f"  {name}: {tps(name) / floor:.0%} of the floor's throws per second  [at least 40%]")
        for name in ("craps pass bet", "craps pass+odds+place_6"):
            print(f"  {name}: {tps(name) / floor:.0%} of the floor's throws per second (bets: the throws of every "
                  f"table), {gps(name) / gps('craps'):.0%} of the game's games per second")
        if gps("crapssim"):
            print(f"  craps: {gps('craps') / gps('crapssim'):,.0f}× crapssim's pass-line games per second  "
                  f"[at least 1000×]")
        print(f"  plain Python: cotton {tps('cotton') / tps('python cotton'):.0f}×, craps "
              f"{tps('craps') / tps('python craps'):.0f}× slower than the engine")
        print(f"  two workers: {tps('cotton 2 workers') / tps('cotton 1 worker'):.2f}× one worker  [at least 1.7×; "
              f"{os.cpu_count()} cores here]")
        peaks = [best[k]["peak_mib"] for k in best if k.startswith("memory")]
        print(f"  peak memory for {', '.join(k.split()[1] for k in best if k.startswith('memory'))} games: "
              f"{', '.join(f'{p:.0f}' for p in peaks)} MiB  [under 200 MiB, flat in N]")


if __name__ == "__main__":
    main()
