"""Every benchmark under bench/, run by a reference commit and by the working tree, in one run.

    python bench/before_after.py REF [--rounds 3] [--only NAME] [--full]

REF (e.g. the commit before issue 36's first) is checked out into a temporary `git worktree`.
Each bench script that both trees have is run as a whole process on the reference's package and
on ours in turn (A B A B ...), and the ratio ours / reference taken pair by pair, so that it holds
while the shared machine's speed drifts; the median ratio is printed, with its smallest and
largest. Like for like: ONE script times both packages (only the package first on PYTHONPATH
differs), the reference's script where it runs on ours, else ours where it runs on the
reference's (the column `script` says which), each reading its own tree's rule files on both
sides. Each tree running its own script would time different work wherever a script has grown
(ours times twenty rulesets where the reference's times eight, icepool beside, the strategy
chains...). Figures: CPU seconds of the
process and its children (user + system, from the kernel's accounting of the finished process,
as /usr/bin/time gives them) and wall seconds. A ratio above 1 means the working tree is slower.

Issue 36 asks "every benchmark under bench/ is no slower (ratios before/after in one run)".
Without --full each script runs with its smallest sensible settings (QUICK below: fewer rounds,
smaller sizes), which keeps the work each script does the same on both sides; --full runs the
scripts' own defaults (several minutes each). A script that fails on either side is reported with
its exit status, not timed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

ROOT = Path(__file__).resolve().parent.parent

# The smallest settings that still run every part of each script (same on both sides).
QUICK = {
    "bench_analyse.py": ["--rounds", "3", "--repeat", "3"],
    "bench_exact.py": ["--rounds", "3", "--no-icepool"],
    "bench_growth.py": ["--sizes", "500,1000", "--stages", "500,1000"],
    "bench_lalr.py": ["--rounds", "2"],
    "bench_policy.py": ["--rounds", "1"],
    "bench_risk.py": ["--rounds", "1"],
    "bench_simulate.py": ["--rounds", "1", "--no-crapssim"],
    "bench_solve.py": ["--repeat", "1"],
    "bench_speed.py": ["--rounds", "2", "--no-simulate"],
    "bench_tables.py": ["--tables", "5", "--actions", "500", "--time-limit", "60"],
    "lsp_edit.py": ["--rounds", "5"],
}


# Names issue 36 moved (the cache out of parse/, the whole reading into check/): given their
# old places where an older script runs on this package, so that one script times both
MOVED = (("hazard_dsl.parse", "cache", "hazard_dsl.cache", None),
         ("hazard_dsl.parse.reader", "read_ruleset", "hazard_dsl.check.reading", "read_ruleset"))
RUN_MOVED = f"""
import importlib, runpy, sys
for old, name, new, attribute in {MOVED!r}:
    try:
        target = importlib.import_module(new)
        place = importlib.import_module(old)
    except ImportError:  # (the older package itself: nothing moved)
        continue
    if not hasattr(place, name):
        setattr(place, name, target if attribute is None else getattr(target, attribute))
script = sys.argv[1]
sys.argv = sys.argv[1:]
sys.path.insert(0, script.rpartition("/")[0])
runpy.run_path(script, run_name="__main__")
"""


def run_once(tree: Path, script: str, args: list, package: Path | None = None) -> tuple:
    """(exit status, CPU seconds of the process and its children, wall seconds): `tree`'s script,
    in `tree` as the working folder, with `package`'s hazard_dsl (default: the tree's own), the
    names it moved given their old places too (`MOVED`)."""
    env = dict(os.environ, PYTHONPATH=str(package or tree), PYTHONHASHSEED="0", NO_COLOR="1")
    env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="bench-cache-")  # no warm disk cache on either side
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", RUN_MOVED, str(tree / "bench" / script), *args], cwd=tree, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # wait4 gives the finished process's own accounting; a benchmark's children (commands it
    # times, workers) are reaped by it, so RUSAGE_CHILDREN's growth over the call counts them too
    before = os.times()
    _, status, _ = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    after = os.times()
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.read()
    proc.stderr.close()
    shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return proc.returncode, cpu, wall


def compare(ref: Path, script: str, args: list, rounds: int) -> str:
    # the one script that runs on both packages: the reference's, else ours
    tree, whose = ref, "reference's"
    codes = run_once(ref, script, args, package=ROOT)[0], 0
    if codes[0]:
        tree, whose = ROOT, "ours"
        codes = codes[0], run_once(ROOT, script, args, package=ref)[0]
        if codes[1]:
            return (f"| {script} | neither runs on both: the reference's exits {codes[0]} on our package, "
                    f"ours {codes[1]} on the reference's | | | | |")
    cpu_ratios, wall_ratios, ref_wall, our_wall = [], [], [], []
    for _ in range(rounds):
        code_a, cpu_a, wall_a = run_once(tree, script, args, package=ref)
        code_b, cpu_b, wall_b = run_once(tree, script, args, package=ROOT)
        if code_a or code_b:
            return f"| {script} | {whose} | fails: on the reference's exit {code_a}, on ours exit {code_b} | | | |"
        cpu_ratios.append(cpu_b / cpu_a)
        wall_ratios.append(wall_b / wall_a)
        ref_wall.append(wall_a)
        our_wall.append(wall_b)

    def spread(values: list) -> str:
        return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"

    return (f"| {script} | {whose} | {statistics.median(ref_wall):.1f} | {statistics.median(our_wall):.1f} "
            f"| {spread(wall_ratios)} | {spread(cpu_ratios)} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the reference commit (before the change)")
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs of each script")
    parser.add_argument("--only", action="append", default=[], help="this script only (repeatable)")
    parser.add_argument("--full", action="store_true", help="the scripts' own default settings")
    _docs.add_option(parser)
    options = parser.parse_args()
    with _docs.recording("before_after", options.write_docs):
        return compare_all(options)


def compare_all(options) -> int:
    work = Path(tempfile.mkdtemp(prefix="bench-ref-"))
    tree = work / "ref"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), options.ref],
                   check=True)
    try:
        ours = {p.name for p in (ROOT / "bench").glob("*.py")}
        theirs = {p.name for p in (tree / "bench").glob("*.py")}
        scripts = sorted(name for name in ours & theirs if name in QUICK)
        if options.only:
            scripts = [s for s in scripts if any(o in s for o in options.only)]
        load = os.getloadavg()[0]
        print(f"reference {options.ref}, {options.rounds} pairs each, load average {load:.1f} "
              f"on {os.cpu_count()} cores; ratio = ours / reference, median (min-max)")
        print()
        print("| bench | script | reference s | ours s | wall ratio | CPU ratio |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for script in scripts:
            print(compare(tree, script, [] if options.full else QUICK[script], options.rounds), flush=True)
        missing = sorted((ours - theirs) & set(QUICK))
        if missing:
            print(f"\nnew since the reference (nothing to compare): {', '.join(missing)}")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
