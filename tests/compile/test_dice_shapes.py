"""Dice of any number and faces (issue 37): `dice: 3d6`, `{count, sides}`, named faces, loadings
per die; the facts of a throw of several dice; throws grouped; bounds; tapes of three dice; the
language service on such files.

Every expected chance here is counted independently, by enumerating the faces with
itertools.product and Fraction in the test itself (`counted`), never read from the tool."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest
from hypothesis import event, given, strategies as st

from hazard_dsl.cli import main
from hazard_dsl.language.service import LanguageService, Place, RenameError, uri_of


def counted(count: int, sides: int, holds) -> F:
    """The chance that a fair throw of `count` dice of `sides` faces satisfies `holds`."""
    every = list(product(range(1, sides + 1), repeat=count))
    return F(sum(1 for t in every if holds(t)), len(every))


def one_throw(dice: str, win: str, push: str | None = None, extra: str = "") -> str:
    """A game of one throw: `win` wins, `push` pushes, anything else loses."""
    rules = f"      - when: {win}\n        do: win\n"
    if push:
        rules += f"      - when: {push}\n        do: push\n"
    return (f"name: One throw\nsources: [{{title: a test}}]\ndice: {dice}\n{extra}phases:\n  cast:\n    rules:\n"
            f"{rules}      - otherwise: lose\n")


def analysed(tmp_path, capsys, text: str, *flags) -> dict:
    path = tmp_path / "game.yaml"
    path.write_text(text)
    assert main(["analyse", str(path), "--json", *flags]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def said(tmp_path, capsys, command: str, text: str, code: int) -> str:
    """What `hazard-dsl COMMAND` prints (both streams) on a file of `text`, exiting with `code`."""
    path = tmp_path / "game.yaml"
    path.write_text(text)
    assert main([command, str(path)]) == code
    out = capsys.readouterr()
    return out.out + out.err


def most(t) -> int:
    return max(Counter(t).values())


@pytest.mark.parametrize("dice, count, sides, win, holds", [
    ("3d6", 3, 6, "most == 3", lambda t: most(t) == 3),                   # a raffle: 6/216
    ("3d6", 3, 6, "doublet", lambda t: most(t) >= 2),                     # doublets: 96/216
    ("3d6", 3, 6, "total == 10", lambda t: sum(t) == 10),                 # 27/216
    ("3d6", 3, 6, "die3 == 6 and die1 < die2", lambda t: t[2] == 6 and t[0] < t[1]),
    ("3d6", 3, 6, "count(6) == 2", lambda t: t.count(6) == 2),            # 15/216
    ("3d6", 3, 6, "shows(1, 2)", lambda t: 1 in t and 2 in t),            # a two-dice combination: 30/216
    ("3d6", 3, 6, "shows(5, 5)", lambda t: t.count(5) >= 2),
    ("3d6", 3, 6, "high - low >= 4", lambda t: max(t) - min(t) >= 4),
    ("4d6", 4, 6, "pairs == 2", lambda t: sum(c // 2 for c in Counter(t).values()) == 2),  # all doublets 96/1296
    ("4d6", 4, 6, "most == 1", lambda t: most(t) == 1),                   # no doublets: 360/1296
    ("{count: 2, sides: 8}", 2, 8, "total == 9", lambda t: sum(t) == 9),  # 8/64
    ("1d6", 1, 6, "die1 >= 5", lambda t: t[0] >= 5),
    ("{count: 5, sides: 2}", 5, 2, "count(2) == 3", lambda t: t.count(2) == 3),
])
def test_the_facts_of_a_throw_give_the_counted_chances(tmp_path, capsys, dice, count, sides, win, holds):
    out = analysed(tmp_path, capsys, one_throw(dice, win))
    assert F(out["win"]) == counted(count, sides, holds)
    assert F(out["lose"]) == 1 - counted(count, sides, holds)


def test_ways_counts_the_fair_throws_of_the_dice_in_play(tmp_path, capsys):
    # ways(10) of three dice: the 27 throws of 216 summing to 10 (counted here)
    ways = sum(1 for t in product(range(1, 7), repeat=3) if sum(t) == 10)
    assert ways == 27
    out = analysed(tmp_path, capsys, one_throw("3d6", "ways(total) == 27"))
    assert F(out["win"]) == counted(3, 6, lambda t: sum(t) in (10, 11))


def test_named_faces_read_as_their_numbers(tmp_path, capsys):
    text = one_throw("{count: 3, faces: [crown, anchor, heart, diamond, club, spade]}", "count(crown) >= 2",
                     push="die1 == anchor")
    out = analysed(tmp_path, capsys, text)
    assert F(out["win"]) == counted(3, 6, lambda t: t.count(1) >= 2)
    assert F(out["push"]) == counted(3, 6, lambda t: t.count(1) < 2 and t[0] == 2)


def test_loaded_dice_of_three_weigh_each_die(tmp_path, capsys):
    text = one_throw("{count: 3, die3: [1/2, 1/10, 1/10, 1/10, 1/10, 1/10]}", "die3 == 1 and doublet")
    out = analysed(tmp_path, capsys, text)
    faces = {1: F(1, 2), **{f: F(1, 10) for f in range(2, 7)}}
    expected = sum((F(1, 36) * faces[c] for a, b, c in product(range(1, 7), repeat=3)
                    if c == 1 and len({a, b, c}) < 3), F(0))
    assert F(out["win"]) == expected


def test_a_game_that_runs_on_over_three_dice(tmp_path, capsys):
    # Throw until doublets: above ten wins, under ten loses, ten throws again. First-step:
    # P(win) = P(doublets above ten) / P(doublets not ten), counted here.
    text = ("name: Until doublets\nsources: [{title: a test}]\ndice: 3d6\nphases:\n  cast:\n    rules:\n"
            "      - when: doublet and total > 10\n        do: win\n      - when: doublet and total < 10\n"
            "        do: lose\n      - otherwise: throw again\n")
    out = analysed(tmp_path, capsys, text)
    above = counted(3, 6, lambda t: most(t) >= 2 and sum(t) > 10)
    under = counted(3, 6, lambda t: most(t) >= 2 and sum(t) < 10)
    assert F(out["win"]) == above / (above + under)


@pytest.mark.parametrize("dice, said", [
    ("10d6", "hazard-dsl throws 1 to 5 dice"),
    ("{count: 2, sides: 1}", "a die of 1 face; a die has 2 to 20 faces"),
    ("{count: 2, sides: 100}", "a die of 100 faces"),
    ("{count: 4, sides: 20}", "4 dice of 20 faces make 160,000 throws; hazard-dsl works to at most 10,000"),
    ("{count: 3, faces: [crown, anchor, crown]}", "faces names 'crown' twice"),
    ("{count: 3, sides: 6, die4: [1/6, 1/6, 1/6, 1/6, 1/6, 1/6]}", "unknown key 'die4' in dice"),
    ("{cuont: 3}", "did you mean 'count'?"),
])
def test_dice_out_of_bounds_are_refused_where_written(tmp_path, capsys, dice, said):
    path = tmp_path / "bad.yaml"
    path.write_text(one_throw(dice, "total > 3"))
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr()
    text = err.out + err.err
    assert said in text and "bad.yaml:3:" in text, text


def test_a_rule_reading_a_die_that_is_not_there_is_told_so(tmp_path, capsys):
    text = said(tmp_path, capsys, "check", one_throw("2d6", "die3 == 4"), 1)
    assert "'die3' reads die 3, but this game throws 2 dice" in text and "`dice: 3d6` throws three" in text


def test_a_rule_that_cannot_fire_says_the_dice(tmp_path, capsys):
    text = said(tmp_path, capsys, "check", one_throw("3d6", "total == 2"), 1)
    assert "game.yaml:7:9: error: rule 1 of phase 'cast' can never fire" in text



def test_dice_that_land_off_are_for_any_dice(tmp_path, capsys):
    # (tests/compile/test_recast_dice.py holds their figures against a second count)
    text = said(tmp_path, capsys, "check", one_throw("3d6", "total > 10", extra="cocked: {chance: 1/10}\n"), 0)
    assert text.strip().endswith("ok")


def test_a_tape_of_three_dice_plays_and_a_wrong_width_is_refused(tmp_path, capsys):
    path = tmp_path / "game.yaml"
    path.write_text(one_throw("3d6", "most == 3", push="doublet"))
    assert main(["run", str(path), "--dice", "3-3-3 1-2-3 4-4-1", "--games", "3", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(e["dice"], e["total"], e["result"]) for e in lines] == [
        ([3, 3, 3], 9, "win"), ([1, 2, 3], 6, "lose"), ([4, 4, 1], 9, "push")]
    assert lines[0]["name"] == "three treys" and lines[1]["name"] == "trey-deuce-ace"
    assert main(["run", str(path), "--dice", "3-4 1-2-3", "--games", "2"]) == 2
    assert "throw 1 is '3-4'; write each throw as three faces 1-6, like 3-4-3" in capsys.readouterr().err
    assert main(["run", str(path), "--dice", "3-4-7", "--games", "1"]) == 2
    assert "throw 1 is '3-4-7'" in capsys.readouterr().err


def test_random_three_dice_are_reproducible(tmp_path, capsys):
    path = tmp_path / "game.yaml"
    path.write_text(one_throw("3d6", "most == 3", push="doublet"))
    outs = []
    for _ in range(2):
        assert main(["run", str(path), "--seed", "7", "--games", "5", "--json"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    assert all(len(json.loads(line)["dice"]) == 3 for line in outs[0].splitlines())


def test_the_rule_sheet_lists_throws_of_three_dice_by_total_and_faces(tmp_path, capsys):
    out = said(tmp_path, capsys, "rules", one_throw("3d6", "most == 3"), 0)
    # totals 3 and 18 are raffles whole; 6, 9, 12, 15 hold one raffle each among other throws
    assert "3, 2-2-2, 3-3-3, 4-4-4, 5-5-5, 18 — " in out and "(6/216)" in out


def test_compare_says_plainly_when_the_dice_differ(tmp_path, capsys):
    path = tmp_path / "game.yaml"
    path.write_text(one_throw("3d6", "most == 3"))
    assert main(["compare", str(path), "cotton"]) == 0  # (two rule files: not `said`'s one)
    assert "other dice throw other throws" in capsys.readouterr().out.replace("\n", " ")


def test_the_editor_knows_the_dice_of_the_file(tmp_path):
    text = one_throw("{count: 3, faces: [crown, anchor, heart, diamond, club, spade]}", "count(crown) >= 2",
                     extra="variables: {seen: 0..3}\n")
    path = tmp_path / "game.yaml"
    path.write_text(text)
    service = LanguageService()
    uri = uri_of(path)
    service.open(uri, text)
    assert not [p for p in service.diagnostics(uri) if p.severity == "error"]
    lines = text.split("\n")
    line = next(n for n, t in enumerate(lines) if "count(crown)" in t)
    column = lines[line].index("crown")
    said = service.hover(uri, Place(line, column + 1))
    assert said is not None and "face 1 of the 6" in said.markdown
    found = {c.label for c in service.completion(uri, Place(line, lines[line].index("count")))}
    assert {"die3", "most", "pairs", "crown", "spade", "count", "shows"} <= found and "die4" not in found
    seen = next(n for n, t in enumerate(lines) if "seen" in t)
    with pytest.raises(RenameError):
        service.rename(uri, Place(seen, lines[seen].index("seen")), "crown")


# --- any dice, any condition: the compiled game against the same condition read in Python ------

# Conditions over the facts of a throw, each with its meaning in Python (t: the faces, die1 first).
_FACTS = [
    ("total", lambda t: sum(t)), ("high", max), ("low", min), ("most", most),
    ("pairs", lambda t: sum(c // 2 for c in Counter(t).values())), ("die1", lambda t: t[0]),
]


@st.composite
def _condition(draw, count: int, sides: int):
    kind = draw(st.sampled_from(["compare", "count", "shows", "doublet", "last die"]))
    if kind == "compare":
        name, fact = draw(st.sampled_from(_FACTS))
        op = draw(st.sampled_from(["==", "<", ">=", "!="]))
        n = draw(st.integers(0, count * sides + 1))
        test = {"==": lambda a: a == n, "<": lambda a: a < n, ">=": lambda a: a >= n, "!=": lambda a: a != n}[op]
        return f"{name} {op} {n}", lambda t: test(fact(t))
    if kind == "count":
        face, n = draw(st.integers(1, sides)), draw(st.integers(0, count))
        return f"count({face}) >= {n}", lambda t: t.count(face) >= n
    if kind == "shows":
        faces = draw(st.lists(st.integers(1, sides), min_size=1, max_size=count))
        return f"shows({', '.join(map(str, faces))})", lambda t: all(t.count(f) >= faces.count(f) for f in faces)
    if kind == "doublet":
        return "doublet", lambda t: len(set(t)) < len(t)
    return f"die{count} > die1", lambda t: t[-1] > t[0]


@st.composite
def _game(draw):
    count, sides = draw(st.integers(1, 3)), draw(st.integers(2, 7))
    win = draw(_condition(count, sides))
    push = draw(_condition(count, sides))
    return count, sides, win, push


@given(game=_game())
def test_any_dice_and_condition_give_the_chances_counted_over_the_faces(game):
    """The chances of a one-throw game on dice of 1 to 3 dice and 2 to 7 faces, whose win and push
    rules are drawn from the facts of a throw, equal the same conditions counted over every throw
    in Python (the game compiled and solved by the tool; the count made here)."""
    import hazard_dsl

    count, sides, (win_text, win), (push_text, push) = game
    text = (f"name: Drawn\nsources: [{{title: a test}}]\ndice: {{count: {count}, sides: {sides}}}\nphases:\n"
            f"  cast:\n    rules:\n      - when: \"{win_text}\"\n        do: win\n"
            f"      - when: \"{push_text}\"\n        do: push\n      - otherwise: lose\n")
    try:
        variant = hazard_dsl.load_text(text)
    except hazard_dsl.RulesetError as exc:
        # a rule that can never fire is refused, with its place: only where the count says so too
        said = " ".join(str(d) for d in exc.diagnostics)
        assert "can never fire" in said, said
        # and it is so: the win rule holds on no throw, or the push rule on none the win leaves
        assert counted(count, sides, win) == 0 or counted(count, sides, lambda t: not win(t) and push(t)) == 0
        event("refused: a rule that can never fire")
        return
    event("analysed")
    analysis = variant.analyse()
    assert analysis.win == counted(count, sides, win)
    assert analysis.figures.push == counted(count, sides, lambda t: not win(t) and push(t))


def test_dice_are_fair_exactly_when_every_throw_weighs_one_over_their_count():
    """`Dice.fair`, against its definition written out here: every weight 1 and the total the
    number of throws."""
    from hazard_dsl.compile.machine import Dice

    for weights, total in (((1,) * 36, 36), ((1,) * 216, 216), ((2,) * 36, 72), ((1,) * 35 + (2,), 37),
                           ((1,) * 36, 37), ((0,) + (1,) * 35, 35)):
        assert Dice(weights, total).fair == (total == len(weights) and all(w == 1 for w in weights))
