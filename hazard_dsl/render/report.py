"""Reports for `analyse` and `compare`: the JSON contract and the tables people read."""

from __future__ import annotations

from fractions import Fraction

from ..compile.machine import CHOICE, END, OUTCOMES, THROW, Machine, maximises
from ..model import readable
from ..solve.analysis import Analysis
from .tables import LONG_FRACTION, Cell, Table, approximate, both, decimal, exact, number_and, percent, shown, \
    with_decimal


# --------------------------------------------------------------------------- JSON contract


def comparison_json(entries, machines) -> dict:
    """`compare --json`: each variant's figures (`analysis_json` with its text as `name`) and,
    against the first, the throws on which each other variant's rules differ. `entries` and
    `machines` are `commands.compare.compare`'s [(text, Analysis)] and [(text, Machine)]."""
    base_name, base = machines[0]
    return {
        "rulesets": [dict(analysis_json(a), name=text) for text, a in entries],
        "differences": [{"base": base_name, "other": other_name, "rows": differences(base, other)}
                        for other_name, other in machines[1:]],
    }


def analysis_json(a: Analysis) -> dict:
    """The stable JSON shape: every probability and expectation an exact fraction string."""
    f = a.figures
    out = {
        "ruleset": a.ruleset,
        "file": a.file,
        "options": a.options,
        "policy": a.policy,
        "win": exact(f.win),
        "lose": exact(f.lose),
        "push": exact(f.push),
        "edge": exact(f.edge),
        "edge_per_stake_laid": exact(stake_edge(a)),
        "net_per_game": exact(f.win - f.lose),
        "expected_throws": exact(f.expected_throws),
        "labels": {label: exact(p) for label, p in f.labels.items()},
        "label_results": dict(a.label_results),
        "throws": {
            "median": a.median_throws,
            "percentile_99": a.high_percentile_throws,
            "distribution": {str(n): exact(p) for n, p in enumerate(a.throws) if p},
            "beyond": exact(a.throws_tail),
        },
    }
    if a.by_variable is not None:
        values = {}
        for value, (probability, g, joint) in a.by.items():
            values[str(value)] = {
                "probability": exact(probability),
                "win": exact(g.win), "lose": exact(g.lose), "push": exact(g.push), "edge": exact(g.edge),
                "labels": {label: exact(p) for label, p in g.labels.items()},
                "joint_labels": {label: exact(p) for label, p in joint.items()},
                "expected_throws": exact(g.expected_throws),
            }
        out["by"] = {"var": a.by_variable, "values": values}
    if a.bets:
        out["bets"] = {name: {
            "win": exact(f.win), "lose": exact(f.lose), "push": exact(f.push), "edge": exact(f.edge),
            "edge_per_decision": exact(f.edge_per_decision), "expected_throws": exact(f.expected_throws),
            "net": exact(f.net), "stake": exact(f.stake), "labels": {k: exact(v) for k, v in f.labels.items()},
        } for name, f in a.bets.items()}
    if a.fees:
        out["fees"] = {name: {"amount": exact(f.amount), "due_per_game": exact(f.due_per_game),
                              "cost_per_game": exact(f.cost_per_game), "payer": f.payer, "payee": f.payee}
                       for name, f in a.fees.items()}
    if a.combination is not None:
        c = a.combination
        out["combination"] = {"bets": {name: amount for name, amount in c.orders}, "staked": exact(c.staked),
                              "net": exact(c.net), "edge": exact(c.edge)}
    if a.by_option_skipped:
        out["by_option_skipped"] = list(a.by_option_skipped)
    if a.never_made:
        out["never_made"] = list(a.never_made)
    if a.game_by_option:
        # "edge" there is P(lose) − P(win) per game (kept as it was); "net_per_game" is what the text
        # shows, the caster's net per game in stakes, since under some values not every game is staked
        out["game_by_option"] = {option: {str(value): dict({k: exact(v) for k, v in figures.items()},
                                                           net_per_game=exact(figures["win"] - figures["lose"]))
                                          for value, figures in values.items()}
                                 for option, values in a.game_by_option.items()}
    if a.by_option:
        out["by_option"] = {option: {str(value): {bet: exact(edge) if edge is not None else None
                                                  for bet, edge in edges.items()}
                                     for value, edges in values.items()}
                            for option, values in a.by_option.items()}
    if a.dice is not None and not a.dice.fair:
        out["dice"] = {"die1": [exact(p) for p in a.dice.faces(1)], "die2": [exact(p) for p in a.dice.faces(2)]}
    if a.recast is not None:
        r = a.recast
        out["recast"] = {
            "off": exact(r["chance"]), "casts_per_game": exact(r["casts_per_game"]),
            "win_if_both": None if r["win_if_both"] is None else exact(r["win_if_both"]),
            "choices": [{"phase": row["state"].phase, "values": dict(zip(r["variables"], row["state"].values)),
                         "win": exact(row["win"]),
                         "win_if_both": None if row["win_if_both"] is None else exact(row["win_if_both"]),
                         "alone": {f"die{die}_off": {str(face): exact(p) for face, p in faces.items()}
                                   for die, faces in sorted(row["alone"].items())}}
                        for row in r["states"]],
        }
    if a.hand is not None:
        out["hand"] = hand_json(a.hand)
    if a.ruin is not None:
        out["ruin"] = ruin_json(a.ruin)
    if a.seats is not None:
        out["seats"] = seats_json(a.seats)
    if a.table_ruin is not None:
        out["table_ruin"] = table_ruin_json(a.table_ruin)
    if a.stake is not None:
        bet = a.bets[a.stake["bet"]]
        out["stake"] = {"bet": a.stake["bet"], "edge": exact(bet.edge), "made_per_game": exact(a.stake["made_per_game"]),
                        "unmade": {label: exact(p) for label, p in a.stake["unmade"].items()}}
    if a.choices:
        out["choices"] = {}
        for variable, info in a.choices.items():
            entry = {str(v): {"win": exact(w), "edge": exact(e)} for v, (w, e) in info["values"].items()}
            entry["best"] = str(info["best"])
            out["choices"][variable] = entry
    return out


