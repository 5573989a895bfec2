r"""A seat's bets at the table, solved exactly: what a player who makes each bet of his plan
whenever he may can expect, per game, per throw, per hand and per round of the table.

At the table (play.table_bets) a seat proposes, before every throw where a bet's `made:` holds,
each bet of its plan it is not already party to; it plays the bet's `backer` side if its role
this game (the caster, or a setter) plays the backer role, else the `layer` side; the other side
is the bank, the caster or another seat. The plan's amount is what the seat puts at risk: a
backer's stake, or what a layer lays (the backer's stake is then that amount over the most a
win can pay from where the bet was made). A bet that `backs` another is made only while the seat
is party to a live wager of it (the game's stake included), for at most that wager's amount
times the bet's largest multiple.

**The assumptions.** Every proposal is taken (the bank always takes; the caster covers, another
seat accepts), no purse runs short of what a wager needs, every setter stakes `stake` each game
(the `flat` strategy) and each seat's plan is played as if alone: no other seat's wager of the
same bet blocks it (a seat is party to one wager of a bet at a time; where two plans would meet
so, `seats` refuses them).

**The chain.** For one seat in one role, a node is where the table stands before the bets are
offered at a throw: (game throw state g, the stake's state s, the state and backer's stake of
each of the seat's wagers up). The offer is deterministic: the stake is laid at the first throw
where it may be (s = 0), then every bet of the plan that is not up and may be made at g is made
(a bet backing the stake or another bet of the plan once that is up), in the state where bets
start. Each of the 36 throws (under the dice in play, and the policy at every choice it leads
to) then moves the game, the stake and every wager by their compiled tables
(`CompiledBet.move`): a decided wager pays the seat its net (a backer's stake × the decision's
net, less a commission on the win; a layer the opposite) and is gone. When the game ends the
stake is void if still up, and the wagers still up (a place bet) carry into the next game:
the node is absorbed in ("end", c), c being the wagers carried. So a game is an absorbing chain
from (its first throw states, s unlaid, c), solved exactly with `markov.Chain`:

    v_x(c) = Σ_node visits_c(node) · r_x(node),   T(c → c') = P_c(absorbed in ("end", c'))

where r_x(node) is the expected amount x (the seat's net on a bet, what it puts at risk, the
wagers it makes) on the throw from that node. Games are strung together by T, a chain on the
finitely many c; the long-run figure per game is Σ_c π(c) v_x(c), π the limit of the average
of its distributions from c = nothing up (a stationary distribution; weighed by the chance of
reaching each closed class, where there are several). Where no wager is ever carried, c is
always nothing up and every game is alike.

A seat's edge on a line is its expected loss per game over what it puts at risk per game: for
the stake, what the table sets aside for it times the stakes laid per game (the chain counts a
stake laid where the stake bet is first made; a game that ends before, a first throw that loses
the turn, lays none), so that the stake's edge is per stake laid, the stake bet's own.

Per throw is per game over the game's expected throws. Per hand, each game of a hand is alike
and the number of games a stopping time of their results, so by Wald's identity a hand's net is
the expected games per hand (`session.hand`) times the net per game; a setter's hand is another
caster's. Where a wager can be carried from game to game and the seat plays it differently as
caster and as setter, the games of a hand are not alike, and only the long run per game is
given. A round of a table of N is one hand as the caster and N − 1 as a setter.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm

from ..compile.bets import most_paid, most_paid_from, side_of
from ..compile.machine import END, Machine
from ..errors import Arg, ArgumentError
from ..records import field, record
from .bets import BetTable
from .markov import ONE, ZERO, Chain, Solver, gauss, strongly_connected

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


class _Slot:
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
                slots.append(_Slot(self.machine, self.machine.bets[name], sides[name].side, Fraction(plan[name]),
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
            for k in range(36):
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


# ---------------------------------------------------------------------------- the table


@record
class SeatRow:
    """One line of a seat's figures: a bet of its plan in a role, its stake, a fee it pays as
    the caster, or the other side of another seat's bet. `casters`: the seats whose hands it
    applies to, where it is not every hand of its role (None)."""

    what: str  # the bet's name, "stake", "fee NAME", or "SEAT's BET"
    role: str
    side: str  # backer, layer, pays
    per_game: Fraction
    per_hand: Fraction | None
    risk: Fraction = ZERO
    wagers: Fraction = ZERO
    bet: str | None = None
    maker: str | None = None  # the seat whose bet this is the other side of
    casters: tuple | None = None
    why_not: str | None = None
    carried: bool = False

    @property
    def edge(self) -> Fraction | None:
        """The seat's expected loss per unit it puts at risk (negative: a gain), None where it
        puts nothing at risk (a fee): a backer per unit staked, a layer per unit laid, the stake
        per stake laid — `risk` counts a stake only in the games that lay one, so the stake's is
        the stake bet's own edge (analyse's bets table), not spread over games without a stake."""
        return -self.per_game / self.risk if self.risk else None


@record
class Seats:
    """Each seat's figures at the table: `rows` {seat: [SeatRow]}; `per_round` {seat: net} for
    a table of `players` (None without one), with the bank's and the box's."""

    plans: dict
    stake: Fraction
    players: list | None
    throws: Fraction  # expected throws per game
    games_per_hand: Fraction | None
    passing: str | None  # how the dice pass, in words (None: they never pass)
    rows: dict = field(default_factory=dict)
    per_round: dict | None = None
    bank_per_round: Fraction | None = None
    box_per_round: Fraction | None = None
    why_no_round: str | None = None  # where the players are given, why there is no round of the table
    units: str = "units"  # the money's plural, for people
    against: str = "setters"  # who answers the stakes: the caster (setters), or the bank

    def per_throw(self, row: SeatRow) -> Fraction:
        return row.per_game / self.throws if self.throws else ZERO

    def per_game_of_round(self) -> dict:
        """Each seat's net per round over the games of the round (each of N hands)."""
        if self.per_round is None:
            return {}
        games = len(self.players) * self.games_per_hand
        return {name: value / games for name, value in self.per_round.items()}


