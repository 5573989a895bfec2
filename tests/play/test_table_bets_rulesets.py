"""The table bets of every built-in ruleset, each the bet its sources describe ("The whole table").

Each bet's exact edge, as `analyse` computes it on the compiled machine, against a calculation
written out here by hand from the ways of throwing two dice, which reads neither the rule files
nor the solver. The sources, as the rule files cite them:

* Barker, "Hazard, as played at St Briavels Castle" (2003, 2005): "Non-participants are welcome
  to place side-bets if they wish" — Cotton's (and Barker's) game and Petty Hazard: `side`.
* "History of Hazard & Craps" (an undated re-enactors' sheet): "The game may be played for points
  or by betting on turns and individual throws"; "Both the caster and other players can also
  offer and accept other 'Side' bets from each other at anytime during the play"; "Bets can be
  made between each roll" — `side` (on turns) and `two`, `twelve`, `hazards` (individual throws).
* Wikipedia, "Hazard (game)": the table "Relative odds for auxiliary bets" citing Hoyle 1790
  pp. 239-240, and "the caster (and others, via side bets) may wager an additional sum that the
  chance will come before the main" citing the Encyclopaedia Britannica 1911 — Hoyle's and the
  club game's `side_odds`.
* The Pall Mall Gazette of 1869 (in Steinmetz 1870): the French bank "prepared to pay all
  winnings" — every bet of french.yaml is laid by the bank.

Edges are the bettor's expected loss per unit staked, a bet made at the first throw where its
`made:` allows (from the start of a game), as `analyse` reports them.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

import hazard_dsl
from hazard_dsl.cli import main as cli
from hazard_dsl.check.reading import read_ruleset

from tests.conftest import RULESETS
from tests.published import HOYLE_ODDS

# ---------------------------------------------------------------- the hand calculation

# Ways of throwing each total with two fair dice, out of 36: 1 way for 2, 2 for 3, ... 6 for 7,
# ... 1 for 12.
WAYS = {n: 6 - abs(n - 7) for n in range(2, 13)}
FAIR = {n: F(w, 36) for n, w in WAYS.items()}
MAINS = range(5, 10)

# Cotton's table (the standard one): the main nicks, 12 nicks 6 and 8, 11 nicks 7; 2, 3, 11 and
# 12 throw out where they do not nick.
COTTON_NICKS = {5: {5}, 6: {6, 12}, 7: {7, 11}, 8: {8, 12}, 9: {9}}
ALWAYS_OUT = {2, 3, 11, 12}


def totals(die1, die2) -> dict:
    """The chance of each total of two dice, each die given as its six faces' chances."""
    out: dict = {}
    for a, pa in enumerate(die1, 1):
        for b, pb in enumerate(die2, 1):
            out[a + b] = out.get(a + b, F(0)) + pa * pb
    return out


def win_given_main(main, nicks, outs, void=frozenset(), p=FAIR) -> F:
    """The caster's chance of winning once the main is set: he nicks at once; or a chance c is
    thrown and he throws on, every throw but c and the main ignored, so c comes first with
    chance p(c) / (p(c) + p(main)). A void throw (Petty Hazard's 11 and 12) is thrown again, so
    the throw for the chance is the throw conditioned on not being void."""
    counted = 1 - sum(p[t] for t in void)
    chances = [t for t in range(2, 13) if t not in nicks | outs | set(void)]
    win = sum(p[t] for t in nicks) + sum(p[c] * p[c] / (p[c] + p[main]) for c in chances)
    return win / counted


def chance_phase(main, nicks, outs, p=FAIR) -> dict:
    """{chance: P(that chance is thrown | main)} for the throw for the chance (no void throws)."""
    return {t: p[t] for t in range(2, 13) if t not in nicks | outs}


def thrown_main(p=FAIR) -> dict:
    """The main thrown until it is 5 to 9: P(main = m) = p(m) / p(5..9); 4, 5, 6, 5, 4 of 24
    with fair dice."""
    made = sum(p[m] for m in MAINS)
    return {m: p[m] / made for m in MAINS}


def cotton_nicks_outs(main):
    nicks = COTTON_NICKS[main]
    return nicks, ALWAYS_OUT - nicks


def even_money_edge(win, lose) -> F:
    """At 1 to 1 the bettor nets +1 with `win`, −1 with `lose`, 0 on a push: the expected loss
    per unit staked is lose − win."""
    return lose - win


def edge(name, bet, **options) -> F:
    return hazard_dsl.load(name, **options).analyse().bets[bet].edge


# Cotton's game by hand: each main's chance, weighted by the thrown main's 4, 5, 6, 5, 4 of 24.
COTTON_WIN = sum(q * win_given_main(m, *cotton_nicks_outs(m)) for m, q in thrown_main().items())


