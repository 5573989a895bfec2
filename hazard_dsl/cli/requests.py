"""The command line's flags read into the request each command takes (`commands.requests`):
the texts a person types — `NAME=VALUE`, `NAME=AMOUNT[@THROW]`, `SEAT:NAME=AMOUNT`, `SEAT:NAME`,
`Ann,Ben,Cat`, money such as "2s 6d" and tapes such as "3-4 6-6" — become values here, and
nowhere past the command line.

A text that cannot be read raises `ArgumentError` naming the request's field (`Arg('bets',
'pass', 'x')`), which the command line says with its flag (`cli.wording`: `--bet pass=x: …`),
in the words the commands used when they read the texts themselves. Whether a value can be used
(a bet the ruleset has, a seat at the table, a multiple the bet takes) is the command's to say:
this module reads, it does not judge, except where reading needs the ruleset (an option's type,
money in the ruleset's coin).
"""

from __future__ import annotations

from fractions import Fraction

from ..commands.requests import (
    AnalyseRequest,
    BetOrder,
    CheckRequest,
    CompareRequest,
    GraphRequest,
    ListRequest,
    PlayRequest,
    ReplayRequest,
    RulesetRequest,
    RulesRequest,
    RunRequest,
    SchemaRequest,
    ShowRequest,
    SimulateRequest,
)
from ..errors import Arg, ArgumentError

# --------------------------------------------------------------------------- the texts


def option_values(ruleset, texts) -> dict:
    """`["main=called", "rounds=3"]` → {"main": "called", "rounds": 3}: an option whose values
    are whole numbers takes ASCII digits as a number; any other value stays as written (the
    command checks it is one of the option's)."""
    from ..parse.numbers import whole_number

    chosen: dict = {}
    for text in texts or ():
        name, sep, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise ArgumentError(Arg("options"), f"takes NAME=VALUE, not {text!r}")
        option = ruleset.options.get(name) if ruleset is not None else None
        number = whole_number(value) if option is not None and option.type == "int" else None
        chosen[name] = value if number is None else number
    return chosen


def bet_orders(texts, at_throw: bool = True) -> tuple:
    """One bettor's `NAME=AMOUNT[@THROW]` texts → `BetOrder`s, in order: the amount money
    (exact) or, ending in x, a multiple of the bet it backs ("2x", "3-4-5x"); `@THROW` (run
    alone: `at_throw`) makes the bet once, before that throw."""
    from ..parse.numbers import whole_number

    orders = []
    for text in texts or ():
        name, sep, rest = text.partition("=")
        amount, at, when = rest.partition("@")
        name, amount = name.strip(), amount.strip()
        if not sep or not name or not amount:
            raise ArgumentError(Arg("bets"), f"takes NAME=AMOUNT or NAME=AMOUNT@THROW, not {text!r}")
        throw = None
        if at:
            written = Arg("bets", name, rest.strip())
            throw = whole_number(when, 9)  # ASCII digits: "²".isdigit() is true, and int("²") fails
            if throw is None or throw < 1:
                raise ArgumentError(written, "@THROW must be a throw number, 1 or more")
            if not at_throw:
                raise ArgumentError(written, "@THROW (make the bet once, before that throw) is for run; analyse "
                                             "takes NAME=AMOUNT")
        orders.append(BetOrder(name, amount if amount.endswith("x") else money(amount, Arg("bets", name)), throw,
                               written=amount))
    return tuple(orders)


def money(text: str, arg: Arg) -> Fraction:
    """`10`, `12.50`, `21/2`: an amount of money in the file's unit, exactly, more than 0."""
    from ..parse.numbers import MAX_DIGITS, exact_amount

    value = exact_amount(text, percent=False)
    if value is None:
        if exact_amount(text, percent=False, written=True) is not None:  # an amount, but too long (fuzz41 F11)
            raise ArgumentError(arg, f"an amount of money has at most {MAX_DIGITS} digits in each part (whole, "
                                     f"decimals, denominator): {text[:30]}")
        raise ArgumentError(arg, f"{text[:30]!r} is not an amount of money (10, 12.50 or 21/2)")
    if value <= 0:
        raise ArgumentError(arg, "the amount must be more than 0")
    return value


def coin(ruleset, text: str, arg: Arg) -> Fraction:
    """An amount in the file's unit ("2.50") or in the ruleset's coin ("2s 6d", "half a
    guinea"), exactly (render.words.money_read)."""
    from ..render.words import MoneyText, money_typed

    try:
        return money_typed(ruleset, text)
    except MoneyText as exc:
        raise ArgumentError(arg, str(exc)) from None


