"""`hazard-dsl play RULESET --players …`: several people at one keyboard (cli.prompt), the
seats --plan names played by the computer (play.seat_plans); or, with --resume FILE, the
session of a log going on (commands.sessions)."""

from __future__ import annotations

import json
import os
import sys
from fractions import Fraction

from ..commands import sessions
from ..commands.dice import seed_and_tape
from ..commands.loading import load
from .output import output_format
from .parser import UsageError
from ..errors import Arg
from ..play.seat_plans import read_plans
from .requests import play_request, stake_coin
from .requests import tape as tape_of
from .wording import FLAGS


def _ended(log) -> str:
    """A log whose session has ended, and the command that tells it again: one line where it
    fits, else the sentence fitted to the terminal and the command on a line of its own, whole,
    to be copied (a log's path is seldom short: ~/.local/share/hazard-dsl/sessions/…)."""
    import shlex

    from ..render.terminal import cells, fit, printable, width

    ended = printable(f"The session logged in {log.path} has ended (line {log.reading.lines}): there is "
                      f"nothing to resume.")
    again = printable(f"hazard-dsl replay {shlex.quote(log.path)}")
    line = f"{ended} {again} tells it again."
    return line if cells(line) <= width() else f"{fit(ended + ' Tell it again with:')}\n  {again}"


def command(args) -> int:
    """Several people at one keyboard; or, with --resume, the session of a log, going on."""
    from ..play.log import open_to_resume
    from ..render.terminal import printable

    fmt = output_format(args)
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
            if args.plan or args.cap is not None:
                raise UsageError("play --resume takes the seats the computer plays (--plan, --cap) from the log; "
                                 "give neither")
            tape = seed_and_tape(None, tape_of(args.dice))[1] if args.dice is not None else None
            log = open_to_resume(args.resume)  # locked from here: no other session appends to it
            seed, dice = sessions.resumed_dice(log, tape)
            # the whole log is replayed before anything is changed (a refused log is left as it was)
            table, settings, unlogged = sessions.resumed(log, args.ruleset, seed, dice)
            plan = _logged_plan(log, settings["players"])
            if log.ended:
                print(_ended(log), file=sys.stderr if fmt == "json" else sys.stdout)
                return 0
        else:
            if args.ruleset is None or args.players is None:
                raise UsageError("play needs a RULESET and --players Ann,Ben,Cat (or --resume FILE)")
            ruleset = load(args.ruleset)
            request = play_request(args, ruleset)
            settings = sessions.request_settings(ruleset, request.ruleset, request)
            offered = [name for name in ruleset.bets if name != ruleset.table.stake]
            if offered:  # every bet of the rules besides the stake is offered at the table
                settings["bets"] = offered
            if args.cap is not None and not args.plan:  # refused, never ignored: it caps a planned seat
                raise UsageError("--cap is a planned progression's largest stake: give it with --plan "
                                 "SEAT:STRATEGY, such as --plan Ben:martingale")
            seed, dice = seed_and_tape(request.seed, request.dice)
            plan = (read_plans(args.plan, settings["players"]),
                    stake_coin(ruleset, args.cap, Arg("cap")) if args.cap is not None else None)
            _check_best_plans(plan[0], settings)
            table = sessions.table(ruleset, request.options, settings, seed, dice)
            unlogged = None
        return _play(args, fmt, log, table, settings, seed, unlogged, plan)
    finally:
        if log is not None:
            log.close()


def _check_best_plans(planned: dict, settings: dict) -> None:
    """A seat planned to play the best stake, judged before the first throw as run --strategy
    best judges it: its policy is solved in whole units towards twice the purse (play.strategies),
    so a purse or stake of a fraction of a unit has none, and a purse past MAX_POLICY_PURSES
    was refused only at the seat's first stake, the session under way."""
    seat = next((seat for seat, name in planned.items() if name == "best"), None)
    if seat is None:
        return
    from ..solve.policy import MAX_POLICY_PURSES

    purse, stake = Fraction(settings["purse"]), Fraction(settings["stake"])
    if purse.denominator != 1 or stake.denominator != 1:
        raise UsageError(f"--plan {seat}:best stakes whole units (its policy is solved in them): give --purse "
                         f"and --stake in whole units, not {purse} and {stake}")
    if 2 * int(purse) - 1 > MAX_POLICY_PURSES:
        raise UsageError(f"--purse is too large for --plan {seat}:best: its exact policy, towards twice the purse, "
                         f"takes at most {MAX_POLICY_PURSES:,} purses below it")


