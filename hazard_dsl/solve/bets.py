"""Exact figures for bets, combinations of bets, and fees.

A bet is analysed on the product of the game machine (under its policy) and the bet's compiled
table (`compile.bets.CompiledBet`): nodes are (game throw state, bet state); each throw moves
both; when the game ends and the bet is still up, the game starts again (a place bet outlives
the pass line's game). The bet is made at the first moment it may be, from the start of a game.
Everything here reads the compiled tables; nothing re-reads the rules.

Money is per unit staked. With a commission paid up front the stake is 1 + the commission,
and the *edge* is the bettor's expected loss per unit of money staked, −E[net] / E[stake];
*per decision* divides by the chance that the bet is decided rather than pushed.
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.bets import CompiledBet
from ..compile.machine import CHOICE, END, Machine
from ..diagnostics import Diagnostic, RulesetError, did_you_mean
from ..errors import Arg
from ..model import COMMISSION_PAID
from ..records import field, record
from .amounts import BetArgumentError, BetError, bet_amount, parse_amount, parse_money
from .markov import ONE, ZERO, Chain, Solver, gauss
from .solver import throws_of


@record
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


@record
class Combination:
    orders: list  # (bet, amount text)
    staked: Fraction  # expected money staked
    net: Fraction  # expected net

    @property
    def edge(self) -> Fraction:
        return -self.net / self.staked


@record
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
    """The game under a policy, with the helpers every bet analysis needs. Reads the compiled
    bets of the machine (or those given)."""

    def __init__(self, machine: Machine, solver: Solver, bets: dict | None = None):
        self.machine = machine
        self.solver = solver
        self.states = machine.states
        self.compiled = machine.bets if bets is None else bets
        self._resolved: dict = {}  # state -> where it leads before the next throw (see resolve)
        self._after: dict = {}
        self._visits: dict = {}  # (made, moves) -> (placement, visits): see figures_of
        self._edges_at: dict = {}  # (bet, game state) -> the edge of a wager made there (edge_at)
        self.restart = self.settle({machine.start.target: ONE})

    def bet(self, name: str) -> CompiledBet:
        found = self.compiled.get(name)
        if found is None:
            if name not in self.machine.ruleset.bets:
                known = ", ".join(self.machine.ruleset.bets) or "none"
                raise BetError(f"{self.machine.ruleset.name} has no bet {name!r}"
                               f"{did_you_mean(name, self.machine.ruleset.bets)} (bets: {known})")
            raise LookupError(f"bet {name!r} was not compiled with the game")  # the caller's mistake
        return found

    def can_be_made(self, name: str) -> bool:
        return bool(self.bet(name).made)

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
        found = self._after.get(g)
        if found is None:
            state = self.states[g]
            if state.kind == END:
                found = self.restart
            elif state.kind == CHOICE:
                found = self.settle({g: ONE})
            else:
                found = {g: ONE}
            self._after[g] = found
        return found

    # ------------------------------------------------------------------ placing

    def placement(self, cb: CompiledBet) -> dict:
        """Where the game stands when the bet is first allowed (from the start of a game)."""
        made = cb.made
        if not made:
            raise BetError(f"bet {cb.name!r} can never be made: its made: condition never holds")
        rows: dict = {}
        start: dict = {}
        queue = []
        for g, p in self.restart.items():
            key = ("made", g) if g in made else g
            start[key] = start.get(key, ZERO) + p
            if g not in made:
                queue.append(g)
        seen = set(queue)
        while queue:
            g = queue.pop()
            row: dict = {}
            for target, p1 in self.solver.throw_rows[g].items():
                for g2, p2 in self.after(target).items():
                    key = ("made", g2) if g2 in made else g2
                    row[key] = row.get(key, ZERO) + p1 * p2
                    if key == g2 and g2 not in seen:
                        seen.add(g2)
                        queue.append(g2)
            rows[g] = row
        visits = Chain(rows).forward(start)
        return {key[1]: p for key, p in visits.items() if key.__class__ is tuple and p}

    # ------------------------------------------------------------------ the product chain

    def product(self, cb: CompiledBet, starts, stop=None) -> Chain:
        """Rows of the chain over (game state, bet state) from the given start nodes. A decision
        is an absorbing node, its (negative) code; so is ("stop", g, b) where `stop(g, b)` holds."""
        rows: dict = {}
        queue = list(starts)
        seen = set(queue)
        states, moves = self.states, cb.moves
        throw_dice = self.solver.throw_dice  # the throws that stand at each game state
        tables: dict = {}
        while queue:
            node = queue.pop()
            dice = throw_dice(node[0])
            weights, total = dice.weights, dice.total  # each throw's chance: weight / total (1/36 fair)
            chance = tables.get(id(dice))
            if chance is None:
                chance = tables[id(dice)] = throws_of(total) if dice.fair else _Chances(total)
            steps = states[node[0]].steps
            entries = moves[node]
            # Group the 36 throws by what they do: (state reached, bet code) -> how many throws
            certain: dict = {}
            weighted: dict = {}  # where the throw leads to a choice: P under the policy, per throw
            for k in range(len(weights)):
                w = weights[k]
                if not w:
                    continue
                entry = entries[k]
                target = steps[k].target
                if entry.__class__ is int:
                    key = (target, entry)
                    certain[key] = certain.get(key, 0) + w
                else:
                    for final, p in self.resolve(target).items():
                        key = (final, entry[final])
                        weighted[key] = weighted.get(key, ZERO) + p * w
            # Count throws in integers where the weight is a whole number of the 36 (most of
            # them): one Fraction per node of the row, not one per throw.
            counts: dict = {}
            weights_: dict = {}  # where a choice or a new game's start weights the throws
            moved = [(key, n, None) for key, n in certain.items()]
            moved += [(key, None, p / total) for key, p in weighted.items()]
            for (final, code), n, p in moved:
                if code < 0:  # decided
                    if n is None:
                        weights_[code] = weights_.get(code, ZERO) + p
                    else:
                        counts[code] = counts.get(code, 0) + n
                    continue
                for g2, p2 in self.after(final).items():
                    nxt = (g2, code)
                    if stop is not None and stop(g2, code):
                        nxt = ("stop", g2, code)
                    if n is not None and p2 is ONE:
                        counts[nxt] = counts.get(nxt, 0) + n
                    else:
                        weights_[nxt] = weights_.get(nxt, ZERO) + (chance[n] if p is None else p) * p2
                    if nxt not in seen and len(nxt) == 2:
                        seen.add(nxt)
                        queue.append(nxt)
            row = {key: chance[n] for key, n in counts.items()}
            for key, p in weights_.items():
                row[key] = row.get(key, ZERO) + p
            rows[node] = row
        self._never_decided(cb, rows)
        return Chain(rows)

    def never_decided(self, cb: CompiledBet, starts) -> None:
        """`product`'s refusal of a bet that is never decided, from the chain's shape alone: the
        same nodes, and the same steps between them, without their chances (`check` plays the
        bets out against the game; it does not solve them)."""
        rows: dict = {}
        queue = list(starts)
        seen = set(queue)
        states, moves = self.states, cb.moves
        throw_dice = self.solver.throw_dice
        while queue:
            node = queue.pop()
            weights = throw_dice(node[0]).weights
            steps = states[node[0]].steps
            entries = moves[node]
            moved: set = set()
            for k in range(len(weights)):
                if not weights[k]:
                    continue
                entry = entries[k]
                target = steps[k].target
                if entry.__class__ is int:
                    moved.add((target, entry))
                else:
                    moved.update((final, entry[final]) for final in self.resolve(target))
            row: dict = {}
            for final, code in moved:
                if code < 0:  # decided
                    row[code] = None
                    continue
                for g2 in self.after(final):
                    nxt = (g2, code)
                    row[nxt] = None
                    if nxt not in seen:
                        seen.add(nxt)
                        queue.append(nxt)
            rows[node] = row
        self._never_decided(cb, rows)

    def _never_decided(self, cb: CompiledBet, rows: dict) -> None:
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
            g, b = min(stuck)
            where = self.states[g].describe(self.machine)
            inner = f", the bet in its phase {cb.states[b].phase!r}" if len(cb.bet.phases) > 1 else ""
            raise RulesetError([Diagnostic(
                f"bet {cb.name!r} is never decided once the game is at {where}{inner}: no throw from there "
                f"on wins, loses or pushes it", cb.bet.position,
                hint="a bet must be decided sooner or later; add a rule that wins, loses or pushes it")])

    # ------------------------------------------------------------------ figures

    def up_front(self, cb: CompiledBet, placed_at: int) -> Fraction:
        """The commission paid up front per unit bet, made in game state `placed_at`."""
        paid = cb.commission_paid
        if paid is None:
            return ZERO
        if paid not in COMMISSION_PAID:
            raise BetError(f"bet {cb.name!r}: commission paid must be on_win or up_front, not {paid!r}")
        return cb.up_front(placed_at, ONE)

    def _on_win(self, cb: CompiledBet, code: int) -> Fraction:
        """The net of a decision per unit bet, less any commission taken from a win."""
        decision = cb.decisions[~code]
        if decision.result != "win":
            return decision.net
        return decision.net - cb.taken_from_win(ONE, decision.net)

    def figures(self, name: str) -> BetFigures:
        return self.figures_of(self.bet(name))

    def figures_of(self, cb: CompiledBet) -> BetFigures:
        """The figures of a bet compiled against this game (or against the same game under other
        values of options the game does not read). Bets whose tables move alike — the same
        states where they are made, the same moves — reach each decision with the same chance,
        whatever the decisions pay: that part is solved once (a commission or a payout that an
        option changes costs no new solve)."""
        name = cb.name
        key = (cb.made, moves_key(cb.moves))
        found = self._visits.get(key)
        if found is None:
            placed = self.placement(cb)
            start = {(g, 0): p for g, p in placed.items()}
            chain = self.product(cb, start)
            found = self._visits[key] = (placed, chain.forward(start))
        placed, visits = found
        win = lose = push = net = throws = ZERO
        labels: dict = {}
        win_pays: dict = {}
        for node, p in visits.items():
            if node.__class__ is not int:
                throws += p  # a (game, bet) node: each visit is a throw with the bet up
                continue
            decision = cb.decisions[~node]
            labels[decision.label] = labels.get(decision.label, ZERO) + p
            if decision.result == "win":
                win += p
                win_pays[decision.net] = win_pays.get(decision.net, ZERO) + p
            elif decision.result == "lose":
                lose += p
            else:
                push += p
            net += p * self._on_win(cb, node)
        up_front = sum((p * self.up_front(cb, g) for g, p in placed.items()), ZERO)
        pays = {}
        if cb.bet.pays is not None:
            for g in sorted(placed):
                value = cb.pays[g]
                if isinstance(value, RulesetError):  # a payout that needs the deciding throw (the field)
                    pays = {}
                    break
                pays[g] = value
        return BetFigures(name, win, lose, push, net - up_front, ONE + up_front, throws, labels, pays, win_pays,
                          self.made_per_game(cb))

    def edge_at(self, cb: CompiledBet, g: int) -> Fraction | None:
        """The edge against the backer of a wager made now, at game throw state `g` (None where
        the bet may not be made there): what `figures_of` gives from the first throw where it may
        be made, from where the game stands instead — a side bet on the caster once his chance is
        a six against a main of seven is worth more to him than one laid before the main."""
        if g not in cb.made:
            return None
        found = self._edges_at.get((cb.name, g))
        if found is None:
            start = {(g, 0): ONE}
            visits = self.product(cb, start).forward(start)
            net = sum((p * self._on_win(cb, node) for node, p in visits.items() if node.__class__ is int), ZERO)
            paid = self.up_front(cb, g)
            found = self._edges_at[(cb.name, g)] = -(net - paid) / (ONE + paid)
        return found

    def made_per_game(self, cb: CompiledBet) -> Fraction:
        """The chance that a game, from its start, reaches a throw at which the bet may be made
        (1 for a bet made any time; less for Cotton's stake, laid once the main is set)."""
        if cb.bet.made is None:
            return ONE
        return self._before_made(cb).get("made", ZERO)

    def unmade_endings(self, cb: CompiledBet) -> dict:
        """{label: chance per game} of the games that end before the bet may be made (the
        history sheet's no_main, a turn lost before any stake): what its edge leaves out."""
        if cb.bet.made is None:
            return {}
        return {key[1]: p for key, p in self._before_made(cb).items() if isinstance(key, tuple) and p}

    def _before_made(self, cb: CompiledBet) -> dict:
        """Where a game goes first from its start: "made" (a throw at which the bet may be
        made) or ("end", label), with their chances."""
        made = cb.made

        def key_of(final):
            state = self.states[final]
            return ("end", state.label) if state.kind == END else ("made" if final in made else final)

        rows: dict = {}
        queue = [g for g in self.restart if key_of(g) == g]
        seen = set(queue)
        while queue:
            g = queue.pop()
            row: dict = {}
            for target, p1 in self.solver.throw_rows[g].items():
                for final, p in self.resolve(target).items():
                    key = key_of(final)
                    row[key] = row.get(key, ZERO) + p1 * p
                    if key == final and final not in seen:
                        seen.add(final)
                        queue.append(final)
            rows[g] = row
        start: dict = {}
        for g, p in self.restart.items():
            key = key_of(g)
            start[key] = start.get(key, ZERO) + p
        if not rows:
            return start
        return {k: p for k, p in Chain(rows).forward(start).items() if not isinstance(k, int)}

    def unit_values(self, cb: CompiledBet, places) -> dict:
        """(expected net, expected stake) per unit bet, made in each game state of `places`."""
        starts = [(g, 0) for g in places]
        chain = self.product(cb, starts)
        values = chain.backward(lambda node: self._on_win(cb, node) if node.__class__ is int else ZERO)
        out = {}
        for g in places:
            up_front = self.up_front(cb, g)
            out[g] = (values[(g, 0)] - up_front, ONE + up_front)
        return out

    def combination(self, orders: list[tuple[str, str]]) -> Combination:
        """Bets made together (`pass=10`, `odds=3-4-5x`): the edge per unit of all money staked.

        A bet that `backs` another is made at the first moment it is allowed while the backed
        bet is up, for an amount given outright or as a multiple of the backed bet."""
        placed: dict = {}  # bet -> where in the game it was made: {game state: probability}
        fixed: dict = {}  # bet -> its amount, where that does not depend on the state
        staked = net = ZERO
        for name, amount_text in orders:
            cb = self.bet(name)
            backs = cb.bet.backs
            if backs is not None and backs in placed:
                backed = self.bet(backs)
                start = {(g, 0): p for g, p in placed[backs].items()}
                chain = self.product(backed, start, stop=lambda g, b: g in cb.made)
                places: dict = {}
                for node, p in chain.forward(start).items():
                    if node.__class__ is tuple and node[0] == "stop":
                        places[node[1]] = places.get(node[1], ZERO) + p
                values = self.unit_values(cb, list(places))
                for g, p in places.items():
                    amount = bet_amount(cb, amount_text, g, fixed.get(backs))
                    unit_net, unit_stake = values[g]
                    staked += p * amount * unit_stake
                    net += p * amount * unit_net
                placed[name] = places
                continue
            if backs is not None:  # as at the table: a bet that backs another needs it made first
                raise BetArgumentError(Arg("bets", name, amount_text), f"{name} backs {backs}; give ",
                                       Arg("bets", backs, "…"), " first")
            amount = bet_amount(cb, amount_text, None, None)
            figures = self.figures(name)
            staked += amount * figures.stake
            net += amount * figures.net
            placed[name] = self.placement(cb)
            fixed[name] = amount
        if not staked:
            raise BetError("no money is staked")
        return Combination(orders, staked, net)

    def fee(self, name: str, label_probabilities: dict, label_results: dict) -> FeeFigures:
        fee = self.machine.fees[name]
        # The fee's state moves once a game; games are independent, so this is a small chain
        # on the fee's own states with P(each label) as its transition probabilities.
        transitions: dict = {}
        queue = [fee.start]
        while queue:
            f = queue.pop()
            if f in transitions:
                continue
            out = []
            for label, p in label_probabilities.items():
                if not p:
                    continue
                f2, due = fee.at_game_end(f, label_results[label], label)
                out.append((f2, p, due))
                queue.append(f2)
            transitions[f] = out
        stationary = _stationary(transitions)
        due = sum((stationary[f] * p for f, out in transitions.items() for _, p, d in out if d), ZERO)
        spec = fee.fee
        return FeeFigures(name, spec.amount, due, spec.payer, spec.payee, spec.description)


def _stationary(transitions: dict) -> dict:
    """The long-run share of games in each state of a small chain (exact)."""
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
    return dict(zip(nodes, gauss(matrix)))


def moves_key(moves: dict) -> tuple:
    """A bet's moves as a hashable value (an entry that leads through a choice is a dict)."""
    key = []
    for node, row in sorted(moves.items()):
        try:
            hash(row)  # (in C: a row of codes alone, nearly every row, is its own key)
        except TypeError:
            row = tuple(e if e.__class__ is int else tuple(sorted(e.items())) for e in row)
        key.append((node, row))
    return tuple(key)


class _Chances(dict):
    """n -> Fraction(n, total), made when first asked: THROWS_OF_36 for loaded dice."""

    def __init__(self, total: int):
        super().__init__()
        self.total = total

    def __missing__(self, n: int) -> Fraction:
        found = self[n] = Fraction(n, self.total)
        return found


# what callers import from here, wherever it is defined now (solve.amounts)
__all__ = ["BetArgumentError", "BetError", "BetFigures", "BetTable", "Combination", "FeeFigures", "bet_amount",
           "moves_key", "parse_amount", "parse_money"]
