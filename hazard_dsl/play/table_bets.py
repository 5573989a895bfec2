"""The bets of the table besides the stake: made by the people sitting there, taken by another.

A bet's `backer` role makes it and its `layer` role takes it (model.Bet). At the table a seat
whose role plays either side may propose it — and then plays that side — and the other side is
taken by the bank (always), by the caster (who covers or refuses: at will, or only when short,
as `money: refuse:` says), or by another seat of the other role who accepts it: a side bet
between two people. A bet may be proposed before every throw where its `made:` condition holds
(a bet without one, "between each roll"), one at a time per seat; a bet that `backs:` another is
made only between the two parties of a live wager of the bet it backs (or of the stake laid on
it this game), and for at most that wager's amount times its largest multiple.

Money is never promised beyond a purse: what each seat could lose on the wagers and stakes it
has up is set aside (`committed`), and a bet is proposed, covered or accepted only out of the
rest. Every bet, acceptance, refusal and settlement is an event; the questions are play.actions'
`bet` (which bet, and how much; or `done`), `cover` (the caster) and `accept` (another player).
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.bets import most_paid_from, plays
from ..compile.machine import END
from ..diagnostics import RulesetError
from ..parse.numbers import exact_money as exact
from ..records import record
from .actions import Question

BANK = "bank"


def coin_floor(table, value: Fraction) -> Fraction:
    """`value` rounded down to a whole number of the table's smallest coin (`money: coins:`;
    without coins, a hundredth of the unit): a limit worked out from a purse at some odds
    (35 to 1) is an odd fraction, and nobody can put up 7 6670439/10504375d."""
    step = min((c.worth for c in table.coins), default=Fraction(1, 100))
    return (Fraction(value) // step) * step


@record
class Wager:
    """A bet up between two parties (a seat's name, or the bank)."""

    bet: object  # the CompiledBet
    maker: str
    backer: str
    layer: str
    amount: Fraction  # the backer's stake; a win pays him amount × the decision's net
    most: Fraction  # the largest net a win can pay from where it was made (most_paid_from)
    state: int = 0  # the bet's own state
    pays: str = ""  # what a win pays per unit backed, as said when it was made ("2 to 3")

    def to_json(self) -> dict:
        """The wager as the table shows it: the bet, who backs it and who lays it, the backer's
        stake, what each could lose on it (the layer: the stake times the most a win pays), and
        what a win pays the backer per unit."""
        return dict(bet=self.bet.bet.name, backer=self.backer, layer=self.layer, maker=self.maker,
                    amount=exact(self.amount), backer_risks=exact(self.amount),
                    layer_risks=exact(self.amount * self.most), pays=self.pays)


def pays_here(cb, state) -> str:
    """What a win pays per unit backed, made at `state`: "6 to 5"; or the rule file's words where
    the payout waits on the throw."""
    try:
        net = cb.payout_at(state.index)
    except RulesetError:  # a payout that needs the throw
        return cb.bet.pays_text or "as its rules say"
    return f"{net.numerator} to {net.denominator}" if isinstance(net, Fraction) else str(net)


def sides_of(bet, seat_role: str) -> list:
    """[(side, the other side's role)] that a seat in `seat_role` may play on `bet` when it
    proposes it: the backer's side, the layer's, or both where its role plays both and neither
    is the bank (a side bet between two at the table: source 004, "Both the caster and other
    players can also offer and accept other 'Side' bets from each other"), the backer's first."""
    sides = []
    if plays(bet.backer, seat_role) and bet.backer != BANK:
        sides.append(("backer", bet.layer))
    if plays(bet.layer, seat_role) and bet.layer != BANK:
        sides.append(("layer", bet.backer))
    return sides


def fits(role: str, seat: str, caster: str) -> bool:
    """Whether the seat named `seat` plays `role` while `caster` holds the box."""
    return plays(role, "caster" if seat == caster else "setter")


class TableBets:
    """The wagers up at a session's table, and the questions and events of making and deciding
    them. `session` is the play.session.Session they belong to; `names`, the bets offered."""

    def __init__(self, session, names):
        self.session = session
        machine = session.machine
        self.offered = [machine.bets[name] for name in names if name in machine.bets]
        self.up: list[Wager] = []
        self.refuse = machine.ruleset.table.refuse
        self._most: dict = {}  # most_paid_from by (bet, state): the same all session, and a walk of the bet's moves

    # ------------------------------------------------------------------ money set aside

    def liability(self, wager: Wager, party: str) -> Fraction:
        if party == wager.backer:
            return wager.amount
        return wager.amount * wager.most

    def committed(self, name: str, stakes=None) -> Fraction:
        """What `name` could lose on the wagers up and this game's stakes."""
        total = sum((self.liability(w, name) for w in self.up if name in (w.backer, w.layer)), Fraction(0))
        if stakes is not None and stakes.amounts:
            session = self.session
            caster = session.seats[session.caster].name
            per_unit = session.most_paid()
            for setter, amount in stakes.amounts.items():
                if session.against == "bank":
                    total += amount if setter == name else 0
                elif setter == name:
                    total += amount * per_unit
                elif name == caster:
                    total += amount
        return total

    def available(self, name: str, stakes=None) -> Fraction:
        return self.session.seat(name).purse - self.committed(name, stakes)

    def most_paid_from(self, cb, index: int) -> Fraction:
        key = (cb.bet.name, index)
        found = self._most.get(key)
        if found is None:
            found = self._most[key] = most_paid_from(cb, self.session.machine, index)
        return found

    # ------------------------------------------------------------------ making bets

    def offer(self, state, caster, stakes):
        """Before a throw at game state `state`: the table is asked, once, who bets what — the
        bets open to each seat, in turn from the caster — and again after each bet, until
        nobody bets (`done`): at a real table people speak up when they want to bet, and the
        dice roll when nobody does. A bet proposed once before this throw is not offered to
        the same seat again before it, taken or not."""
        open_now = [cb for cb in self.offered if state.index in cb.made]
        if not open_now:
            return
        session = self.session
        n = len(session.seats)
        proposed = set()
        while True:
            options = {}
            for k in range(n):
                name = session.seats[(session.caster + k) % n].name
                mine = [o for o in self.open_to(name, open_now, state, caster.name, stakes)
                        if (name, o[0]["bet"]) not in proposed]
                if mine:
                    options[name] = mine
            if not options:
                return
            action = yield Question("bet", None, dict(caster=caster.name, bets={
                name: [o[0] for o in mine] for name, mine in options.items()}))
            if action["action"] == "done":
                return
            name = action["player"]
            # an action without a side (every log before bets could be laid) takes the first
            # offered: the backer's where the seat may back it, as it always was
            facts, cb, takers = next(o for o in options[name] if o[0]["bet"] == action["bet"]
                                     and action.get("side", o[0]["side"]) == o[0]["side"])
            proposed.add((name, action["bet"]))
            yield from self.make(name, cb, facts["side"], Fraction(action["amount"]), takers, caster.name, stakes,
                                 state, cut=facts if action.get("cut") else None)

    def open_to(self, name: str, open_now, state, caster: str, stakes) -> list:
        """The bets `name` may propose now: (facts for the question, the bet, who may take it).
        A bet whose both sides `name`'s role plays (a side bet between any two at the table) is
        offered twice, to back it and to lay it, the backer's side first. The most offered is
        what the maker can put up and what somebody who would take it can cover (`why_most`
        says which binds); a bet nobody can cover at all is not offered."""
        options = []
        role = "caster" if name == caster else "setter"
        for cb in open_now:
            bet = cb.bet
            if any(w.bet is cb and name in (w.backer, w.layer) for w in self.up):
                continue  # one at a time
            for side, other in sides_of(bet, role):
                option = self._option(name, cb, side, other, state, caster, stakes)
                if option is not None:
                    options.append(option)
        return options

    def _option(self, name: str, cb, side: str, other: str, state, caster: str, stakes):
        bet = cb.bet
        most = None
        if bet.backs:
            takers, most = self._parties(name, bet.backs, stakes, cb, state)
        elif other == BANK:
            takers = [BANK]
        else:
            takers = [s.name for s in self._round_from(name) if fits(other, s.name, caster)]
        if not takers:
            return None
        # the amount is what the maker puts at risk: a backer's stake, or what a layer lays;
        # a backer also pays a commission taken up front out of what he has
        limit = self.available(name, stakes)
        if side == "backer" and cb.up_front(state.index, Fraction(1)):
            limit = coin_floor(self.session.machine.ruleset.table, limit / (1 + cb.up_front(state.index, Fraction(1))))
        why = "what the purse has free" if limit < self.session.seat(name).purse else "the purse"
        if most is not None and most < limit:
            limit, why = most, f"the {bet.backs} it backs"
        cover = self.coverable(cb, side, takers, state, stakes)
        covered = cover is not None and cover < limit
        if covered:
            limit, why = cover, f"the most anyone who would take it can cover at {pays_here(cb, state)}"
        if limit <= 0:
            return None
        against = BANK if takers == [BANK] else (takers[0] if len(takers) == 1 else other)
        facts = dict(bet=bet.name, side=side, against=against, least="0", most=exact(limit),
                     pays=pays_here(cb, state), takers=list(takers), why_most=why)
        if covered:  # the takers' purses bind, not the maker's
            facts["covered"] = True
        return facts, cb, takers

    def coverable(self, cb, side: str, takers: list, state, stakes) -> Fraction | None:
        """The most a maker on `side` may put up that one of `takers` can cover out of what his
        purse has free (None: the bank takes it, and covers anything). A backer's stake s costs
        its layer s times the most a win pays; a layer who lays L backs a stake of L / that,
        which its backer puts up with any commission up front."""
        if BANK in takers:
            return None
        most = self.most_paid_from(cb, state.index)
        free = max(self.available(taker, stakes) for taker in takers)
        if side == "backer":
            return coin_floor(self.session.machine.ruleset.table, free / most)
        return coin_floor(self.session.machine.ruleset.table, free * most / (1 + cb.up_front(state.index, Fraction(1))))

    def _round_from(self, name: str):
        """The other seats, in turn from `name`'s left."""
        seats = self.session.seats
        k = next(i for i, s in enumerate(seats) if s.name == name)
        return [seats[(k + j) % len(seats)] for j in range(1, len(seats))]

    def _parties(self, name: str, backs: str, stakes, cb, state):
        """For a bet that backs `backs`: who may take it from `name` (the other party of each
        wager of `backs` he is party to) and for how much at most (the largest such wager times
        the bet's largest multiple, or once)."""
        session = self.session
        caster = session.seats[session.caster].name
        pairs = [(w.layer if w.backer == name else w.backer, w.amount) for w in self.up
                 if w.bet.bet.name == backs and name in (w.backer, w.layer)]
        if stakes is not None and session.machine.ruleset.table.stake == backs:
            for setter, amount in stakes.amounts.items():
                if name == caster:
                    pairs.append((BANK if session.against == "bank" else setter, amount))
                elif name == setter:
                    pairs.append((BANK if session.against == "bank" else caster, amount))
        if not pairs:
            return [], Fraction(0)
        factor = max((cb.multiple(m, state.index) for m in cb.bet.multiples), default=Fraction(1))
        return [p for p, _ in pairs], max(a for _, a in pairs) * factor

    def make(self, name: str, cb, side: str, amount: Fraction, takers: list, caster: str, stakes, state,
             cut=None):
        """`name` proposes `cb`, putting `amount` at risk on `side` (a backer's stake; or, laid,
        what a win of the backer's would cost him: the backer's stake is that at the odds):
        taken by the bank, covered or refused by the caster, or accepted by the first of the
        other players who will. `cut`: the offer's facts when a planned amount was cut to the
        most offered, so that the bet says why (`cut` in its event)."""
        bet = cb.bet.name
        most = self.most_paid_from(cb, state.index)
        stake = amount if side == "backer" else amount / most  # the backer's stake
        commission = cb.up_front(state.index, stake)
        need = stake * most if side == "backer" else stake + commission  # what the taker could lose
        said = dict(bet=bet, who=name, amount=exact(amount), side=side)
        pays = pays_here(cb, state)
        short = [taker for taker in takers if taker != BANK and self.available(taker, stakes) < need]
        if short and len(short) == len(takers):  # nobody who would take it can cover it: say why
            free = max(self.available(taker, stakes) for taker in short)
            cover = coin_floor(self.session.machine.ruleset.table, free / most if side == "backer"
                               else free * most / (1 + cb.up_front(state.index, Fraction(1))))
            whose = f"{short[0]}'s purse" if len(short) == 1 else "nobody's purse"
            doesnt = "does not cover" if len(short) == 1 else "covers"
            yield dict(event="refuse", against=short[0] if len(short) == 1 else "nobody",
                       why=f"{whose} {doesnt} {pays} on {exact(stake)}", most=exact(max(cover, Fraction(0))),
                       pays=pays, stake=exact(stake), **said)
            return
        for taker in takers:
            if taker in short:
                continue
            if taker == BANK:
                taken = True
            elif taker == caster and len(takers) == 1:
                taken = self.refuse == "when_short" or (yield Question("cover", taker, dict(
                    setter=name, amount=exact(amount), purse=exact(self.session.seat(taker).purse),
                    answered=exact(self.committed(taker, stakes)), bet=bet, side=side,
                    pays=pays, puts_up=exact(need))))["action"] == "cover"
                if not taken:
                    yield dict(event="refuse", against=taker, why=f"{taker} declines it", declined=True, **said)
                    return
            else:
                # `puts_up`: what the taker puts at risk if he accepts (a layer: the backer's
                # stake times the most a win pays; a backer: the stake the amount laid stands for)
                answer = yield Question("accept", taker, dict(maker=name, amount=exact(amount), bet=bet, side=side,
                                                              pays=pays, puts_up=exact(need)))
                taken = answer["action"] == "accept"
                if not taken:
                    continue
            backer, layer = (name, taker) if side == "backer" else (taker, name)
            self.up.append(Wager(cb, name, backer, layer, stake, most, pays=pays))
            if cut is not None:  # why the amount planned was not put up whole
                said["cut"] = (f"all {taker}'s purse covers at {pays}" if cut.get("covered") and taker != BANK
                               else f"cut to {cut['why_most']}")
            yield dict(event="bet", against=taker, stake=exact(stake), **said)
            if commission:  # paid as the bet is made, whatever comes of it
                yield self.session.transfer(backer, layer, commission, "commission", bet=bet, stake=exact(stake))
            return
        yield dict(event="refuse", against="nobody", why="nobody takes it", **said)

    # ------------------------------------------------------------------ deciding bets

    def decide(self, state, outcome: int, final):
        """After a throw from `state` (OUTCOMES[outcome]) that left the game at `final`: each
        wager up moves, and those decided are settled."""
        session = self.session
        still = []
        for w in self.up:
            code = w.bet.move(state.index, w.state, outcome, final.index)
            if code >= 0:
                w.state = code
                still.append(w)
                continue
            decision = w.bet.decisions[~code]
            said = final.label if final.kind == END and not w.bet.bet.own_game else decision.label
            if decision.result == "win":
                won = w.amount * decision.net
                won -= w.bet.taken_from_win(w.amount, won)
                if won > 0:
                    yield session.transfer(w.layer, w.backer, won, said, bet=w.bet.bet.name, stake=exact(w.amount))
            elif decision.result == "lose":
                yield session.transfer(w.backer, w.layer, w.amount, said, bet=w.bet.bet.name, stake=exact(w.amount))
        self.up = still
