"""Every example command of the README and of the tutorial, at 60, 80 and 120 columns: no line
is longer than the terminal, and nothing is cut or dropped — every figure of the command's
`--json` twin appears whole in the text (as its exact fraction, or its percentage or decimal
rounded as the text rounds them), and every sentence of a rule file that `show` prints is there
whole. A number folded across two lines (`4451/1685` / `60`), a column left off or a caption
cropped at the edge of the terminal fails here.

The commands are read from the files, as tests/project/test_docs.py and docs/build.py read them, and run
in this process (as docs/build.py runs them), from the repository's root."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from fractions import Fraction
from pathlib import Path

import pytest

from hazard_dsl.cli import main
from hazard_dsl.render.tables import approximate, decimal, exact, percent

ROOT = Path(__file__).resolve().parents[2]
WIDTHS = (60, 80, 120)


def readme_commands() -> list[str]:
    """The `$ hazard-dsl …` lines of the README's console block, without their comments."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```console\n", 1)[1].split("```", 1)[0]
    return [shlex.join(shlex.split(line[2:], comments=True)) for line in block.splitlines()
            if line.startswith("$ hazard-dsl")]


def tutorial_commands() -> list[str]:
    """The commands of the tutorial's console blocks (docs/build.py runs the same)."""
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    return [line[2:] for block in re.findall(r"```console\n(.*?)```", text, re.S) for line in block.splitlines()
            if line.startswith("$ hazard-dsl")]


def why_skipped(command: str) -> str | None:
    """Commands that cannot be run here as they stand, and why."""
    words = shlex.split(command)
    if any(w in words for w in ("-o", "--output", "--plot", "--log")) or re.search(r">\s*(?!/dev/null)\S", command):
        return "writes a file"  # a chart, a drawing, a log, a page: not text for a terminal
    if words[1] == "play":
        return "needs a terminal: people answer its questions"
    if words[1] == "replay":
        return "needs the log that `run … --log session.log` writes"
    return None


COMMANDS = list(dict.fromkeys(readme_commands() + tutorial_commands()))
RUN = [c for c in COMMANDS if why_skipped(c) is None]
SKIPPED = {c: why_skipped(c) for c in COMMANDS if why_skipped(c)}


def test_the_examples_are_found_and_the_skipped_ones_said():
    assert len(readme_commands()) >= 20 and len(tutorial_commands()) >= 10
    assert {"writes a file", "needs a terminal: people answer its questions"} <= set(SKIPPED.values())
    assert len(RUN) >= 20
    for command in RUN:
        assert shlex.split(command)[1] in ("analyse", "compare", "show", "run", "check", "rules")


def text_of(command: str) -> list[str]:
    """The argument list of the text form of an example: its pipe (`| head -30`) and `> /dev/null`
    dropped (the whole output is checked) and `--json` turned back into text."""
    command = re.sub(r"\s*(\|\s*(head|tail)\s+-\d+|>\s*/dev/null)\s*$", "", command)
    return [w for w in shlex.split(command)[1:] if w != "--json"]


def run(argv: list[str], columns: int | None, monkeypatch) -> tuple[int, str]:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("NO_COLOR", "1")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue() + err.getvalue()


_TWINS: dict = {}


def twin(argv: list[str], monkeypatch):
    """The command's `--json` output (the same at any width), or None where there is none."""
    key = tuple(argv)
    if key not in _TWINS:
        command = argv[0]
        if command in ("analyse", "compare", "show", "rules", "check"):
            code, out = run([*argv, "--json"], 120, monkeypatch)
            _TWINS[key] = json.loads(out[:out.rindex("]" if command == "check" else "}") + 1])
        elif command == "run":
            _TWINS[key] = [json.loads(line) for line in run([*argv, "--json"], 120, monkeypatch)[1].splitlines()
                           if line.startswith("{")]
        else:
            _TWINS[key] = None
    return _TWINS[key]


# --------------------------------------------------------------------------- the figures


# What each command's text shows of its JSON (dotted paths; * is one key): all of it, unless a
# flag asks for more (`--throws`: the distribution) or the JSON holds what the tables do not
# claim to show (each bet's net and stake, the chances given each value that are not in the
# by-table, the dice's faces).
SHOWN = {
    "analyse": ["win", "lose", "push", "edge_per_stake_laid", "expected_throws", "labels.*", "throws.median",
                "throws.percentile_99", "by.values.*.probability", "by.values.*.win", "by.values.*.edge",
                "by.values.*.expected_throws", "by.values.*.joint_labels.*",
                "bets.*.win", "bets.*.lose", "bets.*.push", "bets.*.edge", "bets.*.edge_per_decision",
                "bets.*.expected_throws", "fees.*.amount", "fees.*.due_per_game", "fees.*.cost_per_game",
                "combination.staked", "combination.net", "combination.edge",
                "game_by_option.*.*.win", "game_by_option.*.*.lose", "game_by_option.*.*.net_per_game",
                "game_by_option.*.*.expected_throws", "by_option.*.*.*", "choices.*.*.win", "choices.*.*.edge",
                "hand.games", "hand.throws", "hand.net", "hand.wins", "ruin.bankroll", "ruin.goal", "ruin.stake",
                "ruin.reach_goal", "ruin.ruin", "ruin.games", "recast.casts_per_game", "recast.choices.*.win",
                "recast.choices.*.win_if_both", "seats.seats.*.*.per_game", "seats.seats.*.*.per_throw",
                "seats.seats.*.*.per_hand", "seats.seats.*.*.edge", "seats.games_per_hand",
                "seats.round.per_round.*", "seats.round.per_game.*", "seats.round.box", "seats.round.bank"],
    "compare": ["rulesets.*.win", "rulesets.*.lose", "rulesets.*.push", "rulesets.*.edge_per_stake_laid",
                "rulesets.*.expected_throws", "rulesets.*.labels.*", "rulesets.*.throws.median",
                "rulesets.*.throws.percentile_99", "rulesets.*.bets.*.edge", "rulesets.*.fees.*.cost_per_game"],
    "rules": ["phases.*.tables.*.rows.*.caster_wins", "labels.*.chance", "odds.*", "bets.*.edge", "fees.*.amount"],
}