def seats(machine: Machine, plans: dict, stake=ONE, players: list | None = None, policy: str = "optimal",
          solver: Solver | None = None, bet_table: BetTable | None = None, fees: dict | None = None) -> Seats:
    """The figures of every seat's plan ({seat: {bet: amount}}) at a table of `players` (in order
    round it: then every player has figures, and a round of the table is given; None: each seat
    named in `plans`, with as many others as its bets need), each setter staking `stake` a game.
    `solver`, `bet_table` and `fees` ({name: FeeFigures}): the game's, where already solved."""
    from .session import SessionError, game_endings, hand

    stake = Fraction(stake)
    if stake <= 0:
        raise SeatArgumentError(Arg("stake"), "must be more than 0")
    chains = SeatSolver(machine, policy, solver, bet_table)
    count = len(players) if players is not None else None
    game = game_endings(machine, policy)
    try:
        the_hand = hand(machine, policy, game)
        games, passing = the_hand.games, the_hand.rule
    except SessionError:
        games, passing = None, None
    names = list(players) if players is not None else list(plans)
    roles = {name: {role: chains.role(plans.get(name, {}), role, stake, count) for role in ROLES} for name in names}
    if fees is None:
        labels: dict = {}
        results: dict = {}
        for s in machine.end_states():
            results.setdefault(s.label, s.result)
        for (result, label), p in game.endings.items():
            labels[label] = labels.get(label, ZERO) + p
        fees = {name: chains.table.fee(name, labels, results) for name in machine.fees}
    out = Seats(dict(plans), stake, list(players) if players is not None else None, game.throws, games, passing,
                units=machine.ruleset.money_units, against=chains.against)
    unit, laid = chains.stake_unit(), chains.stake_laid()
    stake_name = chains.stake_name or "stake"

    def per_hand(per_game: Fraction, alike: bool = True):
        return games * per_game if games is not None and alike else None

    for name in names:
        rows = out.rows[name] = []
        by_role = roles[name]
        for role in ROLES:
            for bet, entry in by_role[role].bets.items():
                if entry.side is None:
                    rows.append(SeatRow(bet, role, "—", ZERO, per_hand(ZERO), bet=bet, why_not=entry.why_not))
                    continue
                alike = not entry.carried or _alike(by_role["caster"].bets[bet], by_role["setter"].bets[bet])
                rows.append(SeatRow(bet, role, entry.side, entry.per_game, per_hand(entry.per_game, alike),
                                    entry.risk, entry.wagers, bet, carried=entry.carried))
            # the stake: every seat backs it with a bank; else the caster backs it against each setter
            if chains.against == BANK:
                what, side = stake_name, "backer"
            elif role == "setter":
                what, side = stake_name, "layer"
            else:  # without the players, the caster's stake against one setter
                what, side = stake_name if count is not None else f"{stake_name} (each setter's)", "backer"
            staked, risk = _stake_terms(chains, role, stake, count if count is not None else 2)
            per_game = staked * unit
            # at risk only in the games that lay a stake: its edge is then per stake laid, the
            # stake bet's own (analyse's bets table), not spread over games that carry none
            rows.append(SeatRow(what, role, side, per_game, per_hand(per_game), risk * laid,
                                abs(staked) / stake * laid, bet=chains.stake_name))
            if role == "caster":  # the table charges every fee to the caster
                for fee_name, fee in fees.items():
                    rows.append(SeatRow(f"fee {fee_name}", role, "pays", -fee.cost_per_game,
                                        per_hand(-fee.cost_per_game)))
    if players is not None:
        _taken(out, machine, roles, players, games)
    return out


