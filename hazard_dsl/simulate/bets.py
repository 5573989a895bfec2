"""Bets in the simulator: orders gathered into groups, each group's lane table, its exact
figures from `solve.bets`, and its money from the counts.

A *group* is a bet made on its own (the pass line, a place bet) and the bets that back it (the
odds on the pass line), in the order given. It is played in cycles, as `solve.bets` defines the
figures of a bet and of bets made together (see `simulate.tables`). Each group has a table of
its own and its own throws, so the groups' figures are independent samples; the first group's
table is played with the game's, as one table of pairs (`together`), so the game's figures and
that group's come from the same games at the cost of one table, not two.

Money is exact: a cycle's net and stake are `Fraction`s, worked out once per way a cycle can
close, from the compiled tables (`CompiledBet.decisions`, the commission through
`BetTable.up_front` and `BetTable._on_win`); the simulation only counts how often each way
happens. Estimates (and their standard errors) are floats.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..compile.machine import END
from ..errors import Arg
from ..records import record
from ..solve.bets import BetTable, parse_amount
from .tables import MAX_BET_ROWS, MAX_ENTRIES, SimulationError, Table, Throws, endings_of

WAIT = ("w",)


@record
class Placed:
    """One order of a group: the bet, its amount as given, and what a bet made in each game
    state stakes (a class per distinct amount and commission up front)."""

    name: str
    text: str  # the amount as given: "10", "3-4-5x"
    bet: object  # CompiledBet
    backs: int | None  # index, in the group, of the bet it backs
    classes: list  # [(amount, up_front per unit)] by class
    class_at: dict  # game state where made -> class


@record
class Group:
    orders: list  # Placed, the bet made on its own first

    @property
    def names(self) -> list:
        return [o.name for o in self.orders]

    def money(self, table: BetTable, j: int, decided) -> tuple[Fraction, Fraction]:
        """(net, staked) of order j in a closed cycle: `decided` is (class, code) or None (not made)."""
        if decided is None:
            return Fraction(0), Fraction(0)
        order = self.orders[j]
        cls, code = decided
        amount, up_front = order.classes[cls]
        return amount * (table._on_win(order.bet, code) - up_front), amount * (1 + up_front)


def groups_of(table: BetTable, orders: list) -> list[Group]:
    """Bet orders as groups: each an order with `bet` and `amount` — a request's BetOrder, its
    amount money (a Fraction) or a multiple of the bet it backs ("2x", "3-4-5x"), or a
    play.wagers.Order, its amount as the engine's reader takes it (solve.bets.parse_amount);
    every mistake is a BetError naming the order (`Arg('bets', name, amount)`) and saying what
    to give. A report shows each amount as the caller wrote it (`BetOrder.written`)."""
    from ..play.wagers import OrderError

    groups: list[Group] = []
    where: dict = {}  # bet name -> (group, index)
    for given in orders:
        name, written = given.bet, _written(given)
        arg = Arg("bets", name, written)
        if name in where:
            raise OrderError(Arg("bets", name), "is given twice; give each bet once")
        cb = table.bet(name)  # "no such bet", with did-you-mean
        if not cb.made:
            raise OrderError(Arg("bets", name), f"bet {name!r} can never be made: its made: condition never holds "
                                                f"in this game")
        if isinstance(given.amount, Fraction):  # money, as a value: nothing to read
            if given.amount <= 0:
                raise OrderError(Arg("bets", name), "the amount must be more than 0")
            kind, value = "money", given.amount
        else:
            kind, value = parse_amount(cb.bet, given.amount)
        backs = cb.bet.backs
        states = sorted(cb.made)
        if backs is None:
            amounts = {g: value for g in states}
            group, backed = Group([]), None
            groups.append(group)
        else:
            if backs not in where:
                raise OrderError(arg, f": {name} backs {backs}; give ", Arg("bets", backs, "…"), " first")
            group, backed = where[backs]
            base = group.orders[backed]
            fixed = {a for a, _ in base.classes}
            if kind == "multiple" and len(fixed) != 1:
                raise OrderError(arg, f"a multiple needs the bet it backs ({backs}) made for an amount of money")
            amounts = {}
            for g in states:
                if kind == "money":
                    amounts[g] = value
                    continue
                factor = cb.multiple(value, g)
                if factor <= 0:
                    raise OrderError(arg, f"the multiple is {factor} in "
                                          f"{table.machine.states[g].describe(table.machine)}; it must be more than 0")
                amounts[g] = factor * next(iter(fixed))
        classes: list = []
        class_at: dict = {}
        for g in states:
            key = (amounts[g], table.up_front(cb, g))
            if key not in classes:
                classes.append(key)
            class_at[g] = classes.index(key)
        where[name] = (group, len(group.orders))
        group.orders.append(Placed(name, written, cb, backed, classes, class_at))
    return groups


def _written(order) -> str:
    """An order's amount as its caller wrote it ("12.50", "2x"), or, given as a value only, as
    the engine's reader of amounts takes it (10, 25/2)."""
    written = getattr(order, "written", None)
    if written is not None:
        return written
    amount = order.amount
    if isinstance(amount, Fraction):
        return str(amount.numerator) if amount.denominator == 1 else f"{amount.numerator}/{amount.denominator}"
    return str(amount).strip()