def test_the_hand_calculation_is_the_published_one():
    # games.porg.es: the caster wins 49.08%; Wikipedia (citing Scarne): 1.84% against him;
    # and the chance 244/495 with a main of 7 (craps' pass line)
    assert COTTON_WIN == F(1979, 4032)
    assert win_given_main(7, *cotton_nicks_outs(7)) == F(244, 495)


# ---------------------------------------------------------------- side bets on the caster's game

def test_cotton_side_bet_at_even_money_has_the_games_edge():
    # Made at the first throw (no made:, "between each roll"), even money on the caster's game:
    # 2053/4032 − 1979/4032 = 74/4032 = 37/2016, the game's own edge (Barker; the history sheet).
    assert edge("cotton", "side") == even_money_edge(COTTON_WIN, 1 - COTTON_WIN) == F(37, 2016)


def test_cotton_side_bet_through_analyse_json(capsys):
    assert cli(["analyse", "cotton", "--json"]) == 0
    side = json.loads(capsys.readouterr().out)["bets"]["side"]
    assert (F(side["edge"]), F(side["win"]), F(side["push"])) == (F(37, 2016), COTTON_WIN, 0)


def test_cotton_side_bet_with_a_called_main():
    # With the main called the caster calls 7 (the best), and a side bet made at the first throw
    # is on a game at main 7: 251/495 − 244/495 = 7/495.
    win = win_given_main(7, *cotton_nicks_outs(7))
    assert edge("cotton", "side", main="called") == even_money_edge(win, 1 - win) == F(7, 495)


def test_history_sheet_side_bet_on_a_turn_is_void_when_no_main_is_made():
    # The sheet: a first throw outside 5-9 loses the turn before any bet. A side bet made on that
    # first throw is void then (a push, 12 throws of 36 = 1/3); with a main (2/3) it is Cotton's
    # game: win 2/3 × 1979/4032, lose 2/3 × 2053/4032, so the edge per bet made is
    # 2/3 × 74/4032 = 37/3024.
    made = sum(FAIR[m] for m in MAINS)
    assert made == F(2, 3)
    figures = hazard_dsl.load("history_sheet").analyse().bets["side"]
    assert figures.push == 1 - made
    assert figures.win == made * COTTON_WIN
    assert figures.edge == even_money_edge(made * COTTON_WIN, made * (1 - COTTON_WIN)) == F(37, 3024)
    # and Cotton's file under the same option is the same bet
    assert edge("cotton", "side", first_throw="lose_turn") == F(37, 3024)


def test_petty_side_bet_favours_the_one_who_backs_the_caster():
    # Petty Hazard (Barker): only the main nicks, 2 and 3 throw out, 11 and 12 are thrown again.
    # The side bet decides on the game's result, so it follows Petty's throw for the chance:
    # the caster wins 5629/11088 ("nearly a 51% probability"), and even money on him has the
    # edge 5459/11088 − 5629/11088 = −170/11088 = −85/5544: in the backer's favour.
    win = sum(q * win_given_main(m, {m}, {2, 3}, void={11, 12}) for m, q in thrown_main().items())
    assert win == F(5629, 11088)
    assert edge("petty", "side") == even_money_edge(win, 1 - win) == F(-85, 5544)


HIGH = [F(1, 12)] * 3 + [F(1, 4)] * 3  # fullams.yaml's high fullam: 4, 5, 6 a quarter each
FAIR_DIE = [F(1, 6)] * 6


@pytest.mark.parametrize("dice, faces", [
    ("fair", (FAIR_DIE, FAIR_DIE)), ("high", (HIGH, HIGH)),
    ("low", (HIGH[::-1], HIGH[::-1])), ("one_high", (FAIR_DIE, HIGH)),
])
def test_fullams_side_bet_follows_the_loaded_game(dice, faces):
    # Cotton's side bet, inherited: with loaded dice its edge is the loaded game's, every chance
    # above weighted by the loaded dice's chance of each total instead of its ways of 36.
    p = totals(*faces)
    assert sum(p.values()) == 1
    win = sum(q * win_given_main(m, *cotton_nicks_outs(m), p=p) for m, q in thrown_main(p).items())
    assert edge("fullams", "side", dice=dice) == even_money_edge(win, 1 - win)
    if dice == "fair":
        assert win == F(1979, 4032)


# ---------------------------------------------------------------- Hoyle's odds, side bets at the table

