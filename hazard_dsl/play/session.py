"""A session at the table: players with purses, the box passing, stakes laid, covered and settled.

The engine is a generator (`Session.run`) of events (plain dicts, ready for JSON), driven by the
compiled machine and its tables: the game's states, the stake bet's table (`money: stake`), the
passing table and the fees. Everything a person decides — what a setter stakes, whether the
caster covers it, whether he keeps the dice after a win, what he calls where the rules let him
choose, the throw itself — it yields as a question (play.actions.Question) and is sent the
action that answers it. It knows nothing of terminals: play.table.Table holds it between
actions, and `run` (strategies), `play` (people at a keyboard), `replay` (a log) and a web table
are drivers of that.

Money is exact and conserved: every settlement moves an amount from one purse (or the bank, or
to the box) to another; no purse goes below zero, because a setter stakes at most his purse and
the caster answers only what he can cover.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterator

from ..compile.bets import most_paid
from ..compile.machine import CHOICE, END, Machine, index_of
from ..compile.passing import compile_passing
from ..errors import Arg, ArgumentError
from ..parse.numbers import exact_money as exact
from ..records import field, record
from .actions import Question
from .casting import Need, casting, meet
from .dice import TapeEnded
from .table_bets import TableBets

MAX_SESSION_GAMES = 100_000  # a session ends here whatever else happens: nothing runs for ever


class DiceBehind(Exception):
    """The table's dice (a tape) ran out while following a log's throws (Session.follow_dice)."""


@record
class Seat:
    name: str
    purse: Fraction


@record
class _Stakes:
    state: int  # the stake bet's state in its table (0 with no bet: even money on the game)
    amounts: dict = field(default_factory=dict)  # seat name -> amount staked


class Session:
    def __init__(self, machine: Machine, players: list[str], purse: Fraction, dice, rounds: int | None = None,
                 games: int | None = None, bets=()):
        if len(players) < (1 if machine.ruleset.table.against == "bank" else 2):
            raise ArgumentError(Arg("players"), "needs two players or more where the setters stake against the "
                                                "caster, such as ", Arg("players", value=["Ann", "Ben"]))
        if rounds is not None and (machine.passing is None or not machine.passing.ever_passes):
            raise ValueError(f"{machine.ruleset.name}: the dice never pass (no passing: rule that can apply), so a "
                             f"round of the table never ends; add passing: to the rule file")
        self.machine = machine
        self.seats = [Seat(name, Fraction(purse)) for name in players]
        self.dice = dice
        self.rounds = rounds
        self.max_games = min(games or MAX_SESSION_GAMES, MAX_SESSION_GAMES)
        table = machine.ruleset.table
        self.against = table.against
        self.when_short = table.when_short
        self.bet = machine.bets.get(table.stake) if table.stake else None
        # a game that ends only in pushes (a layout's one throw: sic bo) settles nothing, so no
        # stake is laid on it; the layout's bets carry the money
        self.staked = self.bet is not None or any(s.result != "push" for s in machine.end_states())
        # machines from compile_ruleset always carry their passing table; one explored for a check
        # may not, and then the dice never pass
        self.passing = machine.passing or compile_passing(
            None, sorted({(s.result, s.label) for s in machine.end_states()}), machine.options)
        # the bets the people may make besides the stake (play.table_bets), of those compiled
        self.table_bets = TableBets(self, [name for name in bets if name != table.stake])
        self.fees = list(machine.fees.values())
        self.fee_states = {f.fee.name: f.start for f in self.fees}
        self.caster = 0  # index of the seat holding the box
        self.passes = 0
        self.game = 0
        # where the game stands: the machine's state the next throw or choice is made from (an
        # end state once a game is over; None before the first): what a front end's `odds` and
        # a resumed session's recap read
        self.state = None
        self.game_caster = None  # the name of who casts game number `game` (or cast it, once over)
        self.throws = 0
        # the passing's count of the caster's losses in a row (0 where losses alone never pass)
        self.losses = self.passing.start
        # this game's stakes once laid (None before, and once the game is over): the wagers up
        # that `open_wagers` tells beside the other bets'
        self.stakes = None
        self.bank = Fraction(0)  # what the bank has won (a bank table)
        self.box = Fraction(0)  # fees paid to the box
        self.unit = machine.ruleset.money_unit
        # while a log is replayed to resume it, the table's own dice throw beside every logged
        # throw, so that they go on after it as they would have had the session not stopped
        self.follow_dice = False
        # the first caster by lot (`passing: first:`): the round of throws under way, None when none is
        self.lot_round = None
        self.by_lot = self.passing.by_lot and len(self.seats) > 1
        if self.by_lot and sum(1 for p in machine.dice.faces(1) if p) < 2:
            raise ValueError(f"{machine.ruleset.name}: the die thrown for the first cast shows only one face, so "
                             f"the players would tie for ever; give passing: first: seat_order")

    # ------------------------------------------------------------------ helpers

    def seat(self, name: str) -> Seat:
        return next(s for s in self.seats if s.name == name)

    @property
    def round(self) -> int:
        """The round of the table the box is in: 1 until every player has held it once, and so on."""
        return self.passes // len(self.seats) + 1

    def purses(self) -> dict:
        return {s.name: exact(s.purse) for s in self.seats}

    def most_paid(self) -> Fraction:
        """The most a unit staked on the caster can win: what a setter must answer per unit."""
        return Fraction(1) if self.bet is None else most_paid(self.bet)

    def open_wagers(self) -> list[dict]:
        """The wagers up now, plain JSON, in the order they were made: this game's stakes, then
        the other bets (play.table_bets.Wager.to_json). Each names the `bet` (the stake is
        `stake`, or the rules' stake bet), its `backer` and `layer` (a seat, or the bank), the
        backer's `amount`, what each could lose on it (`backer_risks`, `layer_risks`: the stake
        times the most a win pays) and `pays`, what a win pays the backer per unit."""
        wagers = []
        stakes = self.stakes
        if stakes is not None and stakes.amounts:
            caster = self.seats[self.caster].name
            per_unit = self.most_paid()
            pays = f"{per_unit.numerator} to {per_unit.denominator}"  # the most a stake's win pays
            name = self.bet.bet.name if self.bet is not None else "stake"
            for setter, amount in stakes.amounts.items():
                if self.against == "bank":  # each player's stake on the caster, with the bank
                    wagers.append(dict(bet=name, backer=setter, layer="bank", maker=setter, amount=exact(amount),
                                       backer_risks=exact(amount), layer_risks=exact(amount * per_unit), pays=pays))
                else:  # the caster backs his cast against each setter's stake
                    wagers.append(dict(bet=name, backer=caster, layer=setter, maker=setter, amount=exact(amount),
                                       backer_risks=exact(amount), layer_risks=exact(amount * per_unit), pays=pays))
        return wagers + [w.to_json() for w in self.table_bets.up]

    def transfer(self, payer: str, payee: str, amount: Fraction, why: str, **more) -> dict:
        for name, sign in ((payer, -1), (payee, 1)):
            if name == "bank":
                self.bank += sign * amount
            elif name == "box":
                self.box += sign * amount
            else:
                self.seat(name).purse += sign * amount
        return dict(event="settle", payer=payer, payee=payee, amount=exact(amount), why=why, **more)

    # ------------------------------------------------------------------ the session

    def run(self):
        """The session as a generator: yields each event (a dict, naming the caster at that
        moment) and each `Question` the table waits on, to which the action answering it (checked
        by play.actions.check) is sent back. play.table.Table drives it."""
        run = self._events()
        answer = None
        while True:
            try:
                item = run.send(answer)
            except StopIteration:
                return
            if isinstance(item, Question):
                answer = yield item
            else:
                answer = None
                item.setdefault("caster", self.seats[self.caster].name)
                yield item

    def _events(self) -> Iterator[dict]:
        ruleset = self.machine.ruleset
        yield dict(event="session", ruleset=ruleset.name, rules=ruleset.rules_digest, options=dict(self.machine.options),
                   players=[s.name for s in self.seats], purses=self.purses(), unit=self.unit,
                   against=self.against, passing=self.passing.says(),
                   **({"caster": None} if self.by_lot else {}))  # nobody holds the box until the lot
        ended = "the games ran out"
        self.losses = self.passing.start
        try:
            yield from self._first_caster()
            yield self._hand_event()
        except TapeEnded:
            ended, self.max_games = "the dice tape ran out", 0  # during the lot: no game is played
        idle = 0  # passes in a row without a game (forfeits, empty purses)
        while self.game < self.max_games:
            if idle > len(self.seats):
                ended = "no caster could answer the stakes"
                break
            if self.rounds is not None and self.passes >= self.rounds * len(self.seats):
                ended = f"{self.rounds} round{'s' * (self.rounds != 1)} of the table"
                break
            able = [s for s in self.seats if s.purse > 0]
            if len(able) < (1 if self.against == "bank" else 2):
                ended = "too few players with money left"
                break
            caster = self.seats[self.caster]
            if caster.purse <= 0 and self.against != "bank":
                yield from self._pass("the caster has nothing left to answer stakes")
                self.losses = self.passing.start
                idle += 1
                continue
            self.game += 1
            try:
                outcome = yield from self._game(caster)
            except TapeEnded:
                ended = "the dice tape ran out"
                break
            if outcome == "forfeit":
                yield from self._pass("hard play: the caster could not match every stake and forfeits the dice")
                self.losses = self.passing.start
                idle += 1
                continue
            idle = 0
            result, label = outcome
            yield from self._fees(caster, result, label)
            self.losses, passes = self.passing.after_game(self.losses, result, label)
            if passes:
                if label in self.passing.after_labels:
                    why = f"the game ended {label}"
                else:
                    n = self.passing.losses_in_a_row
                    # the player by name: a person at the table is not "he" unless the rules say so
                    why = f"{caster.name} lost" if n == 1 else f"{caster.name} lost {n} games in a row"
                yield from self._pass(why)
                self.losses = self.passing.start
            elif result == "win" and self.passing.voluntary_after_win:
                action = yield Question("keep", caster.name)
                if action["action"] == "pass":
                    yield from self._pass(f"{caster.name} chooses to pass the dice after a win", voluntary=True)
                    self.losses = self.passing.start
        yield dict(event="end", why=ended, games=self.game, throws=self.throws, purses=self.purses(),
                   bank=exact(self.bank), box=exact(self.box))

    def _first_caster(self) -> Iterator:
        """Who casts first, where the rules cast lots for it (`passing: first: lowest_die` or
        `highest_die`): each player in seat order throws one die (a `throw` question with `cast`
        "lot"; a `lot` event), those tied for the lowest (highest) throw again, in seat order,
        until one is alone; he takes the box (a `first` event), and it goes round the table from
        him. With seat order (or one player) the first player named casts, and nothing is asked."""
        if not self.by_lot:
            return
        lowest = self.passing.first == "lowest_die"
        throwing = list(range(len(self.seats)))
        round_ = 0
        while True:
            round_ += 1
            self.lot_round = round_
            faces = {}
            for k in throwing:
                name = self.seats[k].name
                action = yield Question("throw", name, dict(cast="lot", round=round_, first=self.passing.first,
                                                            may_land_off=False))
                faces[k] = self._lot_face(action)
                yield dict(event="lot", player=name, face=faces[k], round=round_, caster=None)
            best = min(faces.values()) if lowest else max(faces.values())
            throwing = [k for k in throwing if faces[k] == best]
            if len(throwing) == 1:
                break
        self.caster, self.lot_round = throwing[0], None
        yield dict(event="first", caster=self.seats[self.caster].name, face=best, rounds=round_,
                   why=f"the {'lowest' if lowest else 'highest'} die")

    def _lot_face(self, action: dict):
        """The face of one die thrown for the first cast: the table's dice, or the action's."""
        given = action.get("dice")
        thrown = self._dice(given, self.dice.lot, "the throws for the first cast")
        return thrown if given is None else given[0]

    def _dice(self, given, throw, what: str):
        """What the table's dice throw (`throw()`) where the action gives no dice (`given` None);
        else `given`, as the action gives them. While a log is replayed to resume it
        (`follow_dice`) the table's dice throw beside the given ones, so that they go on where the
        log left them."""
        if given is None:
            return throw()
        if self.follow_dice:
            try:
                throw()
            except TapeEnded:
                raise DiceBehind(f"the dice have fewer throws than the log has made ({what})") from None
        return given

    def _hand_event(self) -> dict:
        return dict(event="hand", caster=self.seats[self.caster].name, hand=self.passes + 1,
                    purse=exact(self.seats[self.caster].purse))

    def _pass(self, why: str, voluntary: bool = False) -> Iterator[dict]:
        before = self.seats[self.caster].name
        self.caster = (self.caster + 1) % len(self.seats)
        self.passes += 1
        event = dict(event="pass", caster=before, to=self.seats[self.caster].name, why=why)
        if voluntary:
            event["voluntary"] = True
        yield event
        if self.rounds is None or self.passes < self.rounds * len(self.seats):
            yield self._hand_event()

    def _lay(self, caster: Seat, state_index: int) -> Iterator[dict]:
        """The stakes of this game, laid when the stake bet may be made: each other player in turn
        from the caster's left puts down his stake; the caster covers or refuses it. Returns the
        stakes, or "forfeit" (hard play, a stake he cannot match)."""
        stakes = self.stakes = _Stakes(0)  # up as each is laid: a stop between them shows those laid
        per_unit = self.most_paid()
        answered = Fraction(0)
        n = len(self.seats)
        others = [self.seats[(self.caster + k) % n] for k in range(1, n)]
        backers = [caster] + others if self.against == "bank" else others
        for setter in backers:
            if setter.purse <= 0:
                continue
            # a setter lays the stake times the payout: he stakes no more than his purse can pay
            free = self.table_bets.available(setter.name)  # the purse, less what bets up could cost
            limit = free if self.against == "bank" else free / per_unit
            why = "the purse" if per_unit == 1 or self.against == "bank" else \
                f"what the purse can pay at {exact(per_unit)} to 1"
            if free < setter.purse:
                why += ", less what the bets up could cost"
            action = yield Question("stake", setter.name, dict(
                caster=caster.name, layer="bank" if self.against == "bank" else "caster", purse=exact(setter.purse),
                least="0", most=exact(limit), why_most=why))
            amount = Fraction(action["amount"])
            if amount <= 0:
                continue
            if self.against == "bank":
                stakes.amounts[setter.name] = amount
                yield dict(event="stake", player=setter.name, caster=caster.name, amount=exact(amount), layer="bank")
                continue
            need = answered + amount  # what the caster pays if he loses every stake
            if need > self.table_bets.available(caster.name):
                if self.when_short == "forfeit":
                    yield dict(event="refuse", player=setter.name, caster=caster.name, amount=exact(amount),
                               why=f"{caster.name} cannot match it ({exact(caster.purse)} in the purse)")
                    return "forfeit"
                yield dict(event="refuse", player=setter.name, caster=caster.name, amount=exact(amount),
                           why=f"{caster.name} cannot cover it ({exact(caster.purse)} in the purse)")
                continue
            action = yield Question("cover", caster.name, dict(setter=setter.name, amount=exact(amount),
                                                              purse=exact(caster.purse), answered=exact(answered)))
            if action["action"] == "refuse":
                yield dict(event="refuse", player=setter.name, caster=caster.name, amount=exact(amount),
                           why=f"{caster.name} declines it", declined=True)
                continue
            answered = need
            stakes.amounts[setter.name] = amount
            yield dict(event="stake", player=setter.name, caster=caster.name, amount=exact(amount), layer="caster")
        return stakes

    def _settle(self, caster: Seat, stakes: _Stakes, result: str, net: Fraction, label: str) -> Iterator[dict]:
        """Each stake decided: the backer (the caster, or with a bank each player on the caster)
        wins the stake times the payout from the layer (a setter, or the bank), or pays it."""
        for name, amount in stakes.amounts.items():
            if result == "push":
                continue
            backer, layer = (name, "bank") if self.against == "bank" else (caster.name, name)
            if result == "win":
                yield self.transfer(layer, backer, amount * net, label, stake=exact(amount))
            else:
                yield self.transfer(backer, layer, amount, label, stake=exact(amount))

    def _game(self, caster: Seat):
        machine = self.machine
        states = machine.states
        state = self.state = states[machine.start.target]
        self.game_caster = caster.name
        yield dict(event="game", game=self.game, caster=caster.name)
        stakes = self.stakes = None
        number = 0
        while True:
            state = yield from self._choices(state, caster)
            if state.kind == END:
                break
            if stakes is None and self.staked and (self.bet is None or state.index in self.bet.made):
                stakes = yield from self._lay(caster, state.index)
                if stakes == "forfeit":
                    self.stakes = None  # the caster forfeits the dice: no stake of this game stands
                    return "forfeit"
            yield from self.table_bets.offer(state, caster, stakes)
            thrown = yield from self._cast(state, caster)
            outcome = index_of(thrown, self.machine.dice.sides)
            number += 1
            self.throws += 1
            step = state.steps[outcome]
            self.state = states[step.target]
            yield dict(event="throw", game=self.game, throw=number, caster=caster.name, dice=list(thrown),
                       phase=state.phase, state=state.index, to=step.target)
            # the bet is decided against where the throw, and any choice it leads to, leave the game
            final = yield from self._choices(states[step.target], caster)
            if stakes is not None and self.bet is not None and stakes.amounts:
                code = self.bet.move(state.index, stakes.state, outcome, final.index)
                if code < 0:
                    decision = self.bet.decisions[~code]
                    said = final.label if final.kind == END else decision.label  # the game's word for it
                    yield from self._settle(caster, stakes, decision.result, decision.net, said)
                    stakes.amounts = {}
                else:
                    stakes.state = code
            yield from self.table_bets.decide(state, outcome, final)
            state = final
        result, label = state.result, state.label
        self.stakes = None  # decided, or void: none is up once the game is over
        yield dict(event="result", game=self.game, caster=caster.name, result=result, label=label,
                   state=state.index)
        if stakes is not None and stakes.amounts:
            if self.bet is None:  # even money on the game
                yield from self._settle(caster, stakes, result, Fraction(1), label)
            # a stake bet still up when the game ends comes back to its owners: it is void
        return result, label

    def _cast(self, state, caster: Seat):
        """The throw that stands, with each cast and recast as an event where dice land off; each
        cast is the caster's throw (an action: the table's dice, or the dice it gives), each pick
        of what is recast a choice."""
        casts = casting(self.machine, state)
        answer = None
        while True:
            try:
                item = casts.send(answer)
            except StopIteration as done:
                return done.value
            answer = None
            if isinstance(item, Need):
                answer = yield from self._need(item, caster)
            elif "cast" in item:
                yield dict(event="cast", game=self.game, caster=caster.name, **item)
            else:  # what is thrown again: the off die alone or both (the chooser's pick, or the rules')
                value = item.pop("recast")
                yield dict(event="recast", game=self.game, caster=caster.name, value=value, **item)

    def _need(self, need: Need, caster: Seat):
        """A cast's dice, from the caster's throw; or a recast's pick, from its chooser (unless the
        table's dice, a tape, script it)."""
        if need.what == "choose":
            scripted = self.dice.recast(need.node) if hasattr(self.dice, "recast") else None
            if scripted is not None:
                return scripted
            return (yield from self._ask_choice(need.node, caster))
        facts = dict(cast="die" if need.what == "cast_die" else "both", die=need.die,
                     may_land_off=need.what != "throw")
        if (self.machine.dice.count, self.machine.dice.sides) != (2, 6):  # (said only where not two six-sided)
            facts.update(count=self.machine.dice.count, sides=self.machine.dice.sides)
        if need.what == "cast_dice":  # some dice recast together, the others kept: which (every die answered)
            facts["thrown"] = list(need.dice)
        # a die recast alone: its recast state goes with the question, for the chance from there
        action = yield Question("throw", caster.name, facts, need.node)
        given = action.get("dice")
        thrown = self._dice(given, lambda: meet(need, self.dice, None, self.machine), f"game {self.game}")
        if given is None:
            return thrown
        return given[0] if need.what == "cast_die" else tuple(given)  # a face of None: that die off again

    def _ask_choice(self, state, caster: Seat):
        """The index of the alternative of choice state `state` that its chooser picks."""
        values = [value for value, _ in state.alternatives]
        facts = dict(role=state.chooser, variable=state.variable, values=values, state=state.index)
        if state.variable == "recast" and state.die is not None:
            facts.update(die=state.die, shown=state.shown)
        if state.variable == "recast" and state.dice and (len(state.dice) > 1 or len(state.kept) - len(state.dice) > 1):
            # more dice than one off or kept: every die's face (None off), as the recast events say it
            facts.update(kept=[None if d in state.dice else f for d, f in enumerate(state.kept, 1)])
        action = yield Question("choose", self._chooser_name(state.chooser, caster), facts, state)
        return values.index(action["value"])

    def _chooser_name(self, role: str | None, caster: Seat) -> str | None:
        """The seat that makes a choice of `role`: the caster (or, at craps, the player) himself;
        a setter or fader, the first player to the caster's left; the bank, nobody at the table."""
        if role in ("caster", "player") or role is None:
            return caster.name
        if role in ("setter", "fader") and len(self.seats) > 1:
            return self.seats[(self.caster + 1) % len(self.seats)].name
        return None

    def _choices(self, state, caster: Seat):
        """The choices from `state` on, each asked of its chooser, until the game needs the dice
        or is over; returns that state."""
        states = self.machine.states
        while state.kind == CHOICE:
            self.state = state
            value, step = state.alternatives[(yield from self._ask_choice(state, caster))]
            self.state = states[step.target]
            yield dict(event="choice", game=self.game, caster=caster.name, chooser=state.chooser,
                       variable=state.variable, value=value, state=state.index, to=step.target)
            state = states[step.target]
        return state

    def _fees(self, caster: Seat, result: str, label: str) -> Iterator[dict]:
        for compiled in self.fees:
            fee = compiled.fee
            self.fee_states[fee.name], due = compiled.at_game_end(self.fee_states[fee.name], result, label)
            if due:
                # a purse never goes below nothing, nor below what the bets it has up could cost
                amount = max(Fraction(0), min(fee.amount, self.table_bets.available(caster.name)))
                if amount:
                    yield self.transfer(caster.name, "box", amount, f"fee {fee.name}", fee=fee.name)
