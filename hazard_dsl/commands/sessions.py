"""Sessions at the table: started from a ruleset and settings, told as they go, logged, and
checked, replayed and resumed from their logs.

A session's settings are a dict with the keys of a log's header (file, players, purse, stake,
strategy, rounds, policy), so that a new session and a resumed one are set up alike; `table`
turns them into the machine and the session engine (play.session.Session).
"""

from __future__ import annotations

import os
from fractions import Fraction

from ..version import __version__
from ..diagnostics import RulesetError
from ..errors import Arg, ArgumentError
from ..play.log_errors import LogError
from .dice import load_dice
from .errors import CommandError, SettingError
from .loading import build_machine, load

MAX_PLAYERS = 50
MAX_NAME = 40
MAX_ROUNDS = 10_000


def player_names(text: str, least: int = 2) -> list[str]:
    """The players' names from `Ann,Ben,Cat`, in order round the table (`checked_players`)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) < least and least > 1:
        raise SettingError("players", "takes two names or more, separated by commas: ",
                           Arg("players", value=["Ann", "Ben", "Cat"]))
    if len(names) < least:
        raise SettingError("players", "takes one name or more, separated by commas")
    return checked_players(names, least)


def checked_players(names: list, least: int = 2) -> list[str]:
    """The players in order round the table: at least `least`, at most MAX_PLAYERS, each his
    own, printable and short, and neither the bank nor the box."""
    if len(names) < least:
        raise SettingError("players", f": this table needs {least} player{'s' * (least > 1)} or more")
    if len(names) > MAX_PLAYERS:
        raise SettingError("players", f": at most {MAX_PLAYERS} players at one table")
    for name in names:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or not name.isprintable() \
                or name in ("bank", "box"):
            shown = name[:MAX_NAME] if isinstance(name, str) else name
            raise SettingError("players", f": {shown!r} cannot be a player's name (printable, at most "
                                          f"{MAX_NAME} characters, not 'bank' or 'box')")
    if len(set(names)) != len(names):
        raise SettingError("players", ": each player needs a name of his own")
    # at the keyboard a seat is typed in any case and spacing (render.prompt.seat_at_start), so
    # two names that differ only so would be one seat there
    seen: dict = {}
    for name in names:
        key = " ".join(name.split()).casefold()
        if key in seen:
            raise SettingError("players", f": {seen[key]!r} and {name!r} differ only in case or spacing; "
                                          f"each player needs a name of his own")
        seen[key] = name
    return list(names)


def table_settings(ruleset, file: str, *, players: str, purse: str | None = None, stake: str | None = None,
                   strategy: str | None = None, rounds: int | None = None, policy: str = "optimal") -> dict:
    """What shapes a session of `ruleset` (read from `file`), checked, with clear errors: the
    players as text (`Ann,Ben,Cat`; one is enough against a bank), the purse each starts with
    and the stake as texts of money (default 20 and 1), the strategy (default flat) and the
    rounds (default 1). Returns the settings a log's header holds."""
    names = player_names(players, 1 if ruleset.table.against == "bank" else 2)
    return _settings(ruleset, file, names, purse, stake, strategy, rounds, policy)


def request_settings(ruleset, file: str, request) -> dict:
    """`table_settings` for a request at the table (commands.requests.TableRequest: run, play or
    simulate with `players`): the players a list, the purse and the stake exact (None: 20 and 1)."""
    if isinstance(request.players, str) or not hasattr(request.players, "__iter__"):
        raise SettingError("players", f"is a list of names, such as ['Ann', 'Ben'], not {request.players!r}")
    names = checked_players(list(request.players), 1 if ruleset.table.against == "bank" else 2)
    return _settings(ruleset, file, names, request.purse, request.stake, request.strategy, request.rounds,
                     request.policy)


