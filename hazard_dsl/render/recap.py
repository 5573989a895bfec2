"""What `play` tells the table besides the events: how long the session runs, where it is
logged and the command that resumes it, and — when a session is resumed — where the table stands.

Everything here reads the session engine (play.session) and the compiled machine; nothing
decides a rule. The game's own words come from the rule file: a variable's `say` ("Seven is the
main."), a phase's description, a label.
"""

from __future__ import annotations

import shlex

from ..compile.machine import CHOICE, END
from .narrate import RESULT_VERBS
from .session import SessionNarrator
from .words import fill


def session_length(rounds: int, players: list[str], resumed: bool = False) -> str:
    """How long the session runs, in the words of `--rounds`: the box goes round the table that
    many times (the session engine ends once each player has held it that often)."""
    times = "once" if rounds == 1 else "twice" if rounds == 2 else f"{rounds} times"
    who = "each player has held the box" if len(players) > 1 else f"{players[0]} has held the box"
    said = (f"The session runs {rounds} round{'s' * (rounds != 1)} of the table: until {who} {times} "
            f"(sooner if the money runs short).")
    if resumed:
        return f"{said} Its length was set when it began."
    return f"{said} --rounds N sets another length."


def resume_command(log: str, rules: str | None = None, dice: str | None = None, json: bool = False) -> str:
    """The command that goes on with the session logged in `log`, quoted for a shell: the rule
    file named where it is the user's own (a log never opens the file its header names), the
    same --dice where the dice came from a tape."""
    words = ["hazard-dsl", "play"] + ([rules] if rules is not None else []) + ["--resume", log]
    if dice is not None:
        words += ["--dice", dice]
    if json:
        words.append("--json")
    return " ".join(shlex.quote(w) for w in words)


def whole(text: str) -> str:
    """`text` wrapped to the terminal's width without ever splitting a word: a path stays whole
    (on a line of its own where it is longer than the width), so it can be copied."""
    import textwrap

    from .terminal import width

    return textwrap.fill(text, width(), break_long_words=False, break_on_hyphens=False)


def with_command(text: str, command: str) -> str:
    """`text` (`whole`), then the command on a line of its own, indented and never wrapped."""
    return f"{whole(text)}\n  {command}"


def resuming(log: str) -> str:
    return "\n" + whole(f"Resuming {log} (the session goes on in this log):")


def logged_to(log: str, command: str) -> str:
    """The opening's line on the log: where it is, and the command that resumes the session."""
    return with_command(f"This session is logged to {log}; resume it with:", command)


def where_the_table_stands(session) -> str:
    """A resumed session's recap: the game and the round, who holds the box, the main and the
    chance (each variable set, in its own `say`), or what the game waits for; the purses."""
    machine = session.machine
    caster = session.seats[session.caster].name
    round_of = f"round {session.round}" + (f" of {session.rounds}" if session.rounds is not None else "")
    hand = f"hand {session.passes + 1}, {round_of}"
    state = session.state
    lines = []
    if session.lot_round is not None:  # before the first game: who casts first is still being thrown for
        lines.append(f"Nobody holds the box yet: the players are throwing one die each for the first cast "
                     f"(round {session.lot_round}" + (", those tied throwing again)." if session.lot_round > 1 else ")."))
    elif state is None or state.kind == END:
        if state is not None and session.game:
            lines.append(f"Game {session.game} is over: {session.game_caster} {RESULT_VERBS[state.result]} "
                         f"({machine.ruleset.label_words(state.label)}).")
        lines.append(f"{caster} holds the box ({hand}); game {session.game + 1} comes next.")
    else:
        lines.append(f"Game {session.game} is under way: {caster} holds the box ({hand}).")
        lines.extend(_standing(machine, state, caster))
    narrator = SessionNarrator(machine)
    lines.append("Purses: " + ", ".join(f"{s.name} {narrator.amount(str(s.purse))}" for s in session.seats) + ".")
    if session.box:
        lines.append(f"The box has taken {narrator.amount(str(session.box))} in fees.")
    run = losses_in_a_row(session)
    if run:
        lines.append(run)
    lines.append(wagers_up(session))
    return "\n".join(lines)