def _alike(caster: BetAtTable, setter: BetAtTable) -> bool:
    """Whether the seat plays a bet alike as caster and as setter (so that a wager carried from
    a game to the next is played the same whoever holds the box)."""
    return (caster.side, caster.other) == (setter.side, setter.other)


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


def _taken(out: Seats, machine: Machine, roles: dict, players: list, games) -> None:
    """The other side of each seat's bets, in the figures of the seat that takes them; each
    seat's net per round of the table (one hand as the caster, the others as a setter), and
    the bank's and the box's."""
    ruleset = machine.ruleset
    plans = out.plans
    taken: dict = {}  # (taker, maker, bet, taker's role) -> [the casters of the hands it is taken in]

    def entry_of(maker: str, bet: str, caster: str) -> BetAtTable:
        return roles[maker]["caster" if maker == caster else "setter"].bets[bet]

    for caster in players:
        for maker, plan in plans.items():
            for bet in plan:
                if entry_of(maker, bet, caster).side is None:
                    continue
                who = taker(ruleset, maker, bet, caster, players)
                if who in (None, BANK):
                    continue
                if bet in plans.get(who, {}) and entry_of(who, bet, caster).side is not None:
                    raise SeatError(f"{maker} and {who} both plan {bet}, and when {caster} casts {who} would "
                                    f"take {maker}'s: at the table a seat party to a wager of {bet} makes no "
                                    f"other, so one of the plans would not be played; plan {bet} for one of them")
                taken.setdefault((who, maker, bet, "caster" if who == caster else "setter"), []).append(caster)
    for (who, maker, bet, role), casters in taken.items():
        every = role == "caster" or len(casters) == len(players) - 1
        groups: dict = {}  # the maker's figures -> the hands they are his in (alike as caster and setter: one)
        for caster in casters:
            entry = entry_of(maker, bet, caster)
            groups.setdefault((entry.side, entry.per_game, entry.risk, entry.wagers, entry.carried), []).append(caster)
        for these in groups.values():
            entry = entry_of(maker, bet, these[0])
            side = "layer" if entry.side == "backer" else "backer"
            hand = games * -entry.per_game if games is not None and not entry.carried else None
            out.rows[who].append(SeatRow(f"{maker}'s {bet}", role, side, -entry.per_game, hand, entry.risk,
                                         entry.wagers, bet, maker, None if every and len(groups) == 1
                                         else tuple(these), carried=entry.carried))
    if games is None:
        out.why_no_round = "the dice never pass, so the box never goes round"
        return
    per_round: dict = {}
    for name in players:
        total = ZERO
        for row in out.rows[name]:
            if row.per_hand is None:
                if row.per_game:  # a wager carried from game to game, played differently by role
                    out.why_no_round = (f"a wager of {row.bet} can stay up from one game to the next, played "
                                        f"differently as caster and as setter, so the hands of a round are not "
                                        f"alike")
                    return
                continue
            if row.role == "caster":
                hands = 1
            else:
                hands = len(row.casters) if row.casters is not None else len(players) - 1
            total += hands * row.per_hand
        per_round[name] = total
    out.per_round = per_round
    fees = sum((-row.per_game for row in out.rows[players[0]] if row.role == "caster" and row.side == "pays"), ZERO)
    out.box_per_round = len(players) * games * fees
    out.bank_per_round = -(sum(per_round.values(), ZERO) + out.box_per_round)