def _settings(ruleset, file: str, names: list, purse, stake, strategy, rounds, policy: str) -> dict:
    """The settings of `table_settings`, the purse and the stake texts of money or exact amounts."""
    from ..play.strategies import STRATEGIES

    rounds = 1 if rounds is None else rounds
    if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
        raise SettingError("rounds", f"must be between 1 and {MAX_ROUNDS:,}")
    strategy = strategy or "flat"
    if strategy not in STRATEGIES:
        from ..diagnostics import did_you_mean

        raise SettingError("strategy", f"is one of {', '.join(STRATEGIES)}, not {strategy!r}"
                                       f"{did_you_mean(strategy, STRATEGIES)}")
    purse_amount = _money(ruleset, purse or "20", "purse") if not isinstance(purse, Fraction) else purse
    stake_amount = _money(ruleset, stake or "1", "stake") if not isinstance(stake, Fraction) else stake
    if purse_amount <= 0 or stake_amount <= 0:
        raise SettingError("purse", "and ", Arg("stake"), " must be more than 0")
    if strategy == "best":  # the policy is solved in whole units, towards twice the purse (play.strategies)
        from ..solve.policy import MAX_POLICY_PAIRS, policy_size

        if stake_amount.denominator != 1 or purse_amount.denominator != 1:
            raise SettingError("stake", "and ", Arg("purse"), " must be whole units for ", Arg("strategy", value="best"))
        from ..solve.policy import MAX_POLICY_PURSES

        if 2 * int(purse_amount) - 1 > MAX_POLICY_PURSES:  # the purses below its goal, twice the purse
            raise SettingError("purse", "is too large for ", Arg("strategy", value="best"), "'s exact policy (towards "
                                        f"twice the purse: at most {MAX_POLICY_PURSES:,} purses below it)")
        if policy_size(2 * int(purse_amount), int(stake_amount)) > MAX_POLICY_PAIRS:
            raise SettingError("purse", "is too large for ", Arg("strategy", value="best"), "'s exact policy (at "
                                        f"most {MAX_POLICY_PAIRS:,} purse x stake pairs)")
    return dict(file=file, players=names, purse=str(purse_amount), stake=str(stake_amount), strategy=strategy,
                rounds=rounds, policy=policy)



def _money(ruleset, text: str, what: str) -> Fraction:
    """An amount given as the setting `what` (purse, stake): in the file's unit ("2.50") or in the
    ruleset's coin ("2s 6d", "half a guinea"), exactly (render.words.money_read)."""
    from ..render.words import MoneyText, money_typed

    try:
        return money_typed(ruleset, text)
    except MoneyText as exc:
        # a setting, so each front end names it: --purse, purse=, "purse"
        raise SettingError(what, f": {exc}") from None


STAKE_WORD = "stake"  # SEAT:stake=AMOUNT: the seat's own stake, whatever the ruleset's stake bet is named


def _is_stake(ruleset, name: str) -> bool:
    """Whether NAME in SEAT:NAME=AMOUNT is the table's stake (the ruleset's stake bet, or `stake`)."""
    return name == STAKE_WORD or (ruleset.table.stake is not None and name == ruleset.table.stake)


def _bet_at_table(ruleset, name: str, planned: bool, error) -> str:
    """`name` as a bet a seat plans (`planned`) or refuses at this table, the stake among the
    planned (as STAKE_WORD); else `error(problem)` is raised, with "did you mean"."""
    from ..diagnostics import did_you_mean

    stake = ruleset.table.stake
    bets = [bet for bet in ruleset.bets if bet != stake]
    if planned and _is_stake(ruleset, name):
        return STAKE_WORD
    if name not in bets:
        known = bets + ([STAKE_WORD] if planned else [])
        listed = f" (bets: {', '.join(known)})" if bets else f" ({ruleset.name} has no bets besides the stake)"
        hint = " (the stake is put to the caster, not refused by him)" if _is_stake(ruleset, name) else ""
        raise error(f"no bet {name!r} at this table{did_you_mean(name, known)}{hint}{listed}")
    return name


