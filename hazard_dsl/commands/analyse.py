"""`analyse`: the exact figures of a ruleset, and what the command adds to them — the caster's
hand, a caster's chance of reaching a goal, bets made together, and the table of each option's
effect on the game and on each bet; and risk (issue 38): the spread, a session's net, a seat's
net over N games at the table, the tail, and the same simulated beside them.

Why one piece of over 600 lines: the risk half reads the analysis the first half makes (its
bets' table, its seats) and checks amounts, counts and bets with the same helpers and words, and
every front end asks both through this one module (`analyse_request`, then `risk_request`)."""

from __future__ import annotations

from fractions import Fraction

from ..errors import Arg, ArgumentError
from .errors import CommandError, SettingError
from .loading import load, machine_for

_SEATED = Arg("plans", "NAME", "AMOUNT", seat="SEAT")  # a seat's plan, as each front end writes one
MAX_OPTION_BET_ANALYSES = 300  # bet analyses spent on the table of each option's effect, at most
MAX_OPTION_GAME_STATES = 100_000  # states compiled for the table of each option's effect on the game


def check_session_settings(bankroll, goal, stake, seats: bool = False) -> None:
    """A caster's chance of reaching the goal needs all three of bankroll, goal and stake; the
    figures of each seat (`seats`) take a stake alone."""
    given = [a is not None for a in (bankroll, goal, stake)]
    if seats and bankroll is None and goal is None:
        return
    if any(given) and not all(given):
        raise SettingError("bankroll", ", ", Arg("goal"), " and ", Arg("stake"), " go together: the chance of "
                                       "reaching the goal before the purse can no longer stake (or ", Arg("stake"),
                           " with ", _SEATED, ": each seat's figures)")


def analyse_request(request):
    """`analyse` for an `AnalyseRequest` (commands.requests): the analysis `analyse` returns, its
    fields values (money as Fractions, one bettor's `bets` as BetOrders, seats' `plans` as
    {seat: {bet: amount}}, `players` a list), each checked, an ArgumentError naming the field
    otherwise. The best stake, progressions and risk are `staking_request` and `risk_request`."""
    at_table = bool(request.plans) or request.players is not None
    check_session_settings(request.bankroll, request.goal, request.stake, at_table)
    ruleset = load(request.ruleset, request.text)
    plans = seat_plans(ruleset, request.plans, request.players, request.stake) if at_table else None
    machine = machine_for(ruleset, request.options)
    orders = order_texts(request.bets, at_throw=False) if request.bets and plans is None else None
    return _analysed(machine, request.policy, request.by, orders, plans, request.hand, request.bankroll,
                     request.goal, request.stake, request.by_option)


def order_texts(bets, at_throw: bool = True) -> list[tuple[str, str]]:
    """One bettor's BetOrders as the (bet, amount) pairs the engine reads (solve.bets.parse_amount):
    money as its exact text (10, 25/2), a multiple as written (2x); each bet once."""
    from ..errors import Arg, ArgumentError
    from .sessions import shown_amount

    seen: set = set()
    out = []
    for order in bets:
        amount = order.amount if isinstance(order.amount, str) else money_text(order.amount)
        shown = shown_amount(order.amount)
        arg = Arg("bets", order.bet, shown if order.at_throw is None else f"{amount}@{order.at_throw}")
        if order.at_throw is not None and not at_throw:
            raise ArgumentError(arg, "@THROW (make the bet once, before that throw) is for run; analyse takes "
                                     "NAME=AMOUNT")
        if (order.bet, order.at_throw) in seen:  # a second amount would silently replace the first
            raise ArgumentError(arg, "is given twice: give each bet once")
        seen.add((order.bet, order.at_throw))
        out.append((order.bet, amount) if not at_throw else (order.bet, amount, order.at_throw))
    return out


def money_text(amount: Fraction) -> str:
    """An exact amount as the engine's reader takes it: 10, 25/2."""
    amount = Fraction(amount)
    return str(amount.numerator) if amount.denominator == 1 else f"{amount.numerator}/{amount.denominator}"


