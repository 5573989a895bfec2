"""How the programs of hazard-dsl set Python's cycle collector: one setting, one place.

Python collects reference cycles every 700 net allocations of containers. A command, and every
answer of the language server and of the workbench's processes, allocates tens of thousands of
small objects it keeps for the length of the work (the rule file's nodes, the explored states,
the bets' tables), and each collection walks the young ones again: 5-8% of a `check`, and 4% of
a new text's exact P(win) (bench/bench_exact.py), measured. Every 200,000 (mypy's setting) keeps
the collector, and what it can hold, bounded. The library's functions leave the setting alone:
a notebook's process is its user's; the programs (`hazard-dsl`, its language server, the
server's workers) set it where they start.
"""

from __future__ import annotations

import gc

YOUNG = 200_000  # net container allocations between collections of the youngest generation
OLDER = 30  # collections of one generation between collections of the next


def for_a_program() -> None:
    """The collector's setting for a process of hazard-dsl's own (not a library caller's)."""
    gc.set_threshold(YOUNG, OLDER, OLDER)