def odds_expectation(mains: dict, nicks_outs=cotton_nicks_outs) -> tuple:
    """(chance the chance phase is reached, expected net per unit on chance against main at
    Hoyle's odds, given it is reached). At main m and chance c the bettor wins ways(m)/ways(c)
    with chance ways(c)/(ways(c)+ways(m)) and loses 1 with chance ways(m)/(ways(c)+ways(m)):
    ways(m)/(ways(c)+ways(m)) − ways(m)/(ways(c)+ways(m)) = 0, for every main and chance."""
    reached = F(0)
    net = F(0)
    for m, q in mains.items():
        for c, pc in chance_phase(m, *nicks_outs(m)).items():
            first = F(WAYS[c], WAYS[c] + WAYS[m])
            reached += q * pc
            net += q * pc * (first * F(WAYS[m], WAYS[c]) - (1 - first))
    return reached, net / reached


@pytest.mark.parametrize("bet", ["odds", "side_odds"])
def test_hoyles_odds_at_hoyles_table_pay_exactly_the_true_odds(bet):
    # The issue: "Hoyle's odds at Hoyle's table pay exactly the true odds: expected net 0 on that
    # bet". Made once a chance is thrown: 8428/12096 = 301/432 of games reach one (games.porg.es:
    # 32.88% + 36.80%), and the bettor's chance then is 3977/8428.
    reached, net = odds_expectation(thrown_main())
    assert (reached, net) == (F(301, 432), 0)
    figures = hazard_dsl.load("hoyle").analyse().bets[bet]
    assert figures.net == net and figures.edge == 0
    assert figures.made_per_game == reached
    assert figures.win == F(3977, 8428)


@pytest.mark.parametrize("bet", ["odds", "side_odds"])
def test_chicken_odds_are_the_groom_porters_true_odds(bet):
    # The club game: the caster calls 7, so the chance phase is reached with 24 throws of 36
    # (4, 5, 6, 8, 9, 10) and the bettor's chance is Σ ways(c)/24 × ways(c)/(ways(c) + 6):
    # (9/9 + 16/10 + 25/11) × 2/24 = 67/165; the net is 0 at true odds.
    reached, net = odds_expectation({7: F(1)})
    assert (reached, net) == (F(2, 3), 0)
    win = sum(F(WAYS[c], 24) * F(WAYS[c], WAYS[c] + 6) for c in (4, 5, 6, 8, 9, 10))
    assert win == F(67, 165)
    figures = hazard_dsl.load("chicken").analyse().bets[bet]
    assert (figures.edge, figures.win, figures.made_per_game) == (0, win, reached)


def test_side_odds_pay_hoyles_table():
    # Wikipedia's "Relative odds for auxiliary bets", citing Hoyle 1790 pp. 239-240, as printed
    # (main by chance); each is ways(main) : ways(chance).
    published = HOYLE_ODDS
    assert all(F(text) == F(WAYS[m], WAYS[c]) for m, row in published.items() for c, text in row.items())
    variant = hazard_dsl.load("hoyle")
    machine = variant.machine
    found: dict = {}
    for g, net in variant.analyse().bets["side_odds"].pays.items():
        state = machine.states[g]
        found.setdefault(state.value(machine, "main"), {})[state.value(machine, "chance")] = net
    assert found == {m: {c: F(text) for c, text in row.items()} for m, row in published.items()}


def test_chicken_side_bet_on_the_called_main():
    win = win_given_main(7, *cotton_nicks_outs(7))
    assert edge("chicken", "side") == even_money_edge(win, 1 - win) == F(7, 495)


# ---------------------------------------------------------------- single throws (the history sheet)

@pytest.mark.parametrize("bet, throws, pays", [
    ("two", {2}, F(35)),            # one throw of 36 (aces, 1-1), 35 to 1
    ("twelve", {12}, F(35)),        # one throw of 36 (6-6), 35 to 1
    ("hazards", {2, 3, 11, 12}, F(5)),  # 1 + 2 + 2 + 1 = 6 throws of 36, 30 to 6 = 5 to 1
])
def test_a_single_throw_bet_at_the_sheets_payout(bet, throws, pays):
    # The issue: "A single-throw bet on 2 or 12 at the history sheet's payout has the exact edge
    # `analyse` already gives for it". The sheet names no payout; between two players the file
    # lays the true odds, so the hand calculation is: win `pays` with chance ways/36, lose 1
    # otherwise, whatever throw of the game it is made on (fair dice, none landing off).
    win = sum(FAIR[t] for t in throws)
    hand = -(win * pays - (1 - win))
    assert hand == 0
    figures = hazard_dsl.load("history_sheet").analyse().bets[bet]
    assert (figures.edge, figures.win, figures.push, figures.expected_throws) == (hand, win, 0, 1)