def _analysed(machine, policy: str, by, orders, plans, hand: bool, bankroll, goal, stake, by_option: bool):
    """The analysis, with what is asked (see `analyse_request`), amounts exact: `orders` (bet,
    amount text) pairs, `plans` from `seat_plans`."""
    from ..solve.analysis import analyse
    from ..solve.bets import BetError
    from ..solve.markov import PolicyError, policy_for

    try:
        analysis = analyse(machine, policy, by)
    except PolicyError as exc:
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None
    except ArgumentError:  # names its argument (--by): each front end words it
        raise
    except KeyError as exc:
        raise CommandError(exc.args[0]) from None

    if plans is not None and bankroll is not None:  # each seat's purse, not a lone caster's
        analysis.table_ruin = seats_to_goal(machine, analysis, plans, bankroll, goal, stake, policy)
    if hand or (bankroll is not None and plans is None):
        from ..solve.session import SessionError, game_endings, hand as caster_hand, ruin

        try:
            game = game_endings(machine, policy)
            if hand:
                analysis.hand = caster_hand(machine, policy, game)
            if bankroll is not None and plans is None:
                analysis.ruin = ruin(machine, bankroll, goal, stake, policy, game)
        except ArgumentError:  # names its argument: each front end words it
            raise
        except (SessionError, BetError) as exc:
            raise CommandError(str(exc)) from None

    if plans is not None:
        analysis.seats = seat_figures(machine, analysis, plans, stake, policy)
    try:
        if orders:
            if analysis.bet_table is None:
                raise CommandError(f"{analysis.ruleset} declares no bets")
            analysis.combination = analysis.bet_table.combination(orders)
        variants = shared_variants(machine.ruleset) if by_option else None
        # each machine's solver under the policy, shared by the two tables (where dice are recast,
        # choosing the policy is most of the work), the analysed game's among them
        solvers: dict = {}
        if analysis.bet_table is not None and policy_for(machine, policy) == policy:
            solvers[id(machine), policy] = (machine, analysis.bet_table.solver)
        if machine.ruleset.options and by_option:
            try:
                analysis.game_by_option = game_by_option(machine.ruleset, analysis.options, policy, machine,
                                                         variants, solvers)
            except PolicyError:
                analysis.game_by_option = {}
        ruleset = analysis.bet_table.machine.ruleset if analysis.bet_table is not None else None
        if ruleset is not None and ruleset.bets and ruleset.options and by_option:
            from ..cache import kept

            # kept between runs like the machines: the same file, options and policy give the same table
            what = ("bets_by_option", policy, repr(sorted((k, str(v)) for k, v in analysis.options.items())))
            analysis.by_option, analysis.by_option_skipped = kept(ruleset, "games", what, lambda: bets_by_option(
                ruleset, analysis.options, policy, {name: f.edge for name, f in analysis.bets.items()},
                analysis.bet_table, variants, solvers), lambda table: isinstance(table, tuple) and len(table) == 2)
    except ArgumentError:  # a bet ordered, named (play.wagers.OrderError): each front end words it
        raise
    except BetError as exc:
        raise CommandError(str(exc)) from None
    return analysis


def seat_plans(ruleset, plans, players=None, stake: Fraction | None = None) -> tuple[dict, list | None]:
    """Each seat's plan (an `AnalyseRequest`'s `plans`: {seat: {bet: amount}}, exact) and the
    players round the table (`players`, a list of names; None: each seat is then figured with
    as many others as its bets need), checked with "did you mean". A seat's own stake
    (SEAT:stake=AMOUNT) must be `stake` (exact; None: 1): the figures take one stake for every
    setter."""
    from .sessions import checked_players, checked_plans

    if players is not None:
        names = checked_players(list(players), 1 if ruleset.table.against == "bank" else 2)
    else:
        names = checked_players(list(plans), 1) if plans else []
    chosen, _, own = checked_plans(ruleset, names, plans)
    chosen, names = _one_stake(chosen, own, Fraction(1) if stake is None else stake, names, players is not None)
    for seat in plans:  # a seat with an empty plan still has its figures
        chosen.setdefault(seat, {})
    return chosen, names


