"""Playing a chunk of games on a lane table (`simulate.tables`), in NumPy, in lock-step.

Every lane makes one throw per round: one `Generator.integers` draw and one `numpy.take`.
Rounds are played in blocks; the rows each round reaches are kept for the block, and the
tagged ones among them (an ending, a cycle closed) are counted at the end of the block
(`_sorted_rows` or `_picked_rows`, whichever is faster for the game here). Memory is a few blocks of
lanes, whatever the number of games.
"""

from __future__ import annotations

import numpy as np

from .tables import Table

# games under way at once: enough that NumPy's cost per call vanishes, few enough that a round's
# rows and the block's trail stay in the processor's cache (1 << 16 lanes were a fifth slower)
LANES = 1 << 14
MAX_BLOCK = 16  # rounds played before their tagged rows are counted
# Where a game lasts under four throws on average (craps), a quarter of the throws or more land on
# the rows read, and sorting the block to count them beats picking them out (see `_sorted_rows`)
# — where NumPy sorts with vector instructions that run fast here (`sorting_pays`).
SORT_FROM = 0.25
_SORTING_PAYS: bool | None = None  # measured once a process, on first use


def sorting_pays() -> bool:
    """Whether NumPy sorts a block of rows here faster than `_picked_rows` picks them out. Its
    sort is vectorised on most processors (1-2 ns an element), but on some its vector path is far
    slower (27 ns on an AMD EPYC with AVX-512 under NumPy 2.4, where a compress instruction to
    memory is slow), and craps then ran at a quarter of its speed. Timed once, on a block like a
    craps chunk's: both counts give the same figures, so the choice is speed alone."""
    global _SORTING_PAYS
    if _SORTING_PAYS is None:
        import time

        cols = 36  # rows of a craps table: a third of the throws on the rows read
        block = ((np.arange(1 << 14, dtype=np.int64) * 2654435761) % (2400 * cols)).astype(np.int32)
        bounds = np.arange(1600, 2401, dtype=np.int32) * cols
        spent = []
        for count in (_picked_rows, _sorted_rows) * 3:  # the first of each not counted (set-up)
            copy = block.copy()
            begun = time.perf_counter()
            count(copy, bounds, cols)
            spent.append(time.perf_counter() - begun)
        _SORTING_PAYS = min(spent[3::2]) < min(spent[2::2])
    return _SORTING_PAYS


def generator(seed) -> np.random.Generator:
    """The chunk's generator from its `SeedSequence` (PCG64, NumPy's default bit generator)."""
    return np.random.Generator(np.random.PCG64(seed))


