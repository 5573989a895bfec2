"""`hazard-dsl run RULESET`: games narrated as they are played (commands.games), or, with
--players, a session at the table (commands.sessions), in words or as JSON lines."""

from __future__ import annotations

import sys

from ..commands import sessions
from ..commands.dice import seed_and_dice
from ..commands.games import games_to_play, replay_command
from ..commands.loading import load
from .output import output_format, options_line, tell
from .parser import UsageError


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
    for flag in ("rounds", "purse", "strategy", "stake", "log", "refuse"):
        if getattr(args, flag) not in (None, []):
            raise UsageError(f"--{flag} is for a session at the table: give --players Ann,Ben,Cat too")
    if args.force:
        raise UsageError("--force lets --log write over an existing file; it is for a session at the table")
    games = games_to_play(ruleset, args.option, args.bet, args.bankroll, args.games, args.seed, args.dice,
                          args.policy)
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
        print("\n" + fit(printable(tally.summary(label_results, ruleset.words.caster, ruleset))), file=out)
        if games.wagers is not None:
            print(fit(printable(money_summary(games.wagers, ruleset))), file=out)
        if args.dice is None:
            again = replay_command(args.ruleset, seed, args.games, args.option, args.policy, args.bet, args.bankroll)
            print(printable(said_with_command(f"Seed {seed}:", again, "plays these games again.")), file=out)
    return 0


def _session(args, ruleset, fmt) -> int:
    """`run --players …`: a narrated session at the table, or its events as JSON lines."""
    from ..render.session import SessionNarrator

    if args.bankroll is not None or args.games is not None:
        raise UsageError("a session at the table stakes by --strategy and --stake, with --purse each, and bets by "
                         "--bet SEAT:NAME=AMOUNT; --bankroll and --games are for games without players")
    settings = table_settings(args, ruleset)
    plans, refused, stakes = sessions.bet_plans(ruleset, settings["players"], args.bet, args.refuse)
    if plans:
        # the bets planned are the bets of this table; the log says so, for its replay
        settings["bets"] = sorted({name for bets in plans.values() for name in bets})
    seed, dice = seed_and_dice(args.seed, args.dice)
    table = sessions.table(ruleset, args.option, settings, seed, dice)
    header = sessions.log_header(settings, seed if args.dice is None else None)
    log = sessions.new_log(args.log, args.force, args.ruleset)
    events = sessions.session_events(table, sessions.strategy(table, settings, plans, refused, stakes), log, header)
    tell(events, SessionNarrator(table.machine), fmt)
    if fmt != "json" and args.dice is None:
        from ..render.terminal import fit, printable

        print(fit(printable(f"Seed {seed}: the same command with --seed {seed} plays this session again.")))
    return 0


def table_settings(args, ruleset) -> dict:
    """The settings of a session at the table from the command line (run, play and simulate
    --players): commands.sessions.table_settings checks them."""
    return sessions.table_settings(ruleset, args.ruleset, players=args.players, purse=args.purse, stake=args.stake,
                                   strategy=args.strategy, rounds=args.rounds, policy=args.policy)
