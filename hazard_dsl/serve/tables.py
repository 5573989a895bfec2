"""The shared tables: a session at the table (play.table.Table) that several people play from
their own browsers, kept in the store (serve.store) and pushed to them live over WebSockets.

The table decides every rule; this module only says who may speak for which seat and carries
actions in and events out. Everything a browser sends is hostile until the table says otherwise:

- a seat's token (an unguessable `secrets.token_urlsafe`, kept only as its SHA-256) acts for that
  seat alone; an onlooker's token acts for nobody; a table's dice are its own (a thrown action
  naming its dice is refused: the seed or the tape on the server throws them);
- an action is checked by the table (`IllegalAction`: 409 with its reason) before anything
  changes; a question asked of nobody at the table (a choice the rules give the bank) is answered
  by the table's policy, as `run` answers it;
- the action and the events it caused are committed to the store before anyone hears of them, so
  a server killed at any moment restarts with every acknowledged action (`Tables.load`: each
  open table rebuilt by replaying its log with the code that resumes a log,
  commands.sessions.check_log).

An action may carry the table's `version` it was made against (stale: 409, with the version now)
and a key (a page's id, an `Idempotency-Key`): its first answer is committed with its entries, so
a repeat, even after a restart, is given that answer and never applied twice (`Tables.act`).

A table whose rules cannot be rebuilt (its rule file broken, changed, gone, reaching out of the
folder) stands closed with the reason while every other table plays on (`Tables.broken`); a
finished table is closed with its last action and rebuilt only when asked for.

Bounds: at most `max_tables` unfinished tables open (`per_client` of them from one address), the
logs of `max_finished` closed tables kept, `MAX_SEATS` seats a table; live connections
counted by link, `PAGES_PER_SEAT` for each seat's and `PAGES_OF_ONLOOKERS` for the onlookers' one
(shared by every onlooker, so one onlooker cannot fill the table and a seat always has room);
a WebSocket message of at most `MAX_MESSAGE` bytes, at most `RATE` a second (a burst of `BURST`);
a connection that cannot keep up (`MAX_QUEUE` messages behind) is closed and resumes where it
was when it reconnects; a table nobody has acted at for `idle` seconds is closed (its log kept),
whether or not pages are open on it: a page left open is no player.

A WebSocket the tables refuse is first accepted, then closed with 4000 + the HTTP status (4403,
4404, 4410, 4429…) and the reason: closed before the handshake, a browser would see only 1006
and could not tell a refusal from a lost connection.

The routes (HTTP and the WebSocket's live connection) are serve/table_routes.py's. What stays
here is one piece for now (some 960 lines): a table in play (`LiveTable`) and the registry
(`Tables`) share one lock, one store and one order of commit-then-tell, which `Tables` keeps
for every `LiveTable`; a table's seats and open wagers could move out next.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import secrets
import tempfile
import threading
import time
from contextlib import nullcontext
from fractions import Fraction

from ..commands import sessions
from ..commands.dice import checked_seed, seed_and_tape
from ..commands.errors import CommandError
from ..commands.loading import confined, load
from ..commands.requests import TableRequest
from ..play.actions import IllegalAction
from .bodies import json_object
from .requests import option_values, tape as tape_of
from .store import Store, StoreError
from .wording import JsonWording, worded

MAX_SEATS = 12
MAX_TABLES = 100
MAX_PER_CLIENT = 20  # tables in play opened from one address
MAX_FINISHED = 1000  # closed tables whose logs are kept; the oldest beyond are pruned
FINISHED_IN_MEMORY = 16  # finished tables kept rebuilt for their pages (the rest are read from the store)
RETRY_BROKEN = 5.0  # seconds before a table that could not be rebuilt is tried again
MAX_KEY = 64  # characters of an action's key (a page's id, an Idempotency-Key)
PAGES_PER_SEAT = 8  # pages open on one seat's link: a phone, a laptop, tabs left open
PAGES_OF_ONLOOKERS = 32  # pages open on the onlookers' link, which every onlooker shares
MAX_MESSAGE = 4096  # bytes of one WebSocket message from a browser
RATE, BURST = 10.0, 30  # messages a second from one connection, and the burst allowed
MAX_QUEUE = 5000  # messages waiting for one connection before it is dropped (it resumes on reconnect)
IDLE = 6 * 3600.0  # seconds without an action before a table is closed
MAX_TAPE = 20_000  # characters of a dice tape
MAX_NEW_TABLE = 65_536  # bytes of the body that opens a table: a tape of MAX_TAPE characters and the rest
MAX_JSON_DIGITS = 100  # digits of a number in that body: a seed has at most 20
MAX_REASON = 123  # bytes of a WebSocket close's reason (RFC 6455: 125 in the frame, less the code)
# what the body that opens a table may hold, and its settings
NEW_TABLE = ("ruleset", "options", "players", "settings", "seed", "dice")
SETTINGS = ("purse", "stake", "rounds", "policy", "bets")
_SETTINGS_WORDING = JsonWording({name: "settings" for name in SETTINGS})  # a table's settings.stake …


def _money_of(ruleset, key: str, given) -> Fraction | None:
    """A purse or a stake sent as JSON (20, or "2.50", or the coins "2s 6d"), exactly; None where
    none is sent. A text that is no money is a SettingError naming its field (settings.purse)."""
    if given is None:
        return None
    from ..commands.errors import SettingError
    from ..render.words import MoneyText, money_typed

    try:
        return money_typed(ruleset, str(given))
    except MoneyText as exc:
        raise SettingError(key, f": {exc}") from None
# the amounts' bounds an action carries for a page (min, max) are not part of the action; nor are
# the version it was made against and its key, which the tables read before the action
SHOWN_ONLY = ("min", "max", "told", "version", "key")  # told: the amount and bounds in the ruleset's coin
# shown with a bet (its payout, who takes it, its edge from here), not part of it; its `side`
# (backer or layer: a side bet may be offered to back or to lay) is
SHOWN_WITH_A_BET = ("pays", "against", "edge", "edge_percent", "words", "against_words")


class Unbuildable(Exception):
    """A table that cannot be rebuilt from its log, and why in words."""


class TableRefused(Exception):
    """A request the tables refuse: `status` (400, 403, 404, 409, 410, 429, 503) and why;
    `more`, what the answer adds to the error (the version now, for a stale action)."""

    def __init__(self, status: int, message: str, **more):
        super().__init__(message)
        self.status, self.more = status, more


class Moved(TableRefused):
    """An action made against a version of the table it has moved on from."""

    def __init__(self, now: int):
        super().__init__(409, f"the table moved on since this action was made (it is at version {now} now): "
                              f"look again, then act", version=now)


def checked_key(key) -> str | None:
    """An action's key as text, or None; TableRefused where it is not a short string or number."""
    if key is None:
        return None
    if isinstance(key, int) and not isinstance(key, bool):
        key = str(key)
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY or not key.isprintable():
        raise TableRefused(400, f"an action's key (id) is a string of 1 to {MAX_KEY} printable characters, "
                                f"new for each action")
    return key


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def reason(text: str) -> str:
    """`text` as a WebSocket close's reason: at most MAX_REASON bytes of UTF-8, cut at a word."""
    if len(text.encode("utf-8")) <= MAX_REASON:
        return text
    cut = text.encode("utf-8")[:MAX_REASON - 3].decode("utf-8", "ignore")
    return cut.rsplit(" ", 1)[0].rstrip(",;:") + "…"