# ---------------------------------------------------------------------------- a seat's purse

MAX_OUTCOME_NODES = 100_000  # (game state, stake, wagers up, net so far) nodes of one game's outcomes
# nets so far at one (game state, stake, wagers up): a bet made again and again within a game (one
# on every throw) makes them unbounded, and this finds it in a blink rather than at the node bound
MAX_NETS_AT_ONCE = 256
MAX_PURSE_NODES = 20_000  # (whose hand, passing, fees, purse) nodes of a seat's session to a goal


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


@record(frozen=True)
class SeatRuin:
    """One seat at a table of `players`, from `bankroll` until its purse reaches `goal` or can no
    longer play a game as its plan says (less than `need[role]` at the start of a game in that
    role): the chance of each, the expected games and the expected purse at the end."""

    seat: str
    players: tuple
    plan: dict
    bankroll: Fraction
    goal: Fraction
    stake: Fraction
    reach_goal: Fraction
    ruin: Fraction
    games: Fraction
    final_purse: Fraction  # the expected purse when it stops
    games_as: dict  # role -> expected games played in that role
    games_at: tuple  # expected games with the box k places on from the seat (k = 0: its own hand)
    need_at: tuple  # the least purse to play a game with the box k places on
    takes: tuple  # (maker, bet): the other seats' bets it takes in some game
    need: dict  # role -> the least purse to play a game in that role (a fee takes what is left, no more)
    units: str = "units"


def _stake_terms(chains: "SeatSolver", role: str, stake: Fraction, seats: int) -> tuple[Fraction, Fraction]:
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
    table gives them), each a _Slot (`taken`: the other side of a wager another seat makes).
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
        slots.append(_Slot(machine, machine.bets[name], side, Fraction(plans[maker][name]), backs, maker != seat))
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
    times, stake_risk = _stake_terms(chains, role, stake, seats)
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
        for k in range(36):
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


@record
class TableRuin:
    """Every seat of a table from the same `bankroll` to the same `goal` (`seat_ruin` for each):
    `seats` {seat: SeatRuin}, and `why_not` {seat: why its chance is not solved exactly}."""

    players: list
    plans: dict
    bankroll: Fraction
    goal: Fraction
    stake: Fraction
    seats: dict = field(default_factory=dict)
    why_not: dict = field(default_factory=dict)
    units: str = "units"
    against: str = "setters"
    first: str = "seat_order"  # who casts first (compile.passing)


def table_ruin(machine: Machine, plans: dict, players: list, bankroll, goal, stake=ONE, policy: str = "optimal",
               solver: Solver | None = None, bet_table: BetTable | None = None) -> TableRuin:
    """`seat_ruin` for every player, on one solver; a seat whose chance cannot be solved exactly
    (a chain too large, a bankroll too small for its plan) is in `why_not`, the others solved."""
    chains = SeatSolver(machine, policy, solver, bet_table)
    passing = machine.passing
    out = TableRuin(list(players), {name: dict(plans.get(name, {})) for name in players}, Fraction(bankroll),
                    Fraction(goal), Fraction(stake), units=machine.ruleset.money_units, against=chains.against,
                    first=passing.first if passing is not None else "seat_order")
    for name in players:
        try:
            out.seats[name] = seat_ruin(machine, plans, players, name, bankroll, goal, stake, policy, chains=chains)
        except SeatError as exc:
            # a result, not an error: its reason keeps the words the published figures show
            out.why_not[name] = exc.said(_AS_PUBLISHED) if isinstance(exc, ArgumentError) else str(exc)
    return out


class _PublishedWording:
    """The words a seat's reason has always been published in (`--bankroll`), whichever front
    end shows the result: a result is not reworded, only errors are."""

    def arg(self, arg: Arg) -> str:
        return "-" + "-" + arg.name


_AS_PUBLISHED = _PublishedWording()


