"""The arguments of `hazard-dsl` and its commands (argparse), with "did you mean" for a mistyped
command or choice. Each command's work is found by its name in the handlers `build_parser` is
given (cli/__init__.py), so that this module imports none of them."""

from __future__ import annotations

import argparse
import sys

from ..version import __version__
from .flag_values import Judged, NotWhole, seed_argument, whole_number_argument
from .output import silence_stdout


# argparse passes each of its own words ("usage:", "options", "show this help message and exit",
# three for every command) through gettext, which looks on disk for a catalogue of the "messages"
# domain every time, and imports `locale` to spell the language: 3 ms a command line, for a
# translation Python does not ship. hazard-dsl speaks English throughout, argparse's words too.
argparse._ = str
argparse.ngettext = lambda singular, plural, n: singular if n == 1 else plural


class UsageError(Exception):
    """A bad command-line argument: reported as `hazard-dsl: error: …`, exit 2."""


# the formats of graph and rules, here so that building the parser imports neither module
# (tests/test_graph.py and tests/test_rulesheet.py check that they agree)
GRAPH_FORMATS = ("dot", "mermaid", "svg", "png", "json")
SHEET_FORMATS = ("text", "markdown", "html", "json")


FORCE_HELP = "let --log write over an existing file (never over a rule file of the game)"
# a tape for any dice: the game's own number of faces a throw, and dice that land off
TAPE_HELP = ('one face a die, die1 first ("3-3-5" for three dice; named faces by number); x for a die that '
             'lands off ("x-4", "x-x-4 5-x 2": two off, recast together, one off again), then off or both '
             'for the caster\'s recast')


