"""`hazard-dsl rules`: the rule sheet written from the compiled machine. Its table of nicks, outs
and chances for Cotton's game is the hand-written table of seed texts 000-003, transcribed here
with the place each comes from; the sheet derives it, it does not copy it."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from hazard_dsl.cli import main
from hazard_dsl.cli.parser import SHEET_FORMATS
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.render.rulesheet import FORMATS, render, rule_sheet, sheet
from hazard_dsl.solve.analysis import analyse
from tests.conftest import RULESETS, SHIPPED

MAINS = (5, 6, 7, 8, 9)

# Seed text 000 (Wikipedia, "Hazard (game)", table "Outcomes", citing Cotton 1674 p. 169): for each
# main, the rolls 2..12 as o (throwing out), C (chance) or N (nicking).
SEED_000 = {
    5: "o o C N C C C C C o o",
    6: "o o C C N C C C C o N",
    7: "o o C C C N C C C N o",
    8: "o o C C C C N C C o N",
    9: "o o C C C C C N C o o",
}
# Seed text 001 (games.porg.es, "Play"): "5 is nicked by 5, outs on 2, 3, 11, or 12" …
SEED_001 = {5: ("5", "2, 3, 11, 12"), 6: ("6, 12", "2, 3, 11"), 7: ("7, 11", "2, 3, 12"), 8: ("8, 12", "2, 3, 11"),
            9: ("9", "2, 3, 11, 12")}
# Seed text 002 (Barker): "Nicks (win): | 5 | 6, 12 | 7, 11 | 8, 12 | 9 |" and "Outs (lose): …".
SEED_002_NICKS = "5 | 6, 12 | 7, 11 | 8, 12 | 9"
SEED_002_OUTS = "2, 3, 11, 12 | 2, 3, 11 | 2, 3, 12 | 2, 3, 11 | 2, 3, 11, 12"
# Seed text 003 (rules sheet): wins / loses / rolls again if the chance is …
SEED_003 = {
    "wins": "5 | 6,12 | 7,11 | 8,12 | 9",
    "loses": "2, 3, 11, 12 | 2, 3, 11 | 2, 3, 12 | 2, 3, 11 | 2, 3, 11, 12",
    "again": "4, 6, 7, 8, 9, 10 | 4, 5, 7, 8, 9, 10 | 4, 5, 6, 8, 9, 10 | 4, 5, 6, 7, 9, 10 | 4, 5, 6, 7, 8, 10",
}


def numbers(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", text)]


def chance_table(name: str, **options) -> dict:
    """{main: {"nick": [...], "out": [...], "chance": [...]}} from the sheet's data."""
    m = compile_ruleset(read_ruleset(RULESETS / f"{name}.yaml"), options)
    data = sheet(m, analyse(m))
    phase = next(p for p in data["phases"] if p["phase"] == "chance_throw")
    (table,) = phase["tables"]
    assert table["variable"] == "main"
    columns = {c["key"]: c for c in table["columns"]}
    out = {}
    for row in table["rows"]:
        cells = {}
        for key, throws in row["cells"].items():
            column = columns[key]
            what = column["label"] or ("chance" if column["heading"] == "chance" else column["heading"])
            cells[what] = [int(t) for t in throws]
        out[row["value"]] = cells
    return out, data, table


def test_the_cli_formats_are_the_module_formats():
    assert tuple(SHEET_FORMATS) == tuple(FORMATS)


@pytest.mark.parametrize("name", ["cotton", "hoyle", "chicken"])
def test_cottons_table_is_the_seeds_table(name):
    table, _, _ = chance_table(name)
    assert sorted(table) == list(MAINS)
    for k, value in enumerate(MAINS):
        row = table[value]
        marks = SEED_000[value].split()
        assert row["nick"] == [roll for roll, mark in zip(range(2, 13), marks) if mark == "N"]
        assert row["out"] == [roll for roll, mark in zip(range(2, 13), marks) if mark == "o"]
        assert row["chance"] == [roll for roll, mark in zip(range(2, 13), marks) if mark == "C"]
        assert row["nick"] == numbers(SEED_001[value][0]) and row["out"] == numbers(SEED_001[value][1])
        assert row["nick"] == numbers(SEED_002_NICKS.split("|")[k])
        assert row["out"] == numbers(SEED_002_OUTS.split("|")[k])
        assert row["nick"] == numbers(SEED_003["wins"].split("|")[k])
        assert row["out"] == numbers(SEED_003["loses"].split("|")[k])
        assert row["chance"] == numbers(SEED_003["again"].split("|")[k])