# --------------------------------------------------------------------------- a group's table


def group_table(machine, throws: Throws, group: Group, mean_throws: float) -> Table:
    """The lane table of one group: rows (game throw state, cycle phase, each bet's status);
    tagged rows at each game's end, with the cycle closed there (if one is)."""
    states = machine.states
    endings = endings_of(machine)
    ending_of = {s.index: endings.index((s.result, s.label)) for s in machine.end_states()}
    orders = group.orders
    cols = throws.columns
    fresh = tuple(WAIT for _ in orders)
    cores: dict = {}  # core -> number
    queue: list = []
    tags: dict = {}  # (core, ending, cycle) -> number among tagged rows
    dones: dict = {}  # (ending, cycle) -> number among done rows

    def core_number(core) -> int:
        found = cores.get(core)
        if found is None:
            found = cores[core] = len(cores)
            queue.append(core)
            if len(cores) + len(tags) > MAX_BET_ROWS:
                raise SimulationError(f"bets {', '.join(group.names)}: more than {MAX_BET_ROWS} states to simulate "
                                      f"together; give them in separate runs")
        return found

    # Columns that throw the same outcome to the same states do the same: work once per kind.
    kinds: dict = {}  # throw state -> (kind list, column -> kind)
    for g, outcome in throws.outcome.items():
        seen: dict = {}
        of_column = np.empty(cols, dtype=np.int64)
        for c in range(cols):
            key = (int(outcome[c]), int(throws.final[g][c]), int(throws.restart[g][c]))
            of_column[c] = seen.setdefault(key, len(seen))
        kinds[g] = (list(seen), of_column)

    def move(core, o, final, restart, finishing):
        """Where a throw takes a lane: ("core", core) or ("tag", core, ending, cycle) or ("done", ending, cycle)."""
        if o < 0:  # a draw thrown away (simulate.tables.throws_of): nothing happens
            return ("core", core)
        g, phase, status = core
        status = list(status)
        if phase != "X":
            up_before = [s[0] == "u" for s in status]
            for j, order in enumerate(orders):
                if status[j] != WAIT:
                    continue
                allowed = order.backs is None or up_before[order.backs]
                if allowed and g in order.bet.made:
                    status[j] = ("u", 0, order.class_at[g])
        for j, order in enumerate(orders):
            s = status[j]
            if s[0] != "u":
                continue
            code = order.bet.move(g, s[1], o, final)
            status[j] = ("u", code, s[2]) if code >= 0 else ("d", s[2], code)
        phase = "C" if phase == "F" else phase
        if states[final].kind != END:
            return ("core", (final, phase, tuple(status)))
        k = ending_of[final]
        cycle = None
        if phase == "C" and status[0][0] == "d" and not any(s[0] == "u" for s in status):
            cycle = tuple((s[1], s[2]) if s[0] == "d" else None for s in status)
            phase, status = ("X" if finishing else "F"), list(fresh)
        if finishing and phase == "X":
            return ("done", k, cycle)
        return ("tag", (restart, phase, tuple(status)), k, cycle)

    rows_main: dict = {}
    rows_finish: dict = {}
    for s0 in sorted({int(s) for s in throws.start}):
        core_number((s0, "F", fresh))
    while queue:
        core = queue.pop()
        g = core[0]
        kind_list, of_column = kinds[g]
        for table_rows, finishing in ((rows_main, False), (rows_finish, True)):
            out = []
            for o, final, restart in kind_list:
                where = move(core, o, final, restart, finishing)
                if where[0] == "core":
                    out.append(("core", core_number(where[1])))
                elif where[0] == "tag":
                    core_number(where[1])
                    key = (where[1], where[2], where[3])
                    out.append(("tag", tags.setdefault(key, len(tags))))
                else:
                    key = (where[1], where[2])
                    out.append(("done", dones.setdefault(key, len(dones))))
            table_rows[core] = (out, of_column)
    plain, tagged, done = len(cores), len(tags), len(dones)
    rows = plain + tagged + done
    if rows * cols > MAX_ENTRIES:
        raise SimulationError(f"bets {', '.join(group.names)}: the simulator's table would have {rows * cols} "
                              f"entries (more than {MAX_ENTRIES})")

    def row_of(where) -> int:
        kind, n = where
        return n if kind == "core" else plain + n if kind == "tag" else plain + tagged + n

    step = np.zeros((rows, cols), dtype=np.int64)
    finish = np.zeros((rows, cols), dtype=np.int64)
    for core, n in cores.items():
        for target, table_rows in ((step, rows_main), (finish, rows_finish)):
            out, of_column = table_rows[core]
            target[n] = np.array([row_of(w) for w in out], dtype=np.int64)[of_column]
    ending = np.full(rows, -1, dtype=np.int16)
    cycles: list = [None] * rows
    excluded = np.full(rows, -1, dtype=np.int32)
    for (core, k, cycle), n in tags.items():
        r = plain + n
        step[r], finish[r] = step[cores[core]], finish[cores[core]]
        ending[r], cycles[r] = k, cycle
        # a lane whose next game is not among the N: a cycle that would start with it does not;
        # one still under way (a bet up across the game's end) goes on
        excluded[r] = -1 if core[1] == "F" else r * cols
    for (k, cycle), n in dones.items():
        r = plain + tagged + n
        ending[r], cycles[r] = k, cycle
    excluded[:plain] = np.arange(plain) * cols
    start = np.array([cores[(int(s), "F", fresh)] for s in throws.start], dtype=np.int64)
    return Table(cols, (step * cols).astype(np.int32).ravel(), (finish * cols).astype(np.int32).ravel(), plain,
                 plain + tagged, (start * cols).astype(np.int32), throws.start_digits, excluded, ending,
                 np.zeros(rows, dtype=np.int16), tuple(cycles), endings, 0, mean_throws)