class _Formatter(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal as `render.terminal.width` finds it (argparse
    makes one for every argument it is given, and would import shutil to ask)."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        if width is None:
            from ..render.terminal import width as terminal_width

            width = terminal_width() - 2
        super().__init__(prog, indent_increment, max_help_position, width)

    # argparse's own two, but a word with a hyphen stays whole: its textwrap broke after the
    # hyphen, and "(needs hazard-" over "dsl[plot])" cannot be copied (audit 42)
    def _split_lines(self, text, width):
        import textwrap

        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width, break_on_hyphens=False)

    def _fill_text(self, text, width, indent):
        import textwrap

        return textwrap.fill(self._whitespace_matcher.sub(" ", text).strip(), width, initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """argparse, with "did you mean" for a mistyped command, choice or flag.

    "Did you mean" is worked out from the parser's own data (the commands' names, each choice,
    each command's flags), where argparse finds the mistake and before it words it: a bad choice
    in `_check_value`, unknown flags and a missing command in `parse_args`. argparse's messages
    are never read (CPython has changed their wording between releases; tests/cli/
    test_did_you_mean.py gives argparse other words and checks that ours stay)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        # a flag is taken only as it is spelled: argparse would read `--bankrol` as `--bankroll`
        # (its only flag so begun), a guess said nowhere, and a flag added later would turn a
        # working abbreviation into an error; a mistyped flag hears "did you mean" instead
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def parse_args(self, args=None, namespace=None):
        namespace, extras = self.parse_known_args(args, namespace)
        commands = getattr(self, "commands", None)
        if commands is not None and getattr(namespace, commands.dest, None) is None:
            # no command (the subparsers are not `required`, so that the missing one is found here)
            flags = [word for word in extras if word.startswith("--")]
            if flags:  # `hazard-dsl --verison`: a mistyped flag of hazard-dsl's own, and no command
                self.error(f"{_unrecognized(self, flags)}; no command given (hazard-dsl --help lists them)")
            self.error(f"the following arguments are required: {commands.metavar}")
        if extras:
            command = self._command_run()
            # said by the command's own parser, with its usage and flags
            (command or self).error(_unrecognized(command or self, extras))
        return namespace

    def _check_value(self, action, value):
        """A value outside an argument's choices: a command (`hazard-dsl anlyse`) or a flag's
        value (`--format jsn`), with the nearest choice."""
        if action.choices is None or value in action.choices:
            return
        from ..diagnostics import did_you_mean

        word, choices = str(value), [str(choice) for choice in action.choices]
        if isinstance(action, argparse._SubParsersAction):
            self.error(f"no command {word!r}{did_you_mean(word, choices)}; commands: {', '.join(choices)}")
        where = "/".join(action.option_strings) or action.metavar or action.dest
        self.error(f"{where} takes {', '.join(choices)}, not {word!r}{did_you_mean(word, choices)}")

    def _get_value(self, action, arg_string):
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError as exc:
            # argparse keeps the type's error only as __context__; a judged one is said as the
            # command says a setting's error: one line naming the flag (cli.wording)
            judged = exc.__context__
            if isinstance(judged, Judged):
                from .wording import FLAGS

                self.exit(2, f"hazard-dsl: error: {judged.error.said(FLAGS)}\n")
            if isinstance(judged, NotWhole):
                flag = next((o for o in action.option_strings if o.startswith("--")), action.dest)
                self.exit(2, f"hazard-dsl: error: {flag} {judged}\n")
            raise

    def exit(self, status: int = 0, message: str | None = None):
        if message:  # argparse's "prog: error: …", fitted as every error is (cli.output)
            from .output import fitted

            message = fitted(message.rstrip("\n"), sys.stderr) + "\n"
        super().exit(status, message)

    def _command_run(self):
        """The parser of the command the command line runs, if this is the top-level parser (the
        one argparse reports a command's unknown flags from) and a command was named."""
        commands = getattr(self, "commands", None)
        return commands.choices.get(self.command) if commands is not None else None

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
            silence_stdout()
            raise SystemExit(0) from None
        except OSError as exc:
            silence_stdout()
            print(f"hazard-dsl: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
            raise SystemExit(1) from None


def flags_of(parser: argparse.ArgumentParser) -> list[str]:
    """A parser's long flags as its help shows them (a flag whose help is suppressed, given to
    refuse it with a reason, is offered to no one)."""
    return sorted({flag for action in parser._actions if action.help is not argparse.SUPPRESS
                   for flag in action.option_strings if flag.startswith("--")})


def _unrecognized(parser: argparse.ArgumentParser, words: list[str]) -> str:
    """"unrecognized arguments: …", each mistyped flag with the flag of the command it is
    closest to: `--formt` hears "did you mean '--format'"."""
    from ..diagnostics import did_you_mean

    flags = flags_of(parser)
    said = []
    for word in words:
        flag = word.partition("=")[0]
        if flag in flags:  # the command's own flag, given before the command's name
            said.append(f"{word} (it goes after the command: hazard-dsl {parser.prog.split()[-1]} {word} …)")
        else:
            said.append(f"{word}{did_you_mean(flag, flags)}" if flag.startswith("--") else word)
    return f"unrecognized argument{'s' if len(said) > 1 else ''}: {', '.join(said)}"


class _Unused:
    """Another command's arguments, while one command runs: taken, and dropped."""

    def __getattr__(self, name: str):
        return self._drop

    def _drop(self, *args, **kwargs):
        return self


class _OnlyOne:
    """The commands, each added in full only if it is `only` (a command's name or alias; None:
    all): the others are added by name and help alone, so that `--help` lists them and a
    mistyped command hears "did you mean", and their many arguments are not built for nothing
    (building every command's was a tenth of a short command's time)."""

    def __init__(self, commands, only: str | None):
        self.commands, self.only = commands, only

    def add_parser(self, name: str, **settings):
        aliases = settings.get("aliases", [])
        if self.only is None or self.only == name or self.only in aliases:
            return self.commands.add_parser(name, **settings)
        self.commands.add_parser(name, help=settings.get("help"), aliases=aliases)
        return _Unused()


def command_named(argv: list[str]) -> str | None:
    """The command a command line names (its first word that is not a flag), if any."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(handlers: dict, only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; `handlers` maps each command's name to the function that
    runs it (args -> exit status), set as `args.func`. With `only`, the command of that name
    alone is given its arguments (`_OnlyOne`): the one a command line runs."""
    from ..render.tables import FORMATS

    parser = Parser(
        prog="hazard-dsl",
        description="Describe variants of the dice game Hazard (and craps) as rule files; check, play, "
                    "analyse exactly and compare them.",
        epilog="A RULESET is a path to a rule file or the name of a built-in one (hazard-dsl list).",
    )
    parser.add_argument("-V", "--version", action="version", version=f"hazard-dsl {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    # the command run, whose flags a mistyped one is compared with (Parser.parse_args); a missing
    # command is told there too, in our words (not `required`, which argparse would word)
    parser.command, parser.commands = only, subparsers
    commands = _OnlyOne(subparsers, only)

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
    p.set_defaults(func=handlers["check"])

    p = commands.add_parser("list", help="list the built-in rulesets", description="List the built-in rulesets.")
    add_format(p)
    p.set_defaults(func=handlers["list"])

    p = commands.add_parser("show", help="what a ruleset is: sources, notes, options, bets and fees",
                            description="Describe a ruleset before its figures: its description, sources, notes, "
                                        "options, labels, variables, bets, fees and how the dice pass.")
    p.add_argument("ruleset", metavar="RULESET")
    add_format(p)
    p.set_defaults(func=handlers["show"])

    def add_plot(p, help: str) -> None:
        """--plot FILE, a new file (as --log's: an existing one only with --force, never a rule file)."""
        p.add_argument("--plot", metavar="FILE", help=help + "; a new file: an existing one is refused unless --force")
        p.add_argument("--force", action="store_true", help="let --plot write over an existing file (never over a "
                                                            "rule file of the game)")

    def add_output(p, never: str) -> None:
        """-o FILE, a new file: an existing one only with --force, and never `never`."""
        p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output (a new "
                                                              "file: an existing one is refused unless --force)")
        p.add_argument("--force", action="store_true", help=f"let --output write over an existing file (never over "
                                                            f"{never})")

    def add_options(p, policy_help):
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="choose a value for one of the ruleset's options (repeatable)")
        p.add_argument("--policy", default="optimal", metavar="optimal|uniform|VALUE",
                       help=policy_help)

    p = commands.add_parser("run", help="play games and narrate them",
                            description="Play games and narrate them in the period's words, then summarise.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--games", type=whole_number_argument, default=None, metavar="N",
                   help="games to play (default 3; with --dice, as many as the throws allow)")
    p.add_argument("--seed", type=seed_argument, default=None, metavar="S", help="seed for the dice: same seed, same games")
    p.add_argument("--dice", default=None, metavar='"3-4 6-6 1-2"',
                   help="replay these throws instead of random ones; " + TAPE_HELP)
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: the narration; json: one JSON object per line for each throw")
    p.add_argument("--json", action="store_true", help="short for --format json")
    p.add_argument("--bet", action="append", default=[], metavar="NAME=AMOUNT[@THROW]",
                   help="keep this bet up whenever it is allowed (repeatable); @THROW makes it once, before that "
                        "throw. With --players: SEAT:NAME=AMOUNT, the bet that seat makes whenever it may and "
                        "someone takes it")
    p.add_argument("--bankroll", default=None, metavar="AMOUNT",
                   help="start with this much money; bets it cannot cover are refused")
    def add_table(group, stake_help: str, strategy: bool, log: bool = True):
        """The settings of a session at the table, alike for run and play."""
        group.add_argument("--players", metavar="Ann,Ben,Cat",
                           help="these players in order round the table, the first casting first")
        group.add_argument("--rounds", type=whole_number_argument, default=None, metavar="N",
                           help="times the box goes round the table (default 1)")
        group.add_argument("--purse", default=None, metavar="AMOUNT", help="each player's purse to start (default 20)")
        group.add_argument("--stake", default=None, metavar="AMOUNT", help=stake_help)
        group.add_argument("--strategy", default=None, metavar="STRATEGY",
                           help="how players stake: flat (--stake every game), fraction (a tenth of the purse), "
                                "cautious (flat, but sit out when the purse holds less than three stakes), best "
                                "(the exact best stake by purse towards twice the purse, stakes 1 to --stake), "
                                "or a progression from a first stake of --stake: martingale, paroli, dalembert, "
                                "labouchere, fibonacci (simulate: with --goal)"
                           if strategy else argparse.SUPPRESS)
        # simulate reports figures, not a session: its --log is refused with the reason (commands)
        group.add_argument("--log", default=None, metavar="FILE",
                           help="write the session to FILE as JSON Lines, one event per line as it happens "
                                "(a new file: an existing one is refused unless --force)" if log
                           else argparse.SUPPRESS)

    table = p.add_argument_group("a session at the table (the dice pass, purses, stakes)")
    add_table(table, "a stake, for flat and cautious (default 1)", strategy=True)
    table.add_argument("--refuse", action="append", default=[], metavar="SEAT:NAME",
                       help="that seat refuses bet NAME when it is put to him (repeatable); he takes the others")
    table.add_argument("--cap", default=None, metavar="AMOUNT",
                       help="with a progression: its largest stake; past it, it starts again (as simulate --cap)")
    table.add_argument("--force", action="store_true", help=FORCE_HELP)
    add_options(p, "how players choose where the rules let them (default: optimal for the chooser)")
    p.set_defaults(func=handlers["run"])

    p = commands.add_parser("play", help="play at this terminal: several people, one keyboard",
                            description="Sit down at the table: the people named by --players take turns "
                                        "with the box, stake, cover and call mains at this keyboard; the dice "
                                        "are thrown on Enter (or come from --dice). ? at any question for help.")
    p.add_argument("ruleset", metavar="RULESET", nargs="?")
    add_table(p, "the stake offered by Enter (default 1)", strategy=False)
    p.add_argument("--plan", action="append", default=[], metavar="SEAT:STRATEGY",
                   help="the computer plays that seat (repeatable) by a strategy of run --strategy: "
                        "--plan Ben:martingale --plan Cat:best (from a first stake, or a largest, of --stake); "
                        "the people at the keyboard play the others")
    p.add_argument("--cap", default=None, metavar="AMOUNT",
                   help="with a planned progression: its largest stake; past it, it starts again (as run --cap)")
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    p.add_argument("--no-log", action="store_true",
                   help="play without a log (by default each session is logged to "
                        "$XDG_DATA_HOME/hazard-dsl/sessions, or ~/.local/share/hazard-dsl/sessions, to resume it)")
    p.add_argument("--seed", type=seed_argument, default=None, metavar="S", help="seed for the dice")
    p.add_argument("--dice", default=None, metavar='"3-4 6-6 1-2"',
                   help="these throws instead of random ones; " + TAPE_HELP)
    p.add_argument("--resume", default=None, metavar="FILE",
                   help="go on with the session logged in FILE (give RULESET too if it is not a built-in one)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="json: the events as JSON lines on standard output, the questions on standard error")
    p.add_argument("--json", action="store_true", help="short for --format json")
    add_options(p, "how the computer chooses where nobody is asked (default: optimal)")
    p.set_defaults(func=handlers["play"])

    p = commands.add_parser("replay", help="narrate a session again from its log, checking it against the rules",
                            description="Narrate a session again from its log (run --log, or play's own, which it "
                                        "writes unless --no-log). Every event is checked "
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
    p.set_defaults(func=handlers["replay"])

    p = commands.add_parser("analyse", aliases=["analyze"], help="exact probabilities, edge and game length",
                            description="Solve the game exactly: the caster's chances, every label, the edge, "
                                        "the number of throws, and the value of each choice. The largest "
                                        "chains it builds, each refused before the work with its size: a "
                                        "plan's spread, 200,000 nodes (game states x bets' states x money); "
                                        "a session's net, 50,000,000 steps (nets x games x outcomes), or "
                                        "2,000 nets between the stops; a tail, 2,000,000,000 (states x bits "
                                        "of the exact numbers, over the throws); the best stake, 1,000 purses "
                                        "below the goal; a progression, 1,500 purse x progression states "
                                        "(fewer when its stakes go up and down: d'Alembert, Labouchère); "
                                        "a seat's net over N games, 200,000,000 steps; a seat's strategy at a "
                                        "table where setters answer the caster, 10,000 states (who casts x "
                                        "counters x purse x the strategy's state); a simulation "
                                        "beside the exact figures, 20,000,000 draws; beyond, use simulate.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--by", metavar="VAR", help="split every figure by the value a variable ends with (e.g. main)")
    p.add_argument("--throws", action="store_true", help="also print P(the game takes n throws)")
    p.add_argument("--bet", action="append", default=[], metavar="NAME=AMOUNT",
                   help="analyse these bets made together (repeatable): --bet pass=10 --bet odds=3-4-5x; as "
                        "SEAT:NAME=AMOUNT, what that seat makes at the table whenever it may (the amount it puts "
                        "at risk): each seat's exact net per game, per throw and per hand, as caster and as setter")
    p.add_argument("--players", metavar="Ann,Ben,Cat",
                   help="with --bet SEAT:NAME=AMOUNT: the table round which the box goes, for who takes each bet "
                        "and each seat's net per round")
    p.add_argument("--no-options", action="store_true",
                   help="skip the table of each bet's edge under every option value")
    p.add_argument("--hand", action="store_true",
                   help="also the caster's hand: expected games and throws until the dice pass, and his net")
    p.add_argument("--bankroll", metavar="B", help="with --goal and --stake: the chance that a caster staking S "
                                                   "at even money every game reaches G before he cannot stake; "
                                                   "with --players and --bet SEAT:NAME=AMOUNT, each seat's chance "
                                                   "with its plan at the table")
    p.add_argument("--goal", metavar="G", help="the purse at which the session stops (see --bankroll)")
    p.add_argument("--stake", metavar="S", help="the stake of every game (see --bankroll; with --bet "
                                                "SEAT:NAME=AMOUNT, what each setter stakes, default 1); best: the "
                                                "stake by purse of greatest chance to reach --goal (or, with --games "
                                                "and no --goal, of greatest expected purse); kelly: the fraction of "
                                                "the purse that grows it fastest, and the growth per game")
    staking = p.add_argument_group("the best stake and betting progressions (the caster at even money)")
    staking.add_argument("--strategy", metavar="PROGRESSION",
                         help="martingale, paroli, dalembert, labouchere or fibonacci from --bankroll to --goal, "
                              "first stake --stake: its exact chance, ruin, net and coin-in")
    staking.add_argument("--cap", metavar="AMOUNT", help="the progression's largest stake: past it, it starts again")
    staking.add_argument("--limit", metavar="AMOUNT", help="the table's largest stake (best stake and progressions)")
    staking.add_argument("--side", default="caster", metavar="caster|setter",
                         help="whose game: the caster's (default) or the setter's, who has the edge")
    staking.add_argument("--risk", metavar="R", help="with --goal and --stake S or best: the least purse whose "
                                                     "chance of ruin is at most R (0.01 or 1/100)")
    staking.add_argument("--simulate", metavar="N", help="also simulate N sessions of the progression or best "
                                                         "policy (or of --games and the stops; with --tail, N "
                                                         "hands or games), beside the exact figures with "
                                                         "standard errors and z")
    # read as text and judged with the other numbers (cli.requests), so that a bad seed is one
    # line naming --seed, not argparse's usage block
    staking.add_argument("--seed", default=None, metavar="S", help="seed for --simulate (default 0)")
    p.add_argument("--spread", action="store_true",
                   help="also each bet's spread: SD (exact and decimal), skew, hit frequency, and the edge per "
                        "bet made, per bet resolved and per throw (with --bet NAME=AMOUNT, the plan's spread is "
                        "always given)")
    p.add_argument("--games", metavar="N",
                   help="the exact distribution of a session's net over N decisions of the --bet plan (for the "
                        "pass line, N games; without --bet, the caster staking 1 at even money): P(ahead), "
                        "P(even), P(behind), quantiles, coin-in and the return on it; with --players and "
                        "--bet SEAT:NAME=AMOUNT, each planned seat's net over N games at the table")
    p.add_argument("--stop-loss", metavar="L", help="end the session once it has lost L (with --games, or with "
                                                    "--stop-win: until one or the other)")
    p.add_argument("--stop-win", metavar="W", help="end the session once it has won W (see --stop-loss)")
    p.add_argument("--tail", metavar="N", help="P(a game lasts N throws or more), exactly; with --hand, "
                                               "P(a hand lasts N throws or more) under the ruleset's passing:")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--json", action="store_true", help="short for --format json")
    add_plot(p, "also draw the throws per game (and, with --by, each value's figures) to FILE.png or FILE.svg "
                "(needs hazard-dsl[plot]); with --games or a stop, the session's net; with --tail, P(length ≥ n)")
    add_options(p, "how choices are made: optimal (default), uniform, or a value such as 7 or main=7")
    p.set_defaults(func=handlers["analyse"])

    p = commands.add_parser("compare", help="rulesets side by side, and how their rules differ",
                            description="Put rulesets side by side. Give options to one of them as "
                                        "RULESET:NAME=VALUE[,NAME=VALUE], e.g. cotton:main=called.")
    # (a short name: argparse cannot break "RULESET[:NAME=VALUE,…]" twice over, and the usage line
    # was wider than 80 columns)
    p.add_argument("rulesets", nargs="+", metavar="VARIANT",
                   help="a ruleset, or one with options: RULESET:NAME=VALUE[,NAME=VALUE] (cotton:main=called)")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--json", action="store_true", help="short for --format json")
    add_plot(p, "also chart each variant's chance and edge, and the edges of the bets they share, to FILE.png "
                "or FILE.svg (needs hazard-dsl[plot])")
    add_options(p, "how choices are made: optimal (default), uniform, or a value")
    p.set_defaults(func=handlers["compare"])

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
    add_output(p, "a rule file of the game")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="choose a value for one of the ruleset's options (repeatable)")
    p.set_defaults(func=handlers["graph"])

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
    p.set_defaults(func=handlers["rules"])

    p = commands.add_parser("simulate", help="Monte Carlo of games, bets and sessions, beside the exact figures",
                            description="Simulate many games (vectorised, in worker processes or on a Dask "
                                        "cluster): win, lose, push and each label with standard errors, throws "
                                        "per game, bets' net per unit staked, each beside its exact value and "
                                        "z-score; with --players, sessions at the table and each seat's purse. "
                                        "The same seed gives the same numbers whatever --workers.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--games", type=whole_number_argument, default=None, metavar="N",
                   help="games to simulate (default 1000000); with --players, sessions (default 1000)")
    p.add_argument("--seed", type=seed_argument, default=None, metavar="S", help="seed: same seed, same numbers")
    p.add_argument("--bet", action="append", default=[], metavar="NAME=AMOUNT",
                   help="simulate this bet too (repeatable); a bet that backs another (odds=3-4-5x) after it. With "
                        "--players: SEAT:NAME=AMOUNT, the bet that seat makes whenever it may (rounds of the table "
                        "played one by one, each seat's net beside its exact figure)")
    p.add_argument("--workers", type=whole_number_argument, default=None, metavar="K",
                   help="worker processes (default: the cores available)")
    p.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="run the chunks on this Dask scheduler, as `dask scheduler` prints its address (needs "
                        "hazard-dsl[cluster], and hazard-dsl on the workers)")
    add_plot(p, "also draw the simulated throws per game over the exact distribution to FILE.png or FILE.svg "
                "(needs hazard-dsl[plot])")
    p.add_argument("--engine", choices=("numpy", "compiled"), default=None,
                   help="what plays the games, or the sessions at the table: numpy (default, the reference) or "
                        "compiled (a Numba kernel, faster; "
                        "needs hazard-dsl[fast]; its own random numbers: a seed gives the same numbers with the "
                        "same engine)")
    at_table = p.add_argument_group("sessions at the table")
    add_table(at_table, "a stake, for flat and cautious (default 1)", strategy=True, log=False)
    at_table.add_argument("--refuse", action="append", default=[], metavar="SEAT:NAME",
                          help="with --bet SEAT:NAME=AMOUNT: that seat refuses bet NAME when it is put to him")
    at_table.add_argument("--goal", default=None, metavar="AMOUNT",
                          help="each seat in turn from --purse until its purse reaches AMOUNT or can no longer play "
                               "a game as its plan says (the others' purses never short): how often it reaches the "
                               "goal and the games it takes, beside the exact figures of analyse --bankroll; with "
                               "--strategy best or a progression, its exact chain")
    at_table.add_argument("--cap", default=None, metavar="AMOUNT",
                          help="with --goal and a progression: its largest stake; past it, it starts again")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--json", action="store_true", help="short for --format json")
    add_options(p, "how choices are made: optimal (default), uniform, or a value such as 7 or main=7")
    p.set_defaults(func=handlers["simulate"])

    p = commands.add_parser("schema", help="the JSON Schema of rule files, for editors",
                            description="Print the JSON Schema (draft 2020-12) of rule files: every key, its type, "
                                        "its allowed values and what it means, for a schema-aware editor "
                                        "(yaml-language-server; see docs/editors.md). JSON is the only format.")
    p.add_argument("--format", choices=("json",), default="json", help="json (the only format)")
    p.add_argument("--json", action="store_true", help="short for --format json (the default)")
    add_output(p, "a built-in ruleset")
    p.set_defaults(func=handlers["schema"])

    p = commands.add_parser("serve", help="the library, compare and a workbench in a browser (needs hazard-dsl[web])",
                            description="Serve the built-in rulesets and the rule files of a folder in a browser: "
                                        "the library (rule sheets, drawings, exact figures with each option as a "
                                        "control), compare, a workbench to write a rule file with live "
                                        "diagnostics and figures, and shared tables that several people play from "
                                        "their own browsers; a JSON API under /api/. Loopback only unless "
                                        "--host says otherwise. Ctrl-C stops it.")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this "
                                                        "machine only; another address, such as this machine's on "
                                                        "the Wi-Fi for phones, is for the tables alone: see "
                                                        "docs/phones.md)")
    p.add_argument("--port", type=whole_number_argument, default=8000, help="the port (default 8000)")
    p.add_argument("--folder", default=".", metavar="DIR",
                   help="the folder of your rule files (*.yaml), read and written by the workbench (default: here)")
    p.add_argument("--db", metavar="FILE", help="the SQLite file the shared tables are kept in (default: tables.db "
                                                "in the data folder of play's logs); one server at a time")
    # phones at a table: off loopback the server is for the tables alone unless saves are asked for
    p.add_argument("--allow-saves", action="store_true", help="let the workbench save rule files into --folder "
                   "although --host opens the server to the network (off loopback, saves are refused)")
    p.add_argument("--tables-only", action="store_true", help="refuse saves of rule files on loopback too (behind "
                   "a proxy or a tunnel that opens it to others); the default off loopback")
    p.add_argument("--certfile", metavar="FILE", help="serve HTTPS with this certificate (PEM; see docs/phones.md "
                   "for a self-signed one); the seats' links then begin https://")
    p.add_argument("--keyfile", metavar="FILE", help="the certificate's private key (PEM), unless --certfile holds it")
    p.set_defaults(func=handlers["serve"])

    p = commands.add_parser("lsp", help="the language server for editors (LSP over stdin and stdout)",
                            description="A language server for rule files over stdin and stdout: the checker's "
                                        "problems as you type, with quick fixes; hover, completion, go to "
                                        "definition, references, symbols and rename. An editor starts it; see "
                                        "docs/editors.md. Needs hazard-dsl[lsp].")
    p.set_defaults(func=handlers["lsp"])
    return parser