def stake_coin(ruleset, text: str, arg: Arg) -> Fraction:
    """A stake's amount at the table (--cap, a progression's largest stake) as --stake and
    --purse beside it take it: in the file's unit or the ruleset's coin (`coin`), more than 0.
    `--stake "2s 6d" --cap "£1"` was refused for the cap alone (audit 42)."""
    value = coin(ruleset, text, arg)
    if value <= 0:
        raise ArgumentError(arg, "the amount must be more than 0")
    return value


def _given_coin(args, ruleset, name: str) -> Fraction | None:
    """The amount of the flag `name` (`stake_coin`), or None where it is not given (or the
    command has no such flag)."""
    text = getattr(args, name, None)
    return None if text is None else stake_coin(ruleset, text, Arg(name))


def players(text: str | None) -> tuple | None:
    """`Ann,Ben,Cat` → ("Ann", "Ben", "Cat"), in order round the table (the command checks
    how many a table takes and each name). A place left empty between names (`Ann,,Ben`, a
    comma at either end) is refused naming it: a name forgotten is not a seat fewer."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",")]
    if any(names) and not all(names):  # (no name at all: `seats` says how many are needed)
        from ..commands.errors import SettingError

        place = names.index("") + 1
        raise SettingError("players", f": the name in place {place} of {len(names)} is empty ({text[:60]!r}); "
                                      f"give each player a name, separated by commas: --players Ann,Ben,Cat")
    return tuple(name for name in names if name)


def seats(ruleset, text: str | None) -> tuple | None:
    """`players` at a table of `ruleset`: a text that names fewer than the table needs (two, or
    one against a bank) is refused saying how to write them; each name is the command's to
    judge (`commands.sessions.checked_players`)."""
    from ..commands.errors import SettingError

    names = players(text)
    least = 1 if ruleset is None or ruleset.table.against == "bank" else 2
    if names is not None and len(names) < least:
        raise SettingError("players", "takes two names or more, separated by commas: --players Ann,Ben,Cat"
                           if least > 1 else "takes one name or more, separated by commas")
    return names


def seat_plans(ruleset, texts, seats) -> dict:
    """Seats' `SEAT:NAME=AMOUNT` texts → {seat: {bet: amount}}, the amount in the ruleset's
    coin ("Cat:side=2s 6d"); a seat's bet given twice is refused, never silently replaced.
    `seats`: the players, named where a text names none."""
    plans: dict = {}
    given: dict = {}
    for text in texts or ():
        seat, name, written = _seat_text(text, seats, amount=True)
        if not written:
            raise ArgumentError(Arg("bets", value=text[:60]), f"give an amount, as SEAT:NAME=AMOUNT (e.g. "
                                                              f"{seat}:{name}=2)")
        arg = Arg("plans", name, written, seat=seat)
        if (seat, name) in given:
            raise ArgumentError(arg, "gives a second amount to a bet already planned (",
                                Arg("plans", name, given[seat, name], seat=seat), "): give each seat's bet once")
        given[seat, name] = written
        amount = _seat_amount(ruleset, written, arg)
        plans.setdefault(seat, {})[name] = amount
    return plans


def _seat_amount(ruleset, written: str, arg: Arg) -> Fraction:
    """A seat's amount in the ruleset's coin; a multiple (2x) is one bettor's, not a seat's."""
    from ..render.words import MoneyText, money_examples, money_typed

    try:
        if not written.lower().endswith("x"):
            return money_typed(ruleset, written)
    except MoneyText:
        pass
    multiple = " (a multiple of the wager it backs, such as 2x, is for one bettor's --bet NAME=2x; at the " \
               "table a seat plans money)" if written.lower().endswith("x") else ""
    raise ArgumentError(arg, f"{written[:30]!r} is not an amount of money (write it as "
                             f"{money_examples(ruleset.table)}){multiple}")


def refusals(texts, seats) -> tuple:
    """`SEAT:NAME` texts → (seat, bet) pairs: the bets a seat refuses when put to him."""
    return tuple(_seat_text(text, seats, amount=False)[:2] for text in texts or ())


def _seat_text(text: str, seats, amount: bool) -> tuple[str, str, str]:
    """(seat, name, amount as written) of `SEAT:NAME[=AMOUNT]`."""
    head, _, written = text.partition("=")
    seat, colon, name = head.partition(":")
    seat, name = seat.strip(), name.strip()
    if not colon or not seat or not name:
        from ..diagnostics import did_you_mean

        seats = list(seats or ())
        shape = "SEAT:NAME=AMOUNT" if amount else "SEAT:NAME"
        raise ArgumentError(Arg("bets" if amount else "refusals", value=text[:60]),
                            f": at the table a bet names its seat, as {shape}"
                            + (f" with SEAT one of {', '.join(seats)}" if seats else "")
                            + (did_you_mean(seat, seats) if colon else ""))
    return seat, name, written.strip()


def tape(text: str | None, ruleset=None) -> tuple | None:
    """`"3-4 6-6 x-4 off"` → the throws as `play.dice.DiceTape` holds them, or None (random);
    a bad throw is worded with `ruleset`'s dice."""
    if text is None:
        return None
    from ..play.dice import DiceTape

    return tuple(DiceTape.parse(text, ruleset).throws)


