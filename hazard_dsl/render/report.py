"""The report of `analyse`: the JSON contract (`analysis_json`) and the tables people read
(`analysis_tables`): the caster's game, its labels, choices, dice that land off, the bets, fees,
each option's effect, a split by a variable. The figures of play over many games are
`render.seats`'s, the comparison of rulesets `render.comparison`'s, the words they share
`render.phrases`'s."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import factorial

from ..compile.machine import maximises
from ..model import readable
from ..solve.analysis import Analysis
from .phrases import EDGE_MEANS, edge_percent, label_words, odds_against, one_in, options_text, pays_text, ratio, \
    stake_bet, stake_edge, throws_text, units_of, unstaked
from .seats import hand_json, ruin_json, seats_json, session_tables, table_ruin_json
from .tables import Cell, Table, decimal, exact, percent, shown


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
        out["dice"] = {f"die{k}": [exact(p) for p in a.dice.faces(k)] for k in range(1, a.dice.count + 1)}
    if a.recast is not None:
        r = a.recast
        out["recast"] = {
            "off": exact(r["chance"]), "casts_per_game": exact(r["casts_per_game"]),
            "win_if_both": None if r["win_if_both"] is None else exact(r["win_if_both"]),
            "choices": [{"phase": row["state"].phase, "values": dict(zip(r["variables"], row["state"].values)),
                         "win": exact(row["win"]),
                         "win_if_both": None if row["win_if_both"] is None else exact(row["win_if_both"]),
                         "alone": {"_".join(f"die{d}" for d in dice) + "_off":
                                   {"-".join(map(str, kept)): exact(p) for kept, p in faces.items()}
                                   for dice, faces in sorted(row["alone"].items())}}
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


def analysis_header(a: Analysis) -> str:
    return (f"{a.ruleset} — {a.file}\n"
            f"options: {options_text(a.options)}; choices: {a.policy}")


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
    summary.add("setter : caster (odds against the caster)", odds_against(f.lose, f.win), "")
    summary.add("expected throws per game", shown(f.expected_throws), decimal(f.expected_throws))
    summary.add("median throws per game", throws_text(a.median_throws, a), "")
    summary.add("99th percentile of throws per game", throws_text(a.high_percentile_throws, a), "")
    summary.caption = EDGE_MEANS
    if not f.win and not f.lose:  # a game that only carries a layout's bets (Sic Bo's shake)
        summary.caption += "\nNo game is won or lost: every game ends in a push, and the money is in the bets below."
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
        labels.add(label_words(a, label), a.label_results.get(label, ""), shown(p), percent(p))  # words, as run's
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
    casts = (f"Casts of the dice per game, recasts included: {decimal(r['casts_per_game'])} "
             f"(throws that stand: {decimal(a.figures.expected_throws)}).")
    if not r["choosers"]:  # the rules say what is recast: no choice to show state by state
        t = Table(f"Dice that land off (each die 1 time in {one_in(r['chance'])}): recast as the rules say",
                  ["casts per game", "throws per game"], align=["right", "right"])
        t.add(decimal(r["casts_per_game"]), decimal(a.figures.expected_throws))
        t.caption = ("casts per game: of the dice, recasts included; throws per game: the throws "
                     "that stand.")
        return t
    chooser = " or ".join(r["choosers"])
    two = r["dice"] == 2  # "both", "the other" in two dice' words; "every die", "the others" in more
    t = Table(f"Dice that land off (each die 1 time in {one_in(r['chance'])}): the {chooser}'s recasts",
              ["where", "wins %", "if both %" if two else "if all %",
               "recast the off die alone when the other shows" if two else
               "recast the dice off alone when the others show"])
    for row in r["states"]:
        state = row["state"]
        values = ", ".join(f"{n} {v}" for (n, initial), v in zip(r["variables"].items(), state.values) if v != initial)
        where = f"{state.phase} ({values})" if values else state.phase
        t.add(where, percent(row["win"]), "" if row["win_if_both"] is None else percent(row["win_if_both"]),
              _alone_text(row["alone"], faces))
    lines = ["wins %: the caster's chance from there with these recasts; if both %: taking up both dice "
             "every time. A die recast alone keeps the other's face; both dice off are always recast together."
             if two else
             "wins %: the caster's chance from there with these recasts; if all %: taking up every die every "
             "time. Dice recast alone leave the others their faces; all the dice off are always recast together."]
    if r["win_if_both"] is not None:
        gain = a.figures.win - r["win_if_both"]
        lines.append(f"With these recasts the caster wins {percent(a.figures.win)} of games, against "
                     f"{percent(r['win_if_both'])} if the dice are always taken up together: the choice is worth "
                     f"{decimal(gain * 100)} points.")
    lines.append(casts)
    t.caption = " ".join(lines)
    return t


def _alone_text(alone: dict, faces) -> str:
    """"cater, cinque, sice" (the same whichever die is off), or each die's faces apart."""
    def words(chances: dict) -> str:
        return ", ".join("-".join(faces[f - 1] for f in kept) + ("" if p == 1 else f" ({percent(p)} of the time)")
                         for kept, p in sorted(chances.items())) or "never"

    if not alone:
        return "never: both are taken up again"
    ordinals = ("first", "second", "third", "fourth", "fifth")
    count = next(len(off) + len(next(iter(chances))) for off, chances in alone.items())
    dice = sorted(set(alone) | {(d,) for d in range(1, count + 1)})  # each die off, and the dice off together
    every = [alone.get(off, {}) for off in dice]
    if all(chances == every[0] for chances in every):
        return words(every[0])
    alike = _alone_alike(alone, count)
    if alike is not None:
        return "; ".join(f"any {_NUMBERS[n - 1]}{'die' if n == 1 else 'dice'} off, the others showing in any "
                         f"order: {words(chances)}" for n, chances in alike.items())
    return "; ".join(f"{' and '.join(ordinals[d - 1] for d in off)} {'die' if len(off) == 1 else 'dice'} off: "
                     f"{words(alone.get(off, {}))}" for off in dice)


