"""The compiled kernel itself (Numba): imported by `simulate.compiled` only, and only when the
compiled engine runs, so that Numba's import is paid by nothing else. Module-level functions,
so that Numba keeps the machine code between runs (``cache=True``)."""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numba import njit, uint64

MASK32 = 0xFFFFFFFF
MOST_PER_WORD = 32  # draws taken from one word at most (a bound for the buffer's slack)


class Plan(NamedTuple):
    """How `_digits` draws below `columns` from a word of `word_bits` bits (see `plan`)."""

    columns: int
    word_bits: int
    bits: int  # B: the word's top B bits are read, so that r * columns fits in the word
    per_word: int  # k: the draws taken from one word
    threshold: int  # 2**B mod columns**k: a word whose last remainder is below it is thrown away
    powers: np.ndarray  # columns**i mod 2**word_bits, i = 0 … k (uint64)


def plan(columns: int, word_bits: int = 64) -> Plan:
    """The batched draw for `columns` (36 for two dice, 216, 1,296 for three and four).

    The maths. Read the word's top B bits as r, 0 ≤ r < 2**B, with B = word_bits − ⌈log2 columns⌉
    so that r·n (n = columns) fits in a word. r / 2**B is a fraction x in [0, 1); its first k
    digits in base n are d_i = ⌊n · frac(n**(i−1) x)⌋, and in whole numbers
    ``d_i = ((r · n**(i−1) mod 2**B) · n) >> B`` — each digit from its own two products, none
    waiting on another (the products wrap modulo 2**word_bits, and 2**B divides that, so
    ``(r · p) & (2**B − 1)`` is exact for p = n**(i−1) mod 2**word_bits). Together the digits are
    V = ⌊r · N / 2**B⌋ written in base n, N = n**k: Lemire's multiply-shift for one draw below N.
    It is exactly uniform when r is thrown away where L = r · N mod 2**B is below t = 2**B mod N:
    the accepted r of a value v are those whose multiple r·N lies in [v·2**B + t, (v+1)·2**B),
    an interval of 2**B − t = N·⌊2**B / N⌋ numbers, which holds exactly ⌊2**B / N⌋ multiples of N
    whatever v. So every k-tuple of digits — each draw, and each draw given the others in its
    word — comes equally often among accepted words; a word is thrown away whole, with odds t / 2**B.

    k: the most digits (N ≤ 2**B, at most ⌊B / log2 n⌋, "floor(64 / log2 columns)" less the
    headroom) is not always best, since the odds of throwing a word away grow with N; the k kept
    is the one that gives the most accepted draws per word on average, k·(1 − t / 2**B), reckoned
    exactly (36 columns: B = 58, k = 11, t / 2**B = 8.7%, 10.05 draws a word; 216: 6.39; 1,296:
    4.06; 6: 21.3)."""
    if columns < 1:
        raise ValueError(f"a batched draw needs at least one column, not {columns}")
    # (one column: every draw is 0, from B = word_bits − 1 bits so that the mask 2**B − 1 fits)
    bits = word_bits - max(1, (columns - 1).bit_length())
    if bits < 1 or columns > 1 << bits:
        raise ValueError(f"{columns} columns do not fit a {word_bits}-bit word")
    best, best_yield = 1, Fraction(0)
    k = 1
    while columns ** k <= 1 << bits and k <= MOST_PER_WORD:
        t = (1 << bits) % columns ** k
        expected = k * (1 - Fraction(t, 1 << bits))
        if expected > best_yield:
            best, best_yield = k, expected
        k += 1
    wrap = 1 << word_bits
    powers = np.array([columns ** i % wrap for i in range(best + 1)], dtype=np.uint64)
    return Plan(columns, word_bits, bits, best, (1 << bits) % columns ** best, powers)


@njit(inline="always")
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(inline="always")
def _next(s0, s1, s2, s3):
    """xoshiro256** (Blackman and Vigna): a 64-bit word and the generator's next state."""
    result = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(inline="always")
