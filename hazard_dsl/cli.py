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


class UsageError(Exception):
    """A bad command-line argument: reported as `hazard-dsl: error: …`, exit 2."""


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
    from .play.dice import DiceTape, RandomDice
    from .play.game import Chooser, TapeRanOut, play
    from .render.narrate import Narrator, Tally
    from .render.terminal import printable
    from .solve.markov import PolicyError, Solver
    import numpy as np

    fmt = _format(args)
    if fmt not in ("text", "json"):
        raise UsageError(f"run prints a narration (text) or one JSON object per throw (json), not {fmt}")
    ruleset = load(args.ruleset)
    # only the bets ordered are played (a name that is no bet is refused with the orders)
    ordered = [name for name in (text.partition("=")[0].strip() for text in args.bet) if name in ruleset.bets]
    machine = build_machine(ruleset, args.option, ordered)
    if args.games is not None and not 1 <= args.games <= 1_000_000:
        raise UsageError("--games must be between 1 and 1000000")
    if args.seed is not None and not 0 <= args.seed < 2**64:
        raise UsageError("--seed takes a whole number from 0 to 2**64 - 1")
    # a tape replays the same every time (mixed choices included) unless a seed is given
    if args.seed is None and args.dice is None:
        import secrets

        seed = secrets.randbelow(2**32)
    else:
        seed = args.seed if args.seed is not None else 0
    if args.dice is not None:
        try:
            dice = DiceTape.parse(args.dice)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        games = args.games
    else:
        dice = RandomDice(seed)
        games = args.games if args.games is not None else 3
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
        print(printable(f"{ruleset.name} — {options_line(machine)}"), file=out)
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
        print(printable(narrator.text(record)), file=out)
    if not as_json:
        label_results = {s.label: s.result for s in machine.end_states()}
        print("\n" + printable(tally.summary(label_results, ruleset.words.caster)), file=out)
        if wagers is not None:
            from .play.wagers import money

            sign = "+" if wagers.net >= 0 else "−"
            line = f"Money: net {sign}{money(abs(wagers.net))} {ruleset.money_unit}s"
            if wagers.bankroll is not None:
                line += f"; bankroll {money(wagers.bankroll)}"
            print(printable(line + "."), file=out)
        if args.dice is None:
            print(printable(f"Seed {seed}: {replay_command(args, seed)} plays these games again."), file=out)
    return 0


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
        ruleset = analysis.bet_table.machine.ruleset if analysis.bet_table is not None else None
        if ruleset is not None and ruleset.bets and ruleset.options and not args.no_options:
            analysis.by_option, analysis.by_option_skipped = bets_by_option(
                ruleset, analysis.options, args.policy, {name: f.edge for name, f in analysis.bets.items()},
                analysis.bet_table)
    except BetError as exc:
        raise UsageError(str(exc)) from None
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
    from .solve.markov import PolicyError

    entries, machines = [], []
    for text in args.rulesets:
        name, options = split_variant(text)
        machine = build_machine(load(name), list(args.option) + options)
        # a value policy (--policy 7) applies to the rulesets that have a choice to make
        has_choices = any(s.kind == "choice" for s in machine.states)
        policy = args.policy if has_choices or args.policy in ("optimal", "uniform") else "optimal"
        try:
            entries.append((text, analyse(machine, policy)))
        except PolicyError as exc:
            raise UsageError(str(exc)) from None
        machines.append((text, machine))
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
    for other_name, other in machines[1:]:
        diff = rule_differences(base_name, base, other_name, other)
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


# --------------------------------------------------------------------------- parser


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
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="games to play (default 3; with --dice, as many as the throws allow)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="seed for the dice: same seed, same games")
    p.add_argument("--dice", default=None, metavar='"3-4 6-6 1-2"', help="replay these throws instead of random ones")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: the narration; json: one JSON object per line for each throw")
    p.add_argument("--json", action="store_true", help="short for --format json")
    p.add_argument("--bet", action="append", default=[], metavar="NAME=AMOUNT[@THROW]",
                   help="keep this bet up whenever it is allowed (repeatable); @THROW makes it once, before that throw")
    p.add_argument("--bankroll", default=None, metavar="AMOUNT",
                   help="start with this much money; bets it cannot cover are refused")
    add_options(p, "how players choose where the rules let them (default: optimal for the chooser)")
    p.set_defaults(func=cmd_run)

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
    add_options(p, "how choices are made: optimal (default), uniform, or a value such as 7 or main=7")
    p.set_defaults(func=cmd_analyse)

    p = commands.add_parser("compare", help="rulesets side by side, and how their rules differ",
                            description="Put rulesets side by side. Give options to one of them as "
                                        "RULESET:NAME=VALUE[,NAME=VALUE], e.g. cotton:main=called.")
    p.add_argument("rulesets", nargs="+", metavar="RULESET[:NAME=VALUE,…]")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--json", action="store_true", help="short for --format json")
    add_options(p, "how choices are made: optimal (default), uniform, or a value")
    p.set_defaults(func=cmd_compare)
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