def run_chunk(table: Table, games: int, rng: np.random.Generator, lanes: int = LANES) -> tuple[np.ndarray, int]:
    """Play exactly `games` games (the first `games` started) and return (visits to each row the
    report reads — the tagged ones, and those of a draw thrown away; the others are 0 —, throws
    made). The counts are integers: merging chunks is a sum, in any order."""
    cols = table.columns
    lanes = max(1, min(lanes, games))
    draw_type = np.int16 if cols <= np.iinfo(np.int16).max else np.int32
    # Only the rows the report reads are counted: the tagged ones, and those of a draw thrown
    # away, which lie just before them (the plain rows' counts would be work for nothing).
    counts = np.zeros(table.rows, dtype=np.int64)
    low, high = table.redraws
    read = min(table.first_tag, low) if low < high else table.first_tag  # the first row read
    # a lane holds its row premultiplied by the columns: where each row read begins among them
    bounds = np.arange(read, table.rows + 1, dtype=np.int32) * cols
    sort = 1.0 / max(table.mean_throws, 1.0) >= SORT_FROM and sorting_pays()
    count_rows = _sorted_rows if sort else _picked_rows
    first_tag = table.first_tag * cols
    first_done = table.first_done * cols
    state = table.start[rng.integers(0, table.start_digits, size=lanes)] if table.start_digits > 1 else \
        np.full(lanes, table.start[0], dtype=np.int32)
    state = state.astype(np.int32)
    started = lanes
    throws = 0
    step = table.step
    index = np.empty(lanes, dtype=np.intp)  # `take` reads indices as intp: made so, not converted
    trail = np.empty((MAX_BLOCK, lanes), dtype=np.int32)
    ends_per_round = max(lanes / max(table.mean_throws, 1.0), 1.0)

    while started < games:
        # enough rounds that the N-th game is not likely to start before the block ends
        block = int(max(1, min(MAX_BLOCK, 0.7 * (games - started) / ends_per_round)))
        draws = rng.integers(0, cols, size=(block, lanes), dtype=draw_type)
        for r in range(block):
            np.add(state, draws[r], out=index)
            # mode="clip": with the default ("raise") NumPy buffers `out` and checks every index;
            # a row and a draw below the columns are always inside the table (a tenth faster)
            np.take(step, index, out=trail[r], mode="clip")
            state = trail[r]
        played = trail[:block]
        state = state.copy()  # the block is sorted in place as it is counted
        if started + block * lanes >= games:  # (a lane ends a game a round at most) it may hold the N-th
            played = played.copy()
        seen = count_rows(trail[:block], bounds, cols)
        ended = int(seen[table.first_tag - read:].sum())  # every tagged row is a game's end: a game started
        if started + ended < games:
            counts[read:] += seen
            started += ended
            throws += block * lanes
            continue
        # the N-th game starts in round `last`: keep what happened until then, not after
        total = started + np.cumsum(np.count_nonzero(played >= first_tag, axis=1))
        last = int(np.argmax(total >= games))
        state = played[last].copy()
        throws += (last + 1) * lanes
        counts[read:] += count_rows(played[:last + 1], bounds, cols)
        excess = int(total[last]) - games  # games started in that round beyond the N-th, by lane order
        if excess:
            new = np.flatnonzero(state >= first_tag)[-excess:]
            state[new] = table.excluded[state[new] // cols]
        started = games
    state = state[np.flatnonzero(state >= 0)]
    finish = table.finish
    reached = []  # the lanes finishing are few and their rounds many: counted once, at the end
    while state.size:
        throws += state.size
        moves = rng.integers(0, cols, size=state.size, dtype=draw_type)
        state = np.take(finish, state + moves, mode="clip")
        reached.append(state[state >= read * cols])
        state = state[np.flatnonzero(state < first_done)]
    if reached:
        counts[read:] += _picked_rows(np.concatenate(reached), bounds, cols)
    return counts, throws - not_thrown(table, counts)


def _sorted_rows(played: np.ndarray, bounds: np.ndarray, cols: int) -> np.ndarray:
    """Visits to each row read in a block of rounds (`played`, sorted here in place), told by
    where each row's run begins in the sorted block (`bounds`: each row read, premultiplied,
    and the end of the table). NumPy sorts integers with the processor's vector instructions,
    at a cost that does not depend on how many throws land on the rows read: where a quarter
    or more do (craps), this is about a third faster than picking them out. (`cols` unused: the
    two counts are called alike.)"""
    played = played.reshape(-1)  # a view: the block's rounds are contiguous
    played.sort()
    return np.diff(np.searchsorted(played, bounds))


def _picked_rows(played: np.ndarray, bounds: np.ndarray, cols: int) -> np.ndarray:
    """Visits to each row read in a block of rounds (`bounds` as above), picking out the throws
    that landed on them first — a fifth of them in a game of five throws — then counting those.
    The pick by a mask on random throws mispredicts as often as it picks, which is its cost."""
    played = played.reshape(-1)
    picked = np.compress(played >= bounds[0], played)  # compress: a mask's pick without indexing's overhead
    picked -= bounds[0]
    picked //= cols
    return np.bincount(picked, minlength=bounds.size - 1)


def not_thrown(table: Table, counts: np.ndarray) -> int:
    """Draws that made no throw of the N games: draws thrown away, and throws of the games played
    beyond the N to close a cycle of bets (`bets.together`)."""
    (low, high), (first, last) = table.redraws, table.beyond
    return int(counts[low:high].sum()) + int(counts[first:last].sum())


def replay(table: Table, columns) -> list[tuple[int, int]]:
    """One lane of the same table moved by given columns (for fair dice under a pure policy, a
    column is the throw's outcome index): (ending index, length) of each game it finishes, in
    order. This is how a dice tape is fed through the engine's tables."""
    if table.start_digits != 1:
        raise ValueError("a tape is replayed under a pure policy (the start takes no draw)")
    cols = table.columns
    first_tag = table.first_tag * cols
    state = int(table.start[0])
    out = []
    for column in columns:
        state = int(table.step[state + int(column)])
        if state >= first_tag:
            row = state // cols
            out.append((int(table.ending[row]), int(table.age[row])))
    return out