def _below(n, s0, s1, s2, s3, spare, have):
    """A whole number uniform below n (1 <= n < 2**31), from 32 random bits — the half of a word
    the last draw left (`spare`, when `have`), else the high half of a new word — by Lemire's
    multiply-shift, with rejection (exactly uniform). Returns it and the generator's state."""
    while True:
        if have:
            x = spare
            have = False
        else:
            w, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
            x = w >> uint64(32)
            spare = w & uint64(MASK32)
            have = True
        m = x * uint64(n)
        low = m & uint64(MASK32)
        if low >= uint64(n) or low >= (uint64(MASK32 + 1) - uint64(n)) % uint64(n):
            return np.int64(m >> uint64(32)), s0, s1, s2, s3, spare, have


@njit(inline="always")
def _digit(r, i, n, bits, powers):
    """The i-th draw below n of the B-bit r (`plan`): ((r · n**i mod 2**B) · n) >> B."""
    mask = (uint64(1) << uint64(bits)) - uint64(1)
    return np.int64((((r * powers[i]) & mask) * uint64(n)) >> uint64(bits))


@njit(inline="always")
def _kept(r, bits, powers, k, threshold):
    """1 if the B-bit r gives k exactly uniform draws (r · n**k mod 2**B ≥ t, `plan`), else 0."""
    mask = (uint64(1) << uint64(bits)) - uint64(1)
    return np.int64(((r * powers[k]) & mask) >= uint64(threshold))


@njit(cache=True)
def digits(w, shift, n, bits, powers, k, threshold, out):
    """The batched draw of one word w (its top bits, w >> shift): its k draws below n into out[:k];
    returns 1 if the word is kept, 0 if it is thrown away. For the tests: the kernel makes the
    same draws (`_digit`, `_kept`), a block of words at a time (`_fill`)."""
    r = w >> uint64(shift)
    for i in range(k):
        out[i] = _digit(r, i, n, bits, powers)
    return _kept(r, bits, powers, k, threshold)


WORDS = 256  # words drawn a block at a time


@njit(cache=True, nogil=True)
def _fill(buf, left, scratch, n, shift, bits, powers, k, threshold, rng):
    """The draws of a block of WORDS new words appended to buf[:left], the generator's state in
    `rng` (read and written). First the words: each one's top bits kept in `scratch`, a word thrown
    away overwritten by the next (no branch); then the draws, digit by digit — the i-th draw of
    every kept word in turn, a loop the processor runs in vector registers. The order is fixed
    (it does not depend on the draws), so the stream is of independent uniform draws as each
    word's are. Returns the count of draws now in buf (buf holds left + WORDS·k)."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    kept = 0
    for _ in range(WORDS):
        w, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
        r = w >> uint64(shift)
        scratch[uint64(kept)] = r
        kept += _kept(r, bits, powers, k, threshold)
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    mask = (uint64(1) << uint64(bits)) - uint64(1)
    n64 = uint64(n)
    for i in range(k):
        p = powers[i]
        at = uint64(left + i * kept)
        for j in range(kept):
            buf[at + uint64(j)] = np.int64((((scratch[uint64(j)] * p) & mask) * n64) >> uint64(bits))
    return left + k * kept


@njit(cache=True, nogil=True)
def sample(n, shift, bits, powers, k, threshold, seed, out):
    """out filled with draws below n, in the order `play` takes them (for the tests)."""
    rng = seed.copy()
    buf = np.empty(WORDS * k, dtype=np.int64)
    scratch = np.empty(WORDS, dtype=np.uint64)
    done = 0
    while done < out.size:
        have = _fill(buf, 0, scratch, n, shift, bits, powers, k, threshold, rng)
        take = min(have, out.size - done)
        for q in range(take):
            out[done + q] = buf[q]
        done += take
    return done


@njit(inline="always")
def _two(n, s0, s1, s2, s3):
    """Two whole numbers uniform below n from one 64-bit word (its halves), each by Lemire's
    multiply-shift; a half that falls in the rejected sliver (odds n / 2**32) is replaced by fresh
    32-bit draws until one is accepted. Returns both and the generator's state."""
    w, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
    n64 = uint64(n)
    m1 = (w >> uint64(32)) * n64
    m2 = (w & uint64(MASK32)) * n64
    if (m1 & uint64(MASK32)) < n64 or (m2 & uint64(MASK32)) < n64:  # rarely: the exact test
        t = (uint64(MASK32 + 1) - n64) % n64
        while (m1 & uint64(MASK32)) < t:
            w, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
            m1 = (w >> uint64(32)) * n64
        while (m2 & uint64(MASK32)) < t:
            w, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
            m2 = (w >> uint64(32)) * n64
    return np.int64(m1 >> uint64(32)), np.int64(m2 >> uint64(32)), s0, s1, s2, s3