def leaves(data, path=()):
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, str(key)))
    elif isinstance(data, list):
        for k, value in enumerate(data):
            yield from leaves(value, (*path, str(k)))
    else:
        yield ".".join(path), data


_NUMBER = re.compile(r"^-?\d+(?:/\d+)?$")
_IN_TEXT = re.compile(r"[−+-]?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?(?:/\d[\d,]*)?%?")


def figures(data, patterns: list[str]) -> dict[str, Fraction]:
    """The exact numbers of the JSON at the paths the text shows (a * stands for one key)."""
    shown = re.compile("|".join(re.escape(p).replace(r"\*", r"[^.]+") for p in patterns))
    out = {}
    for path, value in leaves(data):
        if isinstance(value, bool) or not shown.fullmatch(path):
            continue
        if isinstance(value, int) or isinstance(value, str) and _NUMBER.match(value):
            out[path] = Fraction(value)
    return out


def numbers_in(text: str) -> set[str]:
    """Every number of the text, whole as it stands between other characters, without its % and
    thousands separators."""
    return {m.replace("−", "-").replace(",", "").rstrip("%").lstrip("+") for m in _IN_TEXT.findall(text)}


def forms(value: Fraction) -> set[str]:
    """How the text may show an exact number: the fraction, its percentage (2, 3 or 4 places),
    a decimal (2 or 4 places, the throws), or ≈ four significant digits for a long one."""
    shown = {exact(value), decimal(value, 4), decimal(value, 2), approximate(value)}
    shown |= {percent(value, digits).rstrip("%") for digits in (2, 3, 4)}
    return {s.lstrip("+") for s in shown}


def missing_figures(text: str, data, patterns: list[str]) -> list[str]:
    found = numbers_in(text)
    return [f"{path} = {exact(value)}" for path, value in figures(data, patterns).items() if not forms(value) & found]


# --------------------------------------------------------------------------- the words


def prose(data) -> list[str]:
    """The sentences of a rule file that `show --json` holds and `show` prints."""
    out = [data["description"] or "", *data["notes"]]
    for source in data["sources"] + ((data.get("inherited_sources") or {}).get("sources") or []):
        out += [str(source[k]) for k in ("title", "author", "url", "note") if source.get(k)]
    for option in data["options"].values():
        out += [text for text in option["values"].values() if text]
    for kind in ("bets", "fees"):
        out += [item["description"] for item in data[kind].values() if item.get("description")]
    if data.get("passing") and data["passing"].get("description"):
        out.append(data["passing"]["description"])
    return [" ".join(text.split()) for text in out if text]


def joined(text: str) -> str:
    """The text as one line: lines joined by a space, and a web address broken after a "/" whole again."""
    return re.sub(r"(?<=/) (?=\S)", "", " ".join(text.split()))


def in_order(sentence: str, words: list[str]) -> bool:
    """Whether every word of `sentence` is in `words`, whole and in its order (a cell of a table
    is read down its column, between the words of the cells beside it)."""
    words = [w.strip("<>,.;:") for w in words]
    position = 0
    for word in sentence.split():
        try:
            position = words.index(word.strip("<>,.;:"), position) + 1
        except ValueError:
            return False
    return True


DIAGNOSTIC = re.compile(r"^(\S+:\d+:\d+|hazard-dsl): (error|warning|note): ")


def over_wide(text: str, columns: int, data) -> list[str]:
    """The lines longer than the terminal, but for a piece of a web address that is longer than a
    whole line by itself (an address is broken only after a "/", never cut inside a piece), and
    a diagnostic's first line, which stays whole when it is not written to a terminal (one line
    per diagnostic, as compilers print it, for editors and grep; tests/render/test_width.py's
    test_a_diagnostic_wraps_at_a_terminal checks the terminal's case)."""
    urls = [value for _, value in leaves(data) if isinstance(value, str) and "://" in value] if data else []
    return [line for line in text.splitlines() if len(line) > columns and not DIAGNOSTIC.match(line)
            and not (len(line.split()) == 1 and any(line.strip().strip("<>") in url for url in urls))]