def test_the_sheet_cannot_have_seed_004s_misprint():
    """Seed text 004's table lists 7 among the outs to a main of 6 (reference F4); the rule file
    says it is a misprint and keeps the standard table, so the derived sheet has no 7 there."""
    table, _, _ = chance_table("history_sheet")
    assert 7 not in table[6]["out"] and 7 in table[6]["chance"]
    assert table[6]["out"] == [2, 3, 11]


def test_petty_and_french_tables():
    table, _, _ = chance_table("petty")
    assert table[7] == {"nick": [7], "out": [2, 3], "chance": [4, 5, 6, 8, 9, 10], "thrown again": [11, 12]}
    table, _, _ = chance_table("french")
    assert table[6] == {"nick": [6], "out": [2, 3, 11, 12], "chance": [4, 5, 7, 8, 9, 10]}
    table, _, _ = chance_table("french", not_a_nick="sca")
    assert table[6]["nick"] == [6, 12] and table[7]["out"] == [2, 3, 11, 12]


def test_the_chance_per_main_is_exact():
    """P(win | main): 1396/2835 for 5 and 9, 6961/14256 for 6 and 8 (Chambers: "7,295 to
    6,961"), 244/495 for 7; seed text 001 prints 49.24%, 48.83%, 49.29%."""
    _, _, table = chance_table("cotton")
    wins = {row["value"]: Fraction(row["caster_wins"]) for row in table["rows"]}
    assert wins == {5: Fraction(1396, 2835), 6: Fraction(6961, 14256), 7: Fraction(244, 495),
                    8: Fraction(6961, 14256), 9: Fraction(1396, 2835)}


def test_the_text_sheet_shows_the_table(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    m = compile_ruleset(read_ruleset(RULESETS / "cotton.yaml"), {})
    text = rule_sheet(m, "text")
    assert re.search(r"^ +6 +6, 12 +2, 3, 11 +4, 5, 7, 8, 9, 10 +48\.83%$", text, re.M)
    assert re.search(r"^ +7 +7, 11 +2, 3, 12 +4, 5, 6, 8, 9, 10 +49\.29%$", text, re.M)
    assert "The caster wins 1979/4032 (49.08%) of games" in text
    assert "Charles Cotton, The Compleat Gamester" in text and "pp. 168-173" in text
    assert all(len(line) <= 80 for line in text.splitlines())
    monkeypatch.setenv("COLUMNS", "50")
    # a web address breaks only after a "/": a piece of one longer than the line stands alone, whole
    urls = [s.url for s in m.ruleset.sources if s.url]
    assert any(len(url.split("/")[4]) > 50 for url in urls[:1])
    assert all(len(line) <= 50 or len(line.split()) == 1 and any(line.strip() in url for url in urls)
               for line in rule_sheet(m, "text").splitlines())


def test_markdown_sheet():
    m = compile_ruleset(read_ruleset(RULESETS / "cotton.yaml"), {})
    text = rule_sheet(m, "markdown")
    assert "| main | nick (wins) | out (loses) | chance | caster wins |" in text
    assert "| 6 | 6, 12 | 2, 3, 11 | 4, 5, 7, 8, 9, 10 | 48.83% |" in text
    assert text.startswith("# Hazard (Cotton, 1674)\n")


class Tags(HTMLParser):
    """Checks that every element opened is closed, in order (void elements aside)."""

    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack, self.text = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-3:])
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def test_html_sheet_prints_and_is_well_formed():
    m = compile_ruleset(read_ruleset(RULESETS / "chicken.yaml"), {})
    page = rule_sheet(m, "html")
    parser = Tags()
    parser.feed(page)
    parser.close()
    assert parser.stack == []
    assert page.startswith("<!DOCTYPE html>") and "@page" in page and "@media print" in page
    assert '<td class="win">7, 11</td>' in page and '<td class="lose">2, 3, 12</td>' in page
    text = "".join(parser.text)
    # Hoyle's table of odds on chance against main (seed text 000, citing Hoyle 1790 pp. 239-240), derived
    assert "What the odds on the chance pays, main by chance" in text  # the bet by what players call it
    rows = re.findall(r"<tr><td>7</td>(.*?)</tr>", page)
    assert re.findall(r"<td>([^<]*)</td>", rows[0]) == ["2 to 1", "3 to 2", "6 to 5", "—", "6 to 5", "3 to 2", "2 to 1"]
    assert "Andrew Steinmetz" in text and "pp. 278-302" in text
    assert "after three losses in a row (any loss counts: chance loss or out" in text


