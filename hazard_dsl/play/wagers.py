"""Money at the table while games are played: bets made, decided, paid or taken; fees; a bankroll.

Every bet is moved by its compiled table (`compile.bets.CompiledBet`), the same table the exact
analysis reads, and every fee by its own (`CompiledFee`). Amounts are exact
`Fraction`s. An order (`place_6=12`) stands: the bet is made whenever it is allowed and
not already up, and made again after it is decided; `field=5@3` makes it once, before
throw 3 of the run, and is refused if the bet is not allowed then.
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.bets import CompiledBet
from ..compile.machine import END, Machine, State, index_of
from ..diagnostics import did_you_mean
from ..errors import Arg, ArgumentError
from ..parse.numbers import exact_money, whole_number
from ..records import record
from ..solve.bets import BetError, parse_amount


class OrderError(BetError, ArgumentError):
    """A bet ordered (the `bets` argument: `Arg('bets', name, amount)`) that cannot be made as
    given; a BetError that names its argument, so that each front end words it."""


@record
class Order:
    bet: str
    amount: str  # "10", "12.50", "2x", "3-4-5x"
    at_throw: int | None = None  # one bet before this throw of the run, or a standing order
    done: bool = False

    @classmethod
    def parse(cls, text: str) -> "Order":
        name, sep, amount = text.partition("=")
        amount, at, when = amount.partition("@")
        if not sep or not name.strip() or not amount.strip():
            raise OrderError(Arg("bets"), f"takes NAME=AMOUNT or NAME=AMOUNT@THROW, not {text!r}")
        at_throw = None
        if at:
            at_throw = whole_number(when, 9)  # ASCII digits: "²".isdigit() is true, and int("²") fails
            if at_throw is None or at_throw < 1:
                raise OrderError(_order_arg(text), "@THROW must be a throw number, 1 or more")
        return cls(name.strip(), amount.strip(), at_throw)

    @classmethod
    def parse_for_analysis(cls, text: str) -> "Order":
        """The same syntax for `analyse`, where a bet made once before a given throw means
        nothing: NAME=AMOUNT only."""
        order = cls.parse(text)
        if order.at_throw is not None:
            raise OrderError(_order_arg(text), "@THROW (make the bet once, before that throw) is for run; analyse "
                                               "takes NAME=AMOUNT")
        return order

    @property
    def arg(self) -> Arg:
        """The order as the `bets` argument names it: the bet and its amount as given."""
        return Arg("bets", self.bet, self.amount if self.at_throw is None else f"{self.amount}@{self.at_throw}")


def _order_arg(text: str) -> Arg:
    """An order's text (NAME=AMOUNT[@THROW]) as the `bets` argument names it."""
    name, _, amount = text.partition("=")
    return Arg("bets", name.strip(), amount.strip())


@record
class Wager:
    order: Order
    bet: CompiledBet
    amount: Fraction
    staked: Fraction  # amount plus any commission paid up front
    state: int  # the bet's state, a number in its compiled table


def money(value: Fraction) -> str:
    """Exact money for people in the file's unit: 12, 12.50, or 1 7/8 where no decimal is exact
    (money.number: never an improper fraction)."""
    from ..money import number

    return number(value, 2)


