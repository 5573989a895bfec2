"""The figures of play over many games, for people and for scripts (`analyse --hand`,
`--bankroll`/`--goal`/`--stake`, `--bet SEAT:NAME=AMOUNT`, `--players`): the caster's hand, a
caster's purse to ruin or goal, each seat's net at the table and each seat's purse to its goal;
their tables and the JSON shape."""

from __future__ import annotations

from ..solve.analysis import Analysis
from .phrases import edge_percent, unstaked
from .tables import LONG_FRACTION, Table, both, decimal, exact, percent, shown


def session_tables(a: Analysis) -> list[Table]:
    """The hand (until the dice pass), the session to ruin or goal, and each seat's figures at
    the table, when asked for."""
    hand = [hand_table(a.hand, unstaked(a) if a.stake is not None else None)] if a.hand is not None else []
    return hand + ([ruin_table(a.ruin)] if a.ruin is not None else []) + \
        (seats_tables(a.seats) if a.seats is not None else []) + \
        ([table_ruin_table(a.table_ruin)] if a.table_ruin is not None else [])


def hand_json(h) -> dict:
    """A hand (solve.session.Hand) as `analyse --hand --json` gives it."""
    return {"games": exact(h.games), "throws": exact(h.throws), "net": exact(h.net), "wins": exact(h.wins),
            "passing": h.rule}


def hand_table(h, counted: str | None = None) -> Table:
    """The caster's hand (solve.session.Hand), until the dice pass; `counted`, how the net
    counts the games that end before any stake ("no_main as a push"), where some do."""
    # the labels in the unnamed first column, as in every table of figures (a CSV's `figure`)
    t = Table("The caster's hand (from taking the dice until they pass)", ["", "exact", "≈"])
    t.add("expected games", shown(h.games), decimal(h.games))
    t.add("expected throws", shown(h.throws), decimal(h.throws))
    t.add("expected games won", shown(h.wins), decimal(h.wins))
    t.add("caster's expected net, in stakes", shown(h.net), decimal(h.net))
    t.caption = (f"{h.rule[0].upper()}{h.rule[1:]}. Net: staking 1 at even money on every game of the hand "
                 f"(+1 a win, −1 a loss" + (f"; a game that ends before any stake, {counted}" if counted else "")
                 + ").")
    return t


def ruin_json(r) -> dict:
    """A session to ruin or goal (solve.session.Ruin) as `analyse --bankroll … --json` gives it."""
    return {"bankroll": exact(r.bankroll), "goal": exact(r.goal), "stake": exact(r.stake),
            "reach_goal": exact(r.reach_goal), "ruin": exact(r.ruin), "games": exact(r.games), "unit": r.unit}


def ruin_table(r) -> Table:
    """A session to ruin or goal (solve.session.Ruin)."""
    from .policy import whole

    # "≈": the chances as %, the expected games as a decimal (a count, not a %)
    t = Table(f"From {whole(r.bankroll)} to {whole(r.goal)} {r.units}, staking {whole(r.stake)} a game",
              ["", "exact", "≈"])
    t.add("reaches the goal", shown(r.reach_goal), percent(r.reach_goal))
    t.add("ruined (cannot stake again)", shown(r.ruin), percent(r.ruin))
    t.add("expected games", shown(r.games), decimal(r.games))
    t.caption = ("The caster casts every game and stakes at even money on it; a push changes nothing. "
                 "Ruined: the purse is below one stake.")
    return t


def seats_json(s) -> dict:
    """Each seat's figures at the table (solve.seats.Seats) as `analyse --bet SEAT:… --json`
    gives them: a list of rows per seat, and a round of the table where the players are given."""
    def maybe(value):
        return None if value is None else exact(value)

    rows = {name: [{"what": r.what, "bet": r.bet, "role": r.role, "side": r.side, "per_game": exact(r.per_game),
                    "per_throw": exact(s.per_throw(r)), "per_hand": maybe(r.per_hand), "edge": maybe(r.edge),
                    "risk_per_game": exact(r.risk), "wagers_per_game": exact(r.wagers), "maker": r.maker,
                    "casters": list(r.casters) if r.casters is not None else None, "carried": r.carried,
                    "why_not": r.why_not} for r in rows] for name, rows in s.rows.items()}
    out = {"plans": {name: {bet: exact(amount) for bet, amount in plan.items()} for name, plan in s.plans.items()},
           "stake": exact(s.stake), "players": s.players, "throws_per_game": exact(s.throws),
           "games_per_hand": maybe(s.games_per_hand), "passing": s.passing, "seats": rows,
           "no_round": s.why_no_round}
    if s.per_round is not None:
        out["round"] = {"per_round": {name: exact(v) for name, v in s.per_round.items()},
                        "per_game": {name: exact(v) for name, v in s.per_game_of_round().items()},
                        "bank": exact(s.bank_per_round), "box": exact(s.box_per_round)}
    return out