@njit(inline="always")
def _ensure(buf, at, filled, need, scratch, n, shift, bits, powers, k, threshold, rng):
    """At least `need` (≤ 8) draws in buf[at:filled]: if fewer, the rest moved to the front and
    blocks of draws appended (`_fill`). Returns the new (at, filled)."""
    if at + need > filled:
        left = filled - at
        for i in range(left):
            buf[i] = buf[at + i]
        filled, at = left, 0
        while filled < need:  # again only if every word of a block was thrown away
            filled = _fill(buf, filled, scratch, n, shift, bits, powers, k, threshold, rng)
    return at, filled


# Rounds between emptyings of the lanes' tallies into counts: a tally is an int32 of the walk's
# table, and a lane reaches one row a round, so none can overflow
SPAN = 1 << 30


@njit(inline="never")
def _games(visits, first_tag, rows, width):
    """The games the lanes have ended since their tallies were last emptied: their visits to the
    tagged rows (each row's eight tallies first among its ``width`` = cols + 8 entries)."""
    total = 0
    for r in range(first_tag, rows):
        at = r * width
        for j in range(8):
            total += visits[at + j]
    return total


@njit(inline="never")
def _empty(visits, counts, first_tag, low, high, width):
    """The lanes' visits to the rows the report reads — the tagged ones, and rows [low, high),
    a draw thrown away — added to counts, and those tallies emptied. The plain rows' tallies are
    never read."""
    for r in range(counts.size):
        if r >= first_tag or low <= r < high:
            at = r * width
            for j in range(8):
                counts[r] += visits[at + j]
                visits[at + j] = 0


