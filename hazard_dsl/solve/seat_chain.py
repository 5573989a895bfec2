r"""A seat's chains at the table: which side of each bet of its plan a seat plays in each role,
the chain of one game for one seat in one role, its figures per game, and how one game can end
for it with what it nets (`GameOutcomes`, the step of a session to a goal, `solve.seat_ruin`).
`solve.seats` strings the games together into the figures worded for results; the maths is in
its docstring.

Why one piece of over 600 lines: `SeatSolver` owns the wagers a seat is party to (`Slot`,
`wagers_at`, `taker`) and both walks over them (the game's figures, `_solve`, and its outcomes
with the net so far, `game_outcomes`), and caches the latter (`SeatSolver.outcomes`, read by
the command line's sessions and the tests); apart, the two halves would import each other.
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.bets import most_paid, most_paid_from, side_of
from ..compile.machine import END, Machine
from ..errors import ArgumentError
from ..records import record
from .bets import BetTable
from .chain import Chain, gauss, strongly_connected
from .exact import ONE, ZERO
from .solver import Solver

ROLES = ("caster", "setter")
BANK = "bank"
MAX_SEAT_NODES = 200_000  # (game state, stake, wagers up) nodes of one seat's chain in one role
UNLAID, DONE = -1, -2  # the stake's state before it is laid this game, and once it is decided


class SeatError(ValueError):
    """A plan whose figures cannot be given: a bet the table cannot play as the plan asks, a
    chain too large, two plans that would meet at the table."""


class SeatArgumentError(SeatError, ArgumentError):
    """A stake or purse given that a seat cannot play from (`Arg('stake')`): each front end
    names it (`stake`, `--stake`)."""


@record(frozen=True)
class BetAtTable:
    """One bet of a seat's plan in one role: the side it plays (None: it makes no such bet, and
    `why_not` says why) and its long-run figures per game. `risk` is what the seat puts at risk
    per game (a backer's stake, what a layer could lose), `wagers` the wagers it makes per game."""

    bet: str
    role: str
    side: str | None
    other: str | None = None  # the other side: bank, caster, setter, player, or the backed wager's party
    why_not: str | None = None
    per_game: Fraction = ZERO
    risk: Fraction = ZERO
    wagers: Fraction = ZERO
    carried: bool = False  # a wager of it can be up when a game ends, and goes on into the next

    @property
    def edge(self) -> Fraction:
        """The seat's expected loss per unit it puts at risk (negative: a gain)."""
        return -self.per_game / self.risk if self.risk else ZERO


class Slot:
    """A bet of the plan the seat makes in this role, as the chain needs it."""

    def __init__(self, machine: Machine, cb, side: str, amount: Fraction, backs, taken: bool = False):
        self.name = cb.bet.name
        self.taken = taken  # the other side of another seat's wager: `side` is that seat's, the net its opposite
        self.maker = None  # whose wager it is, where the table's seats are known (wagers_at)
        self.cb = cb
        self.side = side
        self.amount = amount
        self.backs = backs  # None, "stake", or the index of the slot it backs
        self.machine = machine
        self._most: dict = {}
        self._factor: dict = {}

    def most(self, g: int) -> Fraction:
        found = self._most.get(g)
        if found is None:
            found = self._most[g] = most_paid_from(self.cb, self.machine, g)
        return found

    def factor(self, g: int) -> Fraction:
        """The largest multiple of the backed wager it may be made for at g (1 without any)."""
        found = self._factor.get(g)
        if found is None:
            found = self._factor[g] = max((self.cb.multiple(m, g) for m in self.cb.bet.multiples), default=ONE)
        return found

    def up_front(self, g: int, stake: Fraction) -> Fraction:
        """The seat's net from a commission taken up front as the wager is made at g (backer's
        stake `stake`): the backer pays it to the layer, whatever comes of the bet
        (play.table_bets.up_front)."""
        paid = self.cb.up_front(g, stake)
        return -paid if self.side == "backer" else paid

    def seat_net(self, code: int, stake: Fraction) -> Fraction:
        """The seat's net when its wager (backer's stake `stake`) is decided by `code`, as the
        table settles it: a win pays stake × net less a commission on the win (nothing if that
        leaves nothing), a loss the stake."""
        decision = self.cb.decisions[~code]
        if decision.result == "win":
            won = stake * decision.net
            won -= self.cb.taken_from_win(stake, won)
            backer = won if won > 0 else ZERO
        elif decision.result == "lose":
            backer = -stake
        else:
            backer = ZERO
        return backer if self.side == "backer" else -backer


@record
class RoleFigures:
    """A seat's plan in one role, solved: each bet's figures, and the stake's net per game for
    its backer per unit staked (laid as the table lays it; void if up when the game ends)."""

    bets: dict  # name -> BetAtTable
    stake_unit: Fraction  # the stake's backer's expected net per game, per unit staked
    throws: Fraction  # expected throws per game (a check: the game's own)


class SeatSolver:
    """The chains of seats' plans on one machine (compiled with the table's stake and the bets
    planned) under one policy."""

    def __init__(self, machine: Machine, policy: str = "optimal", solver: Solver | None = None,
                 bet_table: BetTable | None = None):
        if solver is None:
            solver = Solver(machine)
            solver.set_policy(policy)
        self.machine = machine
        self.solver = solver
        self.table = bet_table if bet_table is not None else BetTable(machine, solver)
        ruleset = machine.ruleset
        self.stake_name = ruleset.table.stake
        self.stake_bet = machine.bets.get(self.stake_name) if self.stake_name else None
        self.against = ruleset.table.against
        self._stake_unit = None
        self._outcomes: dict = {}

    def outcomes(self, plans: dict, players: list, seat: str, pos: int, stake: Fraction) -> "GameOutcomes":
        """`game_outcomes` of `seat` in a game whose caster sits `pos` places after it, solved
        once for every seat and place where the same wagers meet the seat."""
        role = "caster" if pos == 0 else "setter"
        slots = wagers_at(self, plans, players, seat, pos)
        key = (tuple((slot.name, slot.side, slot.amount, slot.backs, slot.taken) for slot in slots), role,
               Fraction(stake), len(players))
        if key not in self._outcomes:
            self._outcomes[key] = game_outcomes(self, slots, role, stake, len(players))
        return self._outcomes[key]

    # ------------------------------------------------------------------ which bets, which side

    def sides(self, plan: dict, role: str, seats: int | None = None) -> dict:
        """{bet: BetAtTable without figures}: the side the seat plays on each bet of `plan` in
        `role`, or why it makes none (`seats`: how many sit at the table, None for enough)."""
        ruleset = self.machine.ruleset
        out: dict = {}
        for name in plan:
            bet = ruleset.bets[name]
            cb = self.machine.bets.get(name)
            if cb is None:
                raise LookupError(f"bet {name!r} was not compiled with the game")  # the caller's mistake
            if not cb.made:
                out[name] = BetAtTable(name, role, None, why_not="its made: never holds in this game")
                continue
            found = side_of(bet, role)
            if found is None:
                out[name] = BetAtTable(name, role, None, why_not=f"the {role} plays neither its backer "
                                                                 f"({bet.backer}) nor its layer ({bet.layer})")
                continue
            side, other = found
            if bet.backs is not None:
                if bet.backs == self.stake_name:
                    other = BANK if self.against == "bank" else ("setter" if role == "caster" else "caster")
                elif bet.backs not in plan:
                    out[name] = BetAtTable(name, role, None, why_not=f"it backs {bet.backs}, which is not in the plan")
                    continue
                else:
                    other = "party"  # whoever took the backed wager
            why = _nobody(other, role, seats)
            if why:
                out[name] = BetAtTable(name, role, None, why_not=why)
                continue
            out[name] = BetAtTable(name, role, side, other)
        # a bet backing another that the seat makes no wager of in this role is not made either
        changed = True
        while changed:
            changed = False
            for name, entry in out.items():
                backs = ruleset.bets[name].backs
                if entry.side is not None and backs in out and out[backs].side is None:
                    out[name] = BetAtTable(name, role, None, why_not=f"it backs {backs}, which the {role} does "
                                                                     f"not make")
                    changed = True
        return out

    # ------------------------------------------------------------------ the chain

    def role(self, plan: dict, role: str, stake: Fraction = ONE, seats: int | None = None) -> RoleFigures:
        """The plan {bet: amount} of one seat in `role` ("caster" or "setter"), solved."""
        if role not in ROLES:
            raise ValueError(f"a seat's role is caster or setter, not {role!r}")
        stake = Fraction(stake)
        sides = self.sides(plan, role, seats)
        made = [name for name, entry in sides.items() if entry.side is not None]
        bets = {name: entry for name, entry in sides.items() if entry.side is None}
        throws = None
        # bets that back none of one another are independent: each group is a chain of its own
        # (a bet with the one it backs, and the stake's state where one backs the stake)
        for group in _groups(made, {name: self.machine.ruleset.bets[name].backs for name in made}):
            index = {name: k for k, name in enumerate(group)}
            slots = []
            for name in group:
                backs = self.machine.ruleset.bets[name].backs
                if backs is not None:
                    backs = "stake" if backs == self.stake_name else index[backs]
                slots.append(Slot(self.machine, self.machine.bets[name], sides[name].side, Fraction(plan[name]),
                                   backs))
            figures = self._solve(slots, stake, any(slot.backs == "stake" for slot in slots))
            throws = figures["throws"]
            for k, name in enumerate(group):
                entry = sides[name]
                bets[name] = BetAtTable(name, role, entry.side, entry.other, None, figures["net"][k],
                                        figures["risk"][k], figures["wagers"][k], figures["carried"][k])
        if throws is None:
            throws = self._solve([], stake, False)["throws"]
        return RoleFigures({name: bets[name] for name in sides}, self.stake_unit(), throws)

    def stake_unit(self) -> Fraction:
        """The stake's backer's expected net per game per unit staked, as the table lays it: at
        the first throw where the stake bet may be made (the first throw of every game, where
        the stake is even money on the game), void if still up when the game ends."""
        if self._stake_unit is None:
            solved = self._solve([], ONE, True)
            self._stake_unit = (solved["stake"], solved["laid"])
        return self._stake_unit[0]

    def stake_laid(self) -> Fraction:
        """The stakes laid per game, in the long run: the chance that a game reaches a throw
        where the stake bet may be made (1 where every game is staked; the history sheet's 2/3,
        a third of its games ending before a main). The stake's net per stake laid, its edge at
        the table, is `stake_unit() / stake_laid()`."""
        self.stake_unit()
        return self._stake_unit[1]

    def _solve(self, slots: list, stake: Fraction, track: bool) -> dict:
        machine, states, table = self.machine, self.machine.states, self.table
        n = len(slots)
        rows: dict = {}
        reward: dict = {}  # node -> (net per slot, risk per slot, wagers per slot, stake's net)
        nothing = (None,) * n
        first = table.resolve(machine.start.target)

        def start_of(carried) -> dict:
            out: dict = {}
            for h, p in first.items():
                node = ("end", carried) if states[h].kind == END else (h, UNLAID if track else DONE, carried)
                out[node] = out.get(node, ZERO) + p
            return out

        starts = {nothing: start_of(nothing)}
        queue = [node for node in starts[nothing] if node[0] != "end"]
        seen = set(queue)
        ends: set = set()
        while queue:
            node = queue.pop()
            g, s, ups = node
            unlaid = s == UNLAID
            s, ups, risk, wagers, paid = self._offer(slots, g, s, ups, stake, track)
            laid = ONE if unlaid and s >= 0 else ZERO  # the stake laid at this throw (one unit of it)
            dice = self.solver.throw_dice(g)
            weights, total = dice.weights, dice.total
            steps = states[g].steps
            row: dict = {}
            nets = list(paid)
            stake_net = ZERO
            for k in range(len(weights)):
                w = weights[k]
                if not w:
                    continue
                target = steps[k].target
                for final, p in table.resolve(target).items():
                    chance = Fraction(w, total) * p
                    ended = states[final].kind == END
                    s2, unit, after, settled = self._moved(slots, g, s, ups, k, final)
                    stake_net += chance * unit
                    for i, value in enumerate(settled):
                        if value is not None:
                            nets[i] += chance * value
                    if ended:  # the stake is void if still up; the wagers up go on into the next game
                        nxt = ("end", after)
                        if after not in ends:
                            ends.add(after)
                    else:
                        nxt = (final, s2, after)
                        if nxt not in seen:
                            if len(seen) >= MAX_SEAT_NODES:
                                raise SeatError(f"this plan is too large to solve exactly (more than "
                                                f"{MAX_SEAT_NODES:,} states of the game and the wagers up); plan "
                                                f"fewer bets at once")
                            seen.add(nxt)
                            queue.append(nxt)
                    row[nxt] = row.get(nxt, ZERO) + chance
            rows[node] = row
            reward[node] = (nets, risk, wagers, stake_net, laid)
            if not queue:  # the games that start with other wagers carried
                for carried in sorted(ends - set(starts), key=repr):
                    starts[carried] = start_of(carried)
                    for start in starts[carried]:
                        if start[0] != "end" and start not in seen:
                            seen.add(start)
                            queue.append(start)
        chain = Chain(rows)
        per: dict = {}  # carried -> (net, risk, wagers per slot; stake; throws; {carried after: p}; stakes laid)
        for carried, start in starts.items():
            visits = chain.forward(start)
            nets, risks, wagers = [ZERO] * n, [ZERO] * n, [ZERO] * n
            stake_net = throws = stakes_laid = ZERO
            after: dict = {}
            for node, x in visits.items():
                if node[0] == "end":
                    after[node[1]] = after.get(node[1], ZERO) + x
                    continue
                throws += x
                r_net, r_risk, r_wagers, r_stake, r_laid = reward[node]
                for i in range(n):
                    nets[i] += x * r_net[i]
                    risks[i] += x * r_risk[i]
                    wagers[i] += x * r_wagers[i]
                stake_net += x * r_stake
                stakes_laid += x * r_laid
            per[carried] = (nets, risks, wagers, stake_net, throws, after, stakes_laid)
        weights = long_run({c: v[5] for c, v in per.items()}, nothing)
        out = {"net": [ZERO] * n, "risk": [ZERO] * n, "wagers": [ZERO] * n, "stake": ZERO, "throws": ZERO,
               "laid": ZERO}
        for carried, pi in weights.items():
            nets, risks, wagers, stake_net, throws, _, stakes_laid = per[carried]
            for i in range(n):
                out["net"][i] += pi * nets[i]
                out["risk"][i] += pi * risks[i]
                out["wagers"][i] += pi * wagers[i]
            out["stake"] += pi * stake_net
            out["throws"] += pi * throws
            out["laid"] += pi * stakes_laid
        out["carried"] = [any(c[i] is not None for c in starts) for i in range(n)]
        return out

    def _moved(self, slots: list, g: int, s: int, ups: tuple, k: int, final: int):
        """Throw k at game state g, leading to `final`: the stake's state after it and its
        backer's net per unit if it was decided (even money on the game without a stake bet),
        the wagers up after it, and each slot's net to the seat where its wager was decided
        (None where it goes on, or was not up)."""
        stake_bet, states = self.stake_bet, self.machine.states
        s2, unit = s, ZERO
        if s >= 0:  # the stake is up: moved by its table
            if stake_bet is None:
                if states[final].kind == END:
                    unit = {"win": ONE, "lose": -ONE}.get(states[final].result, ZERO)
                    s2 = DONE
            else:
                code = stake_bet.move(g, s, k, final)
                if code < 0:
                    unit, s2 = stake_bet.decisions[~code].net, DONE
                else:
                    s2 = code
        after, settled = [], []
        for slot, up in zip(slots, ups):
            code = None if up is None else slot.cb.move(g, up[0], k, final)
            if code is not None and code < 0:
                settled.append(slot.seat_net(code, up[1]))
                after.append(None)
            else:
                settled.append(None)
                after.append(None if up is None else (code, up[1]))
        return s2, unit, tuple(after), settled

    def _offer(self, slots: list, g: int, s: int, ups: tuple, stake: Fraction, track: bool):
        """Before the throw at g: the stake laid where it first may be, then every bet of the plan
        not up that may be made here (one backing another once that is up). Returns the stake's
        state, the wagers up, what each slot put at risk, how many wagers it made, and the seat's
        net from a commission taken up front on them."""
        n = len(slots)
        risk, wagers, paid = [ZERO] * n, [ZERO] * n, [ZERO] * n
        if track and s == UNLAID and (self.stake_bet is None or g in self.stake_bet.made):
            s = 0
        ups = list(ups)
        progress = True
        while progress:
            progress = False
            for i, slot in enumerate(slots):
                if ups[i] is not None or g not in slot.cb.made:
                    continue
                amount = slot.amount
                if slot.backs is not None:
                    if slot.backs == "stake":
                        if s < 0:
                            continue
                        backed = stake
                    else:
                        if ups[slot.backs] is None:
                            continue
                        backed = ups[slot.backs][1]
                    amount = min(amount, backed * slot.factor(g))
                    if amount <= 0:
                        continue
                if slot.side == "backer":
                    ups[i] = (0, amount)
                    risk[i] = amount
                else:
                    most = slot.most(g)
                    ups[i] = (0, amount / most)
                    risk[i] = amount  # a layer could lose the backer's stake × the most it can pay
                wagers[i] = ONE
                paid[i] = slot.up_front(g, ups[i][1])
                if paid[i] < 0:  # a backer's commission up front is money he puts in too (as analyse's edge)
                    risk[i] -= paid[i]
                progress = True
        return s, tuple(ups), risk, wagers, paid


def _groups(names: list, backs: dict) -> list:
    """`names` in groups joined by what backs what (`backs`: name -> the bet it backs, or None),
    each in the order of `names`."""
    group = {name: name for name in names}

    def root(name):
        while group[name] != name:
            name = group[name]
        return name

    for name in names:
        if backs[name] in group:
            group[root(name)] = root(backs[name])
    out: dict = {}
    for name in names:
        out.setdefault(root(name), []).append(name)
    return list(out.values())


def _nobody(other: str, role: str, seats: int | None) -> str | None:
    """Why nobody at the table could take a bet whose other side is `other`, proposed by a seat
    in `role` among `seats` (None: as many as needed); None if someone can."""
    if other in (BANK, "party"):
        return None
    if other == "caster":
        return "its other side is the caster's, who is the seat itself" if role == "caster" else None
    if other == "setter":
        if role == "setter" and seats is not None and seats < 3:
            return "its other side is another setter's, and there is none"
        return None
    if other == "player":
        return None if seats is None or seats > 1 else "nobody else sits at the table"
    return f"nobody at the table plays its other side ({other})"


def long_run(transitions: dict, start) -> dict:
    """The long-run share of games that start in each state of a finite chain (transitions:
    state -> {state: p}) from `start`: the limit of the average of its distributions, the
    stationary distribution of the closed class it reaches (weighed by the chance of reaching
    each, where there are several)."""
    if set(transitions) == {start} and set(transitions[start]) <= {start}:
        return {start: ONE}
    nodes = list(transitions)
    components = strongly_connected(nodes, lambda c: transitions[c].keys())
    closed = [c for c in components if all(t in set(c) for m in c for t in transitions[m])]
    member = {m: k for k, c in enumerate(closed) for m in c}
    if len(closed) == 1:
        reach = {0: ONE}
    else:
        def key(state):
            return ("class", member[state]) if state in member else state

        rows: dict = {}
        for c, out in transitions.items():
            if c in member:
                continue
            row = rows[c] = {}
            for t, p in out.items():
                row[key(t)] = row.get(key(t), ZERO) + p
        begin = {key(start): ONE}
        visits = Chain(rows).forward(begin) if rows else begin
        reach = {k[1]: p for k, p in visits.items() if isinstance(k, tuple) and k[:1] == ("class",)}
    out: dict = {}
    for k, p in reach.items():
        for state, q in stationary(closed[k], transitions).items():
            out[state] = out.get(state, ZERO) + p * q
    return out


def stationary(members: list, transitions: dict) -> dict:
    """The stationary distribution of a closed class: π P = π, Σ π = 1, exactly."""
    if len(members) == 1:
        return {members[0]: ONE}
    index = {m: k for k, m in enumerate(members)}
    size = len(members)
    matrix = [[ZERO] * (size + 1) for _ in range(size)]
    for m, out in transitions.items():
        if m not in index:
            continue
        for t, p in out.items():
            matrix[index[t]][index[m]] += p
    for k in range(size):
        matrix[k][k] -= ONE
    matrix[size - 1] = [ONE] * size + [ONE]
    return dict(zip(members, gauss(matrix)))


def taker(ruleset, maker: str, bet: str, caster: str, players: list) -> str | None:
    """Who takes the other side of `maker`'s `bet` while `caster` holds the box, at a table of
    `players` where every proposal is taken (as play.table_bets): the bank; the caster; the
    first seat from the maker's left who plays the other side; or, for a bet backing another,
    the other party of the maker's wager of that (a setter's stake is the caster's; the
    caster's are the setters', the first from his left taking it first). None: nobody."""
    spec = ruleset.bets[bet]
    found = side_of(spec, "caster" if maker == caster else "setter")
    if found is None:
        return None
    n = len(players)
    m = players.index(maker)
    round_from = [players[(m + j) % n] for j in range(1, n)]
    if spec.backs is not None:
        if spec.backs == ruleset.table.stake:
            if ruleset.table.against == BANK:
                return BANK
            return players[(players.index(caster) + 1) % n] if maker == caster else caster
        return taker(ruleset, maker, spec.backs, caster, players)
    other = found[1]
    if other == BANK:
        return BANK
    if other == "caster":
        return caster if maker != caster else None
    if other == "setter":
        return next((s for s in round_from if s != caster), None)
    if other == "player":
        return round_from[0] if round_from else None
    return None


# ---------------------------------------------------------------------------- a seat's purse

MAX_OUTCOME_NODES = 100_000  # (game state, stake, wagers up, net so far) nodes of one game's outcomes
# nets so far at one (game state, stake, wagers up): a bet made again and again within a game (one
# on every throw) makes them unbounded, and this finds it in a blink rather than at the node bound
MAX_NETS_AT_ONCE = 256


@record(frozen=True)
class GameOutcomes:
    """How one game can end for a seat in one role, with what it nets on its stake and the bets
    of its plan: {(result, label, net): probability} (fees apart); `need`, the least purse with
    which the table lets it play the whole game as planned — what it could lose on what it has
    up at any throw, as the table sets it aside, less what it has won so far."""

    role: str
    outcomes: dict
    need: Fraction

    @property
    def mean(self) -> Fraction:
        return sum((p * net for (_, _, net), p in self.outcomes.items()), ZERO)


def stake_terms(chains: "SeatSolver", role: str, stake: Fraction, seats: int) -> tuple[Fraction, Fraction]:
    """What the seat's stake this game is worth per unit of its decision (its sign: backer or
    layer), and what the table sets aside for it while it is up (play.table_bets.committed)."""
    if chains.against == BANK:
        return stake, stake
    if role == "caster":  # he covers each setter's stake; a loss costs him the stake
        return (seats - 1) * stake, (seats - 1) * stake
    most = most_paid(chains.stake_bet) if chains.stake_bet is not None else ONE
    return -stake, stake * most


def wagers_at(chains: "SeatSolver", plans: dict, players: list, seat: str, pos: int) -> list:
    """The wagers `seat` is party to in a game whose caster sits `pos` places after it: the bets
    of its own plan it makes in its role, and the other seats' it takes (solve.seats.taker, as the
    table gives them), each a Slot (`taken`: the other side of a wager another seat makes).
    Refused where two plans would meet (a seat party to a wager of a bet makes no other)."""
    machine, ruleset = chains.machine, chains.machine.ruleset
    n = len(players)
    caster = players[(players.index(seat) + pos) % n]
    made: list = []  # (maker, bet name, side as the maker plays it)
    for maker in [seat] + [p for p in players if p != seat]:
        plan = plans.get(maker, {})
        if not plan:
            continue
        sides = chains.sides(plan, "caster" if maker == caster else "setter", n)
        for name, entry in sides.items():
            if entry.side is None:
                continue
            if maker == seat or taker(ruleset, maker, name, caster, players) == seat:
                made.append((maker, name, entry.side))
    mine = {name for maker, name, _ in made if maker == seat}
    for maker, name, _ in made:
        if maker != seat and name in mine:
            raise SeatError(f"{seat} and {maker} both plan {name}, and when {caster} casts {seat} would take "
                            f"{maker}'s: at the table a seat party to a wager of {name} makes no other, so one of "
                            f"the plans would not be played; plan {name} for one of them")
    index = {(maker, name): k for k, (maker, name, _) in enumerate(made)}
    slots = []
    for maker, name, side in made:
        backs = ruleset.bets[name].backs
        if backs is not None:
            backs = "stake" if backs == chains.stake_name else index[maker, backs]
        slots.append(Slot(machine, machine.bets[name], side, Fraction(plans[maker][name]), backs, maker != seat))
        slots[-1].maker = maker
    return slots


def game_outcomes(chains: "SeatSolver", slots: list, role: str, stake: Fraction, seats: int) -> GameOutcomes:
    """A seat in `role` at a table of `seats`, party to the wagers `slots` (wagers_at), game by
    game: the same walk as SeatSolver._solve, carrying the seat's net so far instead of expected
    rewards, so that its purse can be followed from game to game. Refused (SeatError) where a
    wager can outlive the game, or the net within a game can take unboundedly many values (a bet
    made on every throw)."""
    machine, states, table = chains.machine, chains.machine.states, chains.table
    stake = Fraction(stake)
    made = [slot.name for slot in slots]
    times, stake_risk = stake_terms(chains, role, stake, seats)
    n = len(slots)
    nothing = (None,) * n
    rows: dict = {}
    start: dict = {}
    need = ZERO
    for h, p in table.resolve(machine.start.target).items():
        node = ("end", states[h].result, states[h].label, ZERO) if states[h].kind == END else \
            (h, UNLAID, nothing, (ZERO,) * n, ZERO)
        start[node] = start.get(node, ZERO) + p
    queue = [node for node in start if node[0] != "end"]
    seen = set(queue)
    nets_at: dict = {}  # (game state, stake, wagers up) -> how many nets so far were seen there
    while queue:
        node = queue.pop()
        g, s, ups, held, net = node
        s, ups, risk, _, paid = chains._offer(slots, g, s, ups, stake, True)
        net += sum((-c if slot.taken else c for slot, c in zip(slots, paid)), ZERO)
        held = tuple(_liability(slots[i], ups[i], risk[i], g) if risk[i] else (held[i] if ups[i] is not None else ZERO)
                     for i in range(n))
        need = max(need, sum(held, ZERO) + (stake_risk if s >= 0 else ZERO) - net)
        dice = chains.solver.throw_dice(g)
        weights, total = dice.weights, dice.total
        steps = states[g].steps
        row: dict = {}
        for k in range(len(weights)):
            w = weights[k]
            if not w:
                continue
            for final, p in table.resolve(steps[k].target).items():
                chance = Fraction(w, total) * p
                ended = states[final].kind == END
                s2, unit, after, settled = chains._moved(slots, g, s, ups, k, final)
                gained = times * unit + sum((-v if slots[i].taken else v for i, v in enumerate(settled)
                                             if v is not None), ZERO)
                kept = [held[i] if up is not None else ZERO for i, up in enumerate(after)]
                if ended:
                    carried = [made[i] for i, up in enumerate(after) if up is not None]
                    if carried:
                        raise SeatError(f"a wager of {carried[0]} can still be up when a game ends, and goes on into "
                                        f"the next, so the seat's purse is not a matter of whole games")
                    nxt = ("end", states[final].result, states[final].label, net + gained)
                    need = max(need, -(net + gained))
                else:
                    nxt = (final, s2, after, tuple(kept), net + gained)
                    if nxt not in seen:
                        where = nxt[:3]
                        nets_at[where] = nets_at.get(where, 0) + 1
                        if len(seen) >= MAX_OUTCOME_NODES or nets_at[where] > MAX_NETS_AT_ONCE:
                            again = [made[i] for i, up in enumerate(after) if up is not None] or made
                            why = f" ({', '.join(again)}, made again and again within a game?)" if again else ""
                            raise SeatError(f"the seat's net in one game can take too many values{why}, so what "
                                            f"a game could cost it has no bound to follow its purse by, game by "
                                            f"game")
                        seen.add(nxt)
                        queue.append(nxt)
                row[nxt] = row.get(nxt, ZERO) + chance
        rows[node] = row
    visits = Chain(rows).forward(start) if rows else start
    outcomes = {node[1:]: p for node, p in visits.items() if node[0] == "end" and p}
    return GameOutcomes(role, outcomes, need)


def _liability(slot: Slot, up: tuple, risk: Fraction, g: int) -> Fraction:
    """What the table sets aside for the seat on a wager just made at g (table_bets.liability):
    what the maker put at risk, or for the seat that took it, the backer's stake (it backs) or
    that times the most a win can pay from g (it lays)."""
    if not slot.taken:  # a backer's stake, or what a layer lays (a commission paid is in the net already)
        return up[1] if slot.side == "backer" else risk
    return up[1] if slot.side == "layer" else up[1] * slot.most(g)