# each figure says what it is per: the nets per game, throw and hand; the edge per unit the seat
# puts at risk (a stake laid, a backer's stake, what a layer lays), the bets table's edge for a backer
SEAT_COLUMNS = ["bet", "as", "side", "net per game", "net per throw", "net per hand", "edge % per unit at risk"]


def seats_tables(s) -> list[Table]:
    """A table for each seat (solve.seats.Seats): each bet of its plan as caster and as setter,
    its stake, the fees it pays as the caster, the bets of others it takes; then a round of the
    table, where the players are given."""
    from ..play.wagers import money

    tables = []
    for name, rows in s.rows.items():
        plan = s.plans.get(name) or {}
        making = (", making " + ", ".join(f"{bet} for {money(amount)}" for bet, amount in plan.items()) +
                  " whenever it may") if plan else ""
        t = Table(f"{name}{making}: expected net in {s.units}", SEAT_COLUMNS)
        narrow = Table(t.title, SEAT_COLUMNS)
        notes = []
        for r, role in _seat_rows(rows):
            edge = edge_percent(r.edge) if r.edge is not None else "—"
            hand = shown(r.per_hand) if r.per_hand is not None else "—"
            t.add(r.what, role, r.side, shown(r.per_game), shown(s.per_throw(r)), hand, edge)
            narrow.add(r.what, role, r.side, decimal(r.per_game), decimal(s.per_throw(r)),
                       decimal(r.per_hand) if r.per_hand is not None else "—", edge)
            if r.why_not:
                notes.append(f"{name} makes no {r.bet} as {r.role}: {r.why_not}.")
            elif r.casters is not None:
                notes.append(f"{r.what} as {r.role}: when {' or '.join(r.casters)} casts.")
            elif r.per_hand is None and r.carried and s.games_per_hand is not None:
                notes.append(f"{r.what}: a wager can stay up from one game to the next and is played differently "
                             f"as caster and as setter, so the games of a hand are not alike; per game is the long "
                             f"run.")
        # what every seat's figures assume is said once, under the first table
        t.caption = "\n".join(([] if tables else [seats_caption(s)]) + list(dict.fromkeys(notes))) or None
        narrow.caption = "\n".join(filter(None, [t.caption, "Exact fractions: --format json."]))
        t.narrow = narrow
        tables.append(t)
    if s.why_no_round is not None and tables:
        for t in (tables[-1], tables[-1].narrow):
            t.caption = "\n".join(filter(None, [t.caption, f"No round of the table: {s.why_no_round}."]))
    if s.per_round is not None:
        n = len(s.players)
        t = Table(f"A round of the table: {', '.join(s.players)} each cast one hand ({shown(s.games_per_hand)} "
                  f"games a hand)", ["", "net per round", "net per game"])
        per_game = s.per_game_of_round()
        for name in s.players:
            t.add(name, shown(s.per_round[name]), shown(per_game[name]))
        if s.bank_per_round:
            t.add("the bank", shown(s.bank_per_round), shown(s.bank_per_round / (n * s.games_per_hand)))
        if s.box_per_round:
            t.add("the box (fees)", shown(s.box_per_round), shown(s.box_per_round / (n * s.games_per_hand)))
        t.caption = (f"Expected net in {s.units}: one hand as the caster and {n - 1} as a setter, every bet above "
                     f"and its other side included; per game: over the {n} hands of the round.")
        narrow = Table(t.title, t.columns, [[row[0], *(decimal(v) for v in values)] for row, values in zip(
            t.rows, _round_values(s))], t.caption + "\nExact fractions: --format json.")
        t.narrow = narrow
        tables.append(t)
    return tables


def _seat_rows(rows) -> list:
    """A seat's rows with the role each is shown under: a line played alike as caster and as
    setter (a bet with the bank, whoever holds the box) is shown once, as "either"."""
    def key(r):
        return (r.what, r.side, r.per_game, r.per_hand, r.risk, r.casters, r.why_not)

    casters = {key(r) for r in rows if r.role == "caster"}
    setters = {key(r) for r in rows if r.role == "setter"}
    both = casters & setters
    out, said = [], set()
    for r in rows:
        k = key(r)
        if k in both:
            if k not in said:
                said.add(k)
                out.append((r, "either"))
            continue
        out.append((r, r.role))
    return out


def _round_values(s) -> list:
    """The numbers of the round's rows, in order (for its narrow form)."""
    n, games = len(s.players), s.games_per_hand
    out = [(s.per_round[name], s.per_round[name] / (n * games)) for name in s.players]
    for value in (s.bank_per_round, s.box_per_round):
        if value:
            out.append((value, value / (n * games)))
    return out


