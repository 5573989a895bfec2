"""The family's rule files cite what was read, with the page the text prints
(issue 37 point 6): each test names the retrieved text and its page, and
checks the rule it quotes against a count over the faces written here
(itertools and Fractions, never the tool's own functions)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F

from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.cli import main

from tests.conftest import RULESETS


def analysed(capsys, name, *argv):
    argv = ["analyse", f"rulesets/{name}.yaml", "--json", "--no-options", *argv]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def totals(dice: int) -> dict[int, F]:
    """The chance of each total of `dice` six-sided dice, every throw listed."""
    throws = list(itertools.product(range(1, 7), repeat=dice))
    chance: dict[int, F] = {}
    for throw in throws:
        chance[sum(throw)] = chance.get(sum(throw), 0) + F(1, len(throws))
    return chance


def cited(name: str, page: str):
    sources = read_ruleset(RULESETS / f"{name}.yaml").sources
    return [s for s in sources if s.page == page]


# --- azar: Alfonso X, Il libro dei giochi, ed. Canettieri 1996, p. 83 --------

# Canettieri's translation (p. 83, as tysm.org quotes it): the first thrower
# wins with 15, 16, 17 or 18 "or the points on the opposite faces, 6, 5, 4, 3";
# any other total (from 6 up, from 15 down: 7 to 14) is the other's chance;
# an azar thrown after that is a reazar and he loses.
AZARES = {t for t in range(15, 19)} | {21 - t for t in range(15, 19)}


def test_azar_cites_canettieri_p83():
    [source] = cited("azar", "83")
    assert "Canettieri" in source.author and str(source.year) == "1996"
    assert source.url == "https://tysm.org/azar/"
    assert "reazar" in source.note


def test_azar_first_throw_as_canettieri_p83(capsys):
    # An azar at once: 40 of the 216 throws (1 + 3 + 6 + 10, twice).
    chance = totals(3)
    assert sum(chance[t] for t in AZARES) == F(40, 216)
    assert F(analysed(capsys, "azar")["labels"]["azar"]) == F(40, 216)


def test_azar_reazar_on_the_second_throw_as_canettieri_p83(capsys):
    # With the repeat of the other's chance losing, the second throw is one
    # throw: a reazar is a first total of 7 to 14 and then an azar,
    # (176/216) x (40/216) = 110/729.
    chance = totals(3)
    no_azar = sum(chance[t] for t in range(7, 15))
    reazar = no_azar * sum(chance[t] for t in AZARES)
    assert reazar == F(110, 729)
    labels = analysed(capsys, "azar", "--option", "repeat=loses")["labels"]
    assert F(labels["reazar"]) == reazar


# --- Grand Hazard: games.porg.es, the Will & Finck layout of about 1890 -----

THROWS = list(itertools.product(range(1, 7), repeat=3))


def edge(wins, net: int) -> F:
    """The bank's edge on a stake of 1 paid `net` to 1 when `wins(throw)`,
    lost otherwise, over the 216 throws listed."""
    won = sum(1 for throw in THROWS if wins(throw))
    return -F(won * net - (len(THROWS) - won), len(THROWS))


def raffle(throw) -> bool:
    return len(set(throw)) == 1


def ledger(capsys, name, source):
    return {(e["bet"], e["figure"]): e
            for e in analysed(capsys, name)["printed"] if e["source"] == source}


def test_grand_hazard_cites_the_layout_porg_es_reads():
    source = read_ruleset(RULESETS / "grand_hazard.yaml").sources[3]
    assert source.url == "https://games.porg.es/games/chuck-a-luck/"
    assert "Will & Finck" in source.note and "179:1" in source.note


def test_grand_hazard_porg_es_edges_agree(capsys):
    # games.porg.es: a raffle named "pays 179:1" (180 for 1) and any raffle
    # "29:1" (30 for 1), "the same high house edge of 16.67%"; 30:1 for any
    # raffle "13.89%"; high lost to a raffle "2.78%"; the totals 9 and 10
    # paid 5:1, "30.56%" and "25.00%"; 4 paid 59:1, "16.67%".  Each edge
    # counted here over the 216 throws, each rounded as printed.
    counted = {
        ("raffle_1", "16.67%"): edge(lambda t: t == (1, 1, 1), 179),
        ("any_raffle", "16.67%"): edge(raffle, 29),
        ("any_raffle", "13.89%"): edge(raffle, 30),
        ("high", "2.78%"): edge(lambda t: sum(t) >= 11 and not raffle(t), 1),
        ("total_9", "30.56%"): edge(lambda t: sum(t) == 9, 5),
        ("total_10", "25.00%"): edge(lambda t: sum(t) == 10, 5),
        ("total_4", "16.67%"): edge(lambda t: sum(t) == 4, 59),
    }
    assert counted[("raffle_1", "16.67%")] == F(1, 6)
    assert counted[("any_raffle", "13.89%")] == F(5, 36)
    assert counted[("high", "2.78%")] == F(1, 36)
    assert counted[("total_9", "30.56%")] == F(11, 36)
    got = ledger(capsys, "grand_hazard", 4)
    assert set(got) == set(counted)
    for key, figure in counted.items():
        assert F(got[key]["exact"]) == figure, key
        assert got[key]["agrees"], key
        printed = F(key[1].rstrip("%")) / 100
        assert abs(figure - printed) <= F(1, 20000), key  # rounds to it


# --- chuck-a-luck: games.porg.es; Kernan's catalogue, p. 19; Britannica ------


def number_edge(face: int, triple: int) -> F:
    """A stake of 1 on `face`: paid 1 or 2 to 1 as one or two dice show it,
    `triple` to 1 when all three do, lost when none does; listed throws."""
    paid = {0: -1, 1: 1, 2: 2, 3: triple}
    return -sum(F(paid[t.count(face)], len(THROWS)) for t in THROWS)


def test_chuck_a_luck_cites_kernans_layout_p19():
    [source] = cited("chuck_a_luck", "19")
    assert source.author == "Kernan Manufacturing"
    assert "1 to 6" in source.note


def test_chuck_a_luck_porg_es_edges_agree_and_britannica_differs(capsys):
    # games.porg.es: 7.87% paid 1, 2, 3 to 1; 6.94% with a "5x payout" on
    # three alike and 3.7% with "12x"; Britannica's 7.5% "averages" and is
    # none of them.  Each edge counted here over the 216 throws.
    counted = {3: number_edge(1, 3), 5: number_edge(1, 5),
               12: number_edge(1, 12)}
    assert counted == {3: F(17, 216), 5: F(5, 72), 12: F(1, 27)}
    got = ledger(capsys, "chuck_a_luck", 3)
    assert {key: F(e["exact"]) for key, e in got.items()} == {
        ("one", "7.87%"): counted[3], ("one", "6.94%"): counted[5],
        ("one", "3.7%"): counted[12]}
    assert all(e["agrees"] for e in got.values())
    [britannica] = ledger(capsys, "chuck_a_luck", 1).values()
    assert F(britannica["exact"]) == counted[3] and not britannica["agrees"]


def test_chuck_a_luck_every_number_under_the_new_payments(capsys):
    # The option `triple` takes the payments games.porg.es gives, 5 and 12
    # to 1, for every number alike (no number is special).
    for triple in (5, 12):
        result = analysed(capsys, "chuck_a_luck", "--option",
                          f"triple={triple}")
        edges = {F(b["edge"]) for b in result["bets"].values()}
        assert edges == {number_edge(1, triple)}


# --- Crown and Anchor: Sutcliffe p. 191 (games.porg.es); Wizard of Odds -----

MARKS = ["crown", "anchor", "heart", "diamond", "club", "spade"]


def test_crown_and_anchor_cites_sutcliffe_p191():
    [source] = cited("crown_and_anchor", "191")
    assert source.author == "Sam Sutcliffe"
    assert "double your money" in source.note


def test_crown_and_anchor_wizard_of_odds_counts_and_edge(capsys):
    # Wizard of Odds' table: 1, 15, 75 and 125 of the 216 throws show the
    # mark three, two, one and no times; "a house edge of 7.87%".  Counted
    # here over the throws of three dice of six marks; Britannica's 7.5%
    # differs from the same count.
    throws = list(itertools.product(MARKS, repeat=3))
    shown = [sum(1 for t in throws if t.count("crown") == n)
             for n in (3, 2, 1, 0)]
    assert shown == [1, 15, 75, 125]
    paid = {3: 3, 2: 2, 1: 1, 0: -1}
    edge_counted = -sum(F(paid[t.count("crown")], len(throws)) for t in throws)
    assert edge_counted == F(17, 216)
    [wizard] = ledger(capsys, "crown_and_anchor", 5).values()
    assert F(wizard["exact"]) == edge_counted and wizard["agrees"]
    [britannica] = ledger(capsys, "crown_and_anchor", 1).values()
    assert F(britannica["exact"]) == edge_counted and not britannica["agrees"]


# --- Sic Bo: Wizard of Odds' appendix (2007) ---------------------------------


def test_sic_bo_wizard_of_odds_edges(capsys):
    # Wizard of Odds' appendix: low (small) -6/216 "~-2.78%", lost to the
    # triples 1-1-1, 2-2-2 and 3-3-3; a specific number -17/216 printed
    # "-7.780%" (17/216 is 7.870%: it differs); a total of 4 at 60 to 1
    # -33/216, "-15.278%".  Each counted here over the 216 throws.
    small = edge(lambda t: 4 <= sum(t) <= 10 and not raffle(t), 1)
    total_4 = edge(lambda t: sum(t) == 4, 60)
    assert (small, number_edge(1, 3), total_4) == (
        F(6, 216), F(17, 216), F(33, 216))
    got = ledger(capsys, "sic_bo", 4)
    assert {key: (F(e["exact"]), e["agrees"]) for key, e in got.items()} == {
        ("small", "2.78%"): (small, True),
        ("number_1", "7.780%"): (number_edge(1, 3), False),
        ("total_4", "15.278%"): (total_4, True)}
