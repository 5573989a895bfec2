"""Playing a chunk of games on a lane table (`simulate.tables`), in NumPy, in lock-step.

Every lane makes one throw per round: one `Generator.integers` draw and one `numpy.take`.
Rounds are played in blocks; the rows each round reaches are kept for the block, and the
tagged ones among them (an ending, a cycle closed) are counted at the end of the block. Memory
is a few blocks of lanes, whatever the number of games.
"""

from __future__ import annotations

import numpy as np

from .tables import Table

# games under way at once: enough that NumPy's cost per call vanishes, few enough that a round's
# rows and the block's trail stay in the processor's cache (1 << 16 lanes were a fifth slower)
LANES = 1 << 14
MAX_BLOCK = 16  # rounds played before their tagged rows are counted


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
    # visits counted per entry of the table (row × columns: the rows as the lanes hold them,
    # premultiplied), so a block is counted by one bincount with no division; folded at the end.
    # Only the rows the report reads are added up (the tagged ones, and those of a draw thrown
    # away, which lie just before them): the plain rows' counts would be a pass for nothing
    size = table.rows * cols
    counts = np.zeros(size, dtype=np.int64)
    first_tag = table.first_tag * cols
    low, high = table.redraws
    read = min(first_tag, low * cols) if low < high else first_tag
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
        seen = _read_rows(played, read, size)
        ended = int(seen[first_tag - read:].sum())  # every tagged row is a game's end: a game started
        if started + ended < games:
            counts[read:] += seen
            started += ended
            throws += block * lanes
            state = state.copy()
            continue
        # the N-th game starts in round `last`: keep what happened until then, not after
        total = started + np.cumsum(np.count_nonzero(played >= first_tag, axis=1))
        last = int(np.argmax(total >= games))
        counts[read:] += _read_rows(played[:last + 1], read, size)
        throws += (last + 1) * lanes
        state = played[last].copy()
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
        reached.append(state[state >= read])
        state = state[np.flatnonzero(state < first_done)]
    if reached:
        counts += np.bincount(np.concatenate(reached), minlength=size)
    counts = counts.reshape(table.rows, cols).sum(axis=1)
    return counts, throws - not_thrown(table, counts)


def _read_rows(played: np.ndarray, read: int, size: int) -> np.ndarray:
    """Visits to each entry from `read` on in a block of rounds: those entries picked out first
    (a throw in four or five ends a game), then counted, so that the count passes over a fraction
    of the block (a fifth faster than counting every entry and keeping a part)."""
    played = played.ravel()
    picked = np.compress(played >= read, played)  # compress: a mask's pick without indexing's overhead
    picked -= read
    return np.bincount(picked, minlength=size - read)


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