def checked_plans(ruleset, players: list[str], plans, refusals=()) -> tuple[dict, set, dict]:
    """Each seat's plans, given as values (a request's `plans`: {seat: {bet: amount}}, exact
    amounts; `refusals`: (seat, bet) pairs), each checked against the players and the ruleset's
    bets with "did you mean", an `ArgumentError` naming `plans` (or `refusals`) otherwise.
    Returns (its bets {seat: {bet: amount}}, made for that amount whenever it may; the
    refusals {(seat, bet)}, bets the seat refuses when they are put to him; its own stake
    {seat: amount}, planned as the bet `stake` (or the ruleset's stake bet, `Ann:pass=1` at
    craps): what that seat stakes each game it sets in place of the table's stake, 0 to sit out
    of the stakes, an onlooker)."""
    from ..diagnostics import did_you_mean
    from ..errors import Arg, ArgumentError

    def seat_at_table(seat, arg: Arg) -> None:
        if seat not in players:
            raise ArgumentError(arg, f"{seat!r} is not at the table (players: {', '.join(players)})"
                                     f"{did_you_mean(str(seat), players)}", offered=players)

    out: dict = {}
    stakes: dict = {}
    for seat, plan in plans.items():
        for name, amount in plan.items():
            arg = Arg("plans", name, shown_amount(amount), seat=seat)
            seat_at_table(seat, arg)
            bet = _bet_at_table(ruleset, name, True, lambda problem: ArgumentError(arg, problem))
            least_zero = bet == STAKE_WORD
            if not isinstance(amount, Fraction) or amount < 0 or (amount == 0 and not least_zero):
                raise ArgumentError(arg, "the amount must be more than 0" + (
                    " (a stake may be 0: the seat then sits out of the stakes)" if least_zero else ""))
            if bet == STAKE_WORD:
                if seat in stakes:
                    raise ArgumentError(arg, f"gives {seat}'s own stake twice; give it once")
                stakes[seat] = amount
            else:
                out.setdefault(seat, {})[bet] = amount
    refused = set()
    for seat, name in refusals:
        arg = Arg("refusals", name, seat=seat)
        seat_at_table(seat, arg)
        refused.add((seat, _bet_at_table(ruleset, name, False, lambda problem: ArgumentError(arg, problem))))
    return out, refused, stakes


def shown_amount(amount):
    """An amount as a message shows it: a whole Fraction as its int (`plans['Ben']['odds'] = 2`,
    `--bet Ben:odds=2`)."""
    if isinstance(amount, Fraction) and amount.denominator == 1:
        return int(amount)
    return amount


def stakes_alike(stakes: dict, stake: Fraction) -> bool:
    """Whether every seat's own stake is the table's: what the exact figures assume."""
    return all(amount == stake for amount in stakes.values())


def table(ruleset, options, settings: dict, seed: int, dice, history: bool = False):
    """A new table (play.table.Table) for these settings (a log's header has the same keys), its
    dice `dice` (a tape, or seeded random dice) and its choices made under the settings' policy
    (checked here: a policy the rules cannot follow is refused before anything is played); the
    options a request's values ({name: value}) or the command line's NAME=VALUE texts.
    With `history` false it keeps nothing the driver writes out as it goes."""
    from collections.abc import Mapping

    from ..play.table import Table
    from ..solve.markov import PolicyError
    from .loading import machine_for

    stake = ruleset.table.stake
    offered = list(settings.get("bets", ()))  # the bets besides the stake the people may make
    bets = ([stake] if stake else []) + offered
    machine = machine_for(ruleset, options, bets) if isinstance(options, Mapping) else \
        build_machine(ruleset, options, bets)
    load_dice(dice, machine)
    try:
        table = Table(machine, settings["players"], Fraction(settings["purse"]), dice, settings["rounds"], seed,
                      settings["policy"], history=history, bets=offered)
        table.chooser  # the policy solved now: its errors before the first throw
    except PolicyError as exc:
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None
    except ValueError as exc:  # a table the rules cannot hold (too few players, dice that never pass)
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None
    return table


def strategy(table, settings: dict, plans=None, refused=(), stakes=None):
    """The settings' strategy at `table`: what the computer stakes (`stakes`: a seat's own, from
    `checked_plans`), bets (`plans`, `refused`: `checked_plans`) and chooses for the players."""
    return table.strategy(settings["strategy"], Fraction(settings["stake"]), plans, refused, stakes)