def _play(args, fmt, log, table, settings, seed, unlogged, plan=({}, None)) -> int:
    """The people at the keyboard answer the table's questions (cli.prompt.Terminal), the
    computer those of the seats `plan` names (({seat: strategy}, cap): play.seat_plans); each
    action and the events it causes are logged and told as they come. `log`: the log of a
    resumed session (its table stands where the log ends; `unlogged`: events its last action
    made that the log lacked, written to it now and told after the recap)."""
    from .prompt import HELP, SessionOver, Terminal, UnreadableAnswer, read_answer
    from ..render.recap import (logged_to, resume_command, resuming, session_length, wagers_up,
                                where_the_table_stands, with_command)
    from ..render.session import SessionNarrator
    from ..render.terminal import fit, printable

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
            say(where_the_table_stands(table.session))

    def ask(prompt: str) -> str:
        recap()  # before the first question of a resumed session
        # wrapped like the rest (the answer is typed after the last line's space)
        talk.write(printable(fit(prompt.rstrip()) + " " if prompt.endswith(" ") else fit(prompt)))
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

    machine = table.machine
    # the dice are thrown on Enter, unless they come from a tape read without a person at the
    # keyboard; at a terminal a tape's throws wait for Enter too, so that the people can bet
    # between them (a tape only says what the dice show)
    terminal = Terminal(machine, table.chooser.solver, ask, say, Fraction(settings["stake"]), table,
                        dice_on_enter=args.dice is None or typed, policy=settings["policy"])
    planned, cap = plan
    answer = terminal
    if planned:  # the seats the computer plays, by the strategy run --strategy plays them by
        from ..play.seat_plans import ComputerSeats

        answer = ComputerSeats(planned, settings["stake"], table.chooser, terminal, say, terminal._money, cap)
        if log is not None:  # a resumed session: each planned seat's steps so far, from its log
            _follow(log, args.ruleset, answer)
    narrator = SessionNarrator(machine)
    header = sessions.log_header(settings, seed if args.dice is None else None)
    if planned:  # what a resumed session needs to play them on (replay needs only the actions)
        header = dict(header, planned=planned, **({"cap": str(cap)} if cap is not None else {}))
    if log is not None:
        out = log  # the session goes on in the same file
    else:
        out, not_logged = sessions.play_log(args.ruleset, args.log, args.force, args.no_log)
    say(HELP)
    say(session_length(settings["rounds"], settings["players"], resumed=log is not None))
    command = None
    if out is not None:
        command = resume_command(os.path.abspath(out.path), sessions.own_rules(args.ruleset), args.dice,
                                 fmt == "json")
        if log is None:  # a resumed session names its log in the recap
            print(printable(logged_to(os.path.abspath(out.path), command)), file=talk)
    else:
        say(f"This session is not logged ({not_logged.said(FLAGS)}), so it cannot be resumed.")

    def events():
        if log is None:
            yield from sessions.opening(table, out, header)
        else:
            recap()  # a resumed session: where the table stands, before anything new
            yield from unlogged
        yield from sessions.played(table, answer, out)

    try:
        for event in events():
            if fmt == "json":
                print(json.dumps(event), flush=True)
            else:
                text = narrator.text(event)  # printable and fitted already
                if text is not None:
                    print(text)
            if event["event"] in ("throw", "choice"):
                # where the game stands now: the throw's or the choice's target
                now = machine.states[event["to"]]
                if now.kind != "end" and event["to"] != event["state"]:
                    print(printable(fit(f"       {terminal.odds(now)}")), file=talk)
        return 0
    except SessionOver:
        print(printable("\n" + fit(f"The session stops here. Purses: {sessions.purses(table.session)}.")),
              file=talk)
        say(wagers_up(table.session))  # kept in the log: a resumed session settles them
        stopped(command)
        return 0
    except KeyboardInterrupt:
        print(printable("\n" + fit(f"Interrupted: the session stops here. Purses: {sessions.purses(table.session)}.")),
              file=talk)
        say(wagers_up(table.session))
        stopped(command)
        return 130
    finally:
        if out is not None and out is not log:
            out.close()


def _logged_plan(log, players: list) -> tuple:
    """The seats the computer plays in the session of `log`, and a progression's cap, as its
    session event holds them (`planned`, `cap`); a damaged entry is refused naming the line."""
    from ..parse.numbers import exact_amount
    from ..play.log import LogError
    from ..play.strategies import STRATEGIES

    planned, cap = log.header.get("planned", {}), log.header.get("cap")
    if not (isinstance(planned, dict) and all(seat in players and name in STRATEGIES
                                              for seat, name in planned.items())):
        raise LogError(f"{log.path}:1: the session event is damaged: its planned seats are not seats of the "
                       f"table each with a strategy ({', '.join(STRATEGIES)})")
    if cap is not None:
        cap = exact_amount(cap, percent=False) if isinstance(cap, str) else None
        if cap is None or cap <= 0:
            raise LogError(f"{log.path}:1: the session event is damaged: its cap is not an amount above 0 as text")
    return planned, cap


def _follow(log, named, seats) -> None:
    """The session of `log` replayed on a new table, each planned seat's logged stake fed to its
    strategy (play.seat_plans.ComputerSeats.follow), so that it goes on from the step it was at."""
    from ..play.log import LogError

    again, events = sessions.replay(log, named)
    apply = again.apply

    def followed(action):
        seats.follow(again.waiting, action)
        return apply(action)

    again.apply = followed  # the replay applies every logged action through the table's apply
    try:
        for _ in events:
            pass
    except LogError as exc:
        if str(exc).startswith(str(log.path)):
            raise
        raise LogError(f"{log.path}: {exc}") from None