@njit(cache=True, nogil=True)
def play(step, finish, start, start_digits, excluded, cols, first_tag, first_done, low, high, games, lanes,
         seed, counts, shift, bits, powers, k, threshold, span=SPAN):
    """Play `games` games on `lanes` lanes (see `simulate.compiled`); add to `counts` (per row) the
    visits of the rows counted: tagged ones and draws thrown away. Every throw is drawn below
    `cols` by the batched draw (`plan(cols)`: shift = 64 − bits, …), a buffer ahead, in one
    stream. Returns the draws made. (`span`: the rounds between emptyings of the tallies, `SPAN`;
    smaller only in a test, which could not otherwise reach it.)"""
    s0, s1, s2, s3 = seed[0], seed[1], seed[2], seed[3]
    spare = uint64(0)
    have = False
    tag = first_tag * cols
    done = first_done * cols
    lo, hi = low * cols, high * cols
    inverse = 1.0 / cols  # a row from its entry (a multiple of cols) without a division
    state = np.empty(lanes, dtype=np.int64)
    for j in range(lanes):
        if start_digits > 1:
            d, s0, s1, s2, s3, spare, have = _below(start_digits, s0, s1, s2, s3, spare, have)
            state[j] = start[d]
        else:
            state[j] = start[0]
    started = lanes
    draws = 0
    # the throws: the batched draw's stream, a block ahead, from the state the lanes' starts left
    rng = np.empty(4, dtype=np.uint64)
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    buf = np.empty(8 + WORDS * k, dtype=np.int64)
    scratch = np.empty(WORDS, dtype=np.uint64)
    at = filled = 0
    # Rounds that cannot start the N-th game's successors, eight lanes in registers, their draws
    # from the buffer (filled, then walked: the draws' loop and the tables' loop each run alone).
    # No branch on what a throw did (a branch taken at random a third of the time costs more
    # than the throw), and no test of it: each lane adds one to its own tally of the row it
    # reaches, and the rows the report reads are read from the tallies at the end. The tallies
    # lie in the walk's own copy of the table, eight before each row's entries (row r at
    # r·(cols + 8) + 8, lane j's tally of it at r·(cols + 8) + j): the increment brings in the
    # line the row's next lookup is likely to read, and no lane's increment waits on another's.
    # Noting each row and counting the tagged ones, before, took a third or more of the time in
    # games of a few throws (craps, Passage, Raffle: 1.25-1.7x the throws a second without).
    if lanes == 8 and started + 8 <= games:
        rows = counts.size
        wide = cols + 8
        walk = np.empty(rows * wide, dtype=np.int32)  # made anew each chunk: a chunk's lanes write it
        for r in range(rows):
            base = r * wide
            for j in range(8):
                walk[base + j] = 0
            for d in range(cols):
                # (the row by the inverse, exact below 2**31, not a division per entry)
                walk[base + 8 + d] = np.int32(np.int64(step[r * cols + d] * inverse + 0.5) * wide + 8)
        a, b, c, e, f, g, h, i = state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
        a, b, c, e = (a // cols) * wide + 8, (b // cols) * wide + 8, (c // cols) * wide + 8, (e // cols) * wide + 8
        f, g, h, i = (f // cols) * wide + 8, (g // cols) * wide + 8, (h // cols) * wide + 8, (i // cols) * wide + 8
        # The games started are not counted round by round: `most` bounds them (a round starts
        # eight at most), and they are counted from the tallies only when that bound comes within
        # a round of N: a run of rounds each beginning with started + 8 <= games, as checking
        # after every round would (the same rounds, the same draws and figures)
        most = started
        since = 0  # rounds since the tallies were last emptied into counts
        ended = 0  # the games ended whose visits were emptied into counts
        while True:
            if most + 8 > games or since > span:
                now = _games(walk, first_tag, rows, wide)
                started = lanes + ended + now
                most = started
                if since > span:
                    _empty(walk, counts, first_tag, low, high, wide)
                    ended += now
                    since = 0
                if most + 8 > games:
                    break
            at, filled = _ensure(buf, at, filled, 8, scratch, cols, shift, bits, powers, k, threshold, rng)
            rounds = min((filled - at) >> 3, (games - most - 8) // 8 + 1)
            for _ in range(rounds):
                a = np.int64(walk[uint64(a + buf[uint64(at + 0)])])
                b = np.int64(walk[uint64(b + buf[uint64(at + 1)])])
                c = np.int64(walk[uint64(c + buf[uint64(at + 2)])])
                e = np.int64(walk[uint64(e + buf[uint64(at + 3)])])
                f = np.int64(walk[uint64(f + buf[uint64(at + 4)])])
                g = np.int64(walk[uint64(g + buf[uint64(at + 5)])])
                h = np.int64(walk[uint64(h + buf[uint64(at + 6)])])
                i = np.int64(walk[uint64(i + buf[uint64(at + 7)])])
                at += 8
                walk[uint64(a - 8)] += 1
                walk[uint64(b - 7)] += 1
                walk[uint64(c - 6)] += 1
                walk[uint64(e - 5)] += 1
                walk[uint64(f - 4)] += 1
                walk[uint64(g - 3)] += 1
                walk[uint64(h - 2)] += 1
                walk[uint64(i - 1)] += 1
            most += 8 * rounds
            since += rounds
            draws += 8 * rounds
        _empty(walk, counts, first_tag, low, high, wide)
        a, b, c, e = (a // wide) * cols, (b // wide) * cols, (c // wide) * cols, (e // wide) * cols
        f, g, h, i = (f // wide) * cols, (g // wide) * cols, (h // wide) * cols, (i // wide) * cols
        state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7] = a, b, c, e, f, g, h, i
    while started < games:  # the round in which the N-th game starts: lane by lane
        for j in range(lanes):
            at, filled = _ensure(buf, at, filled, 1, scratch, cols, shift, bits, powers, k, threshold, rng)
            x = np.int64(step[state[j] + buf[at]])
            at += 1
            if x >= tag:
                row = np.int64(x * inverse + 0.5)
                counts[row] += 1
                if started < games:
                    started += 1
                else:  # a game started beyond the N-th, in lane order: not among them
                    x = np.int64(excluded[row])
            elif lo <= x < hi:
                counts[np.int64(x * inverse + 0.5)] += 1
            state[j] = x
        draws += lanes
    for j in range(lanes):  # every lane finishes its game (or its bets' cycles), then retires
        x = state[j]
        while 0 <= x < done:
            at, filled = _ensure(buf, at, filled, 1, scratch, cols, shift, bits, powers, k, threshold, rng)
            x = np.int64(finish[x + buf[at]])
            at += 1
            draws += 1
            if x >= tag or lo <= x < hi:
                counts[np.int64(x * inverse + 0.5)] += 1
    return draws


@njit(inline="always")
def _mask(n):
    """The fewest low bits that can hold n - 1 (at least one), as a mask."""
    mask = uint64(1)
    while mask < uint64(n - 1):
        mask = (mask << uint64(1)) | uint64(1)
    return mask


@njit(inline="always")
def _below64(n, mask, s0, s1, s2, s3):
    """A whole number uniform below n (1 <= n < 2**63) from 64-bit words: the low bits of `mask`
    (`_mask(n)`), drawn again while they come to n or more (exactly uniform)."""
    while True:
        w, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
        x = w & mask
        if x < uint64(n):
            return np.int64(x), s0, s1, s2, s3


@njit(inline="always")
def _after(cumulative, u):
    """The first index whose cumulative weight exceeds u (numpy.searchsorted, side="right")."""
    low, high = 0, cumulative.size
    while low < high:
        mid = (low + high) >> 1
        if cumulative[mid] <= u:
            low = mid + 1
        else:
            high = mid
    return low


@njit(inline="always")
def _stake_of(strategy, purse, stake, scale, counted):
    """What a setter puts down (sessions._stake, one purse): returns (amount, rounded)."""
    rounded = 0
    if strategy == 1:  # fraction: a tenth of the purse, in whole units where it comes to one or more
        tenth = purse // 10
        if tenth < scale:
            amount = tenth
            if counted and purse % 10 != 0:
                rounded = 1
        else:
            amount = (purse // (10 * scale)) * scale
    else:
        amount = stake
    if strategy == 2 and purse < 3 * amount:  # cautious: sits out when he could not stake three times more
        amount = 0
    return min(amount, purse), rounded


@njit(cache=True, nogil=True)
def play_sessions(n, against_bank, forfeit_rule, rounds, purse, stake, strategy, scale, per_num, per_den,
                  cumulative, denominator, category_of, laid, times, per, ending, passing_next, passing_passes,
                  fee_amount, fee_next, fee_due, fee_start, max_games, by_lot, seed, tape, tape_start, tape_end,
                  first, purses_out, bank_out, box_out, games_out, why_out):
    """Sessions one after another (see `simulate.compiled.play_sessions`): the same rules, in the same
    order, as `sessions.play_sessions` plays them on arrays. Returns the stakes and payouts rounded
    down to a whole minor unit."""
    s0, s1, s2, s3 = seed[0], seed[1], seed[2], seed[3]
    has_tape = tape_start.size > 0
    least = 1 if against_bank else 2
    fees = fee_amount.size
    rounded = 0
    p = np.empty(n, dtype=np.int64)
    amounts = np.zeros(n, dtype=np.int64)
    fee_state = np.empty(max(fees, 1), dtype=np.int64)
    total = cumulative[cumulative.size - 1]
    seats_mask = _mask(n)
    draw_mask = _mask(max(denominator, 1))
    for i in range(purses_out.shape[0]):
        for j in range(n):
            p[j] = purse
        for f in range(fees):
            fee_state[f] = fee_start[f]
        bank = box = games = passes = hand = idle = 0
        caster = 0
        if first.size > 0:
            caster = first[i]
        elif by_lot:  # each seat alike (sessions' docstring)
            caster, s0, s1, s2, s3 = _below64(n, seats_mask, s0, s1, s2, s3)
        at = tape_start[i] if has_tape else 0
        while True:
            # the checks of Session._events, in its order
            if games >= max_games:
                why = 3
                break
            if idle > n:
                why = 2
                break
            if passes >= rounds * n:
                why = 0
                break
            with_money = 0
            for j in range(n):
                if p[j] > 0:
                    with_money += 1
            if with_money < least:
                why = 1
                break
            if has_tape and at >= tape_end[i]:
                why = 3
                break
            if not against_bank and p[caster] <= 0:  # nothing to answer stakes with: the box passes
                caster = caster + 1 if caster + 1 < n else 0
                passes += 1
                hand = 0
                idle += 1
                continue
            games += 1
            if has_tape:
                cat = tape[at]
                at += 1
            elif denominator > 0:
                u, s0, s1, s2, s3 = _below64(denominator, draw_mask, s0, s1, s2, s3)
                cat = category_of[u] if category_of.size > 0 else _after(cumulative, u)
            else:
                w, s0, s1, s2, s3 = _next(s0, s1, s2, s3)
                cat = _after(cumulative, np.float64(w >> uint64(11)) * (1.0 / 9007199254740992.0) * total)
            for j in range(n):
                amounts[j] = 0
            forfeited = False
            answered = 0
            if laid[cat]:
                for k in range(0 if against_bank else 1, n):  # from the caster's left (a bank: the caster first)
                    seat = caster + k if caster + k < n else caster + k - n
                    pk = p[seat]
                    if forfeited or pk <= 0:
                        continue
                    # a setter lays the stake times the payout: he stakes no more than his purse can pay
                    limit = pk
                    if not against_bank and not (per_num == 1 and per_den == 1):
                        limit = pk * per_den // per_num
                        if (pk * per_den) % per_num != 0:
                            rounded += 1
                    amount, r = _stake_of(strategy, pk, stake, scale, True)
                    rounded += r
                    amount = min(amount, limit)
                    if amount <= 0:
                        continue
                    if against_bank:
                        amounts[seat] = amount
                        continue
                    need = answered + amount
                    if need > p[caster]:
                        if forfeit_rule:  # hard play: a stake he cannot match and he gives up the dice
                            forfeited = True
                        continue
                    answered = need
                    amounts[seat] = amount
            if forfeited:
                caster = caster + 1 if caster + 1 < n else 0
                passes += 1
                hand = 0
                idle += 1
                continue
            idle = 0
            # the stake decided: the backer (the caster; with a bank each player) wins amount × net
            t = times[cat]
            if t != 0:
                moved_in_all = 0
                for seat in range(n):
                    a = amounts[seat]
                    if a == 0:
                        continue
                    if t > 0:
                        moved = a * t // per[cat]
                        if (a * t) % per[cat] != 0:
                            rounded += 1
                    else:
                        moved = -a
                    if against_bank:
                        p[seat] += moved
                        bank -= moved
                    else:
                        p[seat] -= moved
                        moved_in_all += moved
                if not against_bank:
                    p[caster] += moved_in_all
            # fees from the caster's purse, then the passing table
            e = ending[cat]
            for f in range(fees):
                state = fee_state[f]
                due = fee_due[f, state, e]
                fee_state[f] = fee_next[f, state, e]
                if due:
                    take = min(fee_amount[f], p[caster])
                    p[caster] -= take
                    box += take
            passes_now = passing_passes[hand, e]
            hand = passing_next[hand, e]
            if passes_now:
                caster = caster + 1 if caster + 1 < n else 0
                passes += 1
                hand = 0
        for j in range(n):
            purses_out[i, j] = p[j]
        bank_out[i], box_out[i], games_out[i], why_out[i] = bank, box, games, why
    return rounded
