"""Dice that land off and are recast (`cocked:`; seed text 004, reference §7 F9).

"Cocked" and "Wild" dice must be recast. If both dice are cocked or wild then both must be recast.
If only one die is "Off", the caster may recast the off die or may recast both dice together.
(seed text 004, "History of Hazard & Craps")

The figures are checked against a calculation written here in plain fractions, not the project's
solver: for each throw state of Cotton's game (which `history_sheet --option first_throw=rethrow`
plays) the caster's value V solves, for the set S of faces on which he recasts the off die alone,

    V (1 − c²) = (1 − c)² E[W] + 2c(1 − c)/6 · (Σ_{f ∈ S} A_f + (6 − |S|) V),

with W the value of each total that stands and A_f the mean of W over the recast die's six faces
with f showing; the best S (a one-state decision: the largest consistent V) is his policy.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from itertools import combinations
from pathlib import Path

import pytest

from hazard_dsl.cli import main
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.compile.machine import CHOICE, DIE, THROW
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.play.dice import DiceTape, RandomDice
from hazard_dsl.solve.analysis import analyse

from tests.play.test_table import cli, events_of

ROOT = Path(__file__).resolve().parents[2]
SHEET = ROOT / "rulesets" / "history_sheet.yaml"
CHANCES = {"one_in_ten": F(1, 10), "one_in_six": F(1, 6)}
FAIR_COTTON = F(1979, 4032)  # Cotton's game with dice that always land flat (reference §2; seed texts 000-001)


# ------------------------------------------------------------------ the independent calculation

def _best(c: F, constant: dict, self_share: dict) -> F:
    """The caster's best value at a state whose totals t are worth constant[t] + self_share[t]·V."""
    pairs = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, 7)]
    e_const = sum(constant[a + b] for a, b in pairs) / 36
    e_self = sum(self_share[a + b] for a, b in pairs) / 36
    alone = {f: (sum(constant[f + g] for g in range(1, 7)) / 6, sum(self_share[f + g] for g in range(1, 7)) / 6)
             for f in range(1, 7)}
    k = 2 * c * (1 - c) / 6
    best = None
    for size in range(7):
        for chosen in combinations(range(1, 7), size):
            lhs = 1 - c * c - (1 - c) ** 2 * e_self - k * (sum(alone[f][1] for f in chosen) + 6 - size)
            v = ((1 - c) ** 2 * e_const + k * sum(alone[f][0] for f in chosen)) / lhs
            if all((alone[f][0] + alone[f][1] * v >= v) == (f in chosen) or alone[f][0] + alone[f][1] * v == v
                   for f in range(1, 7)):
                best = v if best is None else max(best, v)
    return best


def _nick(main: int, total: int) -> bool:
    return total == main or (main in (6, 8) and total == 12) or (main == 7 and total == 11)


def independent(c: F) -> tuple[F, dict]:
    """P(the caster wins) in Cotton's game with each die off with chance c and the best recasts,
    and P(win) from the throw for the chance with each main."""
    totals = range(2, 13)

    def chance_phase(main, chance):
        return _best(c, {t: F(t == chance) for t in totals}, {t: F(t not in (main, chance)) for t in totals})

    def chance_throw(main):
        constant = {t: F(1) if _nick(main, t) else F(0) if t in (2, 3, 11, 12) else chance_phase(main, t)
                    for t in totals}
        return _best(c, constant, {t: F(0) for t in totals})

    mains = {m: chance_throw(m) for m in range(5, 10)}
    start = _best(c, {t: mains.get(t, F(0)) for t in totals}, {t: F(t not in mains) for t in totals})
    return start, mains


def sheet(**options):
    return compile_ruleset(read_ruleset(SHEET), dict({"first_throw": "rethrow"}, **options))


# ------------------------------------------------------------------ exact figures