def duration(seconds: float) -> str:
    """"6 hours", "10 minutes", "2 seconds": how long the idle time is, in words."""
    for size, unit in ((3600, "hour"), (60, "minute"), (1, "second")):
        if seconds >= size or size == 1:
            amount = f"{seconds / size:.3g}"
            return f"{amount} {unit}{'' if amount == '1' else 's'}"
    raise AssertionError


class Closing:
    """The last message of a connection: close it with `code` and `reason`."""

    def __init__(self, code: int, why: str):
        self.code, self.reason = code, reason(why)


class Connection:
    """One browser's WebSocket: the seat it speaks for (None: an onlooker) and the messages
    waiting to be sent to it, in order."""

    def __init__(self, seat: str | None):
        self.seat = seat
        self.queue: asyncio.Queue = asyncio.Queue()
        self.dropped = False

    def put(self, text: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            # too slow: closed; it resumes after its last event on reconnect
            self.close(1013, "too far behind: reconnect")
            return
        self.queue.put_nowait(text)

    def close(self, code: int, why: str) -> None:
        if not self.dropped:
            self.dropped = True
            self.queue.put_nowait(Closing(code, why))


class LiveTable:
    """A table in play: the session object, its events told (numbered from 1) and who listens."""

    def __init__(self, table_id: str, spec: dict, table, settings: dict, lines: int, touched: float):
        from ..compile.machine import CHOICE
        from ..play.odds import Odds
        from ..render.chances import chance_words, choices_words
        from ..render.session import SessionNarrator

        self.id, self.spec, self.table, self.settings = table_id, spec, table, settings
        self.lines = lines  # entries in the log so far
        self.touched = touched
        self.told: list[dict] = []  # each event with its number, words and the caster's chance
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.tokens = {spec["watch"]: None, **{h: seat for seat, h in spec["seats"].items()}}
        self.narrator = SessionNarrator(table.machine)
        self.odds = Odds(table.machine, table.chooser.solver, table)  # the figures, as `play` has them
        self._choice, self._words, self._choices = CHOICE, chance_words, choices_words
        self.strategy = sessions.strategy(table, settings)

    # ------------------------------------------------------------------ telling

    def tell(self, event: dict) -> dict:
        """The event numbered, in the period's words, with the caster's exact chance after a throw
        or a choice (as `play` prints it), added to the events told."""
        told = self.telling(event, len(self.told) + 1)
        self.told.append(told)
        return told

    def telling(self, event: dict, n: int) -> dict:
        """`tell`'s words for the event numbered `n`, not yet added."""
        told = {"n": n, "event": event, "text": self.narrator.said(event)}
        if event["event"] in ("throw", "choice"):
            now = self.table.machine.states[event["to"]]
            if now.kind != "end":
                caster = event["caster"]
                if now.kind == self._choice:
                    told["chance"] = {"text": self._choices(self.odds.choices(now), caster)}
                else:
                    win = self.odds.win[now.index]
                    told["chance"] = {"win": str(win), "text": f"From here {caster} wins {self._words(win)}."}
        return told

    # ------------------------------------------------------------------ where it stands

    def seat_of(self, token) -> tuple[bool, str | None]:
        """(known, seat): whether `token` is one of this table's, and the seat it speaks for."""
        if not isinstance(token, str) or not 8 <= len(token) <= 200:
            return False, None
        h = digest(token)
        return (h in self.tokens), self.tokens.get(h)

    def waiting(self, seat: str | None) -> dict | None:
        """What the table waits for, and the actions `seat` may post now, complete (an amount with
        a default and its bounds)."""
        q = self.table.waiting
        if q is None:
            return None
        question = {k: v for k, v in q.to_json().items() if k != "actions"}
        if isinstance(question.get("bet"), str):  # a bet put to a taker: by what players call it too
            ruleset = self.table.session.machine.ruleset
            if question["bet"] in ruleset.bets:
                question["bet_words"] = ruleset.bet_words(question["bet"])
        if q.ask in ("cover", "accept"):
            question.update(self.put_told(q.facts))
        who = q.facts["caster"] if q.ask == "bet" else q.player
        told = {"who": who, "ask": q.ask, "question": question, "actions": self.actions(q, seat)}
        if q.ask == "bet" and seat is not None:
            told["held_back"] = self.held_back(q, seat)
        return told

    def held_back(self, q, seat: str) -> list[str]:
        """Why a bet `seat` is party to is not offered to him again now, in words: the table takes
        one of each bet at a time from a seat (play.table_bets.BetTable.open_to), backer or layer,
        so the page says so rather than leave its buttons gone without a reason."""
        ruleset = self.table.session.machine.ruleset
        stake = ruleset.table.stake or "stake"  # the game's stakes are not the bets' to offer
        offered = {o["bet"] for o in q.facts["bets"].get(seat, ())}
        up = []
        for w in self.table.wagers:
            if seat in (w["backer"], w["layer"]) and w["bet"] != stake and w["bet"] in ruleset.bets \
                    and w["bet"] not in offered and w["bet"] not in up:
                up.append(w["bet"])
        return [f"You have {ruleset.bet_words(bet)} up: a seat has one of each bet at a time." for bet in up]

    def actions(self, q, seat: str | None) -> list[dict]:
        if seat is None:
            return []
        stake = Fraction(self.settings["stake"])
        if q.ask == "bet":
            ruleset = self.table.session.machine.ruleset
            mine = []
            for seat_name, offered in q.facts["bets"].items():
                if seat_name == seat:
                    for o in offered:
                        most = Fraction(o["most"])
                        if most > 0:
                            mine.append({"action": "bet", "player": seat, "bet": o["bet"],
                                         "amount": str(min(stake, most)), "min": o["least"], "max": o["most"],
                                         "told": self.in_coin(min(stake, most), o["least"], o["most"]),
                                         "pays": o["pays"], "against": o["against"], "side": o["side"],
                                         "words": ruleset.bet_words(o["bet"]),
                                         "against_words": against_words(o, seat),
                                         **self.edge_of(o["bet"])})
            # the caster's "done" closes the bets (the table then asks him to throw, a question of
            # its own, as the session engine asks it): first, as it is the usual move
            return ([{"action": "done"}] if seat == q.facts["caster"] else []) + mine
        if q.player != seat:
            return []
        if q.ask == "stake":
            least, most = Fraction(q.facts["least"]), Fraction(q.facts["most"])
            return [{"action": "stake", "amount": str(max(least, min(stake, most))), "min": q.facts["least"],
                     "max": q.facts["most"], "told": self.in_coin(max(least, min(stake, most)), least, most)}]
        if q.ask == "throw":
            return [{"action": "throw"}]  # the table's dice: a seat never names its own
        return q.actions()

    def put_told(self, facts: dict) -> dict:
        """A stake or bet put to a taker, in the ruleset's coin: `amount_told`, what it is for, and
        `puts_up_told`, what the taker puts at risk if he takes it (the question's `puts_up`, as
        `play` says it; a stake covered is matched at even money, so the amount itself)."""
        from ..render.words import money_amount

        ruleset = self.table.session.machine.ruleset
        told = {"amount_told": money_amount(ruleset, Fraction(facts["amount"]))}
        puts_up = facts.get("puts_up", facts["amount"] if "bet" not in facts else None)
        if puts_up is not None:
            told["puts_up_told"] = money_amount(ruleset, Fraction(puts_up))
        return told

    def in_coin(self, amount, least, most) -> dict:
        """An amount box's default and bounds in the ruleset's coin ("1s", "0d", "£1"), as the
        page shows them and as a person may type them back (render.words.money_read)."""
        from ..render.words import money_amount

        ruleset = self.table.session.machine.ruleset
        return {k: money_amount(ruleset, Fraction(v)) for k, v in (("amount", amount), ("min", least), ("max", most))}

    def edge_of(self, bet: str) -> dict:
        """A bet's exact edge against its backer if made now, where the table stands, as `play`
        prices it (play.odds.Odds.edge_here: the table's own solver, under its policy):
        {"edge": "37/2016", "edge_percent": "1.835%"}, or {} where it cannot be priced here. A side
        bet once the caster's chance is set is worth more or less than `analyse`'s figure."""
        edge = self.odds.edge_here(bet)
        if edge is None:
            return {}
        return {"edge": str(edge), "edge_percent": f"{float(edge):.3%}"}

    def standing(self, seat: str | None, after: int | None = None) -> dict:
        """What GET /api/tables/ID answers (events after `after`, or all)."""
        events = self.told if not after else self.told[after:]
        return {"id": self.id, "ruleset": self.spec["ruleset"], "seat": seat, "players": self.table.players,
                "waiting": self.waiting(seat), "events": events,
                "purses": {name: str(p) for name, p in self.table.purses.items()}, "purses_told": self.purses_told(),
                "wagers": open_wagers(self.table), "finished": self.table.over, "last": len(self.told),
                "version": self.lines}

    def purses_told(self) -> dict:
        """Each purse as the story tells it, in the ruleset's coin ("14s 1½d", "half a guinea"):
        the exact `purses` are for programs, these for the page's people."""
        from ..render.words import money_amount

        ruleset = self.table.session.machine.ruleset
        return {name: money_amount(ruleset, p) for name, p in self.table.purses.items()}

    def state_message(self, seat: str | None) -> dict:
        # `version`, the entries of the table's log, orders the states a page is told: the answer
        # to its own action and the socket's states of others' come by two ways, in either order
        return {"type": "state", "last": len(self.told), "version": self.lines, "waiting": self.waiting(seat),
                "purses": {name: str(p) for name, p in self.table.purses.items()}, "purses_told": self.purses_told(),
                "wagers": open_wagers(self.table), "finished": self.table.over}

    # ------------------------------------------------------------------ acting

    def check_speaker(self, seat: str | None, action) -> dict:
        """The action as the table is to see it, or TableRefused: 403 where this token's seat is
        not the one asked (or names another seat), 409 where it is not legal now."""
        if not isinstance(action, dict):
            raise TableRefused(400, "an action is a JSON object such as {\"action\": \"throw\"}")
        if seat is None:
            raise TableRefused(403, "this is an onlooker's link: it acts for nobody at the table")
        q = self.table.waiting
        if q is None:
            raise TableRefused(409, "the session is over: no more actions")
        action = {k: v for k, v in action.items() if k not in SHOWN_ONLY}
        named = action.get("player", seat)
        if named != seat:
            raise TableRefused(403, f"this link is {seat}'s seat: it acts for {seat} alone, not for {str(named)[:40]!r}")
        if q.ask == "bet":
            if action.get("action") == "done" and seat != q.facts["caster"]:
                raise TableRefused(403, f"the caster ({q.facts['caster']}) says when the bets are done, before "
                                        f"he throws; {seat} may bet or wait")
            if action.get("action") == "bet":
                action["player"] = seat
                for key in SHOWN_WITH_A_BET:
                    action.pop(key, None)
        elif q.player != seat:
            raise TableRefused(403, f"the table waits for {q.player or 'the rules'} to {q.ask}, not for {seat}")
        if action.get("action") == "throw" and "dice" in action:
            raise TableRefused(409, "at this table the dice are the table's own: post {\"action\": \"throw\"}")
        return action

    def apply(self, action: dict) -> list[dict]:
        """Apply the action, then answer any question asked of nobody at the table by the table's
        policy; returns the log's new entries (each action followed by its events). The table is
        unchanged where the action is not legal (TableRefused 409)."""
        try:
            events = self.table.apply(action)
        except IllegalAction as exc:
            raise TableRefused(409, str(exc)) from None
        entries = [self.table.last_action, *events]
        while not self.table.over and self.table.waiting.player is None and self.table.waiting.ask != "bet":
            events = self.table.apply(self.strategy(self.table.waiting))
            entries += [self.table.last_action, *events]
        return entries


def against_words(option: dict, seat: str) -> str:
    """Whom a bet offered is against, in words: a seat by name, the bank, or (where any of several
    may take it: `against` is then the other side's role, "player") whoever of them takes it."""
    takers = [t for t in option.get("takers", ()) if t != seat]
    if option["against"] == "bank":
        return "the bank"
    if len(takers) > 1 and option["against"] not in takers:
        return "whoever takes it of " + ", ".join(takers[:-1]) + " or " + takers[-1]
    return option["against"]


def open_wagers(table) -> dict:
    """Each seat's wagers up at the table: {seat: [{"bet", "words", "side", "against", "at_risk",
    "wins", "said", "said_you"}]}, money exact, and `said` the wager in the game's words and
    coinage as the terminal says it (render.recap.wager_said: "Ann sets the stake against Ben: …"),
    `said_you` the same to its own seat ("You set the stake …"). The table's own list
    (play.table.Table.wagers: this game's stakes, then the odds and side bets), each seen from
    both parties: `at_risk` is what the seat loses if the wager goes against him, `wins` the most
    a win pays him (what the other party risks)."""
    from ..render.recap import wager_said

    ruleset = table.session.machine.ruleset
    out: dict[str, list] = {name: [] for name in table.players}
    for w in table.wagers:
        # the stake is "stake" where the rules have no stake bet of their own (even money on the game)
        words = ruleset.bet_words(w["bet"]) if w["bet"] in ruleset.bets else "the stake"
        for name, side, against, risk, wins in ((w["backer"], "backs", w["layer"], w["backer_risks"], w["layer_risks"]),
                                                (w["layer"], "lays", w["backer"], w["layer_risks"], w["backer_risks"])):
            if name not in out:  # the bank
                continue
            out[name].append({"bet": w["bet"], "words": words, "side": side, "against": against,
                              "at_risk": str(risk), "wins": str(wins), "said": wager_said(ruleset, name, w),
                              "said_you": wager_said(ruleset, name, w, you=True)})
    return out


class Committer:
    """Group commit: the actions of every table that arrive while one commit is being synced are
    committed together in the next transaction (one sync of the write-ahead log for all of them),
    in a thread, so that the event loop serves the other tables meanwhile. Each caller's `append`
    returns only once its entries are committed; an error fails every action of its batch."""

    def __init__(self, store: Store):
        self.store = store
        self.pending: list = []
        self.running = None

    async def append(self, table_id: str, first: int, entries: list[dict], answer=None, finished=False) -> None:
        done = asyncio.get_running_loop().create_future()
        self.pending.append((table_id, first, entries, answer, finished, done))
        if self.running is None:
            self.running = asyncio.ensure_future(self._drain())
        await done

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                try:
                    await loop.run_in_executor(None, self.store.append_many, [b[:5] for b in batch])
                except Exception as exc:  # StoreError: none of the batch is done
                    for *_, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                else:
                    for *_, done in batch:
                        if not done.done():
                            done.set_result(None)
        finally:
            self.running = None


class Tables:
    """Every table of one store: made, rebuilt from their logs, acted at and listened to.

    A table whose rules cannot be rebuilt (its rule file broken, changed since the table was
    made, gone, or reaching out of the folder) stands closed with the reason (`broken`: 409 to
    every request of its links) while every other table plays on. A finished table is closed in
    the transaction of its last action; it is not rebuilt at a start, only when one of its links
    asks for it, and kept rebuilt for FINISHED_IN_MEMORY of them at most."""

    def __init__(self, store: Store, api, max_tables: int = MAX_TABLES, idle: float = IDLE,
                 per_client: int = MAX_PER_CLIENT, max_finished: int = MAX_FINISHED):
        from collections import OrderedDict

        self.store, self.api = store, api
        self.committer = Committer(store)
        self.max_tables, self.idle = max_tables, idle
        self.per_client, self.max_finished = per_client, max_finished
        self.live: dict[str, LiveTable] = {}
        self.finished: OrderedDict[str, LiveTable] = OrderedDict()  # the last finished tables asked for
        # tables that could not be rebuilt: why, and when it was last tried (tried again on a
        # request RETRY_BROKEN seconds later: a rule file mended in the workbench brings it back)
        self.broken: dict[str, tuple[str, float]] = {}
        self.making = threading.Lock()  # tables made in threads: counted and stored one at a time
        self.sweeper: asyncio.Task | None = None  # closes idle tables while pages are open (keep_sweeping)

    # ------------------------------------------------------------------ starting

    def load(self) -> None:
        """Rebuild every table in play from its log (the same replay as `play --resume`). A table
        that cannot be rebuilt is kept aside with the reason (`broken`), never stopping the start."""
        now = time.time()
        for table_id, spec, touched, _ in self.store.tables():
            if now - touched > self.idle:
                self.store.close_table(table_id, "idle")
                continue
            try:
                live = self.rebuild(table_id, spec, touched)
            except Unbuildable as exc:
                self.broken[table_id] = (str(exc), time.monotonic())
                continue
            if live.table.over:  # finished by its last action before a closing was kept (an older store)
                self.store.close_table(table_id, "finished")
                continue
            self.live[table_id] = live
        self.store.prune(self.max_finished)

    def rules_path(self, spec: dict) -> str | None:
        """The rule file of a folder's table, found as opening a table finds it (Api.target:
        a plain name of the folder, a regular file inside it), or None for a built-in ruleset;
        Unbuildable where it is no longer there."""
        name = spec.get("ruleset")
        if spec.get("named") is None:
            return None
        try:
            return self.api.target(name)[0]
        except Exception as exc:  # api.Refused, files.FileRefused: gone, or now outside the folder
            raise Unbuildable(str(exc)) from None

    def confinement(self, path: str | None):
        """What a folder's rule file may extend, when a table is made and when it is rebuilt
        alike: the built-ins and the files inside the folder (commands.loading.confined)."""
        return nullcontext() if path is None else confined(self.api.folder.root)

    def rebuild(self, table_id: str, spec: dict, touched: float) -> LiveTable:
        """The table replayed from its log; Unbuildable, with the reason in words, where it cannot
        be (whatever went wrong: one table's trouble is never the server's)."""
        try:
            return self._rebuild(table_id, spec, touched)
        except Unbuildable:
            raise
        except StoreError as exc:
            raise Unbuildable(str(exc)) from None
        except Exception as exc:  # LogError, RulesetError, CommandError: the rules as they are now
            import re

            text = re.sub(r"\S*table-[\w-]+\.jsonl:\d+: ", "", str(exc)).strip() or type(exc).__name__
            text = re.sub(r"\S*table-[\w-]+\.jsonl", "the table's log", text)
            raise Unbuildable(text) from None

    def _rebuild(self, table_id: str, spec: dict, touched: float) -> LiveTable:
        from ..play.dice import DiceTape
        from ..play.log import open_log

        named = self.rules_path(spec)
        lines = self.store.lines(table_id)
        with tempfile.TemporaryDirectory(prefix="hazard-table-") as folder:
            path = os.path.join(folder, f"table-{table_id}.jsonl")
            with open(path, "w", encoding="utf-8") as out:
                out.write("".join(line + "\n" for line in lines))
            log = open_log(path)
            try:
                tape = DiceTape.parse(spec["dice"]) if spec.get("dice") is not None else None
                seed, dice = sessions.resumed_dice(log, tape)
                with self.confinement(named):
                    table, settings, unlogged = sessions.check_log(log, named, seed, dice, follow_dice=True)
                entries = [json.loads(line) for line in lines]
            finally:
                log.close()
        live = LiveTable(table_id, spec, table, settings, len(lines), touched)
        if unlogged:  # cannot happen with entries committed together; a log's own repair if it does
            self.store.append(table_id, len(lines) + 1, unlogged)
            live.lines += len(unlogged)
            entries += unlogged
        for entry in entries:
            if "event" in entry:
                live.tell(told_as(entry))
        return live

    # ------------------------------------------------------------------ making

    def open_count(self) -> int:
        return sum(not live.table.over for live in list(self.live.values()))

    async def create(self, body: dict, client: str | None = None) -> tuple[LiveTable, dict, str]:
        """A new table from a request's body: the table, each seat's token and the watch token.
        Raises TableRefused (or the API's Refused) saying what to correct. A rule file of the
        folder is first analysed in the time-bounded worker (serve.work: a pathological file is
        stopped there, and its machine is cached); the table is then built in a thread, so the
        event loop serves the other tables meanwhile."""
        self.sweep()
        self.room(client)
        name = body.get("ruleset")
        if isinstance(name, str) and name.endswith(".yaml"):
            from . import jobs

            await self.api.worker.run(jobs.analyse, self.api.target(name)[0], self.api.option_values(body.get("options")))
        live, tokens, watch = await asyncio.get_running_loop().run_in_executor(None, self.make, body, client)
        self.live[live.id] = live  # made and stored: counted from now (another may have been made meanwhile)
        return live, tokens, watch

    def room(self, client: str | None = None) -> None:
        if self.open_count() >= self.max_tables:
            raise TableRefused(429, f"this server has {self.max_tables} tables in play, its most; wait until "
                                    f"one ends or is closed")
        if client is not None:
            mine = sum(not live.table.over and live.spec.get("client") == client for live in list(self.live.values()))
            if mine >= self.per_client:
                raise TableRefused(429, f"this address has {self.per_client} tables in play, the most one address "
                                        f"may open; finish one, or wait until one is closed")

    def make(self, body: dict, client: str | None = None) -> tuple[LiveTable, dict, str]:
        """`create`'s table, made and stored (in a thread: it touches nothing the event loop reads)."""
        from ..diagnostics import did_you_mean

        for key in body:
            if key not in NEW_TABLE:
                raise TableRefused(400, f"a new table has no {str(key)[:40]!r}{did_you_mean(key, NEW_TABLE)}: "
                                        f"it takes {', '.join(NEW_TABLE[:-1])} and {NEW_TABLE[-1]}")
        path, shown = self.api.target(body.get("ruleset"))
        builtin = not shown.endswith(".yaml")
        options = self.api.options(body.get("options"))
        players = body.get("players")
        if not isinstance(players, list) or not players:
            raise TableRefused(400, "players: a list of the players' names, in order round the table")
        if len(players) > MAX_SEATS:
            raise TableRefused(400, f"players: at most {MAX_SEATS} seats at a table here")
        if any(not isinstance(p, str) or "," in p or p != p.strip() for p in players):
            raise TableRefused(400, "players: each name is text without commas or spaces around it")
        # at the table a name is typed as people write it (any case, any spacing): two names that
        # read alike would be one seat to everyone speaking
        alike: dict[str, str] = {}
        for p in players:
            folded = " ".join(p.split()).casefold()
            if folded in alike:
                raise TableRefused(400, f"players: {alike[folded]!r} and {p!r} differ only in case or spacing; "
                                        f"at the table they read as one name: give each player a name of his own")
            alike[folded] = p
        given = body.get("settings") or {}
        if not isinstance(given, dict):
            raise TableRefused(400, f"settings: an object of {', '.join(SETTINGS[:-1])} and {SETTINGS[-1]}")
        for key in given:
            if key not in SETTINGS:
                raise TableRefused(400, f"settings: no {str(key)[:40]!r}{did_you_mean(key, SETTINGS)}; a table's "
                                        f"settings are {', '.join(SETTINGS[:-1])} and {SETTINGS[-1]}")
        seed, tape = body.get("seed"), body.get("dice")
        if seed is not None and tape is not None:
            raise TableRefused(400, "give the dice as a seed or as a tape (dice), not both")
        seed = seed_of(seed)
        if tape is not None and (not isinstance(tape, str) or len(tape) > MAX_TAPE):
            raise TableRefused(400, f"dice: a tape of throws as text, such as \"3-4 5-6\" (at most {MAX_TAPE:,} characters)")
        try:
            # a folder's file extends only built-ins and files inside the folder, here as in the
            # worker that analysed it first (it may have been changed since)
            with self.confinement(None if builtin else path):
                ruleset = load(path)
            for key in ("purse", "stake"):
                if given.get(key) is not None and not isinstance(given[key], (str, int)) or isinstance(given.get(key), bool):
                    raise TableRefused(400, f"settings.{key}: an amount, such as 20 or \"2.50\"")
            rounds = given.get("rounds")
            if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)):
                raise TableRefused(400, "settings.rounds: a whole number")
            policy = given.get("policy", "optimal")
            if not isinstance(policy, str) or len(policy) > 40:
                raise TableRefused(400, "settings.policy: a policy's name, such as optimal")
            # the JSON read into values here, at the edge: the players a list, the money exact (in
            # the file's unit, "2.50", or its coins, "2s 6d"), the options typed by the ruleset
            money = {key: _money_of(ruleset, key, given.get(key)) for key in ("purse", "stake")}
            settings = sessions.request_settings(ruleset, shown if builtin else path, TableRequest(
                ruleset=shown, players=tuple(players), purse=money["purse"], stake=money["stake"], rounds=rounds, policy=policy))
            if len(settings["players"]) != len(players):
                raise TableRefused(400, "players: each name is printable text")
            offered = [name for name in ruleset.bets if name != ruleset.table.stake]
            bets = given.get("bets", offered)
            if not isinstance(bets, list) or not all(isinstance(b, str) and b in offered for b in bets):
                raise TableRefused(400, f"settings.bets: a list of the bets besides the stake to offer "
                                        f"({', '.join(offered) or 'this game has none'})")
            if bets:
                settings["bets"] = list(dict.fromkeys(bets))
            seed, dice = seed_and_tape(checked_seed(seed), tape_of(tape, ruleset))
            table = sessions.table(ruleset, option_values(ruleset, self.api.option_values(body.get("options"))),
                                   settings, seed, dice)
        except CommandError as exc:  # SettingError too: a setting to correct
            raise TableRefused(400, worded(exc, _SETTINGS_WORDING)) from None
        except ValueError as exc:  # a ruleset with errors, an option it has not; an argument by its field
            raise TableRefused(400, worded(exc, _SETTINGS_WORDING)) from None
        header = sessions.log_header(settings, seed if tape is None else None)
        opening = sessions.opening(table, None, header)
        tokens = {name: secrets.token_urlsafe(24) for name in settings["players"]}
        watch = secrets.token_urlsafe(24)
        spec = {"ruleset": shown, "named": None if builtin else path, "options": options, "seed": seed, "dice": tape,
                "seats": {name: digest(t) for name, t in tokens.items()}, "watch": digest(watch), "client": client}
        table_id = secrets.token_urlsafe(9)
        live = LiveTable(table_id, spec, table, settings, 0, time.time())
        entries = list(opening)
        # the rules' own questions before anyone is asked (none in the built-in games)
        while not table.over and table.waiting.player is None and table.waiting.ask != "bet":
            made = table.apply(live.strategy(table.waiting))
            entries += [table.last_action, *made]
        live.lines = len(entries)
        for entry in entries:
            if "event" in entry:
                live.tell(told_as(entry))
        try:
            with self.making:  # the bounds checked and the table stored together
                self.room(client)
                self.store.create(table_id, spec, entries)
                self.live[table_id] = live
        except StoreError as exc:
            raise TableRefused(503, str(exc)) from None
        return live, tokens, watch

    # ------------------------------------------------------------------ finding

    def get(self, table_id: str, token=None) -> LiveTable:
        """The table `table_id` for one of its links (`token`: a table that is not in play tells
        its state only to its own links), rebuilt from the store where it is not in memory; else
        TableRefused: 404 (no such table), 403 (not this table's link), 409 (its rules cannot be
        rebuilt, and why), 410 (closed)."""
        live = self.live.get(table_id)
        if live is not None:
            if self.is_idle(live, time.time()):
                self.close(live, "idle")
            else:
                return live
        live = self.finished.get(table_id)
        if live is not None:
            self.finished.move_to_end(table_id)
            return live
        found = self.store.table(table_id) if isinstance(table_id, str) and len(table_id) <= 40 else None
        if found is None:
            raise TableRefused(404, "no such table")
        spec, touched, closed = found
        if not isinstance(token, str) or digest(token) not in {spec["watch"], *spec["seats"].values()}:
            raise TableRefused(403, "this link's token is not one of this table's (a seat's or an onlooker's)")
        if table_id in self.broken:
            why, when = self.broken[table_id]
            if time.monotonic() - when < RETRY_BROKEN:
                raise TableRefused(409, self.broken_words(why))
        if closed == "pruned":
            raise TableRefused(410, f"This table was closed and its log deleted: this server keeps the logs of "
                                    f"the last {self.max_finished:,} closed tables")
        if closed is not None and closed != "finished":
            raise TableRefused(410, f"{self.closed_words(closed)}: GET /api/tables/{table_id}/log")
        try:
            live = self.rebuild(table_id, spec, touched)
        except Unbuildable as exc:
            self.broken[table_id] = (str(exc), time.monotonic())
            raise TableRefused(409, self.broken_words(str(exc))) from None
        self.broken.pop(table_id, None)
        if closed == "finished" or live.table.over:
            self.keep_finished(live)
        else:
            self.live[table_id] = live
        return live

    @staticmethod
    def broken_words(why: str) -> str:
        # a diagnostic's lines (the mistake, then its hint) kept apart on the one line a page shows
        why = "; ".join(line.strip() for line in why.splitlines() if line.strip())
        return (f"This table is closed: its rules cannot be rebuilt ({why}). Every other table plays on, and "
                f"its log is kept")

    def keep_finished(self, live: LiveTable) -> None:
        self.live.pop(live.id, None)
        self.finished[live.id] = live
        self.finished.move_to_end(live.id)
        while len(self.finished) > FINISHED_IN_MEMORY:
            self.finished.popitem(last=False)

    def is_idle(self, live: LiveTable, now: float) -> bool:
        """Nobody has acted at the table for `idle` seconds, and nobody is acting now. Pages open
        on it count for nothing: one page left open would keep a table for ever."""
        return now - live.touched > self.idle and not live.lock.locked()

    def closed_words(self, why: str) -> str:
        if why == "idle":
            return f"This table was closed: nobody acted at it for {duration(self.idle)}; its log is kept"
        return f"This table was closed ({why}); its log is kept"

    def authorised(self, table_id: str, token) -> tuple[LiveTable, str | None]:
        live = self.get(table_id, token)
        known, seat = live.seat_of(token)
        if not known:
            raise TableRefused(403, "this link's token is not one of this table's (a seat's or an onlooker's)")
        return live, seat

    def log_lines(self, table_id: str, token) -> list[str]:
        """The table's log (also of a closed table), for any of its tokens. While the session is
        in play its seed is left out (null): whoever knows it knows the dice to come; the throws
        are all in the log, so `hazard-dsl replay` replays it all the same."""
        found = self.store.table(table_id) if isinstance(table_id, str) and len(table_id) <= 40 else None
        if found is None:
            raise TableRefused(404, "no such table")
        spec = found[0]
        if not isinstance(token, str) or digest(token) not in {spec["watch"], *spec["seats"].values()}:
            raise TableRefused(403, "this link's token is not one of this table's (a seat's or an onlooker's)")
        if found[2] == "pruned":
            raise TableRefused(410, f"this table's log was deleted: this server keeps the logs of the last "
                                    f"{self.max_finished:,} closed tables")
        lines = self.store.lines(table_id)
        if lines and found[2] != "finished" and '"seed": null' not in lines[0]:
            header = json.loads(lines[0])
            header["seed"] = None
            lines[0] = json.dumps(header)
        return lines

    # ------------------------------------------------------------------ acting

    async def act(self, live: LiveTable, seat: str | None, action, key=None) -> dict:
        """One action from `seat`: checked, applied, committed, then told to everyone listening.
        Returns its answer: {"events": the events told, and the state after it}.

        The action may carry `version`, the version of the table it was made against: where the
        table has moved on since, it is refused (409, with the version now). With a `key` (a
        page's id, an Idempotency-Key) its answer is kept with it, durably, in the transaction of
        its entries: the same key again is given that first answer (`"repeated": true`) and never
        applied twice; the key with another action is refused (409). A refused action keeps
        nothing: nothing was done, so sending it again is asking again."""
        if not isinstance(action, dict):
            raise TableRefused(400, "an action is a JSON object such as {\"action\": \"throw\"}")
        version = action.get("version")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise TableRefused(400, "version: the table's version the action was made against (a whole number)")
        key = action.get("key", key) if key is None else key
        key = checked_key(key)
        sent = hashlib.sha256(json.dumps({k: v for k, v in action.items() if k not in ("min", "max", "key")},
                                         sort_keys=True, default=str).encode("utf-8", "surrogatepass")).hexdigest()
        async with live.lock:
            if key is not None and seat is not None:
                first = self.store.answer(live.id, seat, key)
                if first is not None:
                    if first[0] != sent:
                        raise TableRefused(409, f"the key {key!r} was sent with another action at this seat; a key "
                                                f"names one action: send a new key with a new action")
                    return dict(json.loads(first[1]), repeated=True)
            if version is not None and version != live.lines:
                raise Moved(live.lines)
            action = live.check_speaker(seat, action)
            try:
                entries = live.apply(action)
            except TableRefused:
                raise
            except Exception:  # the table may be half-way: rebuilt from the store next time
                self.live.pop(live.id, None)
                raise
            told = [live.telling(told_as(e), len(live.told) + 1 + i)
                    for i, e in enumerate(e for e in entries if "event" in e)]
            state = {k: v for k, v in live.state_message(seat).items() if k != "type"}
            answer = dict(state, events=told, last=len(live.told) + len(told), version=live.lines + len(entries))
            kept = None if key is None else (seat, key, sent, json.dumps(answer))
            over = live.table.over
            try:
                await self.committer.append(live.id, live.lines + 1, entries, kept, over)
            except StoreError as exc:
                # not written, so not done: the table is rebuilt from what the store holds
                self.live.pop(live.id, None)
                self.drop_all(live)
                raise TableRefused(503, f"{exc}; the action was not taken") from None
            live.lines += len(entries)
            live.touched = time.time()
            live.told += told
            self.broadcast(live, told)
            if over:  # closed in the transaction of its last action; its pages stay open on it
                self.keep_finished(live)
                self.store.prune(self.max_finished)
            return answer

    def broadcast(self, live: LiveTable, told: list[dict]) -> None:
        texts = [json.dumps(dict(type="event", **t)) for t in told]
        states: dict = {}
        for connection in list(live.connections):
            for text in texts:
                connection.put(text)
            seat = connection.seat
            if seat not in states:
                states[seat] = json.dumps(live.state_message(seat))
            connection.put(states[seat])
            if connection.dropped:
                live.connections.discard(connection)

    def drop_all(self, live: LiveTable, code: int = 1013, why: str = "the table is rebuilt: reconnect") -> None:
        for connection in list(live.connections):
            connection.close(code, why)
        live.connections.clear()

    def close(self, live: LiveTable, why: str) -> None:
        self.store.close_table(live.id, why)
        self.store.prune(self.max_finished)
        self.live.pop(live.id, None)
        # its pages are told why, as a refusal (4410), so that they stop rather than reconnect
        self.drop_all(live, 4410, self.closed_words(why))

    def sweep(self) -> None:
        """Close the tables nobody has acted at for `idle` seconds, pages open on them or not."""
        now = time.time()
        for live in list(self.live.values()):
            if self.is_idle(live, now):
                self.close(live, "idle")

    def keep_sweeping(self) -> None:
        """While pages are open, sweep now and then: nothing else would look at a table whose
        pages stay open but where nobody acts (a request or a new table sweeps too)."""
        loop = asyncio.get_running_loop()
        if self.sweeper is None or self.sweeper.done() or self.sweeper.get_loop() is not loop:
            self.sweeper = loop.create_task(self._sweeping())

    async def _sweeping(self) -> None:
        every = min(60.0, max(self.idle / 4, 0.05))
        while any(live.connections for live in self.live.values()):
            await asyncio.sleep(every)
            self.sweep()