def hand_json(h) -> dict:
    """A hand (solve.session.Hand) as `analyse --hand --json` gives it."""
    return {"games": exact(h.games), "throws": exact(h.throws), "net": exact(h.net), "wins": exact(h.wins),
            "passing": h.rule}


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


def ruin_json(r) -> dict:
    """A session to ruin or goal (solve.session.Ruin) as `analyse --bankroll … --json` gives it."""
    return {"bankroll": exact(r.bankroll), "goal": exact(r.goal), "stake": exact(r.stake),
            "reach_goal": exact(r.reach_goal), "ruin": exact(r.ruin), "games": exact(r.games), "unit": r.unit}


# --------------------------------------------------------------------------- analyse


def session_tables(a: Analysis) -> list[Table]:
    """The hand (until the dice pass), the session to ruin or goal, and each seat's figures at
    the table, when asked for."""
    hand = [hand_table(a.hand, unstaked(a) if a.stake is not None else None)] if a.hand is not None else []
    return hand + ([ruin_table(a.ruin)] if a.ruin is not None else []) + \
        (seats_tables(a.seats) if a.seats is not None else []) + \
        ([table_ruin_table(a.table_ruin)] if a.table_ruin is not None else [])


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


def hand_table(h, counted: str | None = None) -> Table:
    """The caster's hand (solve.session.Hand), until the dice pass; `counted`, how the net
    counts the games that end before any stake ("no_main as a push"), where some do."""
    t = Table("The caster's hand (from taking the dice until they pass)", ["per hand", "exact", "≈"])
    t.add("expected games", shown(h.games), decimal(h.games))
    t.add("expected throws", shown(h.throws), decimal(h.throws))
    t.add("expected games won", shown(h.wins), decimal(h.wins))
    t.add("caster's expected net, in stakes", shown(h.net), decimal(h.net))
    t.caption = (f"{h.rule[0].upper()}{h.rule[1:]}. Net: staking 1 at even money on every game of the hand "
                 f"(+1 a win, −1 a loss" + (f"; a game that ends before any stake, {counted}" if counted else "")
                 + ").")
    return t


def ruin_table(r) -> Table:
    """A session to ruin or goal (solve.session.Ruin)."""
    t = Table(f"From {exact(r.bankroll)} to {exact(r.goal)} {r.units}, staking {exact(r.stake)} a game",
              ["", "exact", "%"])
    t.add("reaches the goal", shown(r.reach_goal), percent(r.reach_goal))
    t.add("ruined (cannot stake again)", shown(r.ruin), percent(r.ruin))
    t.add("expected games", shown(r.games), decimal(r.games))
    t.caption = ("The caster casts every game and stakes at even money on it; a push changes nothing. "
                 "Ruined: the purse is below one stake.")
    return t


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


def _odds(lose: Fraction, win: Fraction, compact: bool = False, approximate_only: bool = False) -> str:
    """The setter's chance against the caster's, as whole numbers (Chambers: 7,295 to 6,961);
    `compact` for a narrow column (7295:6961). In CSV, the ratio as one exact number (2053/1979)."""
    if not win or not lose:
        return "—"
    ratio = Fraction(lose) / Fraction(win)
    if approximate_only and ratio.numerator.bit_length() + ratio.denominator.bit_length() > 24:
        return number_and(f"{float(ratio):.4f}:1", exact(ratio))
    if ratio.numerator.bit_length() + ratio.denominator.bit_length() > 80:  # no whole numbers a person reads
        return number_and(f"≈ {approximate(ratio)} : 1", exact(ratio))
    if compact:
        return number_and(f"{ratio.numerator}:{ratio.denominator}", exact(ratio))
    return number_and(f"{ratio.numerator:,} : {ratio.denominator:,}", exact(ratio))


def _throws(n: int | None, a: Analysis) -> str:
    """A number of throws from the distribution (the median, the 99th percentile), or "more than N"
    when it lies beyond what was computed."""
    return f"more than {len(a.throws) - 1}" if n is None else str(n)


