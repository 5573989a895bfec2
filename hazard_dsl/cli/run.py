"""`hazard-dsl run RULESET`: games narrated as they are played (commands.games), or, with
--players, a session at the table (commands.sessions), in words or as JSON lines."""

from __future__ import annotations

import sys

from ..commands import sessions
from ..commands.dice import seed_and_tape
from ..commands.games import games_request
from ..commands.loading import load
from .output import fitted, output_format, options_line, tell
from .parser import UsageError
from .requests import run_request
from .wording import FLAGS


def command(args) -> int:
    from ..play.game import TapeRanOut
    from ..render.narrate import Narrator, Tally, money_summary
    from ..render.terminal import fit, printable, said_with_command

    fmt = output_format(args)
    if fmt not in ("text", "json"):
        raise UsageError(f"run prints a narration (text) or one JSON object per throw (json), not {fmt}")
    ruleset = load(args.ruleset)
    if args.players is not None:
        return _session(args, ruleset, fmt)
    for flag in ("rounds", "purse", "strategy", "stake", "log", "refuse", "cap"):
        if getattr(args, flag) not in (None, []):
            raise UsageError(f"--{flag} is for a session at the table: give --players Ann,Ben,Cat too")
    if args.force:
        raise UsageError("--force lets --log write over an existing file; it is for a session at the table")
    games = games_request(run_request(args, ruleset))
    machine, seed = games.machine, games.seed
    narrator = Narrator(machine)
    tally = Tally()
    pending: list = []
    out = sys.stdout
    as_json = fmt == "json"
    if not as_json:
        print(fit(printable(f"{ruleset.name} — {options_line(machine)}")), file=out)
    current_game = 0
    for record in games.records():
        tally.add(record)
        if isinstance(record, TapeRanOut):
            # the game's words, not its phase's name in the file: the throws so far say where
            where = f"in game {record.game} after {record.throws} throw{'s' * (record.throws != 1)}" \
                if record.throws else f"before game {record.game}"
            print(fitted(f"hazard-dsl: the dice tape ran out {where}; the game stops there.", sys.stderr),
                  file=sys.stderr)
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
        print("\n" + fit(printable(tally.summary(label_results, ruleset.words.caster, ruleset))), file=out)
        if games.wagers is not None:
            print(fit(printable(money_summary(games.wagers, ruleset))), file=out)
        if args.dice is None:
            again = replay_command(args.ruleset, seed, args.games, args.option, args.policy, args.bet, args.bankroll)
            print(printable(said_with_command(f"Seed {seed}:", again, "plays these games again.")), file=out)
    for note in games.never_made():  # on the side, as the tape running out is: the output stays the games'
        print(fit(printable(f"hazard-dsl: note: {note.said(FLAGS)}.")), file=sys.stderr)
    return 0


def _session(args, ruleset, fmt) -> int:
    """`run --players …`: a narrated session at the table, or its events as JSON lines."""
    from ..render.session import SessionNarrator

    if args.bankroll is not None or args.games is not None:
        raise UsageError("a session at the table stakes by --strategy and --stake, with --purse each, and bets by "
                         "--bet SEAT:NAME=AMOUNT; --bankroll and --games are for games without players")
    request = run_request(args, ruleset)
    settings = sessions.request_settings(ruleset, request.ruleset, request)
    plans, refused, stakes = sessions.checked_plans(ruleset, settings["players"], request.plans, request.refusals)
    if plans:
        # the bets planned are the bets of this table; the log says so, for its replay
        settings["bets"] = sorted({name for bets in plans.values() for name in bets})
    seed, dice = seed_and_tape(request.seed, request.dice)
    table = sessions.table(ruleset, request.options, settings, seed, dice)
    header = sessions.log_header(settings, seed if request.dice is None else None)
    if request.cap is None:
        decide = sessions.strategy(table, settings, plans, refused, stakes)
    else:  # a progression's largest stake (as simulate --cap), said in the log's header with the others
        from fractions import Fraction

        from ..play.strategies import strategy

        decide = strategy(settings["strategy"], Fraction(settings["stake"]), table.chooser, plans, refused, stakes,
                          cap=request.cap)
        header = dict(header, cap=str(request.cap))
    log = sessions.new_log(request.log, request.force, request.ruleset)
    events = sessions.session_events(table, decide, log, header)
    tell(events, SessionNarrator(table.machine), fmt)
    if fmt != "json" and args.dice is None:
        from ..render.terminal import fit, printable

        print(fit(printable(f"Seed {seed}: the same command with --seed {seed} plays this session again.")))
    return 0


def replay_command(ruleset: str, seed: int, count: int | None = None, option_texts=(), policy: str = "optimal",
                   bets=(), bankroll: str | None = None) -> str:
    """The command that plays the same games again: every setting that shaped them, as they
    were typed, quoted for a shell."""
    import shlex

    words = ["hazard-dsl", "run", ruleset, "--seed", str(seed)]
    if count is not None:
        words += ["--games", str(count)]
    for option in option_texts:
        words += ["--option", option]
    if policy != "optimal":
        words += ["--policy", policy]
    for bet in bets:
        words += ["--bet", bet]
    if bankroll is not None:
        words += ["--bankroll", bankroll]
    return " ".join(shlex.quote(w) for w in words)