def seats_caption(s) -> str:
    """What each seat's figures assume, and how they count."""
    from ..play.wagers import money

    stakes = (f"every player stakes {money(s.stake)} a game with the bank" if s.against == "bank" else
              f"each setter stakes {money(s.stake)} a game against the caster")
    hand = (f"per hand: a hand of the box ({shown(s.games_per_hand)} games), the seat's own as caster, another's "
            f"as setter" if s.games_per_hand is not None else "the dice never pass, so there is no hand")
    return (f"Each bet is made whenever the table allows, for its amount (what the seat puts at risk: a backer's "
            f"stake, what a layer lays; a bet that backs the stake or another at most that times its multiple), "
            f"one wager at a time; every bet is taken, no purse runs short, and {stakes}. Per game and per throw "
            f"are the long run; {hand}. Edge % per unit at risk: the seat's expected loss per unit it puts at "
            f"risk (negative: a gain): a backer's per unit staked (the bets table's edge), a layer's per unit "
            f"laid, the stake's per stake laid (a game that ends before any stake puts none at risk).")


def table_ruin_json(t) -> dict:
    """Each seat from a bankroll to a goal (solve.seats.TableRuin) as `analyse --bankroll …
    --bet SEAT:… --json` gives it: each seat's figures, or why there are none."""
    seats = {}
    for name in t.players:
        r = t.seats.get(name)
        if r is None:
            seats[name] = {"why_not": t.why_not[name]}
            continue
        seats[name] = {"reach_goal": exact(r.reach_goal), "ruin": exact(r.ruin), "games": exact(r.games),
                       "games_as": {role: exact(v) for role, v in r.games_as.items()},
                       "takes": [{"maker": maker, "bet": bet} for maker, bet in r.takes],
                       "final_purse": exact(r.final_purse),
                       "need": {role: exact(v) for role, v in r.need.items()}}
    return {"players": t.players, "plans": {name: {bet: exact(a) for bet, a in plan.items()}
                                            for name, plan in t.plans.items()},
            "bankroll": exact(t.bankroll), "goal": exact(t.goal), "stake": exact(t.stake), "units": t.units,
            "seats": seats}


def table_ruin_table(t) -> Table:
    """Each seat from a bankroll to a goal (solve.seats.TableRuin)."""
    from ..compile.passing import first_words
    from ..play.wagers import money

    table = Table(f"Each seat from {money(t.bankroll)} to {money(t.goal)} {t.units}",
                  ["seat", "reaches the goal", "expected games", "purse at the end"])
    narrow = Table(table.title, table.columns)
    notes = []
    for name in t.players:
        r = t.seats.get(name)
        if r is None:
            table.add(name, "—", "—", "—")
            narrow.add(name, "—", "—", "—")
            notes.append(f"{name}: not solved exactly: {t.why_not[name]}.")
            continue
        table.add(name, both(r.reach_goal), shown(r.games), shown(r.final_purse))
        narrow.add(name, percent(r.reach_goal), decimal(r.games), decimal(r.final_purse))
        plan = t.plans.get(name) or {}
        making = ", ".join(f"{bet} for {money(amount)}" for bet, amount in plan.items())
        needs = " and ".join(f"{money(v)} as {role}" for role, v in r.need.items())
        takes = ", ".join(f"{maker}'s {bet}" for maker, bet in r.takes)
        doing = [f"makes {making} whenever it may" if making else "", f"takes {takes}" if takes else ""]
        doing = " and ".join(filter(None, doing))
        notes.append(f"{name}{' ' + doing + ', and' if doing else ''} plays a game while the purse holds what "
                     f"the game could cost (at most {needs}).")
    stakes = (f"every player stakes {money(t.stake)} a game with the bank" if t.against == "bank" else
              f"each setter stakes {money(t.stake)} a game against the caster")
    head = (f"Each seat plays from {money(t.bankroll)} until its purse reaches {money(t.goal)} or can no longer "
            f"play a game as planned (ruined), while the others play on; {stakes}, the caster pays the fees out "
            f"of what he has left, the box passes as the rules say, and {first_words(t.first)}. Every bet is "
            f"taken and the others' purses never run short. Purse at the end: expected, in {t.units}.")
    if t.why_not:
        notes.append("simulate RULESET --players … --goal G (--purse B as the bankroll) plays such sessions on the "
                     "table, beside the exact figures where there are any.")
    table.caption = "\n".join([head, *notes])
    narrow.caption = table.caption + "\nExact fractions: --format json."
    figures = [x for r in t.seats.values() for x in (r.reach_goal, r.games, r.final_purse)]
    if any(len(exact(x)) > LONG_FRACTION for x in figures):  # fractions no one reads: the decimals alone
        return narrow
    table.narrow = narrow
    return table
