"""A table's record replayed: its actions applied to a new table of the same settings, and every
event the table makes compared with the recorded one (play.log's files, play.table.replay's
entries alike).

A record is trusted only as far as the rules agree with it: an action the rules do not allow
there, an event they would not have made (the same only as JSON writes it: a die's 3.0 is not
the 3 the rules threw), an entry that is no event or action, or anything after the session's end
is refused with a LogError naming the line (or the entry). A log of events alone, as logs were
first written, is replayed by the actions its events imply (`implied_action`).
"""

from __future__ import annotations

import json

from .log_errors import LogError


def differs(made: dict, logged: dict) -> str | None:
    """What differs between the event the rules make and the logged one, or None. Values are
    the same only as JSON writes them: a die's 3.0 (or true) is not the 3 the rules threw, though
    Python holds them equal."""
    # keys of any type (a Python caller's entry): the text ones in order, then the others by their JSON
    for key in sorted(set(made) | set(logged), key=lambda k: ("", k) if isinstance(k, str) else ("~", _written(k))):
        if not _same(made.get(key), logged.get(key)):
            return (f"{key if isinstance(key, str) else _written(key)} is {_written(logged.get(key))} in the log, "
                    f"but the rules make it {_written(made.get(key))}")
    return None


def _same(made, logged) -> bool:
    """Whether two values are the same JSON: equal, and of the same kind all the way down (a
    list is a tuple's JSON)."""
    if isinstance(made, (list, tuple)):
        return isinstance(logged, (list, tuple)) and len(made) == len(logged) and all(map(_same, made, logged))
    if isinstance(made, dict):
        return isinstance(logged, dict) and made.keys() == logged.keys() and \
            all(_same(v, logged[k]) for k, v in made.items())
    return type(made) is type(logged) and made == logged


def _written(value) -> str:
    """A value as a log writes it (JSON); a value JSON cannot write (an entry given by a Python
    caller) by its repr, cut short."""
    from .actions import quoted

    try:
        written = json.dumps(value)
    except (TypeError, ValueError, RecursionError):  # not JSON; an int too long to write out
        return quoted(value)
    # a value of thousands of characters (a hand-edited purse) is said by its opening, not in full
    return written if len(written) <= 200 else written[:80] + f"… ({len(written):,} characters)"


def implied_action(question, event: dict, where: str) -> dict:
    """The action a log of events alone (as logs were first written) implies at `question`: what
    the next logged `event` shows the player did. A throw's dice are the logged dice; a stake's
    amount the logged amount (none where the next event is another's); a cover unless the event
    says the caster declined; the dice kept unless passed by choice; the value chosen."""
    ask = question.ask
    kind = event["event"]
    if ask == "throw" and question.facts.get("cast") == "lot":  # one die each for the first cast
        if kind != "lot":
            raise LogError(f"{where}: the log contradicts the rules: the players throw for the first cast here, but "
                           f"the log has a {json.dumps(kind)[:40]} event")
        return {"action": "throw", "dice": [event.get("face")]}
    if ask == "throw":
        if kind not in ("throw", "cast"):
            raise LogError(f"{where}: the log contradicts the rules: the rules throw the dice here, but the log has "
                           f"a {json.dumps(kind)[:40]} event")
        if kind == "cast" and question.facts.get("cast") == "die":
            return {"action": "throw", "dice": [event.get("face", 0)]}
        return {"action": "throw", "dice": event.get("dice")}
    if ask == "stake":
        mine = kind in ("stake", "refuse") and event.get("player") == question.player
        return {"action": "stake", "amount": event.get("amount") if mine else "0"}
    if ask == "cover":
        maker = event.get("who") if "bet" in question.facts else event.get("player")
        declined = kind == "refuse" and maker == question.facts["setter"] and event.get("declined")
        return {"action": "refuse" if declined else "cover"}
    if ask == "keep":
        return {"action": "pass" if kind == "pass" and event.get("voluntary") else "keep"}
    if ask == "bet":
        if kind in ("bet", "refuse") and "bet" in event:
            implied = {"action": "bet", "player": event.get("who"), "bet": event["bet"], "amount": event.get("amount")}
            if event.get("side") in ("backer", "layer"):  # a side bet may be backed or laid
                implied["side"] = event["side"]
            return implied
        return {"action": "done"}
    if ask == "accept":
        return {"action": "accept" if kind == "bet" and event.get("against") == question.player else "decline"}
    values = question.facts["values"]
    value = event.get("value") if kind in ("choice", "recast") else None
    return {"action": "choose", "value": value if value in values else values[0]}  # a wrong one: the events differ


