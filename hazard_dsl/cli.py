"""The `hazard-dsl` command: a thin shell over the Python API.

Every failure a user can cause ends in a message and a non-zero exit, never a traceback:
rule-file problems as ``file:line:col: error: …`` (exit 1), bad arguments as
``hazard-dsl: error: …`` (exit 2).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from . import __version__
from .diagnostics import RulesetError, print_diagnostics
from .play.casting import CastingError
from .play.log import LogError


class UsageError(Exception):
    """A bad command-line argument: reported as `hazard-dsl: error: …`, exit 2."""


# the formats of graph and rules, here so that building the parser imports neither module
# (tests/test_graph.py and tests/test_rulesheet.py check that they agree)
GRAPH_FORMATS = ("dot", "mermaid", "svg", "png", "json")
SHEET_FORMATS = ("text", "markdown", "html", "json")


FORCE_HELP = "let --log write over an existing file (never over a rule file of the game)"

# --------------------------------------------------------------------------- loading


def load(name: str):
    from .parse.cache import read_ruleset
    from .parse.files import builtin_names, resolve

    path = resolve(name)
    if path is None:
        from .diagnostics import did_you_mean

        raise UsageError(f"no ruleset file or built-in ruleset named {name!r}{did_you_mean(name, builtin_names())} "
                         f"(built-ins: {', '.join(builtin_names())})")
    return read_ruleset(path)


def build_machine(ruleset, option_texts, bets=None):
    """The compiled machine, with the named bets (None: all) compiled too."""
    from .compile.compiler import OptionError, compile_ruleset, parse_option_assignments

    try:
        options = parse_option_assignments(ruleset, option_texts)
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    return compile_ruleset(ruleset, options, bets)


# --------------------------------------------------------------------------- commands


def cmd_check(args) -> int:
    from .check import check_file
    from .diagnostics import ERROR, NOTE, Diagnostic
    from .parse.files import resolve

    fmt = _format(args)
    failed = False
    results = []
    for name in args.files:
        path = resolve(name)
        diagnostics = check_file(path) if path is not None else [Diagnostic(f"{name}: no such file")]
        errors = sum(d.severity == ERROR for d in diagnostics)
        warnings = sum(d.severity not in (ERROR, NOTE) for d in diagnostics)
        failed |= bool(errors)
        results.append((name, diagnostics, errors, warnings))
        if fmt != "text":
            continue
        print_diagnostics(diagnostics)
        plural = lambda n, word: f"{n} {word}{'s' * (n != 1)}"  # noqa: E731
        if errors:
            print(f"{name}: {plural(errors, 'error')}" + (f", {plural(warnings, 'warning')}" if warnings else ""),
                  file=sys.stderr)
        elif not args.quiet:
            print(f"{name}: ok" + (f" ({plural(warnings, 'warning')})" if warnings else ""))
    if fmt == "json":
        print(json.dumps([{"file": name, "ok": not errors, "errors": errors, "warnings": warnings,
                           "diagnostics": [_diagnostic_json(d) for d in diagnostics]}
                          for name, diagnostics, errors, warnings in results], indent=2))
    elif fmt != "text":
        from .render.tables import Table, render

        t = Table("Problems found", ["file", "line", "column", "severity", "message"])
        for name, diagnostics, _, _ in results:
            for d in diagnostics:
                p = d.position
                t.add(p.file if p else name, p.line if p else "", p.column if p else "", d.severity,
                      d.message + (f" (hint: {d.hint})" if d.hint else ""))
            if not diagnostics:
                t.add(name, "", "", "ok", "no problems")
        print(render([t], fmt), end="")
    return 1 if failed else 0


def _diagnostic_json(d) -> dict:
    p = d.position
    return {"file": p.file if p else None, "line": p.line if p else None, "column": p.column if p else None,
            "severity": d.severity, "message": d.message, "hint": d.hint}


def _format(args) -> str:
    return "json" if getattr(args, "json", False) else getattr(args, "format", "text")


def cmd_list(args) -> int:
    from .parse.cache import read_ruleset
    from .parse.files import builtin_dir, builtin_names
    from .render.tables import Table, render

    entries = []
    for name in builtin_names():
        path = builtin_dir() / f"{name}.yaml"
        try:
            ruleset = read_ruleset(path)
            entries.append({"name": name, "title": ruleset.name, "year": ruleset.year, "file": str(path)})
        except RulesetError:
            entries.append({"name": name, "title": None, "year": None, "file": str(path)})
    fmt = _format(args)
    if fmt == "json":
        print(json.dumps(entries, indent=2))
        return 0
    t = Table("Built-in rulesets", ["name", "year", "ruleset"], align=["left", "right", "left"],
              caption="hazard-dsl show NAME describes one; hazard-dsl analyse NAME gives its figures.")
    for e in entries:
        t.add(e["name"], e["year"] if e["year"] is not None else "",
              e["title"] if e["title"] is not None else "(does not check: run hazard-dsl check)")
    print(render([t], fmt, colour=_colour()), end="")
    return 0


def cmd_run(args) -> int:
    from .play.game import Chooser, TapeRanOut, play
    from .render.narrate import Narrator, Tally
    from .render.terminal import fit, printable, said_with_command
    from .solve.markov import PolicyError, Solver
    import numpy as np

    fmt = _format(args)
    if fmt not in ("text", "json"):
        raise UsageError(f"run prints a narration (text) or one JSON object per throw (json), not {fmt}")
    ruleset = load(args.ruleset)
    if args.players is not None:
        return _run_session(args, ruleset, fmt)
    for flag in ("rounds", "purse", "strategy", "stake", "log"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag} is for a session at the table: give --players Ann,Ben,Cat too")
    if args.force:
        raise UsageError("--force lets --log write over an existing file; it is for a session at the table")
    # only the bets ordered are played (a name that is no bet is refused with the orders)
    ordered = [name for name in (text.partition("=")[0].strip() for text in args.bet) if name in ruleset.bets]
    machine = build_machine(ruleset, args.option, ordered)
    if args.games is not None and not 1 <= args.games <= 1_000_000:
        raise UsageError("--games must be between 1 and 1000000")
    # a tape replays the same every time (mixed choices included) unless a seed is given
    seed, dice = _seed_and_dice(args)
    _load_dice(dice, machine)
    games = args.games if args.dice is not None or args.games is not None else 3
    solver = Solver(machine)
    try:
        solver.set_policy(args.policy)
    except PolicyError as exc:
        raise UsageError(str(exc)) from None
    # Mixed choices draw from their own stream, so a tape replays the same whatever the policy.
    chooser = Chooser(solver, np.random.default_rng([seed, 1]))
    wagers = None
    if args.bet or args.bankroll is not None:
        from .play.wagers import Order, Wagers
        from .solve.bets import BetError, parse_money

        try:
            bankroll = parse_money(args.bankroll, "--bankroll") if args.bankroll is not None else None
            wagers = Wagers(machine, [Order.parse(text) for text in args.bet], bankroll)
        except BetError as exc:
            raise UsageError(str(exc)) from None
    narrator = Narrator(machine)
    tally = Tally()
    pending: list = []
    out = sys.stdout
    as_json = fmt == "json"
    if not as_json:
        print(fit(printable(f"{ruleset.name} — {options_line(machine)}")), file=out)
    current_game = 0
    for record in play(machine, dice, chooser, games, wagers):
        tally.add(record)
        if isinstance(record, TapeRanOut):
            where = f"in game {record.game} after {record.throws} throw{'s' * (record.throws != 1)}, " \
                    f"in phase {record.state.phase!r}" if record.throws else f"before game {record.game}"
            print(f"hazard-dsl: the dice tape ran out {where}; the game stops there.", file=sys.stderr)
            break
        if as_json:
            line = narrator.json(record, pending, seed if args.dice is None else None)
            if line:
                print(line, file=out)
            continue
        if record.game != current_game:
            current_game = record.game
            print(f"\nGame {record.game}", file=out)
        print(fit(printable(narrator.text(record))), file=out)
    if not as_json:
        label_results = {s.label: s.result for s in machine.end_states()}
        print("\n" + fit(printable(tally.summary(label_results, ruleset.words.caster))), file=out)
        if wagers is not None:
            from .play.wagers import money

            sign = "+" if wagers.net >= 0 else "−"
            line = f"Money: net {sign}{money(abs(wagers.net))} " \
                f"{ruleset.money_unit if abs(wagers.net) == 1 else ruleset.money_units}"
            if wagers.bankroll is not None:
                line += f"; bankroll {money(wagers.bankroll)}"
            print(fit(printable(line + ".")), file=out)
        if args.dice is None:
            print(printable(said_with_command(f"Seed {seed}:", replay_command(args, seed), "plays these games again.")),
                  file=out)
    return 0


def _seed_and_dice(args):
    """The seed and the dice of a run: a tape (--dice) replays; otherwise seeded random dice."""
    from .play.dice import DiceTape, RandomDice

    if args.seed is not None and not 0 <= args.seed < 2**64:
        raise UsageError("--seed takes a whole number from 0 to 2**64 - 1")
    if args.seed is None and args.dice is None:
        import secrets

        seed = secrets.randbelow(2**32)
    else:
        seed = args.seed if args.seed is not None else 0
    if args.dice is not None:
        try:
            return seed, DiceTape.parse(args.dice)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return seed, RandomDice(seed)


def _load_dice(dice, machine) -> None:
    """Random dice throw as the rules load them; a tape is refused where it casts what these
    dice cannot (a die off where dice never land off)."""
    if not hasattr(dice, "load"):  # a log's script: its casts are checked as they are read
        return
    try:
        dice.load(machine.dice, machine.recast)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _players(text: str, least: int = 2) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) < least:
        raise UsageError("--players takes two names or more, separated by commas: --players Ann,Ben,Cat"
                         if least > 1 else "--players takes one name or more, separated by commas")
    if len(names) > 50:
        raise UsageError("--players: at most 50 players at one table")
    if len(set(names)) != len(names):
        raise UsageError("--players: each player needs a name of his own")
    for name in names:
        if len(name) > 40 or not name.isprintable() or name in ("bank", "box"):
            raise UsageError(f"--players: {name[:40]!r} cannot be a player's name (printable, at most 40 "
                             f"characters, not 'bank' or 'box')")
    return names


def _table_settings(args, ruleset) -> dict:
    """What shapes a session, from the command line: checked, with clear errors."""
    from .play.session import STRATEGIES
    from .solve.bets import BetError, parse_money

    players = _players(args.players, 1 if ruleset.table.against == "bank" else 2)
    rounds = 1 if args.rounds is None else args.rounds
    if not 1 <= rounds <= 10_000:
        raise UsageError("--rounds must be between 1 and 10000")
    strategy = args.strategy or "flat"
    if strategy not in STRATEGIES:
        from .diagnostics import did_you_mean

        raise UsageError(f"--strategy is one of {', '.join(STRATEGIES)}, not {strategy!r}"
                         f"{did_you_mean(strategy, STRATEGIES)}")
    try:
        purse = parse_money(args.purse or "20", "--purse")
        stake = parse_money(args.stake or "1", "--stake")
    except BetError as exc:
        raise UsageError(str(exc)) from None
    if purse <= 0 or stake <= 0:
        raise UsageError("--purse and --stake must be more than 0")
    return dict(file=args.ruleset, players=players, purse=str(purse), stake=str(stake), strategy=strategy,
                rounds=rounds, policy=args.policy)


def _table(ruleset, option_texts, settings: dict, seed: int, dice, decider=None):
    """The machine and the session engine for these settings (a log's header has the same keys)."""
    import numpy as np
    from fractions import Fraction

    from .play.game import Chooser
    from .play.session import Decider
    from .solve.markov import PolicyError, Solver

    table = ruleset.table
    machine = build_machine(ruleset, option_texts, [table.stake] if table.stake else [])
    _load_dice(dice, machine)
    solver = Solver(machine)
    try:
        solver.set_policy(settings["policy"])
    except PolicyError as exc:
        raise UsageError(str(exc)) from None
    strategy = Decider(Fraction(settings["stake"]), settings["strategy"],
                       Chooser(solver, np.random.default_rng([seed, 1])))
    return machine, _sit(machine, settings, decider or strategy, dice), strategy, solver


def _sit(machine, settings: dict, decider, dice):
    """A new session engine of `machine` with these settings, deciders and dice."""
    from fractions import Fraction

    from .play.session import Session

    try:
        return Session(machine, settings["players"], Fraction(settings["purse"]), decider, dice, settings["rounds"])
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _run_session(args, ruleset, fmt) -> int:
    """`run --players …`: a narrated session at the table, or its events as JSON lines."""
    from .render.session import SessionNarrator

    if args.bet or args.bankroll is not None or args.games is not None:
        raise UsageError("a session at the table stakes by --strategy and --stake, with --purse each; "
                         "--bet, --bankroll and --games are for games without players")
    settings = _table_settings(args, ruleset)
    seed, dice = _seed_and_dice(args)
    machine, session, _, _ = _table(ruleset, args.option, settings, seed, dice)
    header = dict(settings, version=__version__, seed=seed if args.dice is None else None)
    log = _new_log(args)
    _tell(((e, True) for e in session.events()), SessionNarrator(machine), fmt, log, header)
    if fmt != "json" and args.dice is None:
        from .render.terminal import fit, printable

        print(fit(printable(f"Seed {seed}: the same command with --seed {seed} plays this session again.")))
    return 0


def _tell(events, narrator, fmt: str, log=None, header: dict | None = None) -> dict | None:
    """Print (and log) a session's events as they come; returns the last one."""
    last = None
    try:
        for event, _ in events:
            if event["event"] == "session" and header:
                event.update(header)
            if log is not None:
                log.write(event)  # at once: a session killed at any moment leaves a log valid up to here
            if fmt == "json":
                print(json.dumps(event))
            else:
                text = narrator.text(event)  # printable and fitted already
                if text is not None:
                    print(text)
            last = event
    finally:
        if log is not None:
            log.close()
    return last


def _from_header(log, named: str | None):
    """The ruleset, options and settings a log was written with, each checked. The rules are a
    built-in ruleset the header names, or the rule file the user names (`named`); the header's
    file name is never opened, and the rules must have the header's hash."""
    from .parse.cache import read_ruleset
    from .parse.numbers import exact_amount
    from .play.log import LogError, rules_file
    from .play.session import STRATEGIES

    h, where = log.header, f"{log.path}:1"
    ok = (isinstance(h["file"], str) and isinstance(h["rules"], str) and isinstance(h["options"], dict)
          and isinstance(h["players"], list) and h["players"] and all(isinstance(p, str) for p in h["players"])
          and h["strategy"] in STRATEGIES and isinstance(h["rounds"], int) and not isinstance(h["rounds"], bool)
          and 1 <= h["rounds"] <= 10_000 and isinstance(h["policy"], str)
          and all(isinstance(h[k], str) and (exact_amount(h[k], percent=False) or 0) > 0 for k in ("purse", "stake"))
          and (h.get("seed") is None or isinstance(h.get("seed"), int) and 0 <= h["seed"] < 2**64))
    if ok:
        try:
            _players(",".join(h["players"]), 1)
            ok = all("," not in p and p == p.strip() for p in h["players"])
        except UsageError:
            ok = False
    if not ok:
        raise LogError(f"{where}: the session event is damaged (its settings are not what --log writes)")
    if named is not None:
        ruleset, shown = load(named), named  # the user's own choice: its problems are shown as for any command
    else:
        try:
            ruleset, shown = read_ruleset(rules_file(log)), f"the built-in ruleset {h['file']}"
        except RulesetError:
            raise LogError(f"{where}: the built-in ruleset {h['file']} does not check; run hazard-dsl check "
                           f"{h['file']}") from None
    if ruleset.rules_digest != h["rules"]:
        hint = "" if named is not None else (f"; if it was played with a rule file of that name, name the file: "
                                             f"hazard-dsl replay {log.path} RULESET")
        raise LogError(f"{where}: the log was written with other rules than {shown} holds now (another version of "
                       f"the rule file, or another file); it cannot be replayed against them{hint}")
    options = [f"{k}={v}" for k, v in h["options"].items()]
    settings = {k: h[k] for k in ("file", "players", "purse", "stake", "strategy", "rounds", "policy")}
    settings["purse"], settings["stake"] = (str(exact_amount(h[k], percent=False)) for k in ("purse", "stake"))
    return ruleset, options, settings, h.get("seed")


def _check_log(log, named, seed: int | None, dice):
    """The whole log replayed against its rules before anything is printed or changed
    (LogFile.check); returns the machine, the settings and the strategy and solver to go on with."""
    from .play.log import LogError

    ruleset, options, settings, logged_seed = _from_header(log, named)
    seed = seed if seed is not None else (logged_seed or 0)
    try:
        machine, _, strategy, solver = _table(ruleset, options, settings, seed, dice)
        log.check(lambda script: _sit(machine, settings, script, script))
    except UsageError as exc:
        raise LogError(f"{log.path}:1: {exc}") from None
    return machine, settings, strategy, solver


def cmd_replay(args) -> int:
    from .play.log import Script, open_log, replayed
    from .render.session import SessionNarrator
    from .render.terminal import fit, printable

    fmt = _format(args)
    if fmt not in ("text", "json"):
        raise UsageError(f"replay prints a narration (text) or the events as JSON lines (json), not {fmt}")
    with open_log(args.log) as log:
        machine, settings, _, _ = _check_log(log, args.rules, None, None)
        script = Script(log)  # the log again, as far as it was checked
        session = _sit(machine, settings, script, script)
        last = _tell(replayed(session, script), SessionNarrator(machine), fmt)
        if log.reading.tail:
            print(f"hazard-dsl: note: {printable(log.path)}: its last line was cut off (the session stopped while "
                  f"writing it); replayed up to line {log.reading.lines}", file=sys.stderr)
    if fmt != "json" and (last is None or last["event"] != "end"):
        purses = ", ".join(f"{s.name} {s.purse}" for s in session.seats)
        from .render.recap import resume_command

        print(fit(printable(f"\nThe log ends here, before the session ended. Purses: {purses}. "
                            f"{resume_command(log.path, args.rules)} goes on from here.")))
    return 0


def cmd_play(args) -> int:
    """Several people at one keyboard; or, with --resume, the session of a log, going on."""
    from .play.dice import RandomDice
    from .play.log import open_to_resume
    from .render.terminal import printable

    fmt = _format(args)
    if fmt not in ("text", "json"):
        raise UsageError(f"play tells the session (text) or prints its events as JSON lines (json), not {fmt}")
    log = None
    try:
        if args.resume is not None:
            if args.players is not None:
                raise UsageError("play --resume FILE takes the players from the log; give no --players")
            if args.log is not None or args.force or args.no_log:
                raise UsageError("a resumed session goes on in its own log; --log, --no-log and --force are for "
                                 "a new session")
            if args.rounds is not None:
                raise UsageError("play --resume takes the length of the session (--rounds) from the log; "
                                 "give no --rounds")
            if args.seed is not None:
                raise UsageError("play --resume takes the seed from the log; give no --seed")
            if args.dice is not None:
                _, dice = _seed_and_dice(args)
            log = open_to_resume(args.resume)  # locked from here: no other session appends to it
            seed = log.header.get("seed")
            if seed is None and args.dice is None:
                raise UsageError(f"{log.path}: this session's dice came from --dice; give the same --dice to "
                                 f"resume it")
            seed = seed if isinstance(seed, int) else 0
            if args.dice is None:
                dice = RandomDice(seed)
            # the whole log is replayed before anything is changed (a refused log is left as it was)
            machine, settings, strategy, solver = _check_log(log, args.ruleset, seed, dice)
            if log.ended:
                print(printable(f"The session logged in {log.path} has ended (line {log.reading.lines}): "
                                f"there is nothing to resume. hazard-dsl replay {log.path} tells it again."),
                      file=sys.stderr if fmt == "json" else sys.stdout)
                return 0
            session = _sit(machine, settings, strategy, dice)
        else:
            if args.ruleset is None or args.players is None:
                raise UsageError("play needs a RULESET and --players Ann,Ben,Cat (or --resume FILE)")
            ruleset = load(args.ruleset)
            settings = _table_settings(args, ruleset)
            seed, dice = _seed_and_dice(args)
            machine, session, strategy, solver = _table(ruleset, args.option, settings, seed, dice)
        return _play(args, fmt, log, machine, session, strategy, solver, settings, seed, dice)
    finally:
        if log is not None:
            log.close()


def _play(args, fmt, log, machine, session, strategy, solver, settings, seed, dice) -> int:
    from .play.dice import TapeEnded
    from .play.log import Script, replayed
    from .render.prompt import HELP, DiceOnEnter, SessionOver, Terminal, UnreadableAnswer, read_answer
    from .render.recap import (logged_to, resume_command, resuming, session_length, where_the_table_stands,
                               with_command)
    from .render.session import SessionNarrator
    from .render.terminal import fit, printable

    typed = sys.stdin.isatty()
    # with --json the events go to standard output and the questions to standard error
    talk = sys.stderr if fmt == "json" else sys.stdout

    def say(text: str) -> None:
        print(printable(fit(text)), file=talk)

    def stopped(command: str | None) -> None:
        print(printable(with_command("Resume it with:", command) if command
                        else fit("It was not logged, so it cannot be resumed.")), file=talk)

    recapped = log is None  # a resumed session first tells where the table stands, once

    def recap() -> None:
        nonlocal recapped
        if not recapped:
            recapped = True
            print(printable(resuming(log.path)), file=talk)
            say(where_the_table_stands(session))

    def ask(prompt: str) -> str:
        recap()  # before the first question of a resumed session
        talk.write(printable(prompt))
        talk.flush()
        try:
            answer = read_answer(sys.stdin)
        except UnreadableAnswer:
            if not typed:
                print(file=talk)
            raise
        if not typed:  # answers from a file or a pipe: show them, as a terminal would have
            print(printable(answer[:80]), file=talk)
        return answer

    terminal = Terminal(machine, solver, ask, say, strategy)
    terminal.session = session
    live_dice = dice if args.dice is not None else DiceOnEnter(dice, terminal)
    narrator = SessionNarrator(machine)
    if log is not None:
        try:
            for _ in range(log.throws):  # the dice go on from where the log left them
                dice.throw()
        except TapeEnded:
            raise UsageError(f"--dice has fewer throws than the {log.throws} the log has made") from None
        log.drop_cut_line()  # a line cut off mid-way is dropped, now that the rest is known good
        script = Script(log, terminal, live_dice)
        session.decider, session.dice = script, script
        events = replayed(session, script)
        out = log  # the session goes on in the same file
    else:
        session.decider, session.dice = terminal, live_dice
        events = ((e, False) for e in session.events())
        out, unlogged = _play_log(args)
    header = dict(settings, version=__version__, seed=seed if args.dice is None else None)
    say(HELP)
    say(session_length(settings["rounds"], settings["players"], resumed=log is not None))
    command = None
    if out is not None:
        command = resume_command(os.path.abspath(out.path), _own_rules(args.ruleset), args.dice, fmt == "json")
        if log is None:  # a resumed session names its log in the recap
            print(printable(logged_to(os.path.abspath(out.path), command)), file=talk)
    else:
        say(f"This session is not logged ({unlogged}), so it cannot be resumed.")
    try:
        for event, was_logged in events:
            if was_logged:
                continue
            recap()  # a resumed session: where the table stands, before anything new
            if event["event"] == "session":
                event.update(header)
            if out is not None:
                out.write(event)
            if fmt == "json":
                print(json.dumps(event), flush=True)
            else:
                text = narrator.text(event)  # printable and fitted already
                if text is not None:
                    print(text)
            if event["event"] in ("throw", "choice"):
                # where the game stands now (session.state) is the throw's or the choice's target
                if session.state.kind != "end" and event["to"] != event["state"]:
                    print(printable(fit(f"       {terminal.odds()}")), file=talk)
        return 0
    except SessionOver:
        print(printable(f"\nThe session stops here. Purses: {_purses(session)}."), file=talk)
        stopped(command)
        return 0
    except KeyboardInterrupt:
        print(printable(f"\nInterrupted: the session stops here. Purses: {_purses(session)}."), file=talk)
        stopped(command)
        return 130
    finally:
        if out is not None and out is not log:
            out.close()


def _purses(session) -> str:
    from .render.words import money_amount

    return ", ".join(f"{s.name} {money_amount(session.machine.ruleset, s.purse)}" for s in session.seats)


def _new_log(args):
    """The log of a new session (--log), or None: never written over an existing file unless
    --force, never over a rule file of the game (play.log.create_log)."""
    if args.force and args.log is None:
        raise UsageError("--force lets --log write over an existing file; give --log FILE too")
    if args.log is None:
        return None
    if not args.log.strip():
        raise UsageError("--log needs a file name (it is empty)")
    from .play.log import create_log

    return create_log(args.log, args.force, _protected(args.ruleset))


def _protected(ruleset: str) -> list[str]:
    """The files a log is never written over: the rule file played, every file it extends, and
    the built-in rulesets."""
    from .parse.files import builtin_dir, resolve
    from .parse.reader import rule_files

    played = resolve(ruleset)
    return ([str(played)] + rule_files(played) if played is not None else []) + \
        [str(p) for p in builtin_dir().glob("*.yaml")]


def _play_log(args):
    """The log of a new `play` session and, where there is none, why: --log FILE (as for run),
    none with --no-log, else a new file in the data folder named by the ruleset and the time
    (play.log.create_session_log); where no data folder can be made the session goes on unlogged."""
    from .play.log import LogError, create_session_log

    if args.no_log:
        if args.log is not None or args.force:
            raise UsageError("--no-log plays without a log; give no --log or --force with it")
        return None, "--no-log"
    if args.log is not None or args.force:
        return _new_log(args), None
    try:
        return create_session_log(args.ruleset, _protected(args.ruleset)), None
    except LogError as exc:
        return None, f"{exc}; --log FILE logs it to a file of your choosing"


def _own_rules(ruleset: str | None) -> str | None:
    """The rule file to name when resuming a session of `ruleset` (absolute), or None where the
    log's own header finds the rules: a built-in ruleset played by its name (play.log.rules_file
    reads no other; `rulesets/cotton.yaml`, a path, is named like any rule file)."""
    from .parse.files import builtin_dir, builtin_names, resolve

    played = resolve(ruleset) if ruleset is not None else None
    if played is None:
        return None
    try:
        if ruleset in builtin_names() and played.resolve() == (builtin_dir() / f"{ruleset}.yaml").resolve():
            return None
    except OSError:
        pass
    return os.path.abspath(played)


def replay_command(args, seed: int) -> str:
    """The command that plays the same games again: every flag that shaped them, quoted for a shell."""
    import shlex

    words = ["hazard-dsl", "run", args.ruleset, "--seed", str(seed)]
    if args.games is not None:
        words += ["--games", str(args.games)]
    for option in args.option:
        words += ["--option", option]
    if args.policy != "optimal":
        words += ["--policy", args.policy]
    for bet in args.bet:
        words += ["--bet", bet]
    if args.bankroll is not None:
        words += ["--bankroll", args.bankroll]
    return " ".join(shlex.quote(w) for w in words)


def _colour() -> bool:
    from .render.terminal import colour_wanted

    return colour_wanted(sys.stdout)


def options_line(machine) -> str:
    from .render.report import options_text

    return f"options: {options_text(machine.options)}"


def cmd_analyse(args) -> int:
    from .render.report import analysis_header, analysis_json, analysis_tables
    from .render.tables import render

    session_args = [args.bankroll, args.goal, args.stake]
    if any(a is not None for a in session_args) and not all(a is not None for a in session_args):
        raise UsageError("--bankroll, --goal and --stake go together: the chance of reaching the goal before "
                         "the purse can no longer stake")
    _plot_target(args.plot)
    analysis, machine = _analysis(args.ruleset, args.option, args.policy, args.by, with_machine=True)
    from .api import bets_by_option
    from .solve.bets import BetError, parse_money

    if args.hand or args.bankroll is not None:
        from .solve.session import SessionError, game_endings, hand, ruin

        try:
            game = game_endings(machine, args.policy)
            if args.hand:
                analysis.hand = hand(machine, args.policy, game)
            if args.bankroll is not None:
                analysis.ruin = ruin(machine, parse_money(args.bankroll, "--bankroll"),
                                     parse_money(args.goal, "--goal"), parse_money(args.stake, "--stake"),
                                     args.policy, game)
        except (SessionError, BetError) as exc:
            raise UsageError(str(exc)) from None

    try:
        if args.bet:
            if analysis.bet_table is None:
                raise UsageError(f"{analysis.ruleset} declares no bets")
            from .play.wagers import Order

            orders = [Order.parse_for_analysis(text) for text in args.bet]
            analysis.combination = analysis.bet_table.combination([(o.bet, o.amount) for o in orders])
        if machine.ruleset.options and not args.no_options:
            from .api import game_by_option
            from .solve.markov import PolicyError

            try:
                analysis.game_by_option = game_by_option(machine.ruleset, analysis.options, args.policy)
            except PolicyError:
                analysis.game_by_option = {}
        ruleset = analysis.bet_table.machine.ruleset if analysis.bet_table is not None else None
        if ruleset is not None and ruleset.bets and ruleset.options and not args.no_options:
            from .parse.cache import kept

            # kept between runs like the machines: the same file, options and policy give the same table
            what = ("bets_by_option", args.policy, repr(sorted((k, str(v)) for k, v in analysis.options.items())))
            analysis.by_option, analysis.by_option_skipped = kept(ruleset, "games", what, lambda: bets_by_option(
                ruleset, analysis.options, args.policy, {name: f.edge for name, f in analysis.bets.items()},
                analysis.bet_table), lambda table: isinstance(table, tuple) and len(table) == 2)
    except BetError as exc:
        raise UsageError(str(exc)) from None
    if args.plot:
        from .render.plot import analysis_chart

        _plot(analysis_chart, analysis, args.plot)
    fmt = _format(args)
    if fmt == "json":
        print(json.dumps(analysis_json(analysis), indent=2))
    else:
        print(render(analysis_tables(analysis, args.throws), fmt, analysis_header(analysis), _colour()), end="")
    return 0


def _analysis(name, option_texts, policy, by=None, with_machine=False):
    from .solve.analysis import analyse
    from .solve.markov import PolicyError

    ruleset = load(name)
    machine = build_machine(ruleset, option_texts)
    try:
        analysis = analyse(machine, policy, by)
        return (analysis, machine) if with_machine else analysis
    except PolicyError as exc:
        raise UsageError(str(exc)) from None
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None


def split_variant(text: str) -> tuple[str, list[str]]:
    """`cotton:main=called,first_throw=lose` → ("cotton", ["main=called", "first_throw=lose"])."""
    from .parse.files import resolve

    if resolve(text) is not None or ":" not in text:
        return text, []
    name, _, options = text.rpartition(":")
    if "=" not in options:
        return text, []
    return name, [o for o in options.split(",") if o.strip()]


def cmd_compare(args) -> int:
    from .render.report import analysis_json, compare_tables, rule_differences
    from .render.tables import render
    from .solve.analysis import analyse
    from .solve.markov import PolicyError, policy_for

    _plot_target(args.plot)
    entries, machines = [], []
    for text in args.rulesets:
        name, options = split_variant(text)
        machine = build_machine(load(name), list(args.option) + options)
        try:
            entries.append((text, analyse(machine, policy_for(machine, args.policy))))
        except PolicyError as exc:
            raise UsageError(str(exc)) from None
        machines.append((text, machine))
    if args.plot:
        from .render.plot import compare_chart

        _plot(compare_chart, entries, args.plot, rulesets=[m.ruleset for _, m in machines])
    fmt = _format(args)
    if fmt == "json":
        from .render.report import differences

        base_name, base = machines[0]
        print(json.dumps({
            "rulesets": [dict(analysis_json(a), name=text) for text, a in entries],
            "differences": [{"base": base_name, "other": other_name, "rows": differences(base, other)}
                            for other_name, other in machines[1:]],
        }, indent=2))
        return 0
    tables = compare_tables(entries)
    base_name, base = machines[0]
    unmatched = []
    for number, (other_name, other) in enumerate(machines[1:], 2):
        diff = rule_differences(base_name, base, other_name, other, number)
        if diff is None:
            unmatched.append(other_name)
        else:
            tables.append(diff)
    header = None
    if unmatched:
        header = (f"No throw-by-throw comparison with {base_name} for {', '.join(unmatched)}: "
                  f"their states (phases and variables) do not match {base_name}'s.")
    print(render(tables, fmt, header, _colour()), end="")
    return 0


def cmd_show(args) -> int:
    from .render.show import show_json, show_tables
    from .render.tables import render

    ruleset = load(args.ruleset)
    fmt = _format(args)
    if fmt == "json":
        print(json.dumps(show_json(ruleset), indent=2))
        return 0
    header, tables = show_tables(ruleset)
    print(render(tables, fmt, header, _colour()), end="")
    return 0


def _plot_target(path) -> None:
    """A chart's file checked before any work: its type (PNG, SVG) and matplotlib."""
    if path is None:
        return
    from .render.plot import PlotError, check_target

    try:
        check_target(path)
    except PlotError as exc:
        raise UsageError(str(exc)) from None


def _plot(chart, figures, path: str, **more) -> None:
    chart(figures, path, **more)
    print(f"hazard-dsl: wrote {path}", file=sys.stderr)


def cmd_graph(args) -> int:
    """The compiled machine drawn (render.graph): DOT, Mermaid, SVG, PNG or JSON."""
    from .render.graph import GraphError, GraphvizMissing, draw

    fmt = _format(args)
    ruleset = load(args.ruleset)
    for bet in args.bet:
        if bet not in ruleset.bets:
            from .diagnostics import did_you_mean

            raise UsageError(f"--bet {bet}: {ruleset.name} has no bet {bet!r}{did_you_mean(bet, ruleset.bets)}"
                             + (f" (bets: {', '.join(ruleset.bets)})" if ruleset.bets else " (it declares no bets)"))
    machine = build_machine(ruleset, args.option, list(args.bet))
    if fmt == "png" and not args.output and sys.stdout.isatty():
        raise UsageError("a PNG is not for the terminal: give --output FILE.png (or redirect the output)")
    try:
        data = draw(machine, fmt, args.unfold, args.phase, args.bet)
    except GraphvizMissing as exc:
        print(f"hazard-dsl: error: {exc}", file=sys.stderr)
        return 1
    except GraphError as exc:
        raise UsageError(str(exc)) from None
    if args.output:
        with open(args.output, "wb") as handle:
            handle.write(data)
        print(f"hazard-dsl: wrote {args.output}", file=sys.stderr)
    elif fmt == "png":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
    else:
        sys.stdout.write(data.decode("utf-8"))
    return 0


def cmd_rules(args) -> int:
    """The rule sheet (render.rulesheet): text, Markdown, HTML or JSON."""
    from .render.rulesheet import rule_sheet
    from .solve.markov import PolicyError

    ruleset = load(args.ruleset)
    machine = build_machine(ruleset, args.option)
    fmt = _format(args)
    try:
        text = rule_sheet(machine, fmt, args.policy, _colour() if fmt == "text" else False)
    except PolicyError as exc:
        raise UsageError(str(exc)) from None
    print(text, end="")
    return 0


def cmd_simulate(args) -> int:
    """Monte Carlo of games, bets and sessions (simulate.command)."""
    from .simulate.command import main

    return main(args, load, build_machine, UsageError)


# --------------------------------------------------------------------------- parser


def _whole_number(text: str) -> int:
    """A flag's whole number (--games, --seed, --rounds, --workers), in ASCII digits: int()
    would also take ٣, ３, 1_000 and spaces, and fail on 5,000 digits."""
    from .parse.numbers import MAX_WHOLE_DIGITS, whole_number

    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a whole number (digits 0-9, at most "
                                         f"{MAX_WHOLE_DIGITS})")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, with "did you mean" for a mistyped command."""

    def error(self, message: str):
        import re

        match = re.search(r"(?:argument (\S+): )?invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if match:
            from .diagnostics import did_you_mean

            where, word = match.group(1), match.group(2)
            choices = re.findall(r"'([^']*)'", match.group(3))
            if where in (None, "COMMAND"):
                message = f"no command {word!r}{did_you_mean(word, choices)}; commands: {', '.join(choices)}"
            else:
                message = f"{where} takes {', '.join(choices)}, not {word!r}{did_you_mean(word, choices)}"
        super().error(message)

    def _print_message(self, message, file=None):
        """Help and usage written and flushed here, so that a full disk is an error (exit 1) and
        a closed pipe is not (exit 0), as for every other output."""
        if not message:
            return
        file = file or sys.stderr
        try:
            file.write(message)
            file.flush()
        except BrokenPipeError:
            _silence_stdout()
            raise SystemExit(0) from None
        except OSError as exc:
            _silence_stdout()
            print(f"hazard-dsl: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
            raise SystemExit(1) from None


def build_parser() -> argparse.ArgumentParser:
    from .render.tables import FORMATS

    parser = _Parser(
        prog="hazard-dsl",
        description="Describe variants of the dice game Hazard (and craps) as rule files; check, play, "
                    "analyse exactly and compare them.",
        epilog="A RULESET is a path to a rule file or the name of a built-in one (hazard-dsl list).",
    )
    parser.add_argument("-V", "--version", action="version", version=f"hazard-dsl {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    p = commands.add_parser("check", help="check rule files and report every problem",
                            description="Check rule files: YAML, keys, expressions, names and types, and the "
                                        "game itself (every throw handled, every rule able to fire, every game "
                                        "able to end). Exit 0 when all are valid, 1 otherwise.")
    def add_format(p, formats=FORMATS):
        p.add_argument("--format", choices=formats, default="text")
        p.add_argument("--json", action="store_true", help="short for --format json")

    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing for valid files")
    add_format(p)
    p.set_defaults(func=cmd_check)

    p = commands.add_parser("list", help="list the built-in rulesets", description="List the built-in rulesets.")
    add_format(p)
    p.set_defaults(func=cmd_list)

    p = commands.add_parser("show", help="what a ruleset is: sources, notes, options, bets and fees",
                            description="Describe a ruleset before its figures: its description, sources, notes, "
                                        "options, labels, variables, bets, fees and how the dice pass.")
    p.add_argument("ruleset", metavar="RULESET")
    add_format(p)
    p.set_defaults(func=cmd_show)

    def add_options(p, policy_help):
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="choose a value for one of the ruleset's options (repeatable)")
        p.add_argument("--policy", default="optimal", metavar="optimal|uniform|VALUE",
                       help=policy_help)

    p = commands.add_parser("run", help="play games and narrate them",
                            description="Play games and narrate them in the period's words, then summarise.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--games", type=_whole_number, default=None, metavar="N",
                   help="games to play (default 3; with --dice, as many as the throws allow)")
    p.add_argument("--seed", type=_whole_number, default=None, metavar="S", help="seed for the dice: same seed, same games")
    p.add_argument("--dice", default=None, metavar='"3-4 6-6 1-2"', help="replay these throws instead of random ones")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: the narration; json: one JSON object per line for each throw")
    p.add_argument("--json", action="store_true", help="short for --format json")
    p.add_argument("--bet", action="append", default=[], metavar="NAME=AMOUNT[@THROW]",
                   help="keep this bet up whenever it is allowed (repeatable); @THROW makes it once, before that throw")
    p.add_argument("--bankroll", default=None, metavar="AMOUNT",
                   help="start with this much money; bets it cannot cover are refused")
    def add_table(group, stake_help: str, strategy: bool):
        """The settings of a session at the table, alike for run and play."""
        group.add_argument("--players", metavar="Ann,Ben,Cat",
                           help="these players in order round the table, the first casting first")
        group.add_argument("--rounds", type=_whole_number, default=None, metavar="N",
                           help="times the box goes round the table (default 1)")
        group.add_argument("--purse", default=None, metavar="AMOUNT", help="each player's purse to start (default 20)")
        group.add_argument("--stake", default=None, metavar="AMOUNT", help=stake_help)
        group.add_argument("--strategy", default=None, metavar="|".join(("flat", "fraction", "cautious")),
                           help="how players stake: flat (--stake every game), fraction (a tenth of the purse), "
                                "cautious (flat, but sit out when the purse holds less than three stakes)"
                           if strategy else argparse.SUPPRESS)
        group.add_argument("--log", default=None, metavar="FILE",
                           help="write the session to FILE as JSON Lines, one event per line as it happens "
                                "(a new file: an existing one is refused unless --force)")

    table = p.add_argument_group("a session at the table (the dice pass, purses, stakes)")
    add_table(table, "a stake, for flat and cautious (default 1)", strategy=True)
    table.add_argument("--force", action="store_true", help=FORCE_HELP)
    add_options(p, "how players choose where the rules let them (default: optimal for the chooser)")
    p.set_defaults(func=cmd_run)

    p = commands.add_parser("play", help="play at this terminal: several people, one keyboard",
                            description="Sit down at the table: the people named by --players take turns "
                                        "with the box, stake, cover and call mains at this keyboard; the dice "
                                        "are thrown on Enter (or come from --dice). ? at any question for help.")
    p.add_argument("ruleset", metavar="RULESET", nargs="?")
    add_table(p, "the stake offered by Enter (default 1)", strategy=False)
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    p.add_argument("--no-log", action="store_true",
                   help="play without a log (by default each session is logged to "
                        "$XDG_DATA_HOME/hazard-dsl/sessions, or ~/.local/share/hazard-dsl/sessions, to resume it)")
    p.add_argument("--seed", type=_whole_number, default=None, metavar="S", help="seed for the dice")
    p.add_argument("--dice", default=None, metavar='"3-4 6-6 1-2"', help="these throws instead of random ones")
    p.add_argument("--resume", default=None, metavar="FILE",
                   help="go on with the session logged in FILE (give RULESET too if it is not a built-in one)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="json: the events as JSON lines on standard output, the questions on standard error")
    p.add_argument("--json", action="store_true", help="short for --format json")
    add_options(p, "how the computer chooses where nobody is asked (default: optimal)")
    p.set_defaults(func=cmd_play)

    p = commands.add_parser("replay", help="narrate a session again from its log, checking it against the rules",
                            description="Narrate a session logged with --log again. Every event is checked "
                                        "against the rules first: a damaged log, a log of other rules, an event "
                                        "the rules would not make, or a line after the session's end is refused, "
                                        "naming the line. The rules are the built-in ruleset the log names, or "
                                        "the RULESET given; the log's hash of the rules must match (the file "
                                        "name in a log is never opened).")
    p.add_argument("log", metavar="FILE")
    p.add_argument("rules", metavar="RULESET", nargs="?", default=None,
                   help="the rule file the session was played with (needed unless it is a built-in ruleset)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--json", action="store_true", help="short for --format json")
    p.set_defaults(func=cmd_replay)

    p = commands.add_parser("analyse", aliases=["analyze"], help="exact probabilities, edge and game length",
                            description="Solve the game exactly: the caster's chances, every label, the edge, "
                                        "the number of throws, and the value of each choice.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--by", metavar="VAR", help="split every figure by the value a variable ends with (e.g. main)")
    p.add_argument("--throws", action="store_true", help="also print P(the game takes n throws)")
    p.add_argument("--bet", action="append", default=[], metavar="NAME=AMOUNT",
                   help="analyse these bets made together (repeatable): --bet pass=10 --bet odds=3-4-5x")
    p.add_argument("--no-options", action="store_true",
                   help="skip the table of each bet's edge under every option value")
    p.add_argument("--hand", action="store_true",
                   help="also the caster's hand: expected games and throws until the dice pass, and his net")
    p.add_argument("--bankroll", metavar="B", help="with --goal and --stake: the chance that a caster staking S "
                                                   "at even money every game reaches G before he cannot stake")
    p.add_argument("--goal", metavar="G", help="the purse at which the session stops (see --bankroll)")
    p.add_argument("--stake", metavar="S", help="the stake of every game (see --bankroll)")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--json", action="store_true", help="short for --format json")
    p.add_argument("--plot", metavar="FILE", help="also draw the throws per game (and, with --by, each value's "
                                                  "figures) to FILE.png or FILE.svg (needs hazard-dsl[plot])")
    add_options(p, "how choices are made: optimal (default), uniform, or a value such as 7 or main=7")
    p.set_defaults(func=cmd_analyse)

    p = commands.add_parser("compare", help="rulesets side by side, and how their rules differ",
                            description="Put rulesets side by side. Give options to one of them as "
                                        "RULESET:NAME=VALUE[,NAME=VALUE], e.g. cotton:main=called.")
    p.add_argument("rulesets", nargs="+", metavar="RULESET[:NAME=VALUE,…]")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--json", action="store_true", help="short for --format json")
    p.add_argument("--plot", metavar="FILE", help="also chart each variant's chance and edge, and the edges of "
                                                  "the bets they share, to FILE.png or FILE.svg (needs "
                                                  "hazard-dsl[plot])")
    add_options(p, "how choices are made: optimal (default), uniform, or a value")
    p.set_defaults(func=cmd_compare)

    p = commands.add_parser("graph", help="draw the compiled machine (DOT, Mermaid, SVG, PNG)",
                            description="Draw the compiled machine: phases as clusters, transitions labelled by "
                                        "the throws that take them and their chance, ends coloured by result and "
                                        "named by label, choices by who chooses. States that differ only in a "
                                        "variable's value are one node with the value as a parameter (main m) "
                                        "unless --unfold. svg and png need Graphviz's dot program.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--format", choices=GRAPH_FORMATS, default="dot")  # render.graph.FORMATS
    p.add_argument("--json", action="store_true", help="short for --format json (the nodes and edges as data)")
    p.add_argument("--unfold", action="store_true", help="one node per state, every value spelled out")
    p.add_argument("--phase", action="append", default=[], metavar="PHASE",
                   help="draw only this phase (repeatable, or PHASE,PHASE); arrows to the rest end in stubs")
    p.add_argument("--bet", action="append", default=[], metavar="NAME",
                   help="draw this bet beside the game (repeatable); bets are not drawn otherwise")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="choose a value for one of the ruleset's options (repeatable)")
    p.set_defaults(func=cmd_graph)

    p = commands.add_parser("rules", help="the rule sheet, to print: tables of nicks and outs, bets, sources",
                            description="Write the rule sheet of a ruleset from its compiled machine and its "
                                        "words: how the main is set, for each main the throws that nick, throw "
                                        "out or make a chance, the chance, passing, fees, each bet's payout and "
                                        "exact edge, the options in force and the sources. --format html prints "
                                        "on one or two pages.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--format", choices=SHEET_FORMATS, default="text")  # render.rulesheet.FORMATS
    p.add_argument("--json", action="store_true", help="short for --format json")
    add_options(p, "how choices are made for the figures: optimal (default), uniform, or a value")
    p.set_defaults(func=cmd_rules)

    p = commands.add_parser("simulate", help="Monte Carlo of games, bets and sessions, beside the exact figures",
                            description="Simulate many games (vectorised, in worker processes or on a Dask "
                                        "cluster): win, lose, push and each label with standard errors, throws "
                                        "per game, bets' net per unit staked, each beside its exact value and "
                                        "z-score; with --players, sessions at the table and each seat's purse. "
                                        "The same seed gives the same numbers whatever --workers.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--games", type=_whole_number, default=None, metavar="N",
                   help="games to simulate (default 1000000); with --players, sessions (default 1000)")
    p.add_argument("--seed", type=_whole_number, default=None, metavar="S", help="seed: same seed, same numbers")
    p.add_argument("--bet", action="append", default=[], metavar="NAME=AMOUNT",
                   help="simulate this bet too (repeatable); a bet that backs another (odds=3-4-5x) after it")
    p.add_argument("--workers", type=_whole_number, default=None, metavar="K",
                   help="worker processes (default: the cores available)")
    p.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="run the chunks on this Dask scheduler, as `dask scheduler` prints its address (needs "
                        "hazard-dsl[cluster], and hazard-dsl on the workers)")
    p.add_argument("--plot", metavar="FILE", help="also draw the simulated throws per game over the exact "
                                                  "distribution to FILE.png or FILE.svg (needs hazard-dsl[plot])")
    add_table(p.add_argument_group("sessions at the table"), "a stake, for flat and cautious (default 1)",
              strategy=True)
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--json", action="store_true", help="short for --format json")
    add_options(p, "how choices are made: optimal (default), uniform, or a value such as 7 or main=7")
    p.set_defaults(func=cmd_simulate)
    return parser


def _silence_stdout() -> None:
    """After stdout failed (a closed pipe, a full disk), send what is left to nowhere, so that
    Python's own flush at exit does not print a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


def main(argv=None) -> int:
    from .render.terminal import ensure_encodable, printable

    ensure_encodable()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
        sys.stdout.flush()  # a full disk is found here, not at exit
        return code
    except RulesetError as exc:
        print_diagnostics(exc.diagnostics)
        return 1
    except UsageError as exc:
        print(f"hazard-dsl: error: {printable(exc)}", file=sys.stderr)
        return 2
    except LogError as exc:  # a session log that cannot be trusted: refused, naming the line
        print(f"hazard-dsl: error: {printable(exc)}", file=sys.stderr)
        return 1
    except CastingError as exc:  # scripted dice that cannot make the cast the rules want here
        sys.stdout.flush()
        print(f"hazard-dsl: error: {printable(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `hazard-dsl run … | head`
        _silence_stdout()
        return 0
    except OSError as exc:
        if exc.filename is None and exc.errno is not None:  # writing the output failed (ENOSPC, EIO…)
            _silence_stdout()
            print(f"hazard-dsl: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(f"hazard-dsl: error: {printable(exc.strerror or exc)}"
              + (f": {printable(exc.filename)}" if exc.filename else ""), file=sys.stderr)
        return 1
    except Exception as exc:  # the promise is "never a traceback"; HAZARD_DSL_DEBUG=1 shows it
        from .solve.bets import BetError

        if isinstance(exc, BetError):  # a bet the ruleset makes impossible, found while solving
            print(f"hazard-dsl: error: {exc}", file=sys.stderr)
            return 1
        if os.environ.get("HAZARD_DSL_DEBUG"):
            raise
        print(f"hazard-dsl: internal error: {type(exc).__name__}: {exc} "
              f"(please report it; HAZARD_DSL_DEBUG=1 shows details)", file=sys.stderr)
        return 70


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