def bet_words(name: str) -> str:
    """A bet as a person types and reads it: `side odds` for side_odds."""
    return name.replace("_", " ")


def wagers_up(session, heading: str = "Wagers up:") -> str:
    """Each seat's open wagers, one line each: what, against whom, what it has at risk and what
    a win pays it (Session.open_wagers); "No wagers are up." where there are none. Money in the
    ruleset's own words (render.words.money_amount)."""
    ruleset = session.machine.ruleset
    wagers = session.open_wagers()
    if not wagers:
        return "No wagers are up."
    lines = [heading]
    for seat in session.seats:
        for w in wagers:
            if seat.name in (w["backer"], w["layer"]):
                lines.append(f"  {wager_said(ruleset, seat.name, w)}.")
    return "\n".join(lines)


def wager_said(ruleset, name: str, w: dict, you: bool = False) -> str:
    """One open wager (Session.open_wagers) as party `name` to it has it, in the game's words and
    coin: "Ann sets the stake against Ben: 2s at risk, a win pays 2s"; `you`: "You set the stake
    …". The terminal's wagers up and the web table's (serve.tables.open_wagers) both say it so."""
    from fractions import Fraction

    from .words import money_amount

    backs = name == w["backer"]
    other = w["layer"] if backs else w["backer"]
    other = "the bank" if other == "bank" else other
    if w["bet"] == (ruleset.table.stake or "stake"):
        what = ("stake on the cast" if you else "stakes on the cast") if backs else \
            ("set the stake" if you else "sets the stake")
    else:
        what = f"{('back' if you else 'backs') if backs else ('lay' if you else 'lays')} {ruleset.bet_words(w['bet'])}"
    risks, wins = (w["backer_risks"], w["layer_risks"]) if backs else (w["layer_risks"], w["backer_risks"])
    pays = w.get("pays") or ""
    if not backs and pays.count(" to ") == 1:  # the payout is the backer's odds: the layer's are the other way
        won, staked = pays.split(" to ")
        pays = f"{staked} to {won}"
    pays = f" ({pays})" if pays and pays != "1 to 1" else ""
    return (f"{'You' if you else name} {what} against {other}: {money_amount(ruleset, Fraction(risks))} at risk, "
            f"a win pays {money_amount(ruleset, Fraction(wins))}{pays}")


def losses_in_a_row(session) -> str | None:
    """The caster's run of losses where the rules' passing counts them ("Ann has lost 2 games
    in a row; the dice pass after 3"); None where losses alone never pass the dice or there are
    none."""
    from ..model import NUMBER_WORDS

    counted = session.passing.losses_in_a_row
    n = session.losses
    if counted <= 1 or not n:
        return None
    caster = session.seats[session.caster].name
    said = NUMBER_WORDS[counted] if counted < len(NUMBER_WORDS) else str(counted)
    return (f"{caster} has lost {n} game{'s' * (n != 1)} in a row with the box; the dice pass after "
            f"{said} losses in a row.")


def _standing(machine, state, caster: str) -> list[str]:
    """The game's state in the rule file's words: each variable that has been set (its `say`,
    else `name is value`), then, where that says nothing, the phase's description or the choice
    awaited."""
    ruleset = machine.ruleset
    values = dict(zip(machine.variables, state.values))
    said = []
    for name, value in values.items():
        variable = ruleset.variables.get(name)
        if variable is None or value == variable.initial:
            continue
        if variable.say:
            text = fill(variable.say, dict(values, value=value, caster=caster))
            said.append(text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else "."))
        else:
            said.append(f"{name} is {value}.")
    if state.kind == CHOICE:
        who = caster if state.chooser == "caster" else f"the {state.chooser}"
        said.append(f"{who[:1].upper()}{who[1:]} is to choose the {state.variable}.")
    elif not said:
        phase = ruleset.phases.get(state.phase)
        if phase is not None and phase.description:
            said.append(f"Where the game stands: {phase.description.strip().rstrip('.')}.")
    return [" ".join(said)] if said else []