def purse_levels(games, fees, bankroll: Fraction, goal: Fraction) -> int:
    """How many purses a seat's session can hold between the least any role needs and the goal:
    the purse moves on a grid, the step of every net and fee (a game of 1/1000 steps by 1/1000).
    Where a game can both win and lose, the walk meets every purse of the grid in between, each
    a state of the chain at least, so this many is a floor of its size, known before building
    it. 0 where the purse can only go one way (the chain is then as long as the walk)."""
    nets = [net for game in games for (_, _, net) in game.outcomes]
    if not any(net > 0 for net in nets) or not any(net < 0 for net in nets):
        return 0
    amounts = [Fraction(a) for a in nets + [f.fee.amount for f in fees] if a]
    scale = lcm(*(a.denominator for a in amounts))
    step = Fraction(gcd(*(int(a * scale) for a in amounts)), scale)
    lowest = min(game.need for game in games)
    return max(0, int((goal - lowest) / step))


def forward_in_order(rows: dict, start: dict, order) -> tuple[dict, dict]:
    """An absorbing chain's expected visits to each transient node and the chance of ending in
    each absorbing one, from `start`, eliminating the nodes in the order `order` (a sort key)
    gives them: x (I − Q) = start, solved as (I − Q)ᵀ xᵀ = startᵀ. For a chain whose
    nodes each move a little in that order, the elimination stays within a band."""
    from .markov import sparse_solve

    nodes = sorted(rows, key=order)
    index = {node: k for k, node in enumerate(nodes)}
    matrix: list[dict] = [{k: ONE} for k in range(len(nodes))]
    for node, out in rows.items():
        i = index[node]
        for target, p in out.items():
            j = index.get(target)
            if j is not None:
                matrix[j][i] = matrix[j].get(i, ZERO) - p
    x = sparse_solve(matrix, [start.get(node, ZERO) for node in nodes])
    visits = dict(zip(nodes, x))
    ends: dict = {}
    for node, out in rows.items():
        for target, p in out.items():
            if target not in index:
                ends[target] = ends.get(target, ZERO) + visits[node] * p
    return visits, ends


def _liability(slot: _Slot, up: tuple, risk: Fraction, g: int) -> Fraction:
    """What the table sets aside for the seat on a wager just made at g (table_bets.liability):
    what the maker put at risk, or for the seat that took it, the backer's stake (it backs) or
    that times the most a win can pay from g (it lays)."""
    if not slot.taken:  # a backer's stake, or what a layer lays (a commission paid is in the net already)
        return up[1] if slot.side == "backer" else risk
    return up[1] if slot.side == "layer" else up[1] * slot.most(g)