def log_header(settings: dict, seed: int | None) -> dict:
    """What a log's session event holds beyond the engine's: the settings, the version that wrote
    it and the seed of its dice (None: the dice were a tape, given again to resume)."""
    return dict(settings, version=__version__, seed=seed)


def opening(table, log=None, header: dict | None = None) -> list[dict]:
    """The events a new session makes before its first question, the session event with
    `header` added, each written to `log` (if any)."""
    for event in table.opening:
        if event["event"] == "session" and header:
            event.update(header)
        if log is not None:
            log.write(event)
    return table.opening


def played(table, answer, log=None):
    """The session at `table` going on to its end: each question answered by `answer` (a
    strategy, or the people at a terminal), the action applied and written to `log` with the
    events it caused — at once, so that a session killed at any moment leaves a log valid up to
    there — and the events yielded as they come. Stopped by the caller (a person quits), the
    table is where the last action left it."""
    while not table.over:
        events = table.apply(answer(table.waiting))
        if log is not None:
            log.write(table.last_action)
            for event in events:
                log.write(event)
        yield from events


def session_events(table, answer, log=None, header: dict | None = None):
    """A new session from its opening to its end (`opening`, then `played`); the log is closed
    at the end, or when the caller stops early."""
    try:
        yield from opening(table, log, header)
        yield from played(table, answer, log)
    finally:
        if log is not None:
            log.close()


# --------------------------------------------------------------------------- logs


class DamagedLog(ArgumentError, LogError):
    """A log's line that cannot be trusted, whose reason names a setting (the log a session is
    written to): `where` the file and line, `problem` text and `Arg`s. A LogError the front ends
    word as they word an ArgumentError (the command line: `--log`), `where` first; its
    `argument` is the log."""

    def __init__(self, where: str, *problem):
        self.where = where
        ArgumentError.__init__(self, Arg("log"), *problem)

    def said(self, wording) -> str:
        return f"{self.where}: " + "".join(p if isinstance(p, str) else wording.arg(p) for p in self.problem)


def checked_header(log) -> None:
    """Raise DamagedLog, naming the setting, where the session event of `log` holds a setting
    that --log never writes (a log edited or damaged): each setting is judged before any is
    used, so that a seed of -1 or `true` is refused, not handed to the dice."""
    h = log.header
    damage = header_damage(h)
    if damage is not None:
        key, wanted = damage
        said = f"its {key} {'are' if key in ('players', 'options', 'rules') else 'is'} {_logged(h.get(key))}"
        error = DamagedLog(f"{log.path}:1", f"the session event is damaged: {said}, not {wanted} (what ", Arg("log"),
                           " writes)")
        error.setting = key  # the facts beside the words: which setting, as the log holds it
        raise error


def header_damage(h: dict) -> tuple[str, str] | None:
    """The first damaged setting of a log's session event `h` and what it should be ("seed", "a
    whole number from 0 to 2^64 − 1, or null (a tape)"), or None where none is."""
    from ..parse.numbers import MAX_DIGITS, exact_amount
    from ..play.strategies import STRATEGIES

    def its(key: str, wanted: str) -> tuple[str, str]:
        return key, wanted

    def whole(value) -> bool:  # JSON's true is no number, though Python's bool is an int
        return isinstance(value, int) and not isinstance(value, bool)

    if not isinstance(h["file"], str):
        return its("file", "the name of a rule file")
    if not isinstance(h["rules"], str):
        return its("rules", "the hash of the rules (text)")
    if not isinstance(h["options"], dict):
        return its("options", "the options by name")
    players = h["players"]
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        return its("players", "a list of names")
    try:
        player_names(",".join(players), 1)
        if not all("," not in p and p == p.strip() for p in players):
            raise SettingError("players", ": a name has a comma or spaces around it")
    except CommandError as exc:
        why = "".join(part for part in exc.problem if isinstance(part, str)).lstrip(": ")
        return its("players", f"names a session is played with ({why})")
    if h["strategy"] not in STRATEGIES:
        return its("strategy", f"one of {', '.join(STRATEGIES)}")
    if not whole(h["rounds"]) or not 1 <= h["rounds"] <= MAX_ROUNDS:
        return its("rounds", f"a whole number from 1 to {MAX_ROUNDS:,}")
    if not isinstance(h["policy"], str):
        return its("policy", "the name of a policy (text)")
    for key in ("purse", "stake"):
        if not isinstance(h[key], str) or not (exact_amount(h[key], percent=False) or 0) > 0:
            return its(key, f"an amount above 0 as text (at most {MAX_DIGITS} digits a part)")
    seed = h.get("seed")
    if seed is not None and not (whole(seed) and 0 <= seed < 2**64):
        return its("seed", "a whole number from 0 to 2^64 − 1, or null (a tape)")
    return None