# --------------------------------------------------------------------------- figures


def cycle_counts(table: Table, counts: np.ndarray) -> dict:
    """{cycle (a tuple of each bet's (class, code) or None): cycles closed that way}."""
    out: dict = {}
    for r in np.flatnonzero(counts[table.first_tag:]) + table.first_tag:
        cycle = table.cycles[r]
        if cycle is not None:
            out[cycle] = out.get(cycle, 0) + int(counts[r])
    return out


@record
class Estimate:
    """A mean net per unit staked: the estimate, its standard error (delta method over the
    independent cycles), the exact value, and the bets decided."""

    value: float | None
    stderr: float | None
    exact: Fraction | None
    made: int  # bets made (and decided) in the sample
    staked: Fraction  # money staked in all

    @property
    def z(self) -> float | None:
        return _z(self.value, self.stderr, self.exact)


def _z(value, stderr, exact) -> float | None:
    if value is None or exact is None:
        return None
    if not stderr:
        return 0.0 if value == float(exact) else None
    return (value - float(exact)) / stderr


def ratio(cycles: dict, money) -> Estimate:
    """Σ net / Σ staked over cycles, `money(cycle)` giving (net, staked) of one cycle."""
    net = staked = Fraction(0)
    made = 0
    parts = []
    for cycle, n in cycles.items():
        x, y = money(cycle)
        if not y:
            continue
        parts.append((x, y, n))
        net += n * x
        staked += n * y
        made += n
    if not staked:
        return Estimate(None, None, None, 0, Fraction(0))
    r = net / staked
    spread = sum(n * float(x - r * y) ** 2 for x, y, n in parts)
    stderr = spread ** 0.5 / float(staked)
    return Estimate(float(r), stderr, None, made, staked)


def group_figures(bet_table: BetTable, group: Group, cycles: dict) -> dict:
    """Each bet's mean net per unit staked (and the group's, for more than one bet), beside the
    exact figures of `solve.bets` (a bet alone: its edge; a bet backing another: what it adds to
    the combination)."""
    out: dict = {}
    orders = [(o.name, o.text) for o in group.orders]
    previous = None
    for j, order in enumerate(group.orders):
        estimate = ratio(cycles, lambda cycle, j=j: group.money(bet_table, j, cycle[j]))
        if order.backs is None:
            figures = bet_table.figures_of(order.bet)
            estimate.exact = figures.net / figures.stake
            previous = bet_table.combination(orders[:1])
        else:
            combined = bet_table.combination(orders[:j + 1])
            staked = combined.staked - previous.staked
            estimate.exact = (combined.net - previous.net) / staked if staked else None
            previous = combined
        out[order.name] = (order, estimate)
    return out