# --------------------------------------------------------------------------- the test


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("command", RUN)
def test_an_example_fits_the_terminal_and_shows_every_figure_whole(command, columns, monkeypatch):
    argv = text_of(command)
    data = twin(argv, monkeypatch)
    code, text = run(argv, columns, monkeypatch)
    assert code in (0, 1), text  # check of the tutorial's first try fails, as it says
    assert not over_wide(text, columns, data), f"lines wider than {columns} columns"
    assert not [line for line in text.splitlines() if line != line.rstrip()], "trailing blanks"
    kind = argv[0]
    if kind in SHOWN:
        assert not missing_figures(text, data, SHOWN[kind]), "figures of --json not in the text, or not whole"
    if kind == "show":
        words = joined(text).split()
        assert not [s for s in prose(data) if not in_order(s, words)], "sentences of the rule file cut or left out"
    if kind == "check":
        whole = joined(text)
        assert not [d["message"] for f in data for d in f["diagnostics"] if " ".join(d["message"].split()) not in whole]
    if kind == "run":
        throws = [f"({'-'.join(map(str, t['dice']))})" for t in data if "dice" in t and t.get("dice")]
        assert throws and all(t in text for t in throws)


def test_piped_output_without_columns_is_80_wide(monkeypatch):
    code, text = run(["compare", "cotton", "hoyle", "chicken", "french", "petty", "craps"], None, monkeypatch)
    assert code == 0 and max(map(len, text.splitlines())) <= 80
    data = twin(["compare", "cotton", "hoyle", "chicken", "french", "petty", "craps"], monkeypatch)
    assert not missing_figures(text, data, SHOWN["compare"])


def test_the_check_cannot_pass_with_a_number_split_or_a_column_dropped():
    """The test above would see a fraction folded across lines, and a column left out."""
    data = {"win": "4451/168560", "lose": "1/3"}
    assert missing_figures("win 4451/1685\n    60  lose 33.33%", data, ["win", "lose"]) == ["win = 4451/168560"]
    assert missing_figures("win 2.64%  lose 33.3", data, ["win", "lose"]) == ["lose = 1/3"]
    assert missing_figures("win 4451/168560 (2.64%), lose 1/3", data, ["win", "lose"]) == []
    assert over_wide("x" * 61, 60, None) and not over_wide("x" * 60, 60, None)


def test_a_diagnostic_wraps_at_a_terminal(monkeypatch):
    """At a terminal the message wraps between words; into a pipe it stays one line."""
    from hazard_dsl.diagnostics import Diagnostic, Position
    from hazard_dsl.render.diagnostics import render

    monkeypatch.setenv("COLUMNS", "60")
    message = "no rule handles the throw 5-6 when main = 5, chance = 0; 6-6 when main = 5, chance = 0"
    d = Diagnostic(message, Position("docs/examples/tavern-1.yaml", 12, 7), hint="add a rule for it, or an "
                   "`otherwise:` that says what every other throw does in this phase of the game")
    wrapped = render(d, wrapped=True).splitlines()
    assert max(map(len, wrapped)) <= 60 and " ".join(w.strip() for w in wrapped).count("chance = 0;") == 1
    assert render(d).splitlines()[0] == f"docs/examples/tavern-1.yaml:12:7: error: {message}"


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _no_terminal(*args):
    raise OSError("not a terminal")


@pytest.mark.parametrize("argv", [["analyse", "cotten"], ["analyse", "cotton", "--polcy=optimal", "--jsno"]])
def test_an_error_wraps_between_words_at_a_terminal_and_stays_a_line_in_a_pipe(argv, monkeypatch):
    """`hazard-dsl: error: …` (and argparse's own) at an 80-column terminal: no line longer, no
    word split by the terminal, the same words; into a pipe, the message on one line, unless
    COLUMNS asks for a width (audit 10 finding 14)."""
    said = {}
    for name, stream in (("terminal", _Terminal()), ("pipe", io.StringIO()), ("pipe of 80", io.StringIO())):
        # a pipe is fitted only to the COLUMNS asked for (cli.output.error_columns)
        if name == "pipe":
            monkeypatch.delenv("COLUMNS", raising=False)
            # no terminal either (argparse's usage then 80 wide, as below, wherever the tests run)
            monkeypatch.setattr("os.get_terminal_size", _no_terminal)
        else:
            monkeypatch.setenv("COLUMNS", "80")
        monkeypatch.setattr("sys.stderr", stream)
        with contextlib.suppress(SystemExit):
            main(argv)
        said[name] = stream.getvalue().splitlines()
    message = said["pipe"][-1]
    assert len(message) > 80 and "did you mean" in message
    at_terminal = said["terminal"][len(said["pipe"]) - 1:]  # (argparse's usage before it is alike)
    assert said["terminal"][:len(said["pipe"]) - 1] == said["pipe"][:-1]
    assert max(map(len, at_terminal)) <= 80 and len(at_terminal) > 1
    assert " ".join(line.strip() for line in at_terminal).split() == message.split()
    assert said["pipe of 80"] == said["terminal"]  # COLUMNS=80 asked for: fitted as at a terminal