def _one_stake(plans: dict, own: dict, amount: Fraction, names: list, seated: bool) -> tuple[dict, list | None]:
    """The plans and players, once every seat's own stake is found to be `amount`: the exact
    figures take one stake for every setter."""
    from ..errors import Arg, ArgumentError
    from .sessions import shown_amount, stakes_alike

    if not stakes_alike(own, amount):
        seat = next(seat for seat, mine in own.items() if mine != amount)
        raise ArgumentError(Arg("plans", "stake", shown_amount(own[seat]), seat=seat), "the exact figures take "
                            "one stake for every setter (", Arg("stake"), f", here {amount}); run and simulate ", Arg("players"),
                            " play a seat's own stake")
    if not seated:
        plans = {name: plans.get(name, {}) for name in names}
    return plans, (names if seated else None)


def seat_figures(machine, analysis, plans, stake: Fraction | None, policy: str):
    """solve.seats.seats for the plans and players of `seat_plans`, on the analysis' solver."""
    from ..solve.bets import BetError
    from ..solve.seats import SeatError, seats

    plans, players = plans
    try:
        amount = stake if stake is not None else 1
        table = analysis.bet_table
        return seats(machine, plans, amount, players, policy, table.solver if table is not None else None, table,
                     analysis.fees or None)
    except ArgumentError:  # names its argument: each front end words it
        raise
    except (SeatError, BetError) as exc:
        raise CommandError(str(exc)) from None


def seats_to_goal(machine, analysis, plans, bankroll: Fraction, goal: Fraction, amount: Fraction, policy: str):
    """solve.seats.table_ruin: each seat of the table from `bankroll` to `goal` with its plan,
    each setter staking `amount` (exact)."""
    from ..solve.bets import BetError
    from ..solve.seats import SeatError, table_ruin

    plans, players = plans
    if players is None:
        raise SettingError("players", "is needed with ", Arg("bankroll"), " and ", _SEATED, ": how often a seat "
                                      "casts, and how many stakes the caster covers, depend on who sits at the "
                                      "table (", Arg("players", value=("Ann", "Ben", "Cat")), ")")
    try:
        if amount <= 0:
            raise SettingError("stake", "must be more than 0")
        if not bankroll < goal:
            raise SettingError("bankroll", "must be less than ", Arg("goal"), f" ({goal})")
        table = analysis.bet_table
        return table_ruin(machine, plans, players, bankroll, goal, amount, policy,
                          table.solver if table is not None else None, table)
    except ArgumentError:  # names its argument: each front end words it
        raise
    except (SeatError, BetError) as exc:
        raise CommandError(str(exc)) from None


def shared_variants(ruleset) -> dict | None:
    """A place for the machines of the two tables of each option's effect to share, or None when
    sharing would not pay: an option the game reads changes the game and every bet, so both
    tables compile the game under each of its values; compiled once with every bet, each
    variant serves both (`_variant`). None when there are no bets, or more variants' bets than
    the bets' table would analyse (it would leave some out, and their bets would be compiled
    for nothing)."""
    from ..compile.evaluate import game_options

    if not ruleset.bets:
        return None
    in_game = game_options(ruleset)
    others = sum(len(o.values) - 1 for n, o in ruleset.options.items() if n in in_game)
    return {} if others * len(ruleset.bets) <= MAX_OPTION_BET_ANALYSES else None


def _variant(ruleset, options: dict, variants: dict, game_only: bool = False):
    """The machine under `options` with every bet compiled, once for both tables (`variants`:
    {options: machine}). When the bets do not compile under these options, the RulesetError
    saying why; with `game_only` (the game's table, which reads no bet), the game alone."""
    from ..cache import compile_ruleset
    from ..compile.compiler import resolve_options
    from ..diagnostics import RulesetError

    key = repr(sorted(resolve_options(ruleset, options).items()))
    found = variants.get(key)
    if found is None:
        try:
            found = variants[key] = compile_ruleset(ruleset, options, keep=False)
        except RulesetError:
            if not game_only:
                raise
            return compile_ruleset(ruleset, options, bets=(), keep=False)
    return found