def all_bets(bet_table: BetTable, groups: list[Group], per_group: list[dict]) -> Estimate | None:
    """All the bets together, per unit staked: the groups are independent samples, so the
    variance of the whole is that of each group's sum (delta method)."""
    if sum(len(g.orders) for g in groups) < 2:
        return None
    net = staked = Fraction(0)
    parts = []
    for group, cycles in zip(groups, per_group):
        def money(cycle, group=group):
            pairs = [group.money(bet_table, j, cycle[j]) for j in range(len(group.orders))]
            return sum((x for x, _ in pairs), Fraction(0)), sum((y for _, y in pairs), Fraction(0))
        n_cycles = sum(cycles.values())
        if not n_cycles:
            return None
        sums = [(money(c), n) for c, n in cycles.items()]
        g_net = sum((x * n for (x, _), n in sums), Fraction(0)) / n_cycles  # per cycle
        g_staked = sum((y * n for (_, y), n in sums), Fraction(0)) / n_cycles
        parts.append((sums, n_cycles, g_net, g_staked))
        net += g_net
        staked += g_staked
    if not staked:
        return None
    r = net / staked
    variance = 0.0
    for sums, n_cycles, g_net, g_staked in parts:
        # the variance of the mean of (net − r·staked) per cycle, over this group's cycles
        mean = float(g_net - r * g_staked)
        second = sum(n * float(x - r * y) ** 2 for (x, y), n in sums) / n_cycles
        variance += (second - mean * mean) / n_cycles
    combined = bet_table.combination([(o.name, o.text) for g in groups for o in g.orders])
    made = sum(sum(n for c, n in cycles.items() for d in c if d is not None) for cycles in per_group)
    return Estimate(float(r), max(variance, 0.0) ** 0.5 / float(staked), combined.net / combined.staked, made,
                    staked)


# --------------------------------------------------------------------------- a group with the game


PLAIN, UNCOUNTED, TAGGED, DONE, DONE_BEYOND = range(5)
MAX_TOGETHER = 1 << 22  # entries of a game's table played with a group's; beyond, they are played apart


