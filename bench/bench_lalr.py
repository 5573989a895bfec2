"""What the hand-written LALR driver (`hazard_dsl.parse.lalr`) buys over Lark's own parser.

    python bench/bench_lalr.py [--rounds 5] [--write-docs [FILE]]

Both parse the same grammar (grammar/hazard.lark) with the same options
(`parse.expressions.LARK_OPTIONS`) into the same trees (tests/parse/test_standalone_parser.py holds
them equal). Three measurements, each side in turn, the ratio Lark ÷ ours printed:

1. **Start-up**: in a fresh interpreter, importing the parser and making it ready — ours imports
   `parse.lalr` (its tables are a module); Lark imports `lark` and builds its LALR(1) tables from
   the grammar (a command that reads a rule file pays this once per start).
2. **Parsing**: every distinct condition, action and payout of the corpus (every rule file under
   rulesets/ and tests/, the broken ones too) parsed once per round, in process, after both are
   built.
3. **Cold check**: the two together as a command meets them: start-up plus one pass of the corpus.

Result (2 cores, load 0.4, CPython 3.11, Lark 1.3.1, 2026-11-28, median of 5 rounds; the
figures in docs/performance.md): start-up 6.6 ms ours against 108 ms Lark's (×16); parsing the
corpus' 615 distinct expressions 16 ms against 48 ms (×3.0); cold, the two together, 23 ms
against 157 ms (×6.9). The driver is kept: Lark's start-up alone is longer than a short
command's whole start, and it parses three times slower besides.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import _docs  # noqa: E402  (bench/ is on the path when a benchmark runs)

OURS_START = "import time; t = time.perf_counter(); from hazard_dsl.parse import lalr; print(time.perf_counter() - t)"
LARK_START = ("import time; t = time.perf_counter(); from lark import Lark; "
              "from hazard_dsl.parse.expressions import LARK_OPTIONS; "
              f"Lark(open({str(ROOT / 'grammar' / 'hazard.lark')!r}, encoding='utf-8').read(), **LARK_OPTIONS); "
              "print(time.perf_counter() - t)")


def corpus() -> list[tuple[str, str]]:
    """(text, start symbol) of every distinct condition, action and payout of the corpus."""
    from hazard_dsl.parse.yaml_nodes import YMap, YScalar, YSeq, load_yaml

    found: set = set()

    def walk(node, key=None):
        if isinstance(node, YMap):
            for name, (_, value) in node.entries.items():
                walk(value, name)
        elif isinstance(node, YSeq):
            for item in node.items:
                walk(item, key)
        elif isinstance(node, YScalar) and isinstance(node.value, str) and node.text.strip():
            start = {"when": "expression", "made": "expression", "paid": "expression", "do": "actions",
                     "otherwise": "actions", "pays": "payout"}.get(key)
            if start is not None:
                found.add((node.text, start))

    for path in sorted(p for folder in ("rulesets", "tests") for p in (ROOT / folder).rglob("*.yaml")):
        try:
            walk(load_yaml(path.read_text(encoding="utf-8"), str(path), register=False))
        except Exception:  # noqa: BLE001 - a file that does not read is no expression to time
            continue
    return sorted(found)


def started(code: str) -> float:
    """Seconds a fresh interpreter takes to run `code`'s timed part, as it reports them."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return float(out.stdout.strip())


def parsed(parse, texts) -> float:
    t = time.perf_counter()
    for text, start in texts:
        try:
            parse(text, start)
        except Exception:  # noqa: BLE001 - an expression of the broken corpus: refused alike by both
            pass
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each, the median kept")
    _docs.add_option(parser)
    args = parser.parse_args()
    with _docs.recording("bench_lalr", args.write_docs):
        measure(args.rounds)


def measure(rounds: int) -> None:

    from lark import Lark

    from hazard_dsl.parse import lalr
    from hazard_dsl.parse.expressions import LARK_OPTIONS

    theirs_parser = Lark((ROOT / "grammar" / "hazard.lark").read_text(encoding="utf-8"), **LARK_OPTIONS)
    texts = corpus()
    ours_start, lark_start, ours_parse, lark_parse = [], [], [], []
    for _ in range(rounds):
        ours_start.append(started(OURS_START))
        lark_start.append(started(LARK_START))
        ours_parse.append(parsed(lalr.parse, texts))
        lark_parse.append(parsed(lambda text, start: theirs_parser.parse(text, start=start), texts))
    med = statistics.median
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{len(texts):,} distinct expressions of the corpus; median of {rounds} rounds")
    print(f"start-up: ours {med(ours_start) * 1e3:.1f} ms, Lark {med(lark_start) * 1e3:.1f} ms, "
          f"ratio Lark/ours {med(lark_start) / med(ours_start):.1f}")
    print(f"parsing:  ours {med(ours_parse) * 1e3:.1f} ms, Lark {med(lark_parse) * 1e3:.1f} ms, "
          f"ratio Lark/ours {med(lark_parse) / med(ours_parse):.1f}")
    cold_ours, cold_lark = med(ours_start) + med(ours_parse), med(lark_start) + med(lark_parse)
    print(f"cold:     ours {cold_ours * 1e3:.1f} ms, Lark {cold_lark * 1e3:.1f} ms, "
          f"ratio Lark/ours {cold_lark / cold_ours:.1f}")


if __name__ == "__main__":
    main()