def _solver(machine, policy: str, solvers: dict | None):
    """The machine's Solver with `policy` set (`markov.policy_for`), made once for the tables of
    each option's effect when `solvers` ({(id, policy): (machine, Solver)}) is given."""
    from ..solve.markov import Solver, policy_for

    policy = policy_for(machine, policy)
    found = solvers.get((id(machine), policy)) if solvers is not None else None
    if found is not None and found[0] is machine:
        return found[1]
    solver = Solver(machine)
    solver.set_policy(policy)
    if solvers is not None:  # (the machine is held with it, so its id is not reused)
        solvers[id(machine), policy] = (machine, solver)
    return solver


def bets_by_option(ruleset, options: dict, policy: str, at_options: dict | None = None,
                   table=None, variants: dict | None = None, solvers: dict | None = None) -> tuple[dict, list]:
    """Each bet's edge with one option changed at a time: how the house earns under each.

    Only what can change is recomputed: an option the game's rules do not read changes only
    the bets whose own expressions read it, so only those are compiled and solved again; the
    others keep their edge under `options` (given in `at_options` as {bet: edge} when already
    known). Such bets are solved on `table` (the BetTable of the game under `options` and
    `policy`, when given): the game is the same, and a bet whose moves are unchanged (only
    its payout or commission differs) is not solved again. Returns the table of edges and the
    options left out because the work would be too large. `solvers` (`_solver`), the solvers
    shared with the game's table."""
    from ..cache import compile_ruleset
    from ..compile.evaluate import bet_options, game_options
    from ..solve.analysis import bet_edges, edges_on
    from ..solve.bets import BetTable

    in_game = game_options(ruleset)
    reads = {name: bet_options(bet) for name, bet in ruleset.bets.items()}
    base = dict(at_options) if at_options is not None else bet_edges(compile_ruleset(ruleset, options), policy)
    out: dict = {}
    skipped: list = []
    spent = 0
    for name, option in ruleset.options.items():
        changed = list(ruleset.bets) if name in in_game else [b for b in ruleset.bets if name in reads[b]]
        others = [v for v in option.values if v != options.get(name)]
        if changed and spent + len(changed) * len(others) > MAX_OPTION_BET_ANALYSES:
            skipped.append(name)
            continue
        out[name] = {}
        for value in option.values:
            if value == options.get(name) or not changed:
                out[name][value] = dict(base)
                continue
            spent += len(changed)
            if variants is not None and name in in_game:  # every bet changes: shared with the game's table
                machine = _variant(ruleset, dict(options, **{name: value}), variants)
            else:  # compiled for this table alone, which is kept itself: the machine is not
                machine = compile_ruleset(ruleset, dict(options, **{name: value}), bets=changed, keep=False)
            # the game is the same when it does not read the option: solve on its table
            if table is not None and name not in in_game:
                edges = edges_on(table, machine.bets)
            else:  # bet_edges, on the solver the game's table made for the same machine
                edges = edges_on(BetTable(machine, _solver(machine, policy, solvers)), machine.bets)
            out[name][value] = dict(base, **edges)
    return out, skipped


def game_by_option(ruleset, options: dict, policy: str, machine=None, variants: dict | None = None,
                   solvers: dict | None = None) -> dict:
    """The caster's game (win, lose, push, edge, expected throws) under each value of each option
    the game itself reads — its rules or its dice — the others held at `options`. Options that
    change only bets or the table are left to the bets' table. Kept in the cache with the
    ruleset's machines: `analyse` is run again and again on an unchanged file. `machine`, when
    given, is the game under `options` (compiled already): each option's own value is played on
    it rather than compiled again; `variants` (`shared_variants`) and `solvers` (`_solver`), the
    machines and their solvers shared with the bets' table."""
    from ..cache import kept

    what = ("game_by_option", policy, repr(sorted((k, str(v)) for k, v in options.items())))
    return kept(ruleset, "games", what, lambda: _game_by_option(ruleset, options, policy, machine, variants, solvers),
                lambda table: isinstance(table, dict))