def test_single_throw_bets_through_analyse_json(capsys):
    assert cli(["analyse", "history_sheet", "--json"]) == 0
    bets = json.loads(capsys.readouterr().out)["bets"]
    assert {b: F(bets[b]["edge"]) for b in ("two", "twelve", "hazards")} == {"two": 0, "twelve": 0, "hazards": 0}
    assert F(bets["side"]["edge"]) == F(37, 3024)


def test_a_die_recast_at_the_casters_choice_is_not_a_fair_throw():
    # With a die off one time in ten the caster recasts it alone or both, as suits his game: the
    # throw that stands is no longer the fair throw, and the single-throw bets lose their
    # fairness (the note of history_sheet.yaml says so).
    bets = hazard_dsl.load("history_sheet", cocked="one_in_ten").analyse().bets
    assert all(bets[b].edge != 0 for b in ("two", "twelve", "hazards"))


# ---------------------------------------------------------------- the French bank

@pytest.mark.parametrize("not_a_nick, void, expected", [
    # direct nicks only, 11 and 12 out: 5629/12096 for the caster, 6467 − 5629 = 838 of 12096
    ("out", set(), F(419, 6048)),
    # 11 and 12 thrown again: Petty's game, in the caster's favour
    ("void", {11, 12}, F(-85, 5544)),
])
def test_french_bank_answers_the_side_bet_at_the_games_edge(not_a_nick, void, expected):
    # The bank lays the onlooker's even money on the caster with the stakes, once the main is
    # set: the main is always set (thrown again until 5-9), so it is the game's edge.
    win = sum(q * win_given_main(m, {m}, ALWAYS_OUT - void, void=void) for m, q in thrown_main().items())
    assert edge("french", "side", not_a_nick=not_a_nick) == even_money_edge(win, 1 - win) == expected
    assert edge("french", "side", not_a_nick=not_a_nick) == edge("french", "stake", not_a_nick=not_a_nick)


def test_french_sca_reading():
    # 11 throws out even to 7 but 12 still nicks 6 and 8: 641/1344 for the caster.
    nicks = {5: {5}, 6: {6, 12}, 7: {7}, 8: {8, 12}, 9: {9}}
    win = sum(q * win_given_main(m, nicks[m], ALWAYS_OUT - nicks[m]) for m, q in thrown_main().items())
    assert win == F(641, 1344)
    assert edge("french", "side", not_a_nick="sca") == even_money_edge(win, 1 - win) == F(31, 672)


# ---------------------------------------------------------------- who makes and takes each bet

ADDED = {
    # ruleset: {bet: (backer, layer, made: as written, or None for any throw)}
    "cotton": {"side": ("player", "player", None)},
    "petty": {"side": ("player", "player", None)},
    "fullams": {"side": ("player", "player", None)},
    "hoyle": {"side": ("player", "player", None), "side_odds": ("player", "player", 'phase == "chance"')},
    "chicken": {"side": ("player", "player", None), "side_odds": ("player", "player", 'phase == "chance"')},
    "history_sheet": {"side": ("player", "player", None), "two": ("player", "player", None),
                      "twelve": ("player", "player", None), "hazards": ("player", "player", None)},
    "french": {"side": ("player", "bank", 'phase == "chance_throw"')},
}


def made_text(bet) -> str | None:
    if bet.made is None:
        return None
    position = bet.made.position
    line = (RULESETS / position.file.split("/")[-1]).read_text(encoding="utf-8").splitlines()[position.line - 1]
    return line.split("made:", 1)[1].strip()


@pytest.mark.parametrize("name", sorted(ADDED))
def test_each_added_bet_has_its_sides_and_its_moment(name):
    bets = read_ruleset(RULESETS / f"{name}.yaml").bets
    for bet, (backer, layer, made) in ADDED[name].items():
        assert (bets[bet].backer, bets[bet].layer, made_text(bets[bet])) == (backer, layer, made), (name, bet)


@pytest.mark.parametrize("name", sorted(ADDED))
def test_each_added_bet_is_cited_in_the_files_own_sources_or_notes(name):
    ruleset = read_ruleset(RULESETS / f"{name}.yaml")
    cited = " ".join([s.note or "" for s in ruleset.sources] + list(ruleset.notes))
    for bet in ADDED[name]:
        assert f"`{bet}`" in cited, (name, bet)


def test_the_french_bank_lays_every_bet():
    # "the bank being prepared to pay all winnings" (the Pall Mall Gazette 1869)
    assert {b.layer for b in read_ruleset(RULESETS / "french.yaml").bets.values()} == {"bank"}


def test_every_craps_bet_is_a_players_at_the_rail_booked_by_the_house():
    bets = read_ruleset(RULESETS / "craps.yaml").bets
    assert {(b.backer, b.layer) for b in bets.values()} == {("player", "bank")}
