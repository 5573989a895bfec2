"""The compiled kernel (the "compiled" engine, the `fast` extra: Numba): the lane tables of
`simulate.tables` played by machine code instead of NumPy calls; and sessions at the table
(`play_sessions`, below), played a session at a time by the rules `sessions.play_sessions` plays
on arrays.

The same tables, the same rules of a chunk as `engine.run_chunk` (exactly N games, the first N
started in order of round then lane; after the N-th has started the lanes finish on `finish`),
the same result (visits to each row that the report reads, throws made). What differs:

- **Its own random numbers.** `engine` draws with NumPy's `Generator.integers`, a call per
  round of its 16,384 lanes; a compiled loop cannot make NumPy's draws one at a time at NumPy's
  speed, nor the same numbers (NumPy's bounded draws buffer 16-bit values out of 32-bit words, an
  implementation detail that can change), and with 8 lanes it hands the throws to its games in
  another order anyway. The kernel runs xoshiro256** (Blackman and Vigna) seeded from the
  chunk's `SeedSequence`, and draws its throws by the batched draw (`_kernel.plan`: several
  throws from each 64-bit word, a word thrown away where they would not be exactly uniform). So
  a seed gives the same figures with this engine every time, with any number of workers, but not
  the NumPy engine's figures: both are exact samplers of the same game, and both agree with the
  exact solver (tests/test_compiled_kernel.py, tests/test_batched_draw.py).
- **Counting.** Each lane adds one to its own tally of every row it reaches, without a test
  or a branch; the tallies lie in the kernel's own copy of the table, beside each row's entries,
  and only those of the rows the report reads — the tagged ones (an ending, a cycle closed) and
  those of a draw thrown away — are read at the end of the chunk. The games started are counted
  from the tallies only when a round could start the N-th (`_kernel.play`).
- **Lanes.** `LANES` games under way in one loop, their states held in registers: the lookups
  of the different lanes overlap, where one lane would wait on each.

Numba is imported only by `_kernel` (the loop itself), and that only when a chunk is played by
this engine; the kernel is compiled on first use and kept in Numba's cache (``cache=True``).
"""

from __future__ import annotations

import numpy as np

from .tables import Table

LANES = 8


def available() -> bool:
    """Whether the compiled engine can run here (Numba importable)."""
    try:
        import numba
    except Exception:  # noqa: BLE001 - not installed, or broken against this NumPy: not available
        return False
    return numba is not None


def run_chunk(table: Table, games: int, seed: np.random.SeedSequence, lanes: int = LANES) -> tuple[np.ndarray, int]:
    """As `engine.run_chunk`: (visits to each row the report reads — the others are 0 —, throws
    made), played by the compiled kernel from the chunk's seed."""
    from ._kernel import play

    lanes = max(1, min(lanes, games))
    words = seed.generate_state(4, np.uint64)
    if not words.any():  # xoshiro's one forbidden state
        words[0] = 1
    assert table.first_done >= table.first_tag and table.step.dtype == np.int32
    counts = np.zeros(table.rows, dtype=np.int64)
    draws = play(table.step, table.finish, table.start, table.start_digits, table.excluded, table.columns,
                 table.first_tag, table.first_done, table.redraws[0], table.redraws[1], games, lanes, words, counts,
                 *_drawing(table.columns))
    from .engine import not_thrown

    return counts, int(draws) - not_thrown(table, counts)


def _drawing(columns: int) -> tuple:
    """The batched draw's arguments to the kernel for `columns` (`_kernel.plan`), made once."""
    if columns not in _PLANS:
        from ._kernel import plan

        p = plan(columns)
        _PLANS[columns] = (p.word_bits - p.bits, p.bits, p.powers, p.per_word, np.uint64(p.threshold))
    return _PLANS[columns]


_PLANS: dict = {}


def draws(columns: int, count: int, seed: np.random.SeedSequence) -> np.ndarray:
    """The first `count` throws the kernel would draw below `columns` from `seed`, in order (the
    stream `run_chunk` takes its throws from): for the tests of the batched draw."""
    from ._kernel import sample

    words = seed.generate_state(4, np.uint64)
    if not words.any():
        words[0] = 1
    out = np.empty(count, dtype=np.int64)
    sample(columns, *_drawing(columns), words, out)
    return out


STRATEGIES = {"flat": 0, "fraction": 1, "cautious": 2}


def play_sessions(s, sessions: int, seed: np.random.SeedSequence, categories=None, first=None):
    """As `sessions.play_sessions` (a `sessions.Played`), played by the compiled kernel: the same
    rules in the same order, a session at a time, from its own random numbers (xoshiro256**
    seeded from the chunk's `SeedSequence`; a category drawn below the denominator by rejection,
    exactly uniform). For a test, `categories` (a list of category indices per session) and
    `first` (each session's first caster) stand in for the draws, as they do there."""
    from ._kernel import play_sessions as kernel
    from .sessions import Played

    words = seed.generate_state(4, np.uint64) if seed is not None else np.ones(4, dtype=np.uint64)
    if not words.any():
        words[0] = 1
    n = s.seats
    fees = len(s.fees)
    width = max((nxt.shape[0] for _, nxt, _, _ in s.fees), default=1)
    endings = len(s.endings)
    fee_next = np.zeros((max(fees, 1), width, endings), dtype=np.int64)
    fee_due = np.zeros((max(fees, 1), width, endings), dtype=np.bool_)
    for f, (_, nxt, due, _) in enumerate(s.fees):
        fee_next[f, :nxt.shape[0]], fee_due[f, :due.shape[0]] = nxt, due
    if categories is not None:
        tape = np.array([c for games in categories for c in games], dtype=np.int64)
        ends = np.cumsum([len(games) for games in categories]).astype(np.int64)
        starts = ends - np.array([len(games) for games in categories], dtype=np.int64)
    else:
        tape, starts, ends = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    firsts = np.zeros(0, dtype=np.int64) if first is None else \
        np.broadcast_to(np.asarray(first, dtype=np.int64), (sessions,)).copy()
    purses = np.empty((sessions, n), dtype=np.int64)
    bank, box, games = (np.zeros(sessions, dtype=np.int64) for _ in range(3))
    why = np.zeros(sessions, dtype=np.int8)
    cumulative = s.cumulative if s.denominator else s.cumulative.astype(np.float64)
    rounded = kernel(n, s.against_bank, s.forfeit, s.rounds, s.purse, s.stake, STRATEGIES[s.strategy], s.scale,
                     s.per_unit.numerator, s.per_unit.denominator, cumulative, s.denominator,
                     s.category_of.astype(np.int64) if s.category_of is not None else np.zeros(0, dtype=np.int64),
                     s.laid, s.stake_times, s.stake_per, s.ending, s.passing_next, s.passing_passes,
                     np.array([a for a, _, _, _ in s.fees], dtype=np.int64), fee_next, fee_due,
                     np.array([start for _, _, _, start in s.fees], dtype=np.int64), s.max_games, s.by_lot, words,
                     tape, starts, ends, firsts, purses, bank, box, games, why)
    return Played(purses, bank, box, games, why, int(rounded))