def _game_by_option(ruleset, options: dict, policy: str, at_options=None, variants: dict | None = None,
                    solvers: dict | None = None) -> dict:
    from ..cache import compile_ruleset
    from ..compile.compiler import resolve_options
    from ..compile.evaluate import game_options
    from ..solve.markov import policy_for
    from ..solve.session import game_endings

    out: dict = {}
    spent = 0
    for name in ruleset.options:
        if name not in game_options(ruleset):
            continue
        out[name] = {}
        for value in ruleset.options[name].values:
            if at_options is not None and value == options.get(name) and at_options.ruleset is ruleset \
                    and at_options.options == resolve_options(ruleset, options):
                machine = at_options  # the same game (its bets are not read here)
            elif variants is not None:
                machine = _variant(ruleset, dict(options, **{name: value}), variants, game_only=True)
            else:
                machine = compile_ruleset(ruleset, dict(options, **{name: value}), bets=(), keep=False)
            spent += len(machine.states)
            if spent > MAX_OPTION_GAME_STATES:
                out.pop(name)
                return out
            game = game_endings(machine, policy_for(machine, policy), _solver(machine, policy, solvers))
            win, lose = game.chance("win"), game.chance("lose")
            out[name][value] = {"win": win, "lose": lose, "push": 1 - win - lose, "edge": lose - win,
                                "expected_throws": game.throws}
    return out


# --------------------------------------------------------------------------- risk (issue 38)

class Risk:
    """What `risk` found: `bets` ({name: Spread} per unit bet, with --spread), `by_place` ({name:
    {where made: Spread}} for a bet whose payout varies), `plan` (the Spread of the --bet
    combination), `session` (a SessionNet), `tail` (Lengths, to `tail_throws`), `at_table`
    ({seat: SessionNet} over N games at the table, with `plans` and `players`)."""

    def __init__(self):
        self.bets: dict = {}
        self.by_place: dict = {}
        self.orders: list = []
        self.plan = None
        self.session = None
        self.tail = None
        self.tail_throws = 0
        self.policy = "optimal"
        self.at_table: dict = {}  # seat -> SessionNet over N games at the table
        self.at_table_players: list = []
        self.at_table_plans: dict = {}

    def __bool__(self) -> bool:
        return bool(self.bets) or self.plan is not None or self.session is not None or self.tail is not None \
            or bool(self.at_table)


def _count(value, what: str, unit: str) -> int | None:
    """A count of a request (`games`, `tail`): a whole number from 1 to 1,000,000, or None."""
    if value is None:
        return None
    if type(value) is not int:
        raise SettingError(what, f"{str(value)[:30]!r} is not a whole number of {unit}")
    if not 1 <= value <= 1_000_000:
        raise SettingError(what, "must be between 1 and 1,000,000" + (" throws" if what == "tail" else ""))
    return value


def check_risk_settings(games, stop_loss, stop_win, tail, seats: bool = False) -> None:
    """Refuse what cannot go together before any work: a session's plan at the table, stops
    without games on only one side, a stop that is no amount of money."""

    _count(games, "games", "games")
    _count(tail, "tail", "throws")
    if seats and (stop_loss is not None or stop_win is not None):
        given = "stop_loss" if stop_loss is not None else "stop_win"
        raise SettingError(given, "takes one bettor's plan (", Arg("bets", "NAME", "AMOUNT"), "), not seats' "
                                  "plans (SEAT:NAME=AMOUNT); with seats, ", Arg("games", value="N"), " gives each "
                                  "seat's net over N games at the table")
    if games is None and (stop_loss is None) != (stop_win is None):
        given = Arg("stop_loss") if stop_loss is not None else Arg("stop_win")
        raise SettingError("games", "or both stops are needed: ", given, " alone never ends a session that has "
                                    "no number of games")
    for amount, what in ((stop_loss, "stop_loss"), (stop_win, "stop_win")):
        _exact(amount, what)