@pytest.mark.parametrize("cocked", ["one_in_ten", "one_in_six"])
def test_the_best_recasts_against_an_independent_calculation(cocked):
    start, mains = independent(CHANCES[cocked])
    a = analyse(sheet(cocked=cocked))
    assert a.win == start
    assert a.figures.push == 0 and a.figures.lose == 1 - start
    # the value of the choice per main: the caster's chance from the throw for the chance
    rows = {dict(zip(("main", "chance"), r["state"].values))["main"]: r for r in a.recast["states"]
            if r["state"].phase == "chance_throw"}
    assert {m: rows[m]["win"] for m in range(5, 10)} == mains
    # taking up both dice every time leaves the fair game: Cotton's chance per main (seed texts 000-001)
    fair = analyse(compile_ruleset(read_ruleset(ROOT / "rulesets" / "cotton.yaml")), by="main")
    for m in range(5, 10):
        assert rows[m]["win_if_both"] == fair.by[m][1].win
        assert rows[m]["win"] > rows[m]["win_if_both"]  # the choice is worth something to every main
    assert a.recast["win_if_both"] == FAIR_COTTON


def test_the_value_of_the_choice_is_as_the_reference_says():
    """F9: choosing after seeing the good die raises P(win) on the chance throw by 0.021-0.043
    (main 6 to main 5/9) — with dice off one time in six (the reference's own figure is not tied
    to a stated chance; one in six is the larger of the sheet's illustrations)."""
    _, mains = independent(F(1, 6))
    fair = analyse(compile_ruleset(read_ruleset(ROOT / "rulesets" / "cotton.yaml")), by="main")
    gains = {m: mains[m] - fair.by[m][1].win for m in range(5, 10)}
    assert min(gains, key=gains.get) == 6
    assert gains[5] == gains[9] == max(gains.values())
    assert 0.02 < float(gains[6]) < float(gains[5]) < 0.05


@pytest.mark.parametrize("policy", ["recast=both", "recast=off", "uniform"])
def test_recasting_without_looking_leaves_the_dice_fair(policy):
    """A recast that does not depend on the face showing cannot change which throws stand."""
    assert analyse(sheet(cocked="one_in_six"), policy).win == FAIR_COTTON


def test_casts_per_game_count_the_recasts():
    """Taking both dice up every time, a throw stands with (1 − c)², so it takes 1/(1 − c)² casts."""
    machine = sheet(cocked="one_in_ten")
    both = analyse(machine, "recast=both")
    assert both.recast["casts_per_game"] == both.figures.expected_throws / F(9, 10) ** 2
    fair = analyse(compile_ruleset(read_ruleset(ROOT / "rulesets" / "cotton.yaml")))
    assert both.figures.expected_throws == fair.figures.expected_throws
    best = analyse(machine)
    assert best.recast["casts_per_game"] > best.figures.expected_throws


def test_never_is_the_game_as_printed():
    plain = compile_ruleset(read_ruleset(SHEET))
    assert plain.recast is None
    assert analyse(plain).win == F(1979, 6048)  # F3: a bad first throw loses the turn


def test_the_machine_has_a_recast_state_for_every_way_of_landing_off():
    machine = sheet(cocked="one_in_ten")
    throws = [s for s in machine.states if s.kind == THROW]
    assert set(machine.recast.landed) == {s.index for s in throws}
    nodes = machine.recast.nodes
    assert len(nodes) == 24 * len(throws)  # each die off, each face showing: a choice and a die state
    for node in nodes:
        assert node.index >= len(machine.states) and machine.node(node.index) is node
        if node.kind == CHOICE:
            assert node.chooser == "caster" and [v for v, _ in node.alternatives] == ["off", "both"]
        else:
            assert node.kind == DIE
            parent = machine.states[node.parent]
            # the die state's faces lead where the parent's throw of those two faces leads
            for face, step in enumerate(node.steps, 1):
                pair = (face, node.shown) if node.die == 1 else (node.shown, face)
                assert step is parent.steps[6 * (pair[0] - 1) + pair[1] - 1]


