"""The compiled kernel itself (Numba): imported by `simulate.compiled` only, and only when the
compiled engine runs, so that Numba's import is paid by nothing else. Module-level functions,
so that Numba keeps the machine code between runs (``cache=True``)."""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

MASK32 = 0xFFFFFFFF


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
def _note(buf, pos, x, tag, lo, hi):
    """Write the row reached at the end of the notes; keep it (move the end on) when it is one
    the report reads. No branch: a throw's outcome is random, and a branch on it mispredicts."""
    buf[uint64(pos)] = x
    tagged = np.int64(x >= tag)
    if lo < hi:  # the same every throw of a run (some columns drawn again): predicted
        return pos + (tagged | (np.int64(lo <= x) & np.int64(x < hi))), tagged
    return pos + tagged, tagged


@njit(inline="always")
def _count(buf, pos, counts, inverse):
    for k in range(pos):
        counts[uint64(buf[k] * inverse + 0.5)] += 1


NOTES = 4096  # rows noted before they are counted


@njit(cache=True, nogil=True)
def play(step, finish, start, start_digits, excluded, cols, first_tag, first_done, low, high, games, lanes,
         seed, counts):
    """Play `games` games on `lanes` lanes (see `simulate.compiled`); add to `counts` (per row) the
    visits of the rows counted: tagged ones and draws thrown away. Returns the draws made."""
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
    # Rounds that cannot start the N-th game's successors: no branch on what a throw did (a
    # branch taken at random a third of the time costs more than the throw); every row reached
    # is "counted" by 0 or 1
    if lanes == 8 and started + 8 <= games:
        # eight lanes in registers, two draws from each word; the rows reached are noted, and
        # only the noted ones counted
        buf = np.empty(NOTES, dtype=np.int64)
        pos = 0
        a, b, c, e, f, g, h, i = state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
        while started + 8 <= games:
            d1, d2, s0, s1, s2, s3 = _two(cols, s0, s1, s2, s3)
            a = np.int64(step[uint64(a + d1)])
            b = np.int64(step[uint64(b + d2)])
            d1, d2, s0, s1, s2, s3 = _two(cols, s0, s1, s2, s3)
            c = np.int64(step[uint64(c + d1)])
            e = np.int64(step[uint64(e + d2)])
            d1, d2, s0, s1, s2, s3 = _two(cols, s0, s1, s2, s3)
            f = np.int64(step[uint64(f + d1)])
            g = np.int64(step[uint64(g + d2)])
            d1, d2, s0, s1, s2, s3 = _two(cols, s0, s1, s2, s3)
            h = np.int64(step[uint64(h + d1)])
            i = np.int64(step[uint64(i + d2)])
            pos, t1 = _note(buf, pos, a, tag, lo, hi)
            pos, t2 = _note(buf, pos, b, tag, lo, hi)
            pos, t3 = _note(buf, pos, c, tag, lo, hi)
            pos, t4 = _note(buf, pos, e, tag, lo, hi)
            pos, t5 = _note(buf, pos, f, tag, lo, hi)
            pos, t6 = _note(buf, pos, g, tag, lo, hi)
            pos, t7 = _note(buf, pos, h, tag, lo, hi)
            pos, t8 = _note(buf, pos, i, tag, lo, hi)
            started += t1 + t2 + t3 + t4 + t5 + t6 + t7 + t8
            draws += 8
            if pos > NOTES - 9:
                _count(buf, pos, counts, inverse)
                pos = 0
        _count(buf, pos, counts, inverse)
        state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7] = a, b, c, e, f, g, h, i
    while started < games:  # the round in which the N-th game starts: lane by lane
        for j in range(lanes):
            d, s0, s1, s2, s3, spare, have = _below(cols, s0, s1, s2, s3, spare, have)
            x = np.int64(step[state[j] + d])
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
            d, s0, s1, s2, s3, spare, have = _below(cols, s0, s1, s2, s3, spare, have)
            x = np.int64(finish[x + d])
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