def _logged(value) -> str:
    """A setting's value as the log holds it (JSON), cut short: a damaged line may hold anything."""
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):  # not JSON (a Python caller's header)
        text = repr(value)
    return text if len(text) <= 24 else f"{text[:12]}… ({len(text)} characters)"


def from_header(log, named: str | None):
    """The ruleset, options and settings a log was written with, each checked, and its seed. The
    rules are a built-in ruleset the header names, or the rule file the user names (`named`);
    the header's file name is never opened, and the rules must have the header's hash."""
    from ..cache import read_ruleset
    from ..parse.numbers import exact_amount
    from ..play.log import LogError, rules_file

    h, where = log.header, f"{log.path}:1"
    checked_header(log)
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
    offered = h.get("bets", [])
    if not (isinstance(offered, list) and all(isinstance(b, str) and b in ruleset.bets for b in offered)):
        raise LogError(f"{where}: the session event's bets are not bets of {shown}")
    if offered:
        settings["bets"] = offered
    settings["purse"], settings["stake"] = (str(exact_amount(h[k], percent=False)) for k in ("purse", "stake"))
    return ruleset, options, settings, h.get("seed")


def check_log(log, named: str | None, seed: int | None, dice, follow_dice: bool = False):
    """The log's rules and settings (`from_header`), and a table of them with the whole log
    replayed on it before anything is printed or changed (LogFile.check_on): where the session
    stands at the log's end. With `follow_dice` the table's own dice throw beside the logged
    throws, so that a resumed session goes on with the dice it would have had. Returns the
    table, the settings and the events the last logged action made that the log lacks."""
    from ..play.log import LogError
    from ..play.session import DiceBehind

    ruleset, options, settings, logged_seed = from_header(log, named)
    seed = seed if seed is not None else (logged_seed or 0)
    try:
        replayed = table(ruleset, options, settings, seed, dice)
    except (CommandError, ArgumentError) as exc:  # the log's own settings: no flag gave them
        raise LogError(f"{log.path}:1: {exc}") from None
    replayed.session.follow_dice = follow_dice
    try:
        unlogged = log.check_on(replayed)
    except DiceBehind:
        raise SettingError("dice", "has fewer throws than the log has made") from None
    replayed.session.follow_dice = False
    return replayed, settings, unlogged


def replay(log, named: str | None):
    """A logged session told again: the log checked whole first (`check_log`), then replayed on
    a new table. Returns that table and its events, each as (line, event), checked again as
    they come."""
    from ..play.dice import DiceTape
    from ..play.replay import replaying

    # the logged throws are the dice; a throw logged without dice is one a tape could not make,
    # and an empty tape makes none
    checked, settings, _ = check_log(log, named, None, DiceTape([]))
    ruleset = checked.machine.ruleset
    again = table(ruleset, dict(checked.machine.options), settings, checked.seed, DiceTape([]))
    return again, replaying(log, again)