def replaying(log, table):
    """The actions of `log` (play.log.LogFile) applied to `table` (a new play.table.Table of its
    settings) — or, in a log of events alone, the actions its events imply — and every event the
    table makes compared with the logged one (`replayed`). Yields (line number, event) for each event made
    and logged; returns (as StopIteration.value) the events the last action made that the log
    does not have (a session killed between writing an action and its events) and the log's
    `Reading`. Raises LogError at the first line that is damaged, an action the rules do not
    allow there, an event the rules would not have made, or anything after the session's end."""
    path = log.path
    entries = log.entries()
    unlogged = yield from replayed(entries, table, lambda number: f"{path}:{number}")
    reading = entries.reading
    if table.over and not unlogged and reading is not None and reading.tail:
        raise _after_end(f"{path}:{reading.lines + 1}", reading.lines + 1)
    return unlogged, reading


def replayed(entries, table, where):
    """`entries`, (number, entry) pairs of a table's record — actions and events — replayed on
    `table`: each action applied (an event with no action before it: the action it implies) and
    each event the table makes compared with the one recorded. `where(number)` names an entry in
    the errors (LogError). Yields (number, event) for each; returns the events the last action
    made that the entries lack."""
    from collections import deque

    from .actions import IllegalAction

    made = deque(table.opening)  # the events made and not yet compared: first, the opening ones
    for number, entry in entries:
        at = where(number)
        if not isinstance(entry, dict) or not (isinstance(entry.get("event"), str) or
                                               (isinstance(entry.get("action"), str) and "event" not in entry)):
            # a file's lines are checked as read (_entry); a caller's entries here
            raise LogError(f"{at}: neither a session event nor an action (a JSON object with \"event\" or "
                           f"\"action\")")
        if "action" in entry and "event" not in entry:
            if made:
                raise LogError(f"{at}: the log contradicts the rules: the rules make a {made[0]['event']} event "
                               f"here, but the log has an action")
            if table.over:
                raise _after_end(at, number)
            try:
                made.extend(table.apply(entry))
            except IllegalAction as exc:
                raise LogError(f"{at}: the log contradicts the rules: an action they do not allow here: "
                               f"{exc}") from None
            continue
        while not made:
            if table.over:
                raise _after_end(at, number)
            try:
                made.extend(table.apply(implied_action(table.waiting, entry, at)))
            except IllegalAction as exc:
                raise LogError(f"{at}: the log contradicts the rules: {exc}") from None
        event = made.popleft()
        if event["event"] == "session":  # a log's adds the settings it was played with
            # the ruleset's name too: the rules' hash holds the game, and a name edited in the
            # log would be told as the game's (the table's prose, "passing", may change its
            # words between versions, so it is not compared)
            compared = ("ruleset", "players", "purses", "options")
            wrong = differs({k: event[k] for k in compared}, {k: entry.get(k) for k in compared})
        else:
            wrong = differs(event, entry)
        if wrong:
            raise LogError(f"{at}: the log contradicts the rules: {wrong}")
        yield number, event
    return list(made)


def _after_end(at: str, number: int) -> LogError:
    return LogError(f"{at}: a line after the session's end (line {number - 1} ended it); a log ends "
                    f"with its session")
