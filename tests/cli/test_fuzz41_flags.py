"""A hostile user's flags on what round 40 built (/work/notes/fuzz41/report.md): each flag
that does not go with the others is refused in words that name it, never ignored, and the
words say what is taken. Each test failed before its fix."""

from __future__ import annotations


from tests.in_process import said

AT_TABLE = ["analyse", "cotton", "--players", "Ann,Ben", "--bankroll", "10", "--goal", "20", "--strategy",
            "martingale"]


def run(*argv) -> tuple[int, str, str]:
    return said(*argv, words=True)


def test_games_with_a_strategy_at_the_table_is_refused_not_ignored():
    # F1: it printed the same figures as without --games
    code, out, err = run(*AT_TABLE, "--games", "10")
    assert (code, out) == (2, "")
    assert "--games is not for --strategy with --players: each seat's session runs until its purse reaches " \
           "--goal or it is ruined" in err


def test_risk_at_the_table_names_risk_alone():
    # F2: the words said --strategy does not take --players, in a command where it does
    code, _, err = run(*AT_TABLE, "--risk", "0.01")
    assert code == 2
    assert "--risk is not for --players: it is the least purse of one bettor at even money; with seats, " \
           "--strategy gives each seat's chance of ruin" in err
    assert "--strategy and --risk take" not in err


def test_a_strategy_without_exact_figures_to_a_goal_names_those_taken():
    # F3: "must be flat with --goal", though best and the progressions are taken
    code, _, err = run("simulate", "cotton", "--players", "Ann,Ben", "--strategy", "cautious", "--goal", "20",
                       "--purse", "10", "--games", "20")
    assert code == 2
    assert "--strategy with --goal is flat, best or a progression (martingale, paroli, dalembert, labouchere, " \
           "fibonacci), each beside its exact figures; --strategy cautious has none" in err


def test_play_cap_without_a_plan_is_refused_not_ignored():
    # F9: the session was played, the cap ignored
    code, out, err = run("play", "cotton", "--players", "Ann,Ben", "--no-log", "--cap", "4")
    assert (code, out) == (2, "")
    assert "--cap is a planned progression's largest stake: give it with --plan SEAT:STRATEGY, such as " \
           "--plan Ben:martingale" in err


def test_one_session_to_the_goal_is_one_session():
    # F8: "1 sessions each"
    code, out, _ = run("simulate", "cotton", "--players", "Ann,Ben", "--strategy", "martingale", "--goal", "20",
                       "--purse", "10", "--games", "1", "--seed", "3")
    assert code == 0
    assert " ".join(out.split()).startswith("Each seat staking by the martingale, from 10 to 20 shillings: 1 session "
                                            "each, each game drawn whole")


NEVER_PASS = """\
name: Doublets decide
dice: 3d6
labels:
  passes: "passes"
  out: "out"
phases:
  cast:
    rules:
      - when: doublet and total > 10
        do: win passes
      - when: doublet and total <= 10
        do: lose out
      - otherwise: throw again
"""


def test_sessions_to_a_goal_where_the_dice_never_pass(tmp_path):
    # F10: refused as "a round of the table never ends", though a session to a goal has no
    # rounds, and analyse gives its exact chain. The game is fair (x -> 7 - x maps a doublet over
    # 10 to one of 10 or under) and Ann casts every game answering Ben's 1: her purse walks by
    # 1 from 5 to 10 or 0, P(goal) = 5/10 and the games 5·5 = 25 (gambler's ruin, by hand)
    path = tmp_path / "never_pass.yaml"
    path.write_text(NEVER_PASS)
    for strategy in ("flat", "paroli"):
        code, out, err = run("simulate", str(path), "--players", "Ann,Ben", "--goal", "10", "--purse", "5",
                             "--strategy", strategy, "--games", "20", "--seed", "2", "--json")
        assert code == 0, err
        import json

        ann = json.loads(out)["seats"]["Ann"]
        exact = (ann["exact_reach"], ann["exact_games"]) if "exact_reach" in ann else \
            (ann["reached"]["exact"], ann["games"]["exact"])
        assert [str(x) for x in exact] == ["1/2", "25"], ann


def test_the_simulated_chance_of_the_goal_is_in_percent_as_its_exact_one():
    # F13: "P(reach the goal) 49.874%" over "simulated 0.5240 ± 0.0224", a chance in two forms
    code, out, _ = run("analyse", "cotton", "--players", "Ann,Ben", "--bankroll", "3", "--goal", "6", "--strategy",
                       "martingale", "--simulate", "500", "--seed", "3")
    assert code == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("P(reach the goal)"))
    words = lines[at + 1].split()
    assert words[0] == "simulated" and words[1].endswith("%") and words[3].endswith("%"), lines[at + 1]
    # the same sessions' figures as the JSON gives them, in % to two places
    import json

    code, out, _ = run("analyse", "cotton", "--players", "Ann,Ben", "--bankroll", "3", "--goal", "6", "--strategy",
                       "martingale", "--simulate", "500", "--seed", "3", "--json")
    mean, se = json.loads(out)["staking"]["at_table"]["simulated"]["Ann"]["reach_goal"][:2]
    assert " ".join(words[1:4]) == f"{100 * mean:.2f}% ± {100 * se:.2f}%"


def test_a_refusal_with_a_strategy_to_the_goal_names_refuse():
    # F16: "--bet: … leave --bet out", though only --refuse was given
    code, _, err = run("simulate", "cotton", "--players", "Ann,Ben", "--strategy", "martingale", "--goal", "20",
                       "--purse", "10", "--refuse", "Ben:side", "--games", "20")
    assert code == 2
    assert "--refuse: every seat in turn stakes by --strategy martingale alone, as its exact chain does; leave " \
           "--refuse out" in err


def test_a_cap_of_too_many_digits_is_told_its_bound_not_called_no_amount():
    # F11: a 20-digit --cap was "not an amount of money", where --purse says the bound
    code, out, err = run("run", "cotton", "--players", "Ann,Ben", "--strategy", "martingale", "--cap",
                         "12345678901234567890")
    assert (code, out) == (2, "")
    assert "--cap: an amount of money has at most 15 digits in each part (whole, decimals, denominator), not " \
           "20: 12345678901234567890" in err, err
    code, out, err = run("run", "cotton", "--players", "Ann,Ben", "--strategy", "martingale", "--cap", "12x")
    assert code == 2 and "--cap: not an amount of money: '12x'; write it as 2s 6d, or 2.50 in shillings" in err, err