def options_text(options: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "none"


def analysis_header(a: Analysis) -> str:
    return (f"{a.ruleset} — {a.file}\n"
            f"options: {options_text(a.options)}; choices: {a.policy}")


EDGE_DIGITS = 3  # every edge is shown to the same precision, so they can be compared at a glance
EDGE_MEANS = ("edge: the expected loss per unit staked (per stake laid: a game that ends before any stake does "
              "not count), in % of the stake. For the game, the caster's at even money: P(lose) − P(win), where "
              "every game lays a stake. For a bet, the bettor's, at the bet's own payouts and commission.")


def stake_bet(a: Analysis) -> str | None:
    """The table's stake bet (`money: stake`) where it was analysed, else None."""
    if a.stake is not None:
        return a.stake["bet"]
    name = a.bet_table.machine.ruleset.table.stake if a.bet_table is not None else None
    return name if name in a.bets else None


def stake_edge(a: Analysis) -> Fraction:
    """The edge money meets on the game: the stake bet's, per stake laid (the bets table's, and
    each seat's stake at the table: solve.seats), or without one, the caster's at even money on
    every game, P(lose) − P(win), each game laying one stake."""
    name = stake_bet(a)
    return a.bets[name].edge if name is not None else a.figures.edge


def edge_percent(value: Fraction) -> str:
    return percent(value, EDGE_DIGITS)


# how a game that ends before any stake is counted in the game's own figures, by its result
UNSTAKED_COUNTED = {"win": "a win", "lose": "a loss", "push": "a push"}


def label_words(a: Analysis, label: str) -> str:
    """A label in the ruleset's words ("no main" for no_main): prose reads no identifier."""
    table = a.bet_table
    return table.machine.ruleset.label_words(label) if table is not None else " ".join(label.split("_"))


def unstaked(a: Analysis) -> str:
    """The endings that come before any stake, and how the game's figures count them:
    "no main as a push" (the history sheet), "bad main as a loss" (Cotton, first_throw=lose)."""
    return ", ".join(f"{label_words(a, label)} as {UNSTAKED_COUNTED.get(a.label_results.get(label), 'it ends')}"
                     for label in a.stake["unmade"])


def analysis_tables(a: Analysis, show_throws: bool = False) -> list[Table]:
    f = a.figures
    summary = Table("The caster's game (probabilities per game)", ["", "exact", "%"])
    summary.add("win", shown(f.win), percent(f.win))
    summary.add("lose", shown(f.lose), percent(f.lose))
    summary.add("push", shown(f.push), percent(f.push))
    edge = stake_edge(a)
    if a.stake is None and edge == f.edge:  # every game lays a stake at even money: one figure
        summary.add("edge", shown(f.edge), edge_percent(f.edge))
    else:
        # some games end before any stake is laid (or the stake is not at even money): the edge
        # that money meets is the stake's, per stake laid; the game's own figure, per game, is
        # a net, and says how it counts the games without a stake
        name = stake_bet(a)
        summary.add(f"edge of the {name} (per {name} laid)", shown(edge), edge_percent(edge))
        if a.stake is not None:
            unmade = sum(a.stake["unmade"].values(), Fraction(0))
            summary.add(f"games ending before any {name} ({', '.join(label_words(a, u) for u in a.stake['unmade'])})",
                        shown(unmade),
                        percent(unmade))
        counted = unstaked(a) if a.stake is not None else "at even money"
        summary.add(f"caster's net per game, in stakes ({counted})", shown(f.win - f.lose),
                    edge_percent(f.win - f.lose))
    summary.add("setter : caster (odds against the caster)", _odds(f.lose, f.win), "")
    summary.add("expected throws per game", shown(f.expected_throws), decimal(f.expected_throws))
    summary.add("median throws per game", _throws(a.median_throws, a), "")
    summary.add("99th percentile of throws per game", _throws(a.high_percentile_throws, a), "")
    summary.caption = EDGE_MEANS
    if a.stake is not None:
        name = a.stake["bet"]
        summary.caption += (f"\nA {name} is laid in {percent(a.stake['made_per_game'])} of games; the others end "
                            f"in {' or '.join(label_words(a, u) for u in a.stake['unmade'])} before any {name} is "
                            f"laid, so no money changes hands. "
                            f"The edge is the {name}'s, per {name} laid, as in the bets below and each seat's "
                            f"{name} at the table; the caster's net per game counts every game at even money, "
                            f"{unstaked(a)}.")
    labels = Table("Outcomes by label (probability per game)", ["label", "result", "exact", "%"])
    for label, p in f.labels.items():
        labels.add(label, a.label_results.get(label, ""), shown(p), percent(p))
    tables = [summary, labels]
    if a.by_variable is not None:
        tables.append(by_table(a))
    if a.choices:
        for variable, info in a.choices.items():
            t = Table(f"Choices: the {info['chooser']} chooses {variable}",
                      [variable, "caster wins", "win %", "edge", "edge %"])
            for value, (w, e) in info["values"].items():
                # in CSV the value alone, and "yes" in a column of its own
                mark = Cell(f"{value} (best)", [("", str(value)), (" best", "yes")]) if value == info["best"] \
                    else str(value)
                t.add(mark, shown(w), percent(w), shown(e), edge_percent(e))
            best = "highest" if maximises(info["chooser"]) else "lowest"
            t.caption = f"best: what the {info['chooser']} chooses, the {best} chance for the caster."
            tables.append(t)
    if a.recast is not None:
        tables.append(recast_table(a))
    if a.bets or a.never_made:
        tables += bet_tables(a)
    if a.fees:
        tables.append(fee_table(a))
    tables += money_tables(a)
    tables += session_tables(a)
    if show_throws:
        t = Table("How many throws a game takes", ["throws", "exact", "%", "cumulative %"])
        cumulative = Fraction(0)
        for n, p in enumerate(a.throws):
            cumulative += p
            if p:
                t.add(n, shown(p), percent(p), percent(cumulative))
        t.caption = f"beyond {len(a.throws) - 1} throws: {percent(a.throws_tail, 3)}"
        tables.append(t)
    return tables


def recast_table(a: Analysis) -> Table:
    """Dice that land off: where the off die is recast alone, and what the choice is worth."""
    r = a.recast
    faces = r["faces"]
    chooser = " or ".join(r["choosers"]) or "the rules"
    t = Table(f"Dice that land off (each die 1 time in {_one_in(r['chance'])}): the {chooser}'s recasts",
              ["where", "wins %", "if both %", "recast the off die alone when the other shows"])
    for row in r["states"]:
        state = row["state"]
        values = ", ".join(f"{n} {v}" for (n, initial), v in zip(r["variables"].items(), state.values) if v != initial)
        where = f"{state.phase} ({values})" if values else state.phase
        t.add(where, percent(row["win"]), "" if row["win_if_both"] is None else percent(row["win_if_both"]),
              _alone_text(row["alone"], faces))
    lines = ["wins %: the caster's chance from there with these recasts; if both %: taking up both dice "
             "every time. A die recast alone keeps the other's face; both dice off are always recast together."]
    if r["win_if_both"] is not None:
        gain = a.figures.win - r["win_if_both"]
        lines.append(f"With these recasts the caster wins {percent(a.figures.win)} of games, against "
                     f"{percent(r['win_if_both'])} if the dice are always taken up together: the choice is worth "
                     f"{decimal(gain * 100)} points.")
    lines.append(f"Casts of the dice per game, recasts included: {decimal(r['casts_per_game'])} "
                 f"(throws that stand: {decimal(a.figures.expected_throws)}).")
    t.caption = " ".join(lines)
    return t


def _one_in(chance: Fraction) -> str:
    return str(chance.denominator) if chance.numerator == 1 else f"{1 / chance:.3g}"


def _alone_text(alone: dict, faces) -> str:
    """"cater, cinque, sice" (the same whichever die is off), or each die's faces apart."""
    def words(chances: dict) -> str:
        return ", ".join(faces[f - 1] + ("" if p == 1 else f" ({percent(p)} of the time)")
                         for f, p in sorted(chances.items())) or "never"

    if not alone:
        return "never: both are taken up again"
    if alone.get(1) == alone.get(2):
        return words(alone[1])
    return "; ".join(f"{'first' if die == 1 else 'second'} die off: {words(alone.get(die, {}))}" for die in (1, 2))


def _units(a: Analysis) -> str:
    """The money unit's plural ("shillings", "pence")."""
    return a.bet_table.machine.ruleset.money_units if a.bet_table is not None else "units"


def ratio(net: Fraction) -> str:
    """A win's net per unit staked as the layout says it: 7/6 → "7 to 6", 29 → "29 to 1"."""
    net = Fraction(net)
    return f"{net.numerator} to {net.denominator}"


def pays_text(bet, f) -> str:
    """What a bet pays, from what its wins really paid: one payout, several (the field pays
    1, 2 or 3 to 1), or one that depends on where it is made (a table follows)."""
    if len(set(f.pays.values())) > 1:
        text = "varies (below)"
    elif f.win_pays:
        nets = sorted(f.win_pays, key=lambda n: (-f.win_pays[n], n))
        text = ", ".join(ratio(n) for n in nets[:4]) + (", …" if len(nets) > 4 else "")
    elif f.pays:
        text = ratio(next(iter(f.pays.values())))
    else:
        text = "never wins"
    if bet.commission is not None and bet.commission.rate:
        # "of bet" or "of win": one marker never stands for two kinds of commission
        text += f" less {percent(bet.commission.rate, 0)} of {bet.commission.of}"
    return text


def bet_tables(a: Analysis) -> list[Table]:
    ruleset = a.bet_table.machine.ruleset
    unit = ruleset.money_unit
    sides = {f"{b.backer} : {b.layer}" for b in ruleset.bets.values()}
    shared = len(sides) == 1
    title = (f"Bets ({next(iter(sides)).replace(' : ', ' against ')}; " if shared else "Bets (") + \
        f"per {unit} staked; probabilities per bet made)"
    columns = ["bet", *([] if shared else ["backer : layer"]), "pays", "win %", "lose %", "push %", "edge",
               "edge %", "per decision %", "throws"]
    t = Table(title, columns)
    for name, f in a.bets.items():
        bet = ruleset.bets[name]
        # "caster :" stays one unit: a narrow column breaks it "caster :" / "setter", not in three
        parties = Cell(f"{bet.backer}\u00a0: {bet.layer}", [("", f"{bet.backer} : {bet.layer}")])
        t.add(name, *([] if shared else [parties]), pays_text(bet, f), percent(f.win),
              percent(f.lose), percent(f.push), shown(f.edge), edge_percent(f.edge),
              edge_percent(f.edge_per_decision), decimal(f.expected_throws, 2))
    stake = a.stake["bet"] if a.stake is not None else None  # some games lay none: it is said which
    notes = [f"edge: the backer's expected loss per {unit} staked on a bet made"
             + (f" (the {stake}'s: per {stake} laid, as in the caster's game above)" if stake else "")
             + "; per decision: per bet decided, pushes left out. throws: the expected number from when the bet "
               "is made until it is decided."]
    commissions = sorted({(percent(b.commission.rate, 0), b.commission.of) for b in ruleset.bets.values()
                          if b.commission is not None and b.commission.rate})
    for rate, of in commissions:
        notes.append(f"less {rate} of {of}: a commission of {rate} of "
                     f"{'the amount bet' if of == 'bet' else 'what the bet wins'}.")
    if a.never_made:
        notes.append(f"Not offered under these options (their made: condition never holds): "
                     f"{', '.join(a.never_made)}.")
    machine = a.bet_table.machine
    order = list(ruleset.phases)
    for name, f in a.bets.items():
        if f.made_per_game < 1 and not (a.stake is not None and a.stake["bet"] == name):  # the stake: said above
            # where it is made, in words: the phases of the game its made: condition holds in
            made = a.bet_table.bet(name).made
            phases = sorted({machine.states[i].phase for i in made}, key=lambda p: order.index(p) if p in order else 0)
            words = ruleset.bet_words(name)
            notes.append(f"{words[:1].upper()}{words[1:]} is made only in {percent(f.made_per_game)} of games: those "
                         f"that reach the {' or the '.join(readable(p) for p in phases)}; games that end before are "
                         f"not staked, so its edge is not the game's.")
    t.caption = "\n".join(notes + ["Exact win/lose/push: --format json."])
    # narrow, without the edge column: one line says where both are
    t.narrow = t.without(["edge"], "")
    t.narrow.caption = "\n".join(notes + ["Exact win/lose/push and edges: --format json."])
    tables = [t]
    for name, f in a.bets.items():
        if len(set(f.pays.values())) > 1:
            tables.append(_pays_table(a, name, f))
    return tables


def fee_table(a: Analysis) -> Table:
    t = Table(f"Fees (in {_units(a)})", ["fee", "payer → payee", "amount", "falls due (% of games)",
                                     "cost per game"])
    for name, fee in a.fees.items():
        t.add(name, f"{fee.payer} → {fee.payee}", shown(fee.amount), percent(fee.due_per_game),
              decimal(fee.cost_per_game))
    t.caption = "\n".join([f"{name}: {fee.description}" for name, fee in a.fees.items() if fee.description]
                          + ["Exact shares and costs: --format json."])
    return t


def money_tables(a: Analysis) -> list[Table]:
    """Each option's effect on the game, the bets made together, and each option's effect on the bets."""
    tables = []
    same = []  # options under which every value plays the same game here: one line, not a table
    for option, values in a.game_by_option.items():
        if len({tuple(sorted(f.items())) for f in values.values()}) <= 1:
            same.append(option)
            continue
        # per game, every game counted as its result says: under a value that ends some games before
        # any stake (a first throw that loses the turn), that is not the stake's edge, so it is a net
        t = Table(f"Option {option}: the caster's game under each value", [option, "win %", "lose %",
                                                                           "net per game %", "throws"])
        for value, f in values.items():
            mark = f"{value} (this analysis)" if str(a.options.get(option)) == str(value) else str(value)
            t.add(mark, percent(f["win"]), percent(f["lose"]), edge_percent(f["win"] - f["lose"]),
                  decimal(f["expected_throws"]))
        t.caption = ("Net per game: the caster's expected net, in % of a stake at even money, P(win) − P(lose); "
                     "each bet's edge (the stake's: per stake laid) under each value: the bets' option tables. The "
                     "other options as above. Exact fractions: --format json.")
        tables.append(t)
    if same:
        line = (f"The caster's game is the same under every value of {', '.join(same)} here (the other options "
                f"as above).")
        if tables:
            tables[-1].caption += "\n" + line
        else:
            tables.append(Table("Options", ["note"], [[line]]))
    if a.combination is not None:
        c = a.combination
        t = Table(f"These bets together (in {_units(a)})", ["bets", "expected staked", "expected net", "edge", "edge %"])
        t.add(" + ".join(f"{n}={amount}" for n, amount in c.orders), shown(c.staked), shown(c.net), shown(c.edge),
              edge_percent(c.edge))
        # solve.bets.combination: each bet made once, one that backs another as often as it may be
        t.caption = (f"Expected staked and net: each bet made once (one that backs another, each time that one is "
                     f"made, where it may be). edge: the expected loss per {a.bet_table.machine.ruleset.money_unit} "
                     f"of all the money staked.")
        tables.append(t)
    if a.by_option:
        quiet = []
        for option, values in a.by_option.items():
            changed = [bet for bet in a.bets if len({edges.get(bet) for edges in values.values()}) > 1]
            if not changed:
                quiet.append(option)
                continue
            t = Table(f"Option {option}: the edge % of each bet it changes", ["bet", *(f"{option}={v}" for v in values)])
            for bet in changed:
                t.add(bet, *(edge_percent(edges[bet]) if edges.get(bet) is not None else "not offered"
                             for edges in values.values()))
            t.caption = ("Edge: the backer's expected loss per unit staked on a bet made (the stake's: per stake "
                         "laid). Exact edges: --format json.")
            tables.append(t)
        notes = []
        if quiet:
            notes.append(f"No bet's edge depends on: {', '.join(quiet)}.")
        if a.by_option_skipped:
            notes.append(f"Not computed (too many option values to try each): {', '.join(a.by_option_skipped)}; "
                         f"use --option NAME=VALUE to see one.")
        if notes and tables:
            tables[-1].caption = "\n".join(([tables[-1].caption] if tables[-1].caption else []) + notes)
        elif notes:
            tables.append(Table("Options", ["note"], [[n] for n in notes]))
    return tables


def _pays_table(a: Analysis, name: str, f) -> Table:
    """What a bet pays where it is made; a grid when two variables vary (Hoyle's odds table)."""
    machine = a.bet_table.machine
    states = {g: machine.states[g] for g in f.pays}
    varying = [k for k, v in enumerate(machine.variables) if len({s.values[k] for s in states.values()}) > 1]

    if len(varying) == 2:
        row_var, col_var = varying
        rows = sorted({s.values[row_var] for s in states.values()})
        cols = sorted({s.values[col_var] for s in states.values()})
        grid = {(s.values[row_var], s.values[col_var]): f.pays[g] for g, s in states.items()}
        t = Table(f"What {name} pays, {machine.variables[row_var]} by {machine.variables[col_var]}",
                  [f"{machine.variables[row_var]} \\ {machine.variables[col_var]}", *map(str, cols)])
        for r in rows:
            t.add(r, *(ratio(grid[(r, c)]) if (r, c) in grid else "—" for c in cols))
        return t
    if len(varying) == 1 and len({s.phase for s in states.values()}) == 1:
        # by the one variable that varies ("point"), not "point with point = 4": a phase and a
        # variable may share a name
        (k,) = varying
        t = Table(f"What {name} pays, by {machine.variables[k]}", [machine.variables[k], "pays"])
        for g, net in sorted(f.pays.items(), key=lambda gn: states[gn[0]].values[k]):
            t.add(states[g].values[k], ratio(net))
        t.align = ["right", "right"]
        return t
    t = Table(f"What {name} pays", ["where", "pays"])
    for g, net in f.pays.items():
        t.add(states[g].describe(machine), ratio(net))
    return t


def by_table(a: Analysis) -> Table:
    """One row per value: P(value), each label as a share of all games (joint), and the caster's
    chance of winning given the value — the layout of the games.porg.es table."""
    var = a.by_variable
    labels = list(a.figures.labels)

    def pct(x):  # the title says these are percentages: no % sign, so the table fits 80 columns
        return percent(x).rstrip("%")

    # the edge is per stake laid: a value whose games all end before any stake has none, and the
    # row 'all' is the stake's edge, where some games lay no stake (not P(lose) − P(win) per game)
    unmade = set(a.stake["unmade"]) if a.stake is not None else set()

    def edge(g, joint) -> str:
        if unmade and {label for label, p in joint.items() if p} <= unmade:
            return "—"
        return edge_percent(g.edge).rstrip("%")

    t = Table(f"By {var}: percentages of all games, except where | {var} (given {var})",
              [var, f"P({var})", *labels, f"win | {var}", f"edge | {var}", "setter:caster", f"throws | {var}"])
    for value, (probability, g, joint) in a.by.items():
        t.add(value, pct(probability), *(pct(joint.get(label, 0)) for label in labels), pct(g.win),
              edge(g, joint), _odds(g.lose, g.win, True), decimal(g.expected_throws, 2))
    f = a.figures
    t.add("all", "100", *(pct(f.labels[label]) for label in labels), pct(f.win),
          edge_percent(stake_edge(a) if a.stake is not None else f.edge).rstrip("%"), _odds(f.lose, f.win, True),
          decimal(f.expected_throws, 2))
    t.caption = (f"Label columns are shares of all games (P({var} = v and the label), so each column sums to the "
                 f"row 'all'); win, edge (%) and expected throws are given {var} = v. The edge is per stake laid"
                 + (f" (—: no {a.stake['bet']} is laid; the row 'all': the {a.stake['bet']}'s edge)" if unmade else "")
                 + ". Exact fractions: --format json.")
    return t


# --------------------------------------------------------------------------- compare


def compare_tables(entries: list[tuple[str, Analysis]], columns: int | None = None) -> list[Table]:
    """The rulesets side by side, with exact fractions; for a terminal too narrow for them
    (tables.render chooses), a `narrow` form in percentages, the options that differ and the
    long names under the table, whose caption says where the exact figures are. (`columns` is
    no longer used: the renderer knows the width.)"""
    table = _side_by_side(entries, compact=False)
    table.narrow = _side_by_side(entries, compact=True)
    return [table]


def _side_by_side(entries: list[tuple[str, Analysis]], compact: bool) -> Table:
    names = [name for name, _ in entries]
    t = Table("Side by side", ["", *names], short=short_names(names))
    if compact:
        keys = list(dict.fromkeys(k for _, a in entries for k in a.options))
        differ = [k for k in keys if len({str(a.options.get(k)) for _, a in entries}) > 1]
        rows = [
            ("win %", lambda a: percent(a.figures.win)),
            ("lose %", lambda a: percent(a.figures.lose)),
            ("push %", lambda a: percent(a.figures.push)),
            ("edge %", lambda a: edge_percent(a.figures.edge)),
            ("setter : caster", lambda a: _odds(a.figures.lose, a.figures.win, True, approximate_only=True)),
            ("expected throws", lambda a: decimal(a.figures.expected_throws)),
            ("median throws", lambda a: _throws(a.median_throws, a)),
            ("99th percentile throws", lambda a: _throws(a.high_percentile_throws, a)),
        ]
    else:
        rows = [
            ("win", lambda a: both(a.figures.win)),
            ("lose", lambda a: both(a.figures.lose)),
            ("push", lambda a: both(a.figures.push)),
            ("edge", lambda a: both(a.figures.edge, EDGE_DIGITS)),
            ("setter : caster", lambda a: _odds(a.figures.lose, a.figures.win)),
            ("expected throws", lambda a: with_decimal(a.figures.expected_throws)),
            ("median throws", lambda a: _throws(a.median_throws, a)),
            ("99th percentile throws", lambda a: _throws(a.high_percentile_throws, a)),
            ("options", lambda a: options_text(a.options)),
        ]
    two_edges = any(a.stake is not None or stake_edge(a) != a.figures.edge for _, a in entries)
    if two_edges:
        # Some variant ends games before any stake is laid (a turn lost on the first throw): its
        # game's P(lose) − P(win) counts those games too, a figure per game, not per stake, so it
        # is shown as the caster's net per game, and the edge money meets is the stake's, per
        # stake laid. Where the stake is laid in every game at even money the two are one figure.
        at = next(k for k, (title, _) in enumerate(rows) if title.startswith("edge"))
        rows[at] = ("caster's net per game %" if compact else "caster's net per game",
                    (lambda a: edge_percent(a.figures.win - a.figures.lose)) if compact
                    else (lambda a: both(a.figures.win - a.figures.lose, EDGE_DIGITS)))
        rows.insert(at, ("edge per stake laid %" if compact else "edge per stake laid",
                         (lambda a: edge_percent(stake_edge(a))) if compact
                         else (lambda a: both(stake_edge(a), EDGE_DIGITS))))
    for title, cell in rows:
        t.add(title, *(cell(a) for _, a in entries))
    loaded = [(name, a.dice) for name, a in entries if a.dice is not None and not a.dice.fair]
    if loaded:  # the loadings in words go under the table, where they have room
        t.add("dice", *("loaded" if a.dice is not None and not a.dice.fair else "fair" for _, a in entries))
    if any(a.recast is not None for _, a in entries):
        t.add("dice off (each die)", *(f"1 in {_one_in(a.recast['chance'])}" if a.recast is not None else "never"
                                       for _, a in entries))
    labels: list[str] = []
    for _, a in entries:
        labels += [label for label in a.figures.labels if label not in labels]
    shared = [label for label in labels if all(label in a.figures.labels for _, a in entries)]
    for label in labels:
        t.add(f"label {label}" + (" %" if compact else "") + ("" if label in shared else " *"),
              *((percent if compact else both)(a.figures.labels[label]) if label in a.figures.labels else "—"
                for _, a in entries))
    notes = ["* not a label of every ruleset"] if len(shared) != len(labels) else []
    if two_edges:
        counted = "; ".join(f"{name}: {unstaked(a)}" for name, a in entries if a.stake is not None)
        notes.append("edge per stake laid: the stake's edge, where some games end before any stake is laid; the "
                     "caster's net per game, in stakes at even money, counts every game" +
                     (f" ({counted})." if counted else "."))
    for name, dice in loaded:
        notes.append(f"Dice of {name}: {dice_text(dice)} (each face's chance).")
    if compact:
        notes.append("Percentages, to fit the terminal: the exact fractions are in --format json (or a wider "
                     "terminal).")
        said = [f"{name}: {', '.join(f'{k}={a.options[k]}' for k in differ if k in a.options)}"
                for name, a in entries if any(k in a.options for k in differ)]
        if said:
            notes.append("Options that differ: " + "; ".join(said) + ".")
    bets: list[str] = []
    for _, a in entries:
        bets += [name for name in a.bets if name not in bets]
    for name in bets:
        t.add(f"bet {name}: edge", *(edge_percent(a.bets[name].edge) if name in a.bets else "—" for _, a in entries))
    fees: list[str] = []
    for _, a in entries:
        fees += [name for name in a.fees if name not in fees]
    for name in fees:
        t.add(f"fee {name}: cost per game", *(number_and(f"{decimal(a.fees[name].cost_per_game)} {_units(a)}",
                                                         decimal(a.fees[name].cost_per_game)) if name in a.fees
                                             else "—" for _, a in entries))
    notes.append(EDGE_MEANS)
    t.caption = "\n".join(notes)
    return t


def short_names(names: list[str]) -> dict:
    """Short headings for the long names of variants, for a narrow terminal: the ruleset's own
    name and the variant's number ("french (2)" for french:not_a_nick=void, the second)."""
    from pathlib import PurePath

    out = {}
    for k, name in enumerate(names, 1):
        if len(name) > 10:
            base = name.split(":")[0] if ":" in name and not PurePath(name).suffix == ".yaml" else name
            out[name] = f"{PurePath(base).stem or base}\u00a0({k})"  # one unit: never "tavern" / "(3)"
    return out


def dice_text(dice) -> str:
    """Loaded dice in a few words: "fair", "both 1-3: 1/12, 4-6: 1/4", "die 2: …"."""
    if dice is None or dice.fair:
        return "fair"

    def faces(chances) -> str:
        if chances is None:
            return "fair"
        groups: list = []  # runs of faces with the same chance
        for face, p in enumerate(chances, 1):
            if groups and groups[-1][2] == p:
                groups[-1][1] = face
            else:
                groups.append([face, face, p])
        return ", ".join(f"{a}{'-' + str(b) if b != a else ''}: {p}" for a, b, p in groups)

    if dice.die1 == dice.die2:
        return f"both {faces(dice.die1)}"
    return f"die 1 {faces(dice.die1)}; die 2 {faces(dice.die2)}"


def describe_step(machine: Machine, state, step) -> str:
    """What a throw does, in terms comparable across machines."""
    after = machine.states[step.target]
    if after.kind == END:
        return f"{after.result} {after.label}"
    if step.target == state.index:
        return "throw again"
    changed = [f"{n} = {v}" for n, v, w in zip(machine.variables, after.values, state.values) if v != w]
    return f"go to {after.phase}" + (f" ({', '.join(changed)})" if changed else "")


def _start(machine: Machine) -> str:
    state = machine.states[machine.start.target]
    if state.kind == CHOICE:
        offered = ", ".join(str(v) for v, _ in state.alternatives)
        return f"the {state.chooser} chooses {state.variable} from {offered}"
    return f"throw in {state.phase}"


def _where(machine: Machine, states) -> str:
    """The variable values, among `states`, that matter: "main ∈ {5, 7, 9}"."""
    parts = []
    for position, name in enumerate(machine.variables):
        if not _matters(machine, states[0].phase, name):
            continue
        values = sorted({s.values[position] for s in states})
        parts.append(f"{name} = {values[0]}" if len(values) == 1 else f"{name} ∈ {{{', '.join(map(str, values))}}}")
    return "; ".join(parts) or "always"


def _throw_keys(describe_a, describe_b) -> list:
    """(throw, what base does, what other does) for each throw that differs, as totals where
    every throw of a total does the same, and as dice ("2-2", "1-3") where the rules read the
    faces (a doublet nicks, a 4 of 1-3 does not)."""
    by_total: dict = {}
    for k, (d1, d2) in enumerate(OUTCOMES):
        by_total.setdefault(d1 + d2, []).append(((d1, d2), describe_a(k), describe_b(k)))
    out = []
    for total, throws in sorted(by_total.items()):
        pairs = {(a, b) for _, a, b in throws}
        if len(pairs) == 1:
            (a, b), = pairs
            if a != b:
                out.append((str(total), a, b))
            continue
        seen = {}
        for (d1, d2), a, b in throws:
            if a != b:
                seen.setdefault((min(d1, d2), max(d1, d2), a, b), None)
        out += [(f"{lo}-{hi}", a, b) for lo, hi, a, b in seen]
    return out


def differences(base: Machine, other: Machine) -> list[dict] | None:
    """Which throws do something different in which state, between two machines: a list of
    {phase, throws, when, base, other}, or None when their states cannot be matched.

    States are matched by phase name and variable values, so rulesets built with `extends`
    (or sharing names) line up; rows with the same difference are merged across states."""
    if base.variables != other.variables:
        return None
    index = {(s.phase, s.values): s for s in other.states if s.kind == THROW}
    merged: dict = {}
    matched = 0
    for state in base.states:
        if state.kind != THROW:
            continue
        twin = index.get((state.phase, state.values))
        if twin is None:
            continue
        matched += 1
        for throw, a, b in _throw_keys(lambda k: describe_step(base, state, state.steps[k]),
                                       lambda k: describe_step(other, twin, twin.steps[k])):
            merged.setdefault((state.phase, throw, a, b), {})[state.index] = state
    if not matched:
        return None
    rows: list[dict] = []
    if _start(base) != _start(other):
        rows.append({"phase": "start", "throws": [], "when": "—", "base": _start(base), "other": _start(other)})
    base_phases = {s.phase for s in base.states if s.kind == THROW}
    other_phases = {s.phase for s in other.states if s.kind == THROW}
    for phase in sorted(base_phases ^ other_phases):
        rows.append({"phase": phase, "throws": [], "when": "any",
                     "base": "played" if phase in base_phases else "never played",
                     "other": "played" if phase in other_phases else "never played"})
    grouped: dict = {}  # the same difference for several throws makes one row
    for (phase, throw, a, b), states in merged.items():
        grouped.setdefault((phase, _where(base, list(states.values())), a, b), []).append(throw)
    for (phase, where, a, b), throws in sorted(grouped.items(), key=lambda kv: (kv[0][0], _throw_order(kv[1][0]))):
        rows.append({"phase": phase, "throws": sorted(throws, key=_throw_order), "when": where, "base": a, "other": b})
    return rows


def _throw_order(throw: str):
    return (int(throw), 0) if throw.isdigit() else (sum(map(int, throw.split("-"))), int(throw.split("-")[0]))


def comparison(labelled: list, machines: list) -> tuple:
    """What `compare` prints, and a notebook shows, for variants side by side: their figures
    (`labelled`: (label, Analysis) for each) and, for each after the first, the throws that do
    something different from the first (`machines` in the same order). Returns the header (the
    variants whose states do not match the first's, if any) and the tables."""
    tables = compare_tables(labelled)
    base_label, base = labelled[0][0], machines[0]
    unmatched = []
    for number, ((label, _), machine) in enumerate(zip(labelled[1:], machines[1:]), 2):
        table = rule_differences(base_label, base, label, machine, number)
        if table is None:
            unmatched.append(label)
        else:
            tables.append(table)
    header = None
    if unmatched:
        header = (f"No throw-by-throw comparison with {base_label} for {', '.join(unmatched)}: their states "
                  f"(phases and variables) do not match {base_label}'s.")
    return header, tables


def rule_differences(base_name: str, base: Machine, other_name: str, other: Machine,
                     number: int | None = None) -> Table | None:
    """The table of `differences`: which throws do something different in which state (`number`:
    the other's place among the variants compared, for its short heading)."""
    rows = differences(base, other)
    if rows is None:
        return None
    short = short_names([base_name] + ([""] * (number - 2) if number else []) + [other_name])
    t = Table(f"How {other_name} differs from {base_name}", ["phase", "throw", "when", base_name, other_name],
              short=short)
    for row in rows:
        t.add(row["phase"], ", ".join(row["throws"]) or "—", row["when"], row["base"], row["other"])
    if not t.rows:
        t.add("—", "—", "—", "the same", "the same")
    notes = []
    if base.dice != other.dice:
        notes.append(f"The dice differ: {base_name} {dice_text(base.dice)}; {other_name} {dice_text(other.dice)}. "
                     f"What a throw does is compared above; how often each throw comes is the dice's doing.")
    if recast_text(base) != recast_text(other):
        notes.append(f"Dice that land off: {base_name} {recast_text(base)}; {other_name} {recast_text(other)}.")
    t.caption = " ".join(notes) or None
    return t


def recast_text(machine: Machine) -> str:
    """Dice that land off, in a few words: "never", "each die 1 in 10, the caster recasts the off die
    alone or both"."""
    if machine.recast is None:
        return "never"
    return f"each die 1 in {_one_in(machine.recast.chance)}, {recast_how(machine)}"


def recast_how(machine: Machine) -> str:
    """What is recast when one die is off: "the caster recasts the off die alone or both"."""
    recast = machine.recast
    choosers = sorted({n.chooser for n in recast.nodes if n.kind == CHOICE})
    return (f"the {' or '.join(choosers)} recasts the off die alone or both" if choosers else
            "the off die is recast alone" if recast.nodes else "both dice are recast")


def _matters(machine: Machine, phase: str, variable: str) -> bool:
    """Whether a variable takes more than one value in a phase (only those are worth showing)."""
    position = machine.variables.index(variable)
    return len({s.values[position] for s in machine.states if s.phase == phase and s.kind == THROW}) > 1