def resumed_dice(log, tape=None):
    """The seed and the dice to resume the session of `log` with: its own seed's random dice, or
    `tape` (play.dice.DiceTape), which a session played with a tape needs again."""
    from ..play.dice import RandomDice

    checked_header(log)  # the seed is handed to the dice below: a damaged one is refused first
    seed = log.header.get("seed")
    if seed is None and tape is None:
        # (the dice a setting: --dice at the command line, `dice` over the web and in Python)
        raise SettingError("dice", f"gave this session's throws ({log.path}); give the same ", Arg("dice"),
                           " to resume it")
    seed = seed if isinstance(seed, int) else 0
    return seed, tape if tape is not None else RandomDice(seed)


def resumed(log, named: str | None, seed: int, dice):
    """The session of `log`, checked whole and ready to go on (`check_log`, its dice following the
    log's): returns the table, the settings, and the events the log lacks (written to it now). A
    line a kill cut off mid-way is dropped, now that the rest is known good."""
    go_on, settings, unlogged = check_log(log, named, seed, dice, follow_dice=True)
    if not log.ended:
        log.drop_cut_line()
        for event in unlogged:
            log.write(event)
    return go_on, settings, unlogged


def new_log(path: str | None, force: bool, ruleset: str):
    """The log of a new session of `ruleset` (a name or a path) to write to `path`, or None:
    never written over an existing file unless `force`, never over a rule file of the game
    (play.log.create_log)."""
    if force and path is None:
        raise SettingError("force", "lets ", Arg("log"), " write over an existing file; give ", Arg("log", value="FILE"),
                           " too")
    if path is None:
        return None
    if not path.strip():
        raise SettingError("log", "needs a file name (it is empty)")
    from ..play.log import create_log

    return create_log(path, force, protected(ruleset))


def protected(ruleset: str) -> list[str]:
    """The files a log is never written over: the rule file played, every file it extends, and
    the built-in rulesets."""
    from ..parse.files import builtin_dir, resolve
    from ..parse.chain import rule_files

    played = resolve(ruleset)
    return ([str(played)] + rule_files(played) if played is not None else []) + \
        [str(p) for p in builtin_dir().glob("*.yaml")]


def play_log(ruleset: str, path: str | None, force: bool, no_log: bool):
    """The log of a new `play` session and, where there is none, why (a `notes.Note` naming the
    setting, for the front end to word): `path` (as for run), none with `no_log`, else a new
    file in the data folder named by the ruleset and the time (play.log.create_session_log);
    where no data folder can be made the session goes on unlogged."""
    from .notes import Note

    from ..play.log import LogError, create_session_log

    if no_log:
        if path is not None or force:
            raise SettingError("no_log", "plays without a log; give no ", Arg("log"), " or ", Arg("force"), " with it")
        return None, Note("no_log", Arg("no_log"))
    if path is not None or force:
        return new_log(path, force, ruleset), None
    try:
        return create_session_log(ruleset, protected(ruleset)), None
    except LogError as exc:
        return None, Note("log", f"{exc}; ", Arg("log", value="FILE"), " logs it to a file of your choosing")


def own_rules(ruleset: str | None) -> str | None:
    """The rule file to name when resuming a session of `ruleset` (absolute), or None where the
    log's own header finds the rules: a built-in ruleset played by its name (play.log.rules_file
    reads no other; `rulesets/cotton.yaml`, a path, is named like any rule file)."""
    from ..parse.files import builtin_dir, builtin_names, resolve

    played = resolve(ruleset) if ruleset is not None else None
    if played is None:
        return None
    try:
        if ruleset in builtin_names() and played.resolve() == (builtin_dir() / f"{ruleset}.yaml").resolve():
            return None
    except OSError:
        pass
    return os.path.abspath(played)


def purses(session, in_words: bool = True) -> str:
    """Each player's purse, in order round the table: `Ann 21 crowns, Ben 19 crowns` in the
    ruleset's words, or the bare amounts (`session`: a table's play.session.Session)."""
    if not in_words:
        return ", ".join(f"{s.name} {s.purse}" for s in session.seats)
    from ..render.words import money_amount

    return ", ".join(f"{s.name} {money_amount(session.machine.ruleset, s.purse)}" for s in session.seats)