# --------------------------------------------------------------------------- the requests


def _ruleset_fields(args, ruleset) -> dict:
    return {"ruleset": args.ruleset, "options": option_values(ruleset, getattr(args, "option", ())),
            "policy": getattr(args, "policy", "optimal")}


def check_request(args) -> CheckRequest:
    return CheckRequest(files=tuple(args.files))


def list_request(args) -> ListRequest:
    return ListRequest()


def show_request(args) -> ShowRequest:
    return ShowRequest(ruleset=args.ruleset)


def rules_request(args, ruleset, colour: bool = False) -> RulesRequest:
    from .output import output_format

    return RulesRequest(**_ruleset_fields(args, ruleset), format=output_format(args), colour=colour)


def graph_request(args, ruleset) -> GraphRequest:
    # each name as written: the drawing strips it, and says an unknown one as it was given
    phases = tuple(p for text in args.phase for p in text.split(",") if p.strip())
    from .output import output_format

    return GraphRequest(**_ruleset_fields(args, ruleset), format=output_format(args), unfold=args.unfold, phases=phases,
                        bets=tuple(args.bet))


def compare_request(args, rulesets: dict) -> CompareRequest:
    """`rulesets`: each VARIANT text's ruleset (its options are read by the ruleset's types)."""
    from ..commands.loading import split_variant

    variants = []
    for text in args.rulesets:
        name, options = split_variant(text)
        variants.append(RulesetRequest(ruleset=name, options=option_values(rulesets.get(text), [*args.option,
                                                                                                 *options]),
                                       policy=args.policy))
    # each variant shown as given ("cotton:main=called"), whatever --option adds
    return CompareRequest(variants=tuple(variants), policy=args.policy, labels=tuple(args.rulesets))


def analyse_request(args, ruleset) -> AnalyseRequest:
    """`analyse`: the money of --bankroll, --goal, --stake, --cap, --limit, --stop-loss and
    --stop-win in the file's unit or the ruleset's coin, as play's --stake and --purse (`stake_coin`:
    "£1 10s" where 30 is the same; audit 42); --stake best or kelly (any case) is `best`; with either, or
    --strategy or --risk (the staking figures), --games counts the best stake's games."""
    from ..commands.errors import SettingError
    from ..commands.staking import CHOICES

    def amount(name: str):
        return _given_coin(args, ruleset, name)

    def count(name: str, what: str = ""):
        text = getattr(args, name)
        if text is None:
            return None
        try:  # as int() reads it, the words as before
            return int(str(text).strip())
        except ValueError:
            raise SettingError(name, f"{str(text)[:30]!r} is not a whole number{what}") from None

    choice = args.stake.strip().lower() if isinstance(args.stake, str) else ""
    best = choice if choice in CHOICES else None
    staking = best is not None or args.strategy is not None or args.risk is not None
    seated = _seated(args.bet) or args.players is not None
    at_table = seats(ruleset, args.players)
    risk = None
    if args.risk is not None:
        try:
            risk = Fraction(args.risk.strip())
        except (ValueError, ZeroDivisionError):
            raise SettingError("risk", f"{args.risk[:30]!r} is not a chance (0.01, or 1/100)") from None
    return AnalyseRequest(
        **_ruleset_fields(args, ruleset), by=args.by,
        bets=() if seated else bet_orders(args.bet, at_throw=False),
        plans=seat_plans(ruleset, args.bet, at_table) if seated else {},
        players=at_table, hand=args.hand, throws=args.throws, bankroll=amount("bankroll"),
        goal=amount("goal"), stake=None if best else amount("stake"), best=best, strategy=args.strategy,
        cap=amount("cap"), limit=amount("limit"), side=args.side, risk=risk, simulate=count("simulate"),
        seed=_seed(args.seed), spread=args.spread, games=count("games", "" if staking else " of games"),
        stop_loss=amount("stop_loss"), stop_win=amount("stop_win"), tail=count("tail", " of throws"),
        by_option=not args.no_options)