def check_used(request) -> None:
    """Refuse, before any work, a setting of an `AnalyseRequest` that nothing would read (a
    setting is never silently ignored, issue 36): --cap without a progression, --simulate
    with nothing to simulate (a session, the tail, a progression or the best stake; Kelly and
    the spread are exact only), --seed without --simulate."""
    staking = request.best is not None or request.strategy is not None or request.risk is not None
    if request.cap is not None and request.strategy is None:
        raise SettingError("cap", "goes with ", Arg("strategy"), " (the progression's largest stake)")
    session = request.games is not None or request.stop_loss is not None or request.stop_win is not None
    drawn = request.strategy is not None or request.best == "best" and request.bankroll is not None \
        if staking else session or request.tail is not None  # as commands.staking.figures draws
    if request.simulate is not None and not drawn:
        raise SettingError("simulate", "goes with ", Arg("games"), " or the stops (a session), ", Arg("tail"),
                           ", ", Arg("strategy"), ", or ", Arg("stake", value="best"), " with ", Arg("bankroll"),
                           "; Kelly and the spread are exact only")
    if request.seed is not None and request.simulate is None:
        raise SettingError("seed", "goes with ", Arg("simulate"), " (the seed of its draws)")
    if not staking:
        check_drawn(request.simulate, request.games, request.stop_loss, request.stop_win)


def check_drawn(sessions, games, stop_loss=None, stop_win=None) -> None:
    """A session simulated beside the exact figures, judged before the exact work: without
    stops a session is exactly `games` decisions, so `sessions` × `games` is the draw that
    `simulated_beside` would judge after it (with stops the session may end sooner: judged
    there, on the exact expected decisions)."""
    if sessions is None or games is None or stop_loss is not None or stop_win is not None:
        return
    sessions, games = _simulations(sessions), _count(games, "games", "games")
    if sessions * games > MAX_SIMULATED:
        raise _too_many(sessions, "sessions", sessions * games, "decisions")


def _too_many(sessions: int, count: str, amount, what: str) -> SettingError:
    return SettingError("simulate", f"{sessions:,} {count} are about {int(amount):,} {what} to draw, more than "
                                    f"the {MAX_SIMULATED:,} simulated beside the exact figures; ask for fewer, or "
                                    f"use `hazard-dsl simulate`")


def _exact(amount, what: str) -> Fraction | None:
    """An amount of money given as `what` (stop_loss…), exact and more than 0; None stays None."""
    if amount is None:
        return None
    if not isinstance(amount, (Fraction, int)) or isinstance(amount, bool):
        raise SettingError(what, f"is an amount of money, such as 10 or Fraction(21, 2), not {amount!r:.30}")
    if amount <= 0:
        raise SettingError(what, "must be more than 0")
    return Fraction(amount)


def risk_request(analysis, machine, request, spread: bool = False):
    """`risk` for an `AnalyseRequest` (commands.requests): the spread of each bet (`spread`: the
    request's, or asked by the caller, as --json always does), of the request's one bettor's
    bets, the session's net over `games` or to a stop, and the tail; None where none is asked."""
    seated = bool(request.plans) or request.players is not None
    plan = bool(request.bets) and not seated
    games = None if request.best is not None or request.strategy is not None or request.risk is not None \
        else request.games
    session = games is not None or request.stop_loss is not None or request.stop_win is not None
    spread = spread or request.spread
    check_risk_settings(games, request.stop_loss, request.stop_win, request.tail, seats=seated)
    if not (spread or plan or session or request.tail is not None):
        return None
    simulate = request.simulate if (session and not seated) or request.tail is not None else None
    if request.best is not None or request.strategy is not None or request.risk is not None:
        simulate = None  # the staking figures' own simulation (commands.staking)
    at_table = None
    if seated and games is not None and request.simulate is not None and request.best is None \
            and request.strategy is None and request.risk is None:
        raise SettingError("simulate", "is not drawn for seats at the table here: `hazard-dsl simulate` with ",
                           Arg("players"), " and ", _SEATED, " plays rounds of the table, each seat's net "
                           "beside the exact one")
    if seated and games is not None:  # each seat's net over N games at the table
        at_table = seats_over_games(analysis, tuple(request.plans) or None, games, request.policy)
        games = None
    return risk(analysis, machine if request.tail is not None or simulate is not None else None,
                bets=request.bets if plan else (), spread=spread, games=games, stop_loss=request.stop_loss,
                stop_win=request.stop_win, tail=request.tail, hand=request.hand, policy=request.policy,
                simulate=simulate, seed=request.seed, at_table=at_table)