def test_analyse_says_which_recast_is_best(capsys):
    assert main(["analyse", "history_sheet", "--option", "cocked=one_in_ten"]) == 0
    out = capsys.readouterr().out
    assert "Dice that land off (each die 1 time in 10): the caster's recasts" in out
    assert "chance_throw (main 6)" in out
    assert "the choice is worth" in out and "Casts of the dice per game" in out
    assert main(["analyse", "history_sheet", "--option", "cocked=one_in_ten", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["recast"]["off"] == "1/10"
    row = next(r for r in data["recast"]["choices"] if r["phase"] == "chance_throw" and r["values"]["main"] == 6)
    # with main 6, a trey or a cater showing: recast the off die alone (3 + 3 nicks; 4 + 2 nicks)
    assert set(row["alone"]["die1_off"]) == {"3", "4"} == set(row["alone"]["die2_off"])
    # every value of the option in one table
    assert set(data["game_by_option"]["cocked"]) == {"never", "one_in_ten", "one_in_six"}


def test_a_recast_policy_is_a_policy(capsys):
    assert main(["analyse", "history_sheet", "--option", "cocked=one_in_six", "--option", "first_throw=rethrow",
                 "--policy", "recast=both", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["win"] == "1979/4032"
    assert main(["analyse", "cotton", "--policy", "recast=off"]) == 2
    assert "no dice are recast by choice" in capsys.readouterr().err
    # the option tables solve other option values (dice that never land off) at their best
    assert main(["analyse", "history_sheet", "--option", "cocked=one_in_six", "--option", "main=called",
                 "--policy", "recast=both"]) == 0
    assert "cocked" in capsys.readouterr().out


# ------------------------------------------------------------------ loaded dice that land off

def test_loaded_dice_that_land_off_against_an_independent_calculation(tmp_path):
    """One high fullam beside a fair die, each off one time in ten, recast both always: the
    throws that stand are the loaded pair's, so the game is fullams' one_high game."""
    rules = tmp_path / "loaded_cocked.yaml"
    rules.write_text("extends: fullams\nname: loaded and cocked\ncocked:\n  chance: 1/10\n")
    loaded = compile_ruleset(read_ruleset(rules), {"dice": "one_high"})
    plain = compile_ruleset(read_ruleset(ROOT / "rulesets" / "fullams.yaml"), {"dice": "one_high"})
    assert analyse(loaded).win == analyse(plain).win


# ------------------------------------------------------------------ playing it: tapes, run, the table

def run_json(*argv) -> list[dict]:
    result = cli("run", *argv, "--json")
    assert result.returncode == 0, result.stderr
    return events_of(result.stdout)


def test_a_tape_scripts_a_cocked_die_and_the_casters_choice():
    # x-4: the first die off, a cater showing; `off`: he recasts it alone; 2: it shows a deuce —
    # the throw that stands is 2-4, six: the main. Then 5-x, both: taken up again; 3-3 nicks six.
    lines = run_json("history_sheet", "--option", "cocked=one_in_six", "--dice", "x-4 off 2 5-x both 3-3",
                     "--games", "1")
    assert [line["dice"] for line in lines] == [[2, 4], [3, 3]]
    assert lines[0]["casts"] == [{"cast": "both", "dice": [None, 4]},
                                 {"recast": "off", "die": 1, "shown": 4, "chooser": "caster"},
                                 {"cast": "die", "die": 1, "face": 2}]
    assert lines[0]["set"] == {"main": 6}
    assert lines[1]["casts"][1] == {"recast": "both", "die": 2, "shown": 5, "chooser": "caster"}
    assert lines[1]["result"] == "win" and lines[1]["label"] == "nick"


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_without_a_scripted_choice_the_policy_recasts():
    # main 6 (3-3), then for the chance a cater showing with the first die off: the best is to
    # recast it alone (4 + 2 nicks six); a cinque showing: take both up (5 + anything wins nothing at once)
    lines = run_json("history_sheet", "--option", "cocked=one_in_ten", "--dice", "3-3 x-4 2", "--games", "1")
    assert lines[1]["casts"][1]["recast"] == "off" and lines[1]["result"] == "win"
    lines = run_json("history_sheet", "--option", "cocked=one_in_ten", "--dice", "3-3 x-5 3-3", "--games", "1")
    assert lines[1]["casts"][1]["recast"] == "both" and lines[1]["label"] == "nick"
    # both dice off: both are thrown again, no choice; a die off again: the choice again
    lines = run_json("history_sheet", "--option", "cocked=one_in_ten", "--dice", "x-x 3-3 x-4 x 2", "--games", "1")
    assert lines[0]["casts"][1] == {"recast": "both", "die": None, "shown": None, "chooser": None}
    assert [c.get("face", "-") for c in lines[1]["casts"]] == ["-", "-", None, "-", 2]


@pytest.mark.parametrize("dice, code, said", [  # every --dice error exits 2 (audit 10, finding 8)
    ("x-4 3-3", 2, "want die 1 recast alone"),  # the policy recasts the die alone: one face, not two
    ("x-5 4", 2, "want a cast of both dice"),  # both were taken up: a cast of two dice
    ("off 3-3", 2, "come only where a die is off"),
    ("x-4 sideways", 2, "write each throw as two faces"),
])
def test_a_tape_that_cannot_make_the_cast_is_refused(dice, code, said):
    result = cli("run", "history_sheet", "--option", "cocked=one_in_ten", "--dice", f"3-3 {dice}", "--games", "1")
    assert result.returncode == code, result.stdout
    assert said in result.stderr and "Traceback" not in result.stderr


def test_dice_that_never_land_off_refuse_a_tape_that_says_they_do():
    result = cli("run", "cotton", "--dice", "x-4 5")
    assert result.returncode == 2 and "never land off" in result.stderr


def test_random_dice_land_off_as_often_as_the_rules_say():
    dice = RandomDice(7)
    casts = [dice.cast(F(1, 6)) for _ in range(6000)]
    off = sum(d is None for cast in casts for d in cast)
    assert abs(off - 2000) < 4 * (12000 * (1 / 6) * (5 / 6)) ** 0.5
    assert RandomDice(7).cast(F(1, 6)) == casts[0]  # the same seed, the same casts
    faces = [RandomDice(k).cast_die(2, F(1, 10)) for k in range(200)]
    assert set(faces) <= {None, 1, 2, 3, 4, 5, 6}


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_session_with_cocked_dice_is_logged_and_replayed(tmp_path):
    log = tmp_path / "cocked.log"
    result = cli("run", "history_sheet", "--option", "cocked=one_in_six", "--players", "Ann,Ben,Cat", "--seed", "4",
                 "--rounds", "2", "--log", str(log))
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in log.read_text().splitlines()]  # the actions, and the events
    kinds = {e.get("event") for e in events}
    assert {"cast", "recast", "throw"} <= kinds
    assert "lands off" in result.stdout
    replay = cli("replay", str(log))
    assert replay.returncode == 0, replay.stderr
    # a cast changed in the log: refused, naming the line
    k = next(i for i, e in enumerate(events) if e.get("event") == "cast" and None in e.get("dice", [1]))
    tampered = list(events)
    tampered[k] = dict(events[k], dice=[7, None])
    bad = tmp_path / "bad.log"
    bad.write_text("\n".join(json.dumps(e) for e in tampered) + "\n")
    refused = cli("replay", str(bad))
    assert refused.returncode == 1 and f"bad.log:{k + 1}:" in refused.stderr
    assert "Traceback" not in refused.stderr
    # the throw that made it changed: an action the rules do not allow, refused naming its line
    assert events[k - 1] == {"action": "throw", "player": events[k]["caster"], "dice": events[k]["dice"]}
    tampered = list(events)
    tampered[k - 1] = dict(events[k - 1], dice=[7, None])
    bad.write_text("\n".join(json.dumps(e) for e in tampered) + "\n")
    refused = cli("replay", str(bad))
    assert refused.returncode == 1 and f"bad.log:{k}: the log contradicts the rules: an action they do not allow " \
        f"here: a die shows a face from 1 to 6, not 7" in refused.stderr, refused.stderr


def test_play_asks_the_caster_what_to_recast():
    # 1 2: Ann's ace and Ben's deuce for the box, Ann casts first; 3-3: main six; no stakes (0);
    # x-4: the first die off, a cater showing — Ann answers "sideways" (refused), then "off";
    # the die shows a deuce: 4-2 nicks six.
    answers = ["0", "sideways", "off"] + [""] * 50
    result = cli("play", "history_sheet", "--option", "cocked=one_in_ten", "--players", "Ann,Ben",
                 "--dice", "1 2 3-3 x-4 2", stdin="\n".join(answers) + "\n")
    assert result.returncode == 0, result.stderr
    said = " ".join(result.stdout.split())  # the prompt is wrapped to the terminal's width
    assert "the first die is off and the other shows cater: recast the off die alone, or both?" in said
    assert "Choose one of off, both" in result.stdout
    assert "Ann recasts the off die alone" in result.stdout


def test_a_tape_object_reads_faces_offs_and_words():
    tape = DiceTape.parse("x-4, 3-x x-x off both 5 x 2-2")
    assert tape.throws == [(None, 4), (3, None), (None, None), "off", "both", 5, None, (2, 2)]


# ------------------------------------------------------------------ check: errors with positions

BROKEN = [
    ("cocked:\n  chance: 1\n", "4:11", "must be less than 1"),
    ("cocked:\n  chance: -1/10\n", "4:11", "at least 0"),
    ("cocked:\n  chance: often\n", "4:11", "must be an exact number"),
    ("cocked:\n  chance: 1/10\n  rules:\n    - otherwise: lose out\n", "6:18", "cocked: rules only recast"),
    ("cocked:\n  chance: 1/10\n  rules:\n    - otherwise: recast sideways\n", "6:18", "recast names the dice"),
    ("cocked:\n  chance: 1/10\n  rules:\n    - otherwise: recast off by caster\n", "6:18", "nothing to choose"),
    ("cocked:\n  chance: 1/10\n  rules:\n    - when: shown == total\n      do: recast both\n", "6:22",
     "fact of the throw"),
    ("cocked:\n  chance: 1/10\n  rules:\n    - when: phase == \"chanse\"\n      do: recast both\n", "6:22",
     "no phase"),
    ("cocked:\n  chance: {by_option: cockd, x: 1/10}\n", "4:3", "names no option"),
    ("phases:\n  set_main:\n    rules:\n      - otherwise: recast both\n", "6:20", "no die is off here"),
    ("cocked:\n  chance: 1/10\n  rules:\n    - when: off == 1\n      do: recast off or both by caster\n", None,
     "no cocked: rule applies"),
]


@pytest.mark.parametrize("text, where, message", BROKEN)
def test_check_reports_recast_errors_with_positions(tmp_path, capsys, text, where, message):
    rules = tmp_path / "broken.yaml"
    rules.write_text("extends: cotton\nname: broken\n" + text)
    assert main(["check", str(rules)]) == 1
    err = capsys.readouterr().err
    assert message in err, err
    if where is not None:
        assert f"broken.yaml:{where}: error" in err, err


# ------------------------------------------------------------------ hostile cocked: sections (property)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

OFF_CONDITIONS = ["off == 2", "off == 1", "shown == 6", "shown in {3, 4}", 'phase == "chance"', "main == 6",
                  "off == 1 and shown > main", "total == 7", "shown", "mian == 1", 'phase == "nowhere"',
                  "option.cocked == \"often\"", "off // (shown - shown) == 1"]
OFF_ACTIONS = ["recast both", "recast off", "recast off or both by caster", "recast both or off by setter",
               "recast off or both", "recast off by caster", "recast sideways", "recast off or off", "lose out",
               "throw again", "recast both; recast off", "recast off or both by dealer"]
CHANCES_GIVEN = ["1/10", "1/6", "0", "1/2", "99/100", "1", "-1", "x", "10%", {"by_option": "cocked", "often": "1/3"},
                 {"by_option": "nothing", "often": "1/3"}, {"often": "1/3"}]


@settings(max_examples=int(__import__("os").environ.get("RECAST_FUZZ_EXAMPLES", "12")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(parent=st.sampled_from(["cotton", "chicken", "craps", "fullams", "french", "petty"]),
       chance=st.sampled_from(CHANCES_GIVEN),
       rules=st.lists(st.tuples(st.sampled_from(OFF_CONDITIONS + [None]), st.sampled_from(OFF_ACTIONS)), max_size=3),
       seed=st.integers(0, 1000))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_any_cocked_section_is_played_or_refused_never_a_crash(tmp_path_factory, parent, chance, rules, seed):
    import yaml

    spec = {"chance": chance}
    if rules:
        spec["rules"] = [{"otherwise": a} if c is None else {"when": c, "do": a} for c, a in rules]
    document = {"name": "fuzzed recast", "extends": parent, "cocked": spec,
                "options": {"cocked": {"default": "often", "values": ["never", "often"]}}}
    path = tmp_path_factory.mktemp("cocked") / "fuzz.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    for argv in (["check", str(path)], ["analyse", str(path), "--json"],
                 ["run", str(path), "--seed", str(seed), "--games", "2", "--json"]):
        code = main(argv)
        assert code in (0, 1, 2), (argv, path.read_text())


def test_the_closed_form_recast_agrees_with_policy_iteration_through_the_recast_states(monkeypatch):
    """Each throw state's recast choices are solved as one number (Solver._recast_alone); the
    general policy iteration over the recast states must find the same game."""
    from hazard_dsl.solve.markov import Solver

    machine = compile_ruleset(read_ruleset(SHEET), {"cocked": "one_in_six"})
    fast = analyse(machine)
    monkeypatch.setattr(Solver, "_recast_alone", lambda self, component, value, fixed: False)
    slow = analyse(machine)
    assert fast.win == slow.win and fast.figures.lose == slow.figures.lose
    assert [r["alone"] for r in fast.recast["states"]] == [r["alone"] for r in slow.recast["states"]]


def test_recast_states_inside_a_cycle_of_throw_states(tmp_path):
    """Two throw states that lead to each other: the recast states of both sit in one cycle and
    are solved together (policy iteration); the value agrees with taking up both dice where the
    face cannot matter, and the choice helps the caster where it does."""
    rules = tmp_path / "cycle.yaml"
    rules.write_text("""
name: a cycle
cocked:
  chance: 1/5
  rules:
    - when: off == 2
      do: recast both
    - otherwise: recast off or both by caster
phases:
  here:
    - when: total == 7
      do: goto there
    - when: total == 2
      do: lose out
    - otherwise: throw again
  there:
    - when: total == 7
      do: goto here
    - when: total == 12
      do: win nick
    - otherwise: throw again
""")
    machine = compile_ruleset(read_ruleset(rules))
    best, both = analyse(machine), analyse(machine, "recast=both")
    # taking both up leaves the fair dice: from `here` 7 (6 ways) moves on, 2 (1 way) loses; from
    # `there` 12 (1 way) wins, 7 moves back: p = 6/7 · (1/7 + 6/7 · p), so p = 6/13
    assert both.win == F(6, 13)
    assert best.win > F(6, 13)
    assert len(best.recast["states"]) == 2


def test_a_solver_chooses_again_from_the_dice_not_from_the_throws_that_stood():
    """After a policy is set, the throw rows are the throws that stand under it; choosing
    another policy on the same solver starts again from the dice."""
    from hazard_dsl.solve.markov import Solver

    machine = sheet(cocked="one_in_six")
    solver = Solver(machine)
    solver.set_policy("optimal")
    first = solver.forward().total(s.index for s in machine.end_states() if s.result == "win")
    solver.set_policy("recast=both")
    both = solver.forward().total(s.index for s in machine.end_states() if s.result == "win")
    solver.set_policy("optimal")
    again = solver.forward().total(s.index for s in machine.end_states() if s.result == "win")
    assert both == FAIR_COTTON
    assert first == again == independent(F(1, 6))[0]


def test_odds_after_a_recast_pick_reads_the_state_the_pick_led_to():
    # seed 1: Ann casts first; her first cast lands the first die off (x-1, an ace showing); she
    # asks the odds (the off die alone 27.63%, both 35.73%), recasts the off die alone, and asks
    # again before it is thrown: the figure is the pick's, not the 35.73% from before the throw.
    result = cli("play", "history_sheet", "--option", "cocked=one_in_six", "--players", "Ann,Ben,Cat", "--no-log",
                 "--seed", "1", stdin="\n\n\n\nodds\n\noff\nodds\n\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "  the off die alone (off): wins about 27.63% of the time\n" in out
    assert "Ann recasts the first die alone: press Enter odds\nFrom here Ann wins about 27.63% of the time.\n" in out