def _seed(text):
    """analyse's --seed: a whole number from 0 to 2^64 − 1 (the seeds the dice take), judged
    before any work, naming --seed."""
    from ..commands.dice import seed_read

    return None if text is None else seed_read(text)


def _seated(texts) -> bool:
    """Whether analyse's --bet texts are seats' plans (SEAT:NAME=AMOUNT, each seat's figures)
    rather than one bettor's bets made together (NAME=AMOUNT); a mixture is refused."""
    from ..commands.errors import SettingError

    seated = [":" in text.partition("=")[0] for text in texts or ()]
    if any(seated) and not all(seated):
        plain = next(text for text, s in zip(texts, seated) if not s)
        raise SettingError("bets", f"{plain[:60]!r} names no seat: give every ", Arg("bets"), " a seat (SEAT:NAME="
                                   "AMOUNT, each seat's figures at the table) or none (NAME=AMOUNT, bets made "
                                   "together by one bettor)")
    return bool(texts) and all(seated)


def _table_fields(args, ruleset) -> dict:
    names = seats(ruleset, args.players)
    seated = names is not None
    return dict(players=names, purse=coin(ruleset, args.purse, Arg("purse")) if args.purse is not None else None,
                stake=coin(ruleset, args.stake, Arg("stake")) if args.stake is not None else None,
                strategy=args.strategy, rounds=args.rounds,
                plans=seat_plans(ruleset, args.bet, names) if seated and getattr(args, "bet", None) else {},
                refusals=refusals(getattr(args, "refuse", ()), names), log=getattr(args, "log", None),
                force=getattr(args, "force", False))


def run_request(args, ruleset) -> RunRequest:
    seated = args.players is not None
    return RunRequest(**_ruleset_fields(args, ruleset), **_table_fields(args, ruleset), games=args.games,
                      seed=args.seed, dice=tape(args.dice, ruleset), bets=() if seated else bet_orders(args.bet),
                      bankroll=_given_coin(args, ruleset, "bankroll"), cap=_given_coin(args, ruleset, "cap"))


def simulate_request(args, ruleset) -> SimulateRequest:
    """`simulate`: with --players the seats' plans (SEAT:NAME=AMOUNT) and refusals, else one
    bettor's bets (NAME=AMOUNT); --goal an amount in the file's unit (10, 12.50, 21/2) or the
    ruleset's coin ("£1 10s"), as the exact figures of `analyse --goal` take it."""
    seated = args.players is not None
    return SimulateRequest(**_ruleset_fields(args, ruleset), **_table_fields(args, ruleset), games=args.games,
                           seed=args.seed, bets=() if seated else bet_orders(args.bet, at_throw=False),
                           workers=args.workers, scheduler=args.scheduler, engine=args.engine,
                           goal=_given_coin(args, ruleset, "goal"), cap=_given_coin(args, ruleset, "cap"))


def play_request(args, ruleset) -> PlayRequest:
    fields = _ruleset_fields(args, ruleset) if args.ruleset is not None else \
        {"ruleset": None, "options": {}, "policy": args.policy}
    return PlayRequest(**fields, **_table_fields(args, ruleset), seed=args.seed, dice=tape(args.dice, ruleset),
                       resume=args.resume, no_log=args.no_log)


def replay_request(args) -> ReplayRequest:
    return ReplayRequest(log=args.log, rules=args.rules)


def schema_request(args) -> SchemaRequest:
    return SchemaRequest(output=args.output, force=args.force)


__all__ = ["analyse_request", "bet_orders", "check_request", "coin", "compare_request", "graph_request",
           "list_request", "money", "option_values", "play_request", "players", "refusals", "replay_request",
           "rules_request", "run_request", "schema_request", "seat_plans", "seats", "show_request",
           "simulate_request", "tape"]