def test_hostile_words_are_escaped(write_ruleset):
    path = write_ruleset('''
name: '<script>alert(1)</script> & "Hazard"'
description: 'Bold <b>claims</b> | pipes'
labels: {w: '<img src=x onerror=alert(1)>', l: "\\u001b[2J cleared"}
phases:
  roll:
    - when: total == 7
      do: win w
    - otherwise: lose l
''')
    m = compile_ruleset(read_ruleset(path), {})
    page = rule_sheet(m, "html")
    assert "<script>" not in page and "&lt;script&gt;" in page and "<img" not in page
    parser = Tags()
    parser.feed(page)
    assert parser.stack == []
    assert "\x1b" not in rule_sheet(m, "text") and "\x1b" not in rule_sheet(m, "markdown")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_has_a_sheet(name):
    m = compile_ruleset(read_ruleset(RULESETS / f"{name}.yaml"), {})
    data = json.loads(rule_sheet(m, "json"))
    assert data["title"] == m.ruleset.name and data["phases"]
    for fmt in ("text", "markdown", "html"):
        assert m.ruleset.name.split(" (")[0] in rule_sheet(m, fmt)


def test_bets_with_their_payout_and_exact_edge():
    m = compile_ruleset(read_ruleset(RULESETS / "craps.yaml"), {})
    data = sheet(m, analyse(m))
    bets = {b["bet"]: b for b in data["bets"]}
    assert bets["pass"]["edge"] == "7/495" and bets["pass"]["pays"] == "1 to 1"
    assert bets["place_6"]["pays"] == "7 to 6" and bets["place_6"]["edge"] == "1/66"
    m = compile_ruleset(read_ruleset(RULESETS / "chicken.yaml"), {})
    data = sheet(m, analyse(m))
    (fee,) = data["fees"]
    assert fee["fee"] == "box" and fee["amount"] == "5"


def test_recast_is_said_generically():
    m = compile_ruleset(read_ruleset(RULESETS / "history_sheet.yaml"), {"cocked": "one_in_ten"})
    text = rule_sheet(m, "text")
    assert "Dice that land off" in text and "1/10" in text
    plain = compile_ruleset(read_ruleset(RULESETS / "history_sheet.yaml"), {})
    assert "Dice that land off" not in rule_sheet(plain, "text")


def test_cli(capsys):
    assert main(["rules", "chicken", "--format", "html"]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("<!DOCTYPE html>")
    assert main(["rules", "petty", "--json"]) == 0
    assert json.loads(capsys.readouterr()[0])["odds"]["win"] == "5629/11088"
    assert main(["rules", "cottn"]) == 2
    assert "did you mean 'cotton'" in capsys.readouterr()[1]
    with pytest.raises(SystemExit):
        main(["rules", "cotton", "--format", "htm"])
    assert "did you mean 'html'" in capsys.readouterr()[1]


def test_render_takes_data():
    m = compile_ruleset(read_ruleset(RULESETS / "petty.yaml"), {})
    data = sheet(m, analyse(m))
    assert render(data, "markdown").startswith("# Petty Hazard")