def together(game: Table, group: Table) -> Table | None:
    """The game's table and a group's played as one: a row is a pair (the game's row, the
    group's row), moved by the same draw. Both follow the same game, so one draw and one lookup
    a throw give the game's figures and the group's cycles from the same games, where apart
    they took two of each (and the group's games were others). None if the pairs are too many.

    After the N-th game has started, the game's table retires a lane at the end of its game
    while the group's may play on to close a cycle: a pair then plays on *beyond* (the game's
    side none of the N: its rows are not counted as throws, `redraws`, and the ends of those
    games are no game's ending, `beyond`). The pairs are found from the starts, level by level,
    in NumPy; each row's step is its two sides' steps."""
    cols = game.columns
    g_rows, h_rows = game.rows, group.rows
    beyond = g_rows  # the game's side of a pair played beyond the N games
    gs = game.step.reshape(g_rows, cols).astype(np.int64) // cols
    gf = game.finish.reshape(g_rows, cols).astype(np.int64) // cols
    hs = group.step.reshape(h_rows, cols).astype(np.int64) // cols
    hf = group.finish.reshape(h_rows, cols).astype(np.int64) // cols
    g_tag, g_done, h_tag, h_done = game.first_tag, game.first_done, group.first_tag, group.first_done
    twin = np.zeros(g_rows + 1, dtype=bool)
    twin[game.redraws[0]:game.redraws[1]] = True

    def kinds(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = np.full(a.shape, PLAIN, dtype=np.int8)
        out[twin[a] | ((a == beyond) & (b < h_done))] = UNCOUNTED
        out[((a >= g_tag) & (a < g_done)) | ((a >= g_done) & (a < beyond) & (b < h_done))] = TAGGED
        out[(a >= g_done) & (a < beyond) & (b >= h_done)] = DONE
        out[(a == beyond) & (b >= h_done)] = DONE_BEYOND
        return out

    def moves(a: np.ndarray, b: np.ndarray) -> tuple:
        """(step pairs, finish pairs) of each pair, by column: [pairs, cols] arrays of a and of b."""
        game_over = (a >= g_done) & (a < beyond)  # the game's end counted, the group's cycle goes on
        on = np.where(game_over, beyond, a)
        side = np.minimum(on, g_rows - 1)
        sa, fa = gs[side], gf[side]
        sb, fb = hs[b], hf[b]
        far = (on == beyond)[:, None]
        sa = np.where(far, beyond, sa)
        fa = np.where(far, beyond, fa)
        sb = np.where(far, fb, sb)  # a pair beyond is played only after the N-th start: finish alone
        return (sa, sb), (fa, fb)

    width = h_rows
    if (g_rows + 1) * width > MAX_TOGETHER * 16:
        return None  # too many pairs to mark: apart
    starts_a, starts_b = game.start.astype(np.int64) // cols, group.start.astype(np.int64) // cols
    frontier = np.unique(starts_a * width + starts_b)
    seen = np.zeros((g_rows + 1) * width, dtype=bool)  # the pairs found, marked by key
    seen[frontier] = True
    found_count = frontier.size
    while frontier.size:
        a, b = np.divmod(frontier, width)
        grow = kinds(a, b) <= TAGGED
        a, b = a[grow], b[grow]
        (sa, sb), (fa, fb) = moves(a, b)
        found = [(sa * width + sb).ravel(), (fa * width + fb).ravel()]
        tagged = (a >= g_tag) & (a < g_done)
        if tagged.any():  # a lane whose next game is not among the N plays on beyond, if its cycle is open
            left = group.excluded[b[tagged]] >= 0
            found.append(beyond * width + b[tagged][left])
        found = np.concatenate(found)
        frontier = np.unique(found[~seen[found]])
        seen[frontier] = True
        found_count += frontier.size
        if found_count * cols > MAX_TOGETHER:
            return None
    known = np.flatnonzero(seen)
    a, b = np.divmod(known, width)
    kind = kinds(a, b)
    if ((a >= g_tag) & (a < g_done) & ((b < h_tag) | (b >= h_done))).any() or \
            ((a < g_tag) & (b >= h_tag)).any():
        return None  # the two sides out of step: not the same game (never, for tables of one machine)
    order = np.lexsort((known, kind))
    known, a, b, kind = known[order], a[order], b[order], kind[order]
    rows = known.size
    first = [int(np.searchsorted(kind, k)) for k in range(6)]

    by_key = np.argsort(known)  # `known` is sorted by kind; a key's row through a sorted copy
    sorted_keys = known[by_key]

    def row_of(keys: np.ndarray) -> np.ndarray:
        return by_key[np.searchsorted(sorted_keys, keys)]

    step = np.zeros((rows, cols), dtype=np.int64)
    finish = np.zeros((rows, cols), dtype=np.int64)
    live = kind <= TAGGED
    (sa, sb), (fa, fb) = moves(a[live], b[live])
    step[live] = row_of(sa * width + sb)
    finish[live] = row_of(fa * width + fb)
    excluded = np.full(rows, -1, dtype=np.int64)
    excluded[:first[TAGGED]] = np.arange(first[TAGGED]) * cols
    tags = np.flatnonzero((a >= g_tag) & (a < g_done))
    left = group.excluded[b[tags]] >= 0
    excluded[tags[left]] = row_of(beyond * width + b[tags[left]]) * cols
    counted = (kind == TAGGED) | (kind == DONE)
    side = np.minimum(a, g_rows - 1)
    ending = np.where(counted, game.ending[side], -1).astype(np.int16)
    age = np.where(counted, game.age[side], 0).astype(np.int16)
    cycles = tuple(group.cycles[int(r)] if k >= TAGGED else None for r, k in zip(b, kind))
    start = row_of(starts_a * width + starts_b)
    if step.max(initial=0) * cols >= 2 ** 31:
        return None
    redraws = (first[UNCOUNTED], first[TAGGED]) if first[TAGGED] > first[UNCOUNTED] else (0, 0)
    return Table(cols, (step * cols).astype(np.int32).ravel(), (finish * cols).astype(np.int32).ravel(),
                 first[TAGGED], first[DONE], (start * cols).astype(np.int32), game.start_digits,
                 excluded.astype(np.int32), ending, age, cycles, game.endings, game.age_cap, game.mean_throws,
                 redraws, (first[DONE_BEYOND], rows))