def seats_over_games(analysis, seats, games: int, policy: str) -> tuple[dict, list, dict]:
    """({seat: SessionNet}, players, plans): each of `seats` (None: every player) over `games`
    games at the table of `analysis.seats` (its plans, players and stake), `nets_over_games`."""
    figures = analysis.seats
    if figures is None or figures.players is None:
        raise SettingError("players", "is needed with ", Arg("games"), " and ", _SEATED, ": who casts each game, "
                                      "and how many stakes the caster covers, depend on who sits at the table (",
                                      Arg("players", value=("Ann", "Ben", "Cat")), ")")
    table = analysis.bet_table
    if table is None:
        raise CommandError(f"{analysis.ruleset} declares no bets")
    out = nets_over_games(figures, table.machine, seats, games, policy, table.solver, table)
    return out, list(figures.players), dict(figures.plans)


def nets_over_games(figures, machine, seats, games: int, policy: str, solver=None, bet_table=None) -> dict:
    """{seat: SessionNet}: each of `seats` (None: every player) over `games` games at the table
    of `figures` (a solve.seats.Seats with its players: the plans and the stake), on the
    table's `machine`, exactly (solve.seat_ruin.seat_games); its coin-in what it puts at risk
    game by game (the Seats' rows of its role, and of that caster where a row is so)."""
    from ..solve.bets import BetError
    from ..solve.seat_chain import SeatError, SeatSolver
    from ..solve.seat_ruin import seat_games

    games = _count(games, "games", "games")
    players = figures.players
    chains = SeatSolver(machine, policy, solver, bet_table)
    out: dict = {}
    try:
        for seat in seats or players:
            rows = figures.rows[seat]

            def risk_at(pos: int, rows=rows, seat=seat) -> Fraction:
                caster = players[(players.index(seat) + pos) % len(players)]
                role = "caster" if pos == 0 else "setter"
                return sum((r.risk for r in rows if r.role == role and (r.casters is None or caster in r.casters)),
                           Fraction(0))
            out[seat] = seat_games(machine, figures.plans, players, seat, games, figures.stake, policy, risk_at,
                                   chains)
    except ArgumentError:  # names its argument (games): each front end words it
        raise
    except (SeatError, BetError) as exc:
        raise CommandError(str(exc)) from None
    return out