class Wagers:
    def __init__(self, machine: Machine, orders: list[Order], bankroll: Fraction | None):
        self.machine = machine
        self.orders = orders
        self.bankroll = bankroll
        self.net = Fraction(0)
        self.up: list[Wager] = []
        self.throws = 0
        self.machines: dict = {}
        ruleset = machine.ruleset
        for order in orders:
            if order.bet not in ruleset.bets:
                known = ", ".join(ruleset.bets) or "none"
                raise OrderError(Arg("bets", order.bet), f": {ruleset.name} has no such bet"
                                 f"{did_you_mean(order.bet, ruleset.bets)} (bets: {known})")
            cb = machine.bets.get(order.bet)
            if cb is None:
                raise LookupError(f"bet {order.bet!r} was not compiled with the game")  # the caller's mistake
            self.machines[order.bet] = cb
            parse_amount(ruleset.bets[order.bet], order.amount)  # a bad amount is refused before any throw
            if not cb.made:
                raise OrderError(Arg("bets", order.bet), f"bet {order.bet!r} can never be made: its made: "
                                 f"condition never holds in this game (options: "
                                 f"{', '.join(f'{k}={v}' for k, v in machine.options.items()) or 'none'})")
        self.fees = list(machine.fees.values())
        self.fee_states = {fee.fee.name: fee.start for fee in self.fees}
        self._refused: set = set()

    # ------------------------------------------------------------------ events

    def _event(self, **fields) -> dict:
        if self.bankroll is not None:
            fields["bankroll"] = exact_money(self.bankroll)
        return fields

    def _move(self, amount: Fraction) -> None:
        self.net += amount
        if self.bankroll is not None:
            self.bankroll += amount

    # ------------------------------------------------------------------ making bets

    def before_throw(self, state: State) -> list[dict]:
        self.throws += 1
        events = []
        for order in self.orders:
            if order.done or any(w.order is order for w in self.up):
                continue
            if order.at_throw is not None and order.at_throw != self.throws:
                continue
            reason = self._cannot_make(order, state)
            if reason is None:
                events.append(self._make(order, state))
                if order.at_throw is not None:
                    order.done = True
                continue
            if order.at_throw is not None:
                order.done = True
                events.append(self._event(bet=order.bet, event="refused", reason=reason))
            elif reason.startswith(("the bankroll", "it backs", "the multiple")):
                kind = reason.split()[1]
                if (order.bet, kind) not in self._refused:  # said once, not before every throw
                    self._refused.add((order.bet, kind))
                    events.append(self._event(bet=order.bet, event="refused", reason=reason))
        return events

    def _cannot_make(self, order: Order, state: State) -> str | None:
        cb = self.machines[order.bet]
        if state.index not in cb.made:
            return f"it is not allowed now (phase {state.phase})"
        amount = self._amount(order, state)
        if amount is None:
            return f"it backs {cb.bet.backs}, which is not up"
        if amount <= 0:
            return f"the multiple comes to {self._told(amount)} here"
        staked = amount + cb.up_front(state.index, amount)
        if self.bankroll is not None and staked > self.bankroll:
            return f"the bankroll ({self._told(self.bankroll)}) cannot cover {self._told(staked)}"
        return None

    def _told(self, value: Fraction) -> str:
        """Money in the ruleset's coin ("2s 6d", "$2.50"), as the narration tells it."""
        from ..money import money_amount

        return money_amount(self.machine.ruleset, value)

    def _amount(self, order: Order, state: State) -> Fraction | None:
        cb = self.machines[order.bet]
        backs = cb.bet.backs
        backed = next((w for w in self.up if w.order.bet == backs), None) if backs else None
        if backs and backed is None:
            return None
        kind, value = parse_amount(cb.bet, order.amount)
        if kind == "money":
            return value
        return cb.multiple(value, state.index) * backed.amount

    def _make(self, order: Order, state: State) -> dict:
        cb = self.machines[order.bet]
        amount = self._amount(order, state)
        commission = cb.up_front(state.index, amount)
        staked = amount + commission
        self._move(-staked)
        self.up.append(Wager(order, cb, amount, staked, 0))
        fields = dict(bet=order.bet, event="made", amount=exact_money(amount))
        if commission:
            fields["commission"] = exact_money(commission)
        return self._event(**fields)

    # ------------------------------------------------------------------ deciding bets

    def after_throw(self, state: State, dice: tuple, after: State) -> list[dict]:
        events = []
        still_up = []
        outcome = index_of(dice, self.machine.dice.sides)
        for wager in self.up:
            code = wager.bet.move(state.index, wager.state, outcome, after.index)
            if code >= 0:
                wager.state = code
                still_up.append(wager)
                continue
            events.append(self._settle(wager, wager.bet.decisions[~code]))
        self.up = still_up
        if after.kind == END:
            events += self._fees(after)
        return events

    def _settle(self, wager: Wager, decision) -> dict:
        fields = dict(bet=wager.order.bet, event=decision.result, label=decision.label, amount=exact_money(wager.amount))
        if decision.result == "win":
            won = wager.amount * decision.net
            taken = wager.bet.taken_from_win(wager.amount, won)
            self._move(wager.amount + won - taken)
            fields["won"] = exact_money(won - taken)
            if taken:
                fields["commission"] = exact_money(taken)
        elif decision.result == "push":
            self._move(wager.amount)  # the stake comes back; a commission paid up front does not
        else:
            fields["lost"] = exact_money(wager.staked)
        return self._event(**fields)

    def _fees(self, end: State) -> list[dict]:
        events = []
        for compiled in self.fees:
            fee = compiled.fee
            self.fee_states[fee.name], due = compiled.at_game_end(self.fee_states[fee.name], end.result, end.label)
            if due:
                self._move(-fee.amount)
                events.append(self._event(fee=fee.name, event="paid", amount=exact_money(fee.amount), payee=fee.payee))
        return events