_NUMBERS = ("", "two ", "three ", "four ", "five ")


def _alone_alike(alone: dict, count: int) -> dict | None:
    """Where the choice is the same whichever dice are off and in whatever order the others
    show their faces (no rule tells the dice apart): how many dice off -> {the faces kept,
    sorted: chance}, for each number off with some recast alone; else None. Five dice listed
    each die and each order apart made 146 KB of text (audit 10); --json keeps every way."""
    out: dict = {}
    for n in range(1, count):
        sets = [alone.get(off, {}) for off in combinations(range(1, count + 1), n)]
        classes: dict = {}
        for chances in sets:
            for kept, p in chances.items():
                classes.setdefault(tuple(sorted(kept)), set()).add(p)
        if any(len(ps) > 1 for ps in classes.values()):
            return None
        for chances in sets:  # every order of every class, under every set of dice off
            if sum(_orders(kept) for kept in classes) != len(chances):
                return None
        if classes:
            out[n] = {kept: ps.pop() for kept, ps in classes.items()}
    return out


def _orders(faces: tuple) -> int:
    """The orders of the dice that show these faces."""
    out = factorial(len(faces))
    for f in set(faces):
        out //= factorial(faces.count(f))
    return out


def bet_tables(a: Analysis) -> list[Table]:
    ruleset = a.bet_table.machine.ruleset
    unit = ruleset.money_unit
    sides = {f"{b.backer} : {b.layer}" for b in ruleset.bets.values()}
    shared = len(sides) == 1
    title = (f"Bets ({next(iter(sides)).replace(' : ', ' against ')}; " if shared else "Bets (") + \
        f"per {unit} staked; probabilities per bet made)"
    columns = ["bet", *([] if shared else ["backer : layer"]), "pays", "win %", "lose %", "push %", "edge",
               "edge %", "per decision %", "throws"]
    # with the parties' column, short headings a narrow terminal takes whole, with their legend
    # (an 80-column one cut "per decision %" to "per decisi %"); without it the headings fit
    t = Table(title, columns, short=None if shared else {"per decision %": "per dec. %"})
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
    t = Table(f"Fees (in {units_of(a)})", ["fee", "payer → payee", "amount", "falls due (% of games)",
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
        t = Table(f"These bets together (in {units_of(a)})", ["bets", "expected staked", "expected net", "edge", "edge %"])
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
              edge(g, joint), odds_against(g.lose, g.win, True), decimal(g.expected_throws, 2))
    f = a.figures
    t.add("all", "100", *(pct(f.labels[label]) for label in labels), pct(f.win),
          edge_percent(stake_edge(a) if a.stake is not None else f.edge).rstrip("%"), odds_against(f.lose, f.win, True),
          decimal(f.expected_throws, 2))
    t.caption = (f"Label columns are shares of all games (P({var} = v and the label), so each column sums to the "
                 f"row 'all'); win, edge (%) and expected throws are given {var} = v. The edge is per stake laid"
                 + (f" (—: no {a.stake['bet']} is laid; the row 'all': the {a.stake['bet']}'s edge)" if unmade else "")
                 + ". Exact fractions: --format json.")
    return t