def risk(analysis, machine=None, *, bets=(), spread: bool = False, games=None, stop_loss=None, stop_win=None,
         tail=None, hand: bool = False, policy: str = "optimal", simulate=None, seed=None,
         at_table: dict | None = None) -> Risk:
    """The spread of each bet (`spread`), of one bettor's `bets` made together (BetOrders), the
    distribution of a session's net over `games` decisions or until `stop_loss` / `stop_win`
    (exact), and P(hand ≥ tail throws) (`hand`) or P(game ≥ tail throws), on `analysis` (from
    `analyse`) and its `machine` (needed for a tail). Each chain's size is checked against its
    bound before it is built (solve.spread, solve.distribution, solve.tails). With `simulate`
    (a count of sessions, or of hands or games for the tail, from `seed`, default 0), the
    session and the tail are also simulated, each figure beside its exact one (`.simulated`).
    `at_table`: each seat's net over N games at the table, the players and the plans
    (`seats_over_games`), as found."""
    from ..solve.bets import BetError
    from ..solve.distribution import SessionTooLarge, even_money, session
    from ..solve.spread import SpreadError, bet_spread, bet_spread_at, placements, plan_spread
    from ..solve.tails import TAIL_MARKS, TailTooLarge, lengths

    out = Risk()
    out.policy = policy
    out.at_table, out.at_table_players, out.at_table_plans = at_table or ({}, [], {})
    games = _count(games, "games", "games")
    tail = _count(tail, "tail", "throws")
    simulate = _simulations(simulate)
    table = analysis.bet_table
    try:
        if spread and table is not None:
            for name, figures in analysis.bets.items():
                out.bets[name] = bet_spread(table, name)
                if len(set(figures.pays.values())) > 1:  # a payout that depends on where it is made
                    out.by_place[name] = {table.states[g].describe(table.machine): bet_spread_at(table, name, g)
                                          for g in sorted(placements(table, name))}
        if bets:
            if table is None:
                raise CommandError(f"{analysis.ruleset} declares no bets")
            out.orders = order_texts(bets, at_throw=False)
            out.plan = plan_spread(table, out.orders)
        if games is not None or stop_loss is not None or stop_win is not None:
            if out.plan is not None:
                outcomes, staked = out.plan.outcomes, out.plan.staked
            else:  # the caster's game at even money, one stake a game
                f = analysis.figures
                given = "games" if games is not None else "stop_loss" if stop_loss is not None else "stop_win"
                caster = table.machine.ruleset.words.caster if table is not None else "the caster"
                outcomes, staked = even_money(f.win, f.lose, given, caster), Fraction(1)
            loss, win = _exact(stop_loss, "stop_loss"), _exact(stop_win, "stop_win")
            out.session = session(outcomes, games, loss, win, staked)
        if tail is not None:
            if machine is None:
                raise CommandError("the tail needs the compiled game")
            out.tail = lengths(machine, tail, hand=hand, policy=policy,
                               solver=table.solver if table is not None else None,
                               marks=[m for m in TAIL_MARKS if m < tail])
            out.tail_throws = tail
        if simulate is not None:
            out.session, out.tail = simulated_beside(
                machine if machine is not None else table.machine if table is not None else None,
                table.solver if table is not None else None, simulate, 0 if seed is None else seed,
                session=out.session, tail=out.tail, plan=out.plan, policy=policy)
    except ArgumentError:  # a bet ordered, named (play.wagers.OrderError): each front end words it
        raise
    except (SpreadError, SessionTooLarge, TailTooLarge, BetError) as exc:
        raise CommandError(str(exc)) from None
    except ValueError as exc:
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None
    return out


MAX_SIMULATED = 20_000_000  # decisions (a session) or throws (a tail) simulated beside the exact figures


def _simulations(value) -> int | None:
    """A count of simulated sessions (or hands): a whole number from 2 to 1,000,000, or None."""
    if value is None:
        return None
    if type(value) is not int:
        raise SettingError("simulate", f"{str(value)[:30]!r} is not a whole number of sessions")
    if not 2 <= value <= 1_000_000:
        raise SettingError("simulate", "must be between 2 and 1,000,000")
    return value


def simulated_beside(machine, solver, sessions: int, seed: int, *, session=None, tail=None, plan=None,
                     policy: str = "optimal") -> tuple:
    """(`session`, `tail`) — a SessionNet and a Lengths, each may be None — with the same
    session and tail simulated `sessions` times from `seed` on the compiled `machine` under
    `solver`'s policy (made here under `policy` when None), each figure set beside its exact
    one in `.simulated` (simulate.risk); a session of a `plan` (a Spread) draws its decisions
    from it. The draws — expected decisions of the session, or expected throws of the hand up
    to the tail, times the sessions — are judged against MAX_SIMULATED first."""
    from ..records import replace
    from ..simulate.risk import session_walks, tail_walks

    if machine is None:
        raise CommandError("the simulation needs the compiled game")
    sessions = _simulations(sessions)
    work = []
    if session is not None:
        work.append((sessions * session.expected_games, "sessions", "decisions"))
    if tail is not None:  # E[min(length, n)] = Σ_{m=1..n} P(length ≥ m), its logs kept for every m
        work.append((sessions * sum(10 ** x for x in tail.logs[1:]), f"{tail.what}s", "throws"))
    for amount, count, what in work:
        if amount > MAX_SIMULATED:
            raise _too_many(sessions, count, amount, what)
    if solver is None:
        from ..solve.markov import Solver, policy_for

        solver = Solver(machine)
        solver.set_policy(policy_for(machine, policy))
    if session is not None:
        session = replace(session, simulated=session_walks(session, sessions, seed, machine, solver, plan))
    if tail is not None:
        tail = replace(tail, simulated=tail_walks(tail, sessions, seed, machine, solver))
    return session, tail
