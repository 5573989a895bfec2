"""Exact figures for bets, combinations of bets, and fees.

A bet is analysed on the product of the game machine (under its policy) and the bet's own
machine: nodes are (game throw state, bet state); each throw moves both; when the game ends
and the bet is still up, the game starts again (a place bet outlives the pass line's game).
The bet is made at the first moment its `made:` condition holds, from the start of a game.

Money is per unit staked. With a commission paid up front the stake is 1 + the commission,
and the *edge* is the bettor's expected loss per unit of money staked, −E[net] / E[stake];
*per decision* divides by the chance that the bet is decided rather than pushed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..compile.bets import BetMachine, Decision, FeeMachine
from ..diagnostics import Diagnostic, RulesetError, did_you_mean
from ..parse.numbers import exact_amount
from ..compile.machine import CHOICE, END, OUTCOMES, Machine
from .markov import ONE, ZERO, Chain, Solver

MAX_PRODUCT_NODES = 50_000
ONE_THROW = Fraction(1, 36)


class BetError(ValueError):
    pass


@dataclass
class BetFigures:
    name: str
    win: Fraction
    lose: Fraction
    push: Fraction
    net: Fraction  # expected net per unit bet, commission included
    stake: Fraction  # expected money staked per unit bet (1, or more with a commission up front)
    expected_throws: Fraction
    labels: dict = field(default_factory=dict)
    pays: dict = field(default_factory=dict)  # where the bet is made -> net payout of a win
    win_pays: dict = field(default_factory=dict)  # net payout of a win -> probability (the field: 1, 2, 3 to 1)
    made_per_game: Fraction = ONE  # the chance that a game reaches a moment the bet may be made

    @property
    def edge(self) -> Fraction:
        return -self.net / self.stake

    @property
    def edge_per_decision(self) -> Fraction:
        decided = self.win + self.lose
        return self.edge / decided if decided else ZERO


@dataclass
class Combination:
    orders: list  # (bet, amount text)
    staked: Fraction  # expected money staked
    net: Fraction  # expected net

    @property
    def edge(self) -> Fraction:
        return -self.net / self.staked


@dataclass
class FeeFigures:
    name: str
    amount: Fraction
    due_per_game: Fraction  # long-run probability that a game ends with the fee due
    payer: str
    payee: str
    description: str | None

    @property
    def cost_per_game(self) -> Fraction:
        return self.amount * self.due_per_game


class BetTable:
    """The game under a policy, with the helpers every bet analysis needs."""

    def __init__(self, machine: Machine, solver: Solver):
        self.machine = machine
        self.solver = solver
        self.states = machine.states
        self._resolved: dict = {}  # state -> where it leads before the next throw (see resolve)
        self.restart = self.settle({machine.start.target: ONE})
        self.bets: dict = {}

    def bet(self, name: str) -> BetMachine:
        if name not in self.bets:
            if name not in self.machine.ruleset.bets:
                known = ", ".join(self.machine.ruleset.bets) or "none"
                raise BetError(f"{self.machine.ruleset.name} has no bet {name!r}"
                               f"{did_you_mean(name, self.machine.ruleset.bets)} (bets: {known})")
            self.bets[name] = BetMachine(self.machine, self.machine.ruleset.bets[name])
        return self.bets[name]

    def can_be_made(self, name: str) -> bool:
        return self.bet(name).ever_made()

    def settle(self, distribution: dict) -> dict:
        """Pass a distribution through choice states (policy) and game ends (a new game starts)."""
        out: dict = {}
        pending = dict(distribution)
        start = self.machine.start.target
        for _ in range(4 * len(self.states) + 4):
            if not pending:
                return out
            nxt: dict = {}
            for g, p in pending.items():
                for h, q in self.resolve(g).items():
                    if self.states[h].kind == END:  # the game is over before a throw: the next one starts
                        nxt[start] = nxt.get(start, ZERO) + p * q
                    else:
                        out[h] = out.get(h, ZERO) + p * q
            pending = nxt
        raise BetError("the game can start and end without a throw, for ever")

    def resolve(self, g: int) -> dict:
        """Where reaching state g leads before any further throw: g itself for a throw or end
        state, or — through choice states, under the policy — the throw and end states the
        choices lead to. A bet is settled against these, so a game that ends at a choice
        after a throw ends for its bets too."""
        found = self._resolved.get(g)
        if found is not None:
            return found
        if self.states[g].kind != CHOICE:
            found = {g: ONE}
        else:
            found = {}
            pending = {g: ONE}
            for _ in range(4 * len(self.states) + 4):
                if not pending:
                    break
                nxt: dict = {}
                for h, p in pending.items():
                    if self.states[h].kind == CHOICE:
                        for t, q in self.solver.row(h).items():
                            nxt[t] = nxt.get(t, ZERO) + p * q
                    else:
                        found[h] = found.get(h, ZERO) + p
                pending = nxt
            else:  # pragma: no cover - the checker refuses choices that lead round for ever
                raise BetError("choices lead to one another for ever")
        self._resolved[g] = found
        return found

    def after(self, g: int) -> dict:
        """Where the game stands before its next throw, after reaching state g."""
        state = self.states[g]
        if state.kind == END:
            return self.restart
        if state.kind == CHOICE:
            return self.settle({g: ONE})
        return {g: ONE}

    # ------------------------------------------------------------------ placing

    def placement(self, bm: BetMachine) -> dict:
        """Where the game stands when the bet is first allowed (from the start of a game)."""
        rows: dict = {}
        queue = list(self.restart)
        seen = set(queue)
        start: dict = {}
        ever_made = False
        for g, p in self.restart.items():
            key = ("made", g) if bm.may_be_made(self.states[g]) else g
            ever_made |= key != g
            start[key] = start.get(key, ZERO) + p
        while queue:
            g = queue.pop()
            if bm.may_be_made(self.states[g]):
                continue
            row: dict = {}
            for k in range(36):
                for g2, p2 in self.after(self.states[g].steps[k].target).items():
                    key = ("made", g2) if bm.may_be_made(self.states[g2]) else g2
                    ever_made |= key != g2
                    row[key] = row.get(key, ZERO) + p2 / 36
                    if key == g2 and g2 not in seen:
                        seen.add(g2)
                        queue.append(g2)
            rows[g] = row
        if not ever_made:
            raise BetError(f"bet {bm.bet.name!r} can never be made: its made: condition never holds")
        visits = Chain(rows).forward(start)
        return {key[1]: p for key, p in visits.items() if isinstance(key, tuple) and key[0] == "made" and p}

    # ------------------------------------------------------------------ the product chain

    def product(self, bm: BetMachine, starts, stop=None) -> Chain:
        """Rows of the chain over (game state, bet state) from the given start nodes. Decisions
        are absorbing; so are nodes where `stop(game state, bet state)` holds."""
        rows: dict = {}
        queue = list(starts)
        seen = set(queue)
        while queue:
            node = queue.pop()
            g, b = node
            state = self.states[g]
            row: dict = {}
            for k, dice in enumerate(OUTCOMES):
                for final, p1 in self.resolve(state.steps[k].target).items():
                    # most steps are certain (p is the constant ONE): spare the Fraction arithmetic
                    p1 = ONE_THROW if p1 is ONE else p1 / 36
                    result = bm.step(state, b, dice, self.states[final])
                    if isinstance(result, Decision):
                        row[result] = row.get(result, ZERO) + p1
                        continue
                    for g2, p2 in self.after(final).items():
                        nxt = (g2, result)
                        if stop is not None and stop(self.states[g2], result):
                            nxt = ("stop", g2, result)
                        row[nxt] = row.get(nxt, ZERO) + (p1 if p2 is ONE else p1 * p2)
                        if nxt[0] != "stop" and nxt not in seen:
                            if len(seen) >= MAX_PRODUCT_NODES:
                                raise BetError(f"bet {bm.bet.name!r} has more than {MAX_PRODUCT_NODES} states "
                                               f"with the game")
                            seen.add(nxt)
                            queue.append(nxt)
            rows[node] = row
        self._never_decided(bm, rows)
        return Chain(rows)

    def _never_decided(self, bm: BetMachine, rows: dict) -> None:
        """Refuse a bet that, from some point it can reach, is never decided: its chain would
        have no solution (the stake would be up for ever)."""
        back: dict = {}
        decided = []
        for node, row in rows.items():
            for t in row:
                if t in rows:
                    back.setdefault(t, []).append(node)
                else:  # a decision, or a stop
                    decided.append(node)
        can = set(decided)
        work = list(decided)
        while work:
            for source in back.get(work.pop(), ()):
                if source not in can:
                    can.add(source)
                    work.append(source)
        stuck = [node for node in rows if node not in can]
        if stuck:
            g, b = min(stuck, key=lambda n: (n[0], str(n[1])))
            where = self.states[g].describe(self.machine)
            inner = f", the bet in its phase {b.phase!r}" if len(bm.bet.phases) > 1 else ""
            raise RulesetError([Diagnostic(
                f"bet {bm.bet.name!r} is never decided once the game is at {where}{inner}: no throw from there "
                f"on wins, loses or pushes it", bm.bet.position,
                hint="a bet must be decided sooner or later; add a rule that wins, loses or pushes it")])

    # ------------------------------------------------------------------ figures

    def commission(self, bm: BetMachine, placed_at, decision: Decision | None) -> tuple[Fraction, Fraction]:
        """(commission taken from a win, commission paid up front) per unit bet."""
        commission = bm.bet.commission
        paid = bm.commission_paid()
        if paid is None:
            return ZERO, ZERO
        if paid not in ("on_win", "up_front"):
            raise BetError(f"bet {bm.bet.name!r}: commission paid must be on_win or up_front, not {paid!r}")
        if paid == "up_front":
            base = ONE if commission.of == "bet" else bm.default_payout(self.states[placed_at])
            return ZERO, commission.rate * base
        if decision is None or decision.result != "win":
            return ZERO, ZERO
        return commission.rate * (ONE if commission.of == "bet" else decision.net), ZERO

    def figures(self, name: str) -> BetFigures:
        bm = self.bet(name)
        placed = self.placement(bm)
        start = {(g, bm.start): p for g, p in placed.items()}
        chain = self.product(bm, start)
        visits = chain.forward(start)
        win = lose = push = net = ZERO
        labels: dict = {}
        win_pays: dict = {}
        for node, p in visits.items():
            if not isinstance(node, Decision):
                continue
            labels[node.label] = labels.get(node.label, ZERO) + p
            if node.result == "win":
                win += p
                win_pays[node.net] = win_pays.get(node.net, ZERO) + p
                on_win = self._on_win(bm, node)
                net += p * (node.net - on_win)
            elif node.result == "lose":
                lose += p
                net -= p
            else:
                push += p
        up_front = sum((p * self.commission(bm, g, None)[1] for g, p in placed.items()), ZERO)
        throws = sum((p for node, p in visits.items() if isinstance(node, tuple) and len(node) == 2), ZERO)
        pays = {}
        if bm.bet.pays is not None:
            for g in sorted(placed):
                try:
                    pays[g] = bm.default_payout(self.states[g])
                except Exception:  # a payout that needs the deciding throw (the field): shown as varying
                    pays = {}
                    break
        return BetFigures(name, win, lose, push, net - up_front, ONE + up_front, throws, labels, pays, win_pays,
                          self.made_per_game(bm))

    def made_per_game(self, bm: BetMachine) -> Fraction:
        """The chance that a game, from its start, reaches a throw at which the bet may be made
        (1 for a bet made any time; less for Cotton's stake, laid once the main is set)."""
        if bm.bet.made is None:
            return ONE
        rows: dict = {}
        queue = [g for g in self.restart if not bm.may_be_made(self.states[g])]
        seen = set(queue)
        while queue:
            g = queue.pop()
            row: dict = {}
            for step in self.states[g].steps:
                for final, p in self.resolve(step.target).items():
                    state = self.states[final]
                    key = "ended" if state.kind == END else ("made" if bm.may_be_made(state) else final)
                    row[key] = row.get(key, ZERO) + p / 36
                    if key == final and final not in seen:
                        seen.add(final)
                        queue.append(final)
            rows[g] = row
        start: dict = {}
        for g, p in self.restart.items():
            key = "made" if bm.may_be_made(self.states[g]) else g
            start[key] = start.get(key, ZERO) + p
        if not rows:
            return start.get("made", ZERO)
        return Chain(rows).forward(start).get("made", ZERO)

    def _on_win(self, bm: BetMachine, decision: Decision) -> Fraction:
        commission = bm.bet.commission
        if commission is None or bm.commission_paid() != "on_win":
            return ZERO
        return commission.rate * (ONE if commission.of == "bet" else decision.net)

    def unit_values(self, bm: BetMachine, places) -> dict:
        """(expected net, expected stake) per unit bet, made in each game state of `places`."""
        starts = [(g, bm.start) for g in places]
        chain = self.product(bm, starts)

        def reward(node):
            if isinstance(node, Decision):
                return (node.net - self._on_win(bm, node)) if node.result == "win" else node.net
            return ZERO

        values = chain.backward(reward)
        out = {}
        for g in places:
            up_front = self.commission(bm, g, None)[1]
            out[g] = (values[(g, bm.start)] - up_front, ONE + up_front)
        return out

    def combination(self, orders: list[tuple[str, str]]) -> Combination:
        """Bets made together (`pass=10`, `odds=3-4-5x`): the edge per unit of all money staked.

        A bet that `backs` another is made at the first moment it is allowed while the backed
        bet is up, for an amount given outright or as a multiple of the backed bet."""
        placed: dict = {}  # bet -> where in the game it was made: {game state: probability}
        fixed: dict = {}  # bet -> its amount, where that does not depend on the state
        staked = net = ZERO
        for name, amount_text in orders:
            bm = self.bet(name)
            backs = bm.bet.backs
            if backs is not None and backs in placed:
                backed_bm = self.bet(backs)
                start = {(g, backed_bm.start): p for g, p in placed[backs].items()}
                chain = self.product(backed_bm, start, stop=lambda state, b: bm.may_be_made(state))
                places: dict = {}
                for node, p in chain.forward(start).items():
                    if isinstance(node, tuple) and node[0] == "stop":
                        places[node[1]] = places.get(node[1], ZERO) + p
                values = self.unit_values(bm, list(places))
                for g, p in places.items():
                    amount = _amount(bm, amount_text, self.states[g], fixed.get(backs))
                    unit_net, unit_stake = values[g]
                    staked += p * amount * unit_stake
                    net += p * amount * unit_net
                placed[name] = places
                continue
            if backs is not None:  # as at the table: a bet that backs another needs it made first
                raise BetError(f"--bet {name}={amount_text}: {name} backs {backs}; give --bet {backs}=… first")
            amount = _amount(bm, amount_text, None, None)
            figures = self.figures(name)
            staked += amount * figures.stake
            net += amount * figures.net
            placed[name] = self.placement(bm)
            fixed[name] = amount
        if not staked:
            raise BetError("no money is staked")
        return Combination(orders, staked, net)

    def fee(self, name: str, label_probabilities: dict, label_results: dict) -> FeeFigures:
        fee = self.machine.ruleset.fees[name]
        fm = FeeMachine(self.machine.ruleset, fee, self.machine.options)
        # The fee's state moves once a game; games are independent, so this is a small chain
        # on the fee's own states with P(each label) as its transition probabilities.
        transitions: dict = {}
        queue = [fm.start]
        while queue:
            f = queue.pop()
            if f in transitions:
                continue
            if len(transitions) > 1000:
                raise BetError(f"fee {name!r} has too many states")
            out = []
            for label, p in label_probabilities.items():
                if not p:
                    continue
                f2, due = fm.at_game_end(f, label_results[label], label)
                out.append((f2, p, due))
                queue.append(f2)
            transitions[f] = out
        stationary = _stationary(transitions)
        due = sum((stationary[f] * p for f, out in transitions.items() for _, p, d in out if d), ZERO)
        return FeeFigures(name, fee.amount, due, fee.payer, fee.payee, fee.description)


def parse_amount(bet, text: str):
    """An order's amount: ("money", Fraction) or ("multiple", text) for a bet that backs another
    (`2x`, or a multiple the bet names such as `3-4-5x`). Raises BetError with a clear reason."""
    text = text.strip()
    if text in bet.multiples or text.endswith("x"):
        if bet.backs is None:
            raise BetError(f"--bet {bet.name}={text}: {bet.name} backs no other bet, so it takes an amount, "
                           f"not a multiple")
        if text not in bet.multiples:
            factor = exact_amount(text[:-1], percent=False)
            if factor is None or factor <= 0:
                known = ", ".join(bet.multiples) or "none declared"
                raise BetError(f"--bet {bet.name}={text}: a multiple is a positive number and x (2x), "
                               f"or one the bet names ({known})")
        return "multiple", text
    return "money", parse_money(text, f"--bet {bet.name}")


def _amount(bm: BetMachine, text: str, state, backed_amount) -> Fraction:
    kind, value = parse_amount(bm.bet, text)
    if kind == "money":
        return value
    if state is None or backed_amount is None:
        raise BetError(f"--bet {bm.bet.name}={text}: a multiple needs the bet it backs ({bm.bet.backs}) given first")
    factor = bm.multiple(value, state)
    if factor <= 0:
        raise BetError(f"--bet {bm.bet.name}={text}: the multiple is {factor} here; it must be more than 0")
    return factor * backed_amount


def parse_money(text: str, what: str) -> Fraction:
    """`10`, `12.50`, `21/2`: exact amounts of money, never floats."""
    value = exact_amount(text, percent=False)
    if value is None:
        raise BetError(f"{what}: {text[:30]!r} is not an amount of money (10, 12.50 or 21/2)")
    if value <= 0:
        raise BetError(f"{what}: the amount must be more than 0")
    return value


def _stationary(transitions: dict) -> dict:
    """The long-run share of games in each state of a small chain (exact)."""
    from .markov import _gauss

    nodes = list(transitions)
    index = {f: k for k, f in enumerate(nodes)}
    n = len(nodes)
    # π (P − I) = 0 with Σπ = 1: replace the last equation by the normalisation.
    matrix = [[ZERO] * (n + 1) for _ in range(n)]
    for f, out in transitions.items():
        for f2, p, _ in out:
            matrix[index[f2]][index[f]] += p
    for k in range(n):
        matrix[k][k] -= ONE
    matrix[n - 1] = [ONE] * n + [ONE]
    return dict(zip(nodes, _gauss(matrix)))