def seat_ruin(machine: Machine, plans: dict, players: list, seat: str, bankroll, goal, stake=ONE,
              policy: str = "optimal", solver: Solver | None = None, bet_table: BetTable | None = None,
              chains: "SeatSolver | None" = None) -> SeatRuin:
    """The chance that `seat`, at a table of `players` (in order round it) where each seat plays
    its plan of `plans` ({seat: {bet: amount}}) and every setter stakes `stake` a game, reaches
    `goal` from `bankroll` before its purse can no longer play a game as planned.

    A chain over games: a node is (whose hand it is, counted from the seat; the passing count;
    the fees' counters; the seat's purse). Each game ends in some (result, label) with the seat
    netting some amount, jointly (`game_outcomes`, by its role that game); the caster pays the
    fees that fall due, out of what he has left (as the table takes them); the box passes as `passing:` says. The same assumptions as `seats`:
    every bet is taken, the other seats' purses never run short, each plan played as if alone.
    The first caster is the first player, or by lot (each seat equally likely) where the rules
    say so. Exact, within MAX_PURSE_NODES nodes and the solver's bound on elimination work."""
    from .markov import TooLargeToSolve

    bankroll, goal, stake = Fraction(bankroll), Fraction(goal), Fraction(stake)
    if stake <= 0:
        raise SeatArgumentError(Arg("stake"), "must be more than 0")
    if seat not in players:
        raise SeatError(f"{seat} does not sit at the table ({', '.join(players)})")
    chains = chains or SeatSolver(machine, policy, solver, bet_table)
    n = len(players)
    plan = plans.get(seat, {})
    roles = ("caster",) if n == 1 else ROLES
    games = {pos: chains.outcomes(plans, players, seat, pos, stake) for pos in range(n)}
    fees = list(machine.fees.values())
    passing = machine.passing

    def role_of(pos: int) -> str:
        return "caster" if pos == 0 else "setter"

    need = {role: max(games[pos].need for pos in range(n) if role_of(pos) == role) for role in roles}

    first = players.index(seat)
    if passing is not None and passing.by_lot:
        positions = {pos: Fraction(1, n) for pos in range(n)}
    else:
        positions = {(-first) % n: ONE}
    short = {pos for pos in positions if bankroll < games[pos].need}
    if short or not bankroll < goal:
        needs = " and ".join(f"{need[r]} as {r}" for r in roles)
        raise SeatArgumentError(Arg("bankroll"), f"must be at least what {seat} needs to play a game as planned "
                                f"({needs}) and less than ", Arg("goal"), f" ({goal})")
    too_many = (f"{seat}'s purse can take too many values between ruin and the goal (more than "
                f"{MAX_PURSE_NODES:,} states of the table and the purse) to solve exactly; bring the bankroll "
                f"nearer the goal, or simulate the sessions")
    if purse_levels(games.values(), fees, bankroll, goal) > 2 * MAX_PURSE_NODES:
        raise SeatError(too_many)  # judged before the work: building the chain to find it takes seconds
    fee_start = tuple(f.start for f in fees)
    start = {(pos, 0, fee_start, bankroll): p for pos, p in positions.items()}
    rows: dict = {}
    queue, seen = list(start), set(start)
    while queue:
        node = queue.pop()
        pos, count, fee_states, purse = node
        role = role_of(pos)
        row: dict = {}
        for (result, label, net), p in games[pos].outcomes.items():
            due, after_fees = ZERO, []
            for f, state in zip(fees, fee_states):
                state, falls = f.at_game_end(state, result, label)
                after_fees.append(state)
                if falls:
                    due += f.fee.amount
            purse2 = purse + net
            if role == "caster":  # the table takes a fee out of what the caster has left, no more
                purse2 -= min(due, purse2)
            if passing is None:
                count2, passes = 0, False
            else:
                count2, passes = passing.after_game(count, result, label)
            pos2 = (pos + 1) % n if passes else pos
            if purse2 >= goal:
                nxt = ("goal", purse2)
            elif purse2 < games[pos2].need:
                nxt = ("ruin", purse2)
            else:
                nxt = (pos2, count2, tuple(after_fees), purse2)
                if nxt not in seen:
                    if len(seen) >= MAX_PURSE_NODES:
                        raise SeatError(too_many)
                    seen.add(nxt)
                    queue.append(nxt)
            row[nxt] = row.get(nxt, ZERO) + p
        rows[node] = row
    try:
        # in order of the purse: a game moves it by a few steps, so the system is banded and its
        # elimination fills in only within the band (in the order a search meets them, it fills
        # in everywhere, and a chain of a few hundred nodes takes minutes)
        visits, ends = forward_in_order(rows, start, lambda node: (node[3], node[0], node[1], repr(node[2])))
    except TooLargeToSolve:
        raise SeatError(f"{seat}'s session to the goal is too large to solve exactly ({len(rows):,} states of the "
                        f"table and the purse); bring the bankroll nearer the goal, or simulate the sessions") from None
    reach = sum((p for node, p in ends.items() if node[0] == "goal"), ZERO)
    final = sum((p * node[1] for node, p in ends.items()), ZERO)
    games_as = {role: sum((x for node, x in visits.items() if role_of(node[0]) == role), ZERO) for role in roles}
    games_at = tuple(sum((x for node, x in visits.items() if node[0] == pos), ZERO) for pos in range(n))
    takes = tuple(dict.fromkeys((slot.maker, slot.name) for pos in range(n)
                                for slot in wagers_at(chains, plans, players, seat, pos) if slot.taken))
    return SeatRuin(seat, tuple(players), dict(plan), bankroll, goal, stake, reach, ONE - reach,
                    sum(visits.values(), ZERO), final, games_as, games_at, tuple(games[pos].need for pos in range(n)),
                    takes, need, machine.ruleset.money_units)