class Overlong:
    """A number of a new table's body too long to be any setting (more than MAX_JSON_DIGITS digits),
    kept as its length: Python refuses to read more than 4,300 digits at all, and the body would be
    answered "not JSON" instead of naming the setting that is too long."""

    def __init__(self, digits: int):
        self.digits = digits


def _whole(text: str):
    digits = len(text.lstrip("-"))
    return Overlong(digits) if digits > MAX_JSON_DIGITS else int(text)


async def new_table_body(request) -> dict:
    """The JSON object that opens a table, at most MAX_NEW_TABLE bytes (refused, 413, before it is
    all read), its numbers read with their length bounded (Overlong). The API's own requests
    (serve.api.body_of) may be of two megabytes, and a long number in them is "not JSON"."""
    return await json_object(request, MAX_NEW_TABLE, TableRefused, "the body that opens a table", _whole)


def seed_of(seed) -> int | None:
    """A new table's seed: a whole number from 0 to 2**64 - 1, given as a number or as its digits
    in a string (a page's JavaScript numbers are exact only to 2**53); None: a new one."""
    from ..parse.numbers import MAX_WHOLE_DIGITS, spells_whole, whole_number

    wanted = f"a whole number from 0 to 2^64 − 1 ({2**64 - 1:,})"  # as the command line says it, not Python's 2**64
    if seed is None:
        return None
    if isinstance(seed, str):
        digits = len(seed.strip().lstrip("+-"))
        if spells_whole(seed) and digits > MAX_WHOLE_DIGITS:
            seed = Overlong(digits)
        elif whole_number(seed) is None:
            raise TableRefused(400, f"seed: {seed[:40]!r} is no whole number; a seed is {wanted}")
        else:
            seed = whole_number(seed)
    if isinstance(seed, int) and not isinstance(seed, bool) and len(str(abs(seed))) > MAX_WHOLE_DIGITS:
        seed = Overlong(len(str(abs(seed))))
    if isinstance(seed, Overlong):
        raise TableRefused(400, f"seed: {seed.digits:,} digits is too long: a seed is {wanted} "
                                f"(at most {MAX_WHOLE_DIGITS} digits)")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TableRefused(400, f"seed: {wanted}")
    if not 0 <= seed < 2**64:
        raise TableRefused(400, f"seed: {seed} is too {'small' if seed < 0 else 'large'}: a seed is {wanted}")
    return seed


# what a log's session event adds to the table's own (commands.sessions.log_header): the page is
# told the event as the table made it
# (the seed above all: whoever knows it knows the dice to come)
_HEADER_ONLY = ("file", "purse", "stake", "strategy", "rounds", "policy", "version", "seed", "bets")


def told_as(entry: dict) -> dict:
    """A logged event as browsers are told it: the session event without the settings a log adds."""
    if entry.get("event") != "session":
        return entry
    return {k: v for k, v in entry.items() if k not in _HEADER_ONLY}
