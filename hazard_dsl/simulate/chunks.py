"""What a simulation run is made of, shared by the places its chunks are played: the plan, one
chunk played from its own seed, its result, the merged totals, and how a run stops early.
`run` plays chunks here or in worker processes, `cluster` on a Dask cluster; both import this
module, and it imports neither.

A run of N games (or sessions) is cut into chunks of a fixed size that depends on N alone.
Chunk i draws from `SeedSequence(seed, spawn_key=(i,))` — the i-th child that
`SeedSequence(seed).spawn(...)` would give — and its results are whole-number counts, merged
by addition. So the same seed gives the same numbers whatever the number of workers, and on a
cluster too; the order in which chunks finish changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..errors import ArgumentError
from ..records import field, record
from .engine import LANES, generator, run_chunk

GAMES_PER_CHUNK = 1 << 21  # about 10 million throws: a tenth of a second, and a progress step
SESSIONS_PER_CHUNK = 1 << 16  # some 400,000 games of a round: eight sessions a lane (`sessions.LANES`), so the lanes that finish last are few


@record
class Plan:
    """What a run plays, as plain data (NumPy arrays and records): it pickles as it is."""

    kind: str  # "games" | "sessions"
    total: int  # games, or sessions
    seed: int
    tables: tuple = ()  # games: the game's table, then one per group of bets
    setup: object = None  # sessions: simulate.sessions.Setup
    per_chunk: int = 0
    lanes: int = LANES
    engine: str = "numpy"  # "numpy" (engine.run_chunk, sessions.play_sessions: the reference) or "compiled" (compiled.*)

    def chunk_size(self) -> int:
        return self.per_chunk or (GAMES_PER_CHUNK if self.kind == "games" else SESSIONS_PER_CHUNK)

    def chunk_count(self) -> int:
        return -(-self.total // self.chunk_size())

    def chunks(self) -> Iterator[tuple[int, int]]:
        """(index, how many) for every chunk, in order, made as they are asked for: the chunks of
        10**13 games are five million, and are never all held at once."""
        size = self.chunk_size()
        for i in range(self.chunk_count()):
            yield i, min(size, self.total - i * size)


@record
class ChunkResult:
    index: int
    count: int  # games or sessions played in the chunk
    counts: list = field(default_factory=list)  # games: per table, visits to each row
    throws: list = field(default_factory=list)  # games: per table, throws made
    sessions: object = None  # sessions: the chunk summarised (see `summarise`)


@record
class Totals:
    """Chunks merged as they finish: sums of whole numbers, so the order they finish in changes
    nothing, and memory does not grow with the number of chunks."""

    chunks: int = 0
    count: int = 0
    counts: list = field(default_factory=list)
    throws: list = field(default_factory=list)
    sessions: dict | None = None
    workers: int = 0  # on a cluster: the most workers it had while the chunks were played (0: here)

    def add(self, result: ChunkResult) -> None:
        self.chunks += 1
        self.count += result.count
        if result.sessions is not None:
            self.sessions = merge_sessions(self.sessions, result.sessions)
            return
        if not self.counts:
            self.counts = [c.copy() for c in result.counts]
            self.throws = list(result.throws)
            return
        for k, c in enumerate(result.counts):
            self.counts[k] += c
            self.throws[k] += result.throws[k]


def merge_sessions(a: dict | None, b: dict) -> dict:
    if a is None:
        return {k: ([dict(seat) for seat in v] if k == "seats" else list(v) if k == "why" else v)
                for k, v in b.items()}
    for j, seat in enumerate(b["seats"]):
        for value, n in seat.items():
            a["seats"][j][value] = a["seats"][j].get(value, 0) + n
    for key in ("bank", "box", "games", "rounded", "unbalanced"):
        a[key] += b[key]
    a["why"] = [x + y for x, y in zip(a["why"], b["why"])]
    return a


def seed_of(plan: Plan, index: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(plan.seed, spawn_key=(index,))


def play_chunk(plan: Plan, index: int, count: int) -> ChunkResult:
    """One chunk, from its own seed: each table (the game's, each group's) from a child of it."""
    seed = seed_of(plan, index)
    if plan.kind == "sessions":
        if plan.engine == "compiled":
            from .compiled import play_sessions as compiled_sessions

            played = compiled_sessions(plan.setup, count, seed)
        else:
            from .sessions import play_sessions

            played = play_sessions(plan.setup, count, generator(seed))
        return ChunkResult(index, count, sessions=summarise(played, plan.setup))
    result = ChunkResult(index, count)
    for table, child in zip(plan.tables, seed.spawn(len(plan.tables))):
        if plan.engine == "compiled":
            from .compiled import run_chunk as compiled_chunk

            counts, throws = compiled_chunk(table, count, child)
        else:
            counts, throws = run_chunk(table, count, generator(child), plan.lanes)
        result.counts.append(counts)
        result.throws.append(throws)
    return result


def summarise(played, setup) -> dict:
    """A chunk of sessions as counts (merged by addition): each seat's purses as {value: sessions}."""
    purses = played.purses
    seats = []
    for j in range(setup.seats):
        values, n = np.unique(purses[:, j], return_counts=True)
        seats.append(dict(zip(values.tolist(), n.tolist())))
    money = purses.sum(axis=1) + played.bank + played.box
    return {
        "seats": seats,
        "bank": int(played.bank.sum()),
        "box": int(played.box.sum()),
        "games": int(played.games.sum()),
        "why": np.bincount(played.why, minlength=4).tolist(),
        "rounded": played.rounded,
        "unbalanced": int(np.count_nonzero(money != setup.seats * setup.purse)),
    }


class Interrupted(Exception):
    """Ctrl-C during a run: `results` holds the chunks finished before it."""

    def __init__(self, results: Totals):
        super().__init__("interrupted")
        self.results = results


class ClusterError(ArgumentError, RuntimeError):
    """The Dask extra is missing, the scheduler's address is wrong, or the scheduler cannot be
    reached or fails: one line for the user, never a traceback. It names the scheduler given
    (`Arg('scheduler', address)`), so that each front end words it."""
