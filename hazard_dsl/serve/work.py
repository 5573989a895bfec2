"""The work of a request (check, analyse, compare, draw) done off the event loop, bounded in time.

Each piece of work runs in a process of its own, forked from a server process that has the
pipeline imported already (`multiprocessing`'s forkserver, so a fork costs milliseconds, not an
import): a pathological rule file that takes minutes is stopped at the time limit (the process
is killed, which a thread cannot be), and meanwhile the event loop answers other requests. The
solver's own bounds (states, rule tests, option tables) hold in the process exactly as on the
command line, and the cache of read rulesets and compiled machines on disk is shared with it.

Two lanes, so that slow work never keeps the editor waiting: `run` (analyse, compare, draw, the
rule sheet) runs at most `jobs` pieces at once (the cores), others waiting their turn; `ask`
(a text's questions of a few milliseconds: the language service's, the `show` of a text) has
slots of its own that no analysis can take, and a shorter time limit. A piece of work whose
request is given up (the client hung up, a newer request replaced it, the server stops) is
killed at once and its slot freed: it does not run on to its time limit for nobody.

The workbench's questions as one types (the check of a text, its figures, hover and
completion, its analysis and its drawing) are answered by processes the server keeps (`Kept`,
`Worker.keep`) rather than forked for each: each keeps what it worked out for the next version
of the text (issue 39), and is bounded, killed and replaced like any other piece of work.

The work runs in the folder served (`folder`): a rule file of it is shown by its name there, as
the command line run in that folder shows it, and its `extends:` may name only the built-in
rulesets and the folder's own files (`commands.loading.confined`).

`inline=True` runs the work in a thread of this process instead (no time limit, nothing killed,
paths shown from the server's working folder): for a platform without fork, and for debugging.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from pathlib import Path

import anyio
import anyio.to_thread

# imported once in the server that forks the work, so that no piece of work imports them again
PRELOAD = ["hazard_dsl.serve.jobs", "hazard_dsl.serve.requests", "hazard_dsl.serve.language", "hazard_dsl.commands.analyse",
           "hazard_dsl.commands.compare", "hazard_dsl.commands.graph", "hazard_dsl.commands.rules",
           "hazard_dsl.render.report", "hazard_dsl.render.comparison",
           "hazard_dsl.render.show", "hazard_dsl.render.rulesheet",
           "hazard_dsl.render.graph", "hazard_dsl.solve.analysis", "hazard_dsl.solve.session",
           "hazard_dsl.compile.compiler", "hazard_dsl.parse.reader", "hazard_dsl.cache.disk", "hazard_dsl.check",
           "hazard_dsl.check.game", "hazard_dsl.check.names", "hazard_dsl.collector"]


ASK_JOBS = 2  # the language service's own slots
ASK_LIMIT = 15.0  # seconds: the checker's own bounds keep the slowest corpus file to a few


class TimeLimit(Exception):
    """The work took longer than the server's time limit and was stopped."""


class Stopping(Exception):
    """The server is stopping: the work was stopped, or not started."""


class Busy(Exception):
    """The kept process stayed at other work longer than the request would wait (`Kept.ask`)."""


class Failed(Exception):
    """The work raised an error a caller can correct (`kind`: "request", "ruleset", "graphviz")
    or a bug ("internal"): `payload` is what the response says."""

    def __init__(self, kind: str, payload):
        super().__init__(kind)
        self.kind, self.payload = kind, payload


def _child(connection, folder, function, args, kwargs) -> None:
    _as_a_program()
    try:
        if folder is not None:
            os.chdir(folder)  # a file of the folder is shown by its name, as the command line run there shows it
        result = ("ok", _confined(folder, function, args, kwargs))
    except BaseException as exc:  # every failure goes back to the server, none is printed here
        result = ("failed", _failure(exc))
    try:
        connection.send(result)
    finally:
        connection.close()


def _as_a_program() -> None:
    """A process forked for the server's work is a program of hazard-dsl's own, set as the
    command line sets itself (`collector.for_a_program`: why there): the forkserver it is forked
    from is a fresh interpreter that never ran the command line's main."""
    from ..collector import for_a_program

    for_a_program()


def _confined(folder, function, args, kwargs, explorations=None):
    # what compiling lends the next compilation (hazard_dsl.cache.sharing): the folder's own
    # when the work runs in this process, else the forked piece of work's own
    from ..cache import sharing

    if folder is None:
        with sharing(explorations):
            return function(*args, **kwargs)
    from ..commands.loading import confined

    with confined(folder), sharing(explorations):
        return function(*args, **kwargs)


def _failure(exc: BaseException) -> tuple[str, object]:
    from ..commands.errors import CommandError
    from ..diagnostics import RulesetError
    from ..render.graph import GraphvizMissing
    from ..solve.bets import BetError
    from ..errors import ArgumentError
    from .language import refusal_json
    from .wording import worded

    if isinstance(exc, RulesetError):
        return "ruleset", [refusal_json(d) for d in exc.diagnostics]
    if isinstance(exc, GraphvizMissing):
        return "graphviz", str(exc)
    if isinstance(exc, (CommandError, BetError, ArgumentError)):
        return "request", worded(exc)  # an argument by its JSON field (serve.wording)
    if isinstance(exc, RecursionError):
        return "request", "the file is nested too deeply to work on"
    return "internal", f"{type(exc).__name__}: {exc}"


def run_inline(function, args, kwargs, folder=None, explorations=None):
    try:
        return _confined(folder, function, args, kwargs, explorations)
    except BaseException as exc:
        raise Failed(*_failure(exc)) from None


def _kept(connection, folder, make) -> None:
    """A kept process's loop: `make()` the state it keeps (a module-level function's value), then
    answer each (function, args) sent, as `function(state, *args)`, one at a time, until the
    server closes the connection or kills it."""
    _as_a_program()
    try:
        if folder is not None:
            os.chdir(folder)
        state = make()
    except BaseException:  # nothing to keep: every request is answered, once it asks, by EOFError
        connection.close()
        return
    while True:
        try:
            function, args = connection.recv()
        except (EOFError, OSError):
            return
        try:
            result = ("ok", _confined(folder, function, (state, *args), {}))
        except BaseException as exc:
            result = ("failed", _failure(exc))
        try:
            connection.send(result)
        except (BrokenPipeError, OSError):
            return


def fresh(make, function, *args):
    """`function(make(), *args)`: a kept state's work done by a process of its own, the state
    made for it alone."""
    return function(make(), *args)


class Kept:
    """One process that keeps what it worked out for the next request (the workbench's language
    service: a keystroke's check then plays out only what the edit changed, a fifth of a fresh
    process's check, issue 39), answering one request at a time, in order.

    It is a piece of work like the others: forked from the forkserver, confined to the folder,
    killed at its time limit (a new one is forked for the next request, with nothing kept) or
    when the server stops. A request given up while its work runs lets the work end, for up to
    `GRACE` seconds, so that what it keeps is not lost at every keystroke; past that the process
    is killed, so that a pathological text never keeps the next one waiting. A request given up
    while it waits its turn never reaches the process: a burst of keystrokes is one check."""

    GRACE = 1.0  # seconds a given-up piece of work may run on

    def __init__(self, worker: Worker, make):
        self.worker, self.make = worker, make
        self.process = self.connection = None
        self.limit = None  # the time limit of the work at hand
        self.claimed = False  # an analysis is on its way to the process (`Worker.keep`)
        self._turn = None  # made in the event loop, at the first request

    async def ask(self, limit: float, function, *args, patience: float | None = None):
        """`function(state, *args)` by the process, after the requests before it. `patience`:
        seconds to wait for the turn at most, else Busy (the caller answers another way)."""
        if self.worker.stopping:
            raise Stopping("the server is stopping")
        if self._turn is None:
            self._turn = anyio.Lock()
        if patience is None:
            await self._turn.acquire()
        else:
            turn = False
            with anyio.move_on_after(patience):
                await self._turn.acquire()
                turn = True  # (no await between: a lock taken is never left behind)
            if not turn:
                raise Busy
        try:
            if self.process is not None and not self.process.is_alive():  # died idle: reaped, replaced
                self._end(self.process)
            if self.process is None:
                await anyio.to_thread.run_sync(self._start)
            process, connection = self.process, self.connection
            try:
                connection.send((function, args))
            except OSError:  # it died idle (killed for memory): another, once
                self._end(process)
                await anyio.to_thread.run_sync(self._start)
                process, connection = self.process, self.connection
                connection.send((function, args))
            now, self.limit = anyio.current_time(), limit
            # at work: the server's stop kills it as it kills the forked work (`Worker.stop`)
            self.worker._running.add(process)
            try:
                status, value = await self._answer(process, connection, now + limit)
            except anyio.get_cancelled_exc_class():
                # given up: the work runs on a moment, then the process is killed if still at it;
                # its answer is read (and dropped) before the next request is sent
                with anyio.CancelScope(shield=True):
                    try:
                        await self._answer(process, connection, min(now + limit, anyio.current_time() + self.GRACE))
                    except (TimeLimit, Stopping, Failed):
                        pass
                raise
            finally:
                self.worker._running.discard(process)
        finally:
            self._turn.release()
        if status == "ok":
            return value
        raise Failed(*value)

    async def _answer(self, process, connection, until: float):
        """The process's answer, waited for in short polls (each a thread's, never two at once),
        so that a request given up is seen within one; the process killed at `until`."""
        while True:
            try:
                ready = await anyio.to_thread.run_sync(connection.poll, 0.05)
                if ready:
                    return connection.recv()
            except (EOFError, OSError):  # killed (the server stopping, memory) or crashed: a new one next time
                self._end(process)
                if self.worker.stopping:
                    raise Stopping("the server is stopping: the work was stopped") from None
                raise Failed("internal", f"the work ended without an answer (exit {process.exitcode})") from None
            if anyio.current_time() >= until:
                self._end(process)
                raise TimeLimit(f"the work took longer than {self.limit:g} s and was stopped")

    def _start(self) -> None:
        receive, send = self.worker._context.Pipe(duplex=True)
        process = self.worker._context.Process(target=_kept, args=(send, self.worker.folder, self.make), daemon=True)
        process.start()
        send.close()
        self.process, self.connection = process, receive

    def busy(self) -> bool:
        return self._turn is not None and self._turn.locked()

    def stop(self) -> None:
        """The server stops: the process, idle, is killed (at work, `Worker.stop` kills it)."""
        if self.process is not None and self.process not in self.worker._running and self.process.is_alive():
            self.process.kill()

    def _end(self, process) -> None:
        """The process is killed and reaped, and the next request forks another."""
        if self.process is process:
            self.connection.close()
            self.process = self.connection = None
        self.worker._running.discard(process)
        if process.is_alive():
            process.kill()
        process.join()


class Worker:
    """Runs `function(*args)` (a module-level function whose arguments and result pickle) for a
    request, in a process killed after `time_limit` seconds (`ask_limit` in the language
    service's lane), or as soon as the request is given up."""

    def __init__(self, time_limit: float = 60.0, jobs: int = 2, inline: bool = False, folder: Path | None = None,
                 ask_limit: float = ASK_LIMIT):
        self.time_limit = time_limit
        self.ask_limit = min(ask_limit, time_limit)
        self.inline = inline or sys.platform == "win32" or "forkserver" not in multiprocessing.get_all_start_methods()
        self.jobs = max(1, jobs)
        self.folder = None if folder is None else Path(folder).resolve()
        self.stopping = False
        self._lanes = None  # made in the event loop, at the first request
        self._running: set = set()  # the processes at work, until their waiter reaps them
        self._explorations = None  # the folder's (`compile.explorations`), for the work run inline
        self._kept: dict = {}  # each kept state's process (`Kept`), by the function that makes it
        if not self.inline:
            self._context = multiprocessing.get_context("forkserver")
            self._context.set_forkserver_preload(PRELOAD)

    async def run(self, function, *args, **kwargs):
        """Slow work (analyse, compare, draw): at most `jobs` at once."""
        return await self._work("run", self.time_limit, function, args, kwargs)

    async def ask(self, function, *args, **kwargs):
        """A question about a text (check, hover, completion), in a lane of its own."""
        return await self._work("ask", self.ask_limit, function, args, kwargs)

    async def keep(self, make, function, *args, slow: bool = False, patience: float | None = None):
        """A question about a text (as `ask`; `slow`: an analysis, as `run`, with its time
        limit), answered by the process that keeps `make()`'s state (`Kept`: `function(state,
        *args)`), one at a time; inline, by a state made for the request alone (the threads of
        this process would share it). `make` and `function` are module-level functions.
        `patience`: a hover or a completion waits that long at most for a check before it (a
        large game's takes seconds), then is answered beside it, by a process of its own."""
        if self.inline:
            return await (self.run if slow else self.ask)(fresh, make, function, *args)
        if make not in self._kept:
            self._kept[make] = Kept(self, make)
        kept = self._kept[make]
        if slow and (kept.busy() or kept.claimed):
            # an analysis while another runs or waits its slot (another page's, or one given up
            # still in its grace): a process of its own, with nothing kept, rather than a wait
            # behind it
            return await self.run(fresh, make, function, *args)
        if slow:  # an analysis holds one of the `jobs` slots, as any other does
            # claimed before the first await: two analyses arriving together must not both see
            # the kept process free and queue one behind the other for its turn
            kept.claimed = True
            try:
                async with self._lane("run"):
                    return await kept.ask(self.time_limit, function, *args)
            finally:
                kept.claimed = False
        try:
            return await kept.ask(self.ask_limit, function, *args, patience=patience)
        except Busy:
            return await self.ask(fresh, make, function, *args)

    def stop(self) -> None:
        """The server stops: every piece of work running is killed, and each request waiting
        for one is answered at once (Stopping); no new work starts. Safe in a signal handler."""
        self.stopping = True
        for kept in self._kept.values():
            kept.stop()
        for process in list(self._running):
            self._kill(process)

    def _lane(self, lane: str):
        if self._lanes is None:
            # work waiting its turn waits here, holding no thread: the threads of the server's
            # other work (reading static files) stay free
            self._lanes = {"run": anyio.CapacityLimiter(self.jobs), "ask": anyio.CapacityLimiter(ASK_JOBS)}
        return self._lanes[lane]

    async def _work(self, lane: str, limit: float, function, args, kwargs):
        if self.stopping:
            raise Stopping("the server is stopping")
        async with self._lane(lane):
            if self.inline:
                if self._explorations is None:
                    from ..compile.explorations import Explorations

                    self._explorations = Explorations()
                return await anyio.to_thread.run_sync(run_inline, function, args, kwargs, self.folder,
                                                      self._explorations, abandon_on_cancel=True)
            started: list = []
            try:
                await anyio.to_thread.run_sync(self._start, function, args, kwargs, started)
            except anyio.get_cancelled_exc_class():
                for process, receive in started:  # given up while it was forked: no one will wait for it
                    self._kill(process)
                    self._running.discard(process)
                    receive.close()
                raise
            try:
                status, value = await anyio.to_thread.run_sync(self._wait, *started[0], limit, abandon_on_cancel=True)
            except anyio.get_cancelled_exc_class():
                # given up (the client hung up, the server stops): the process goes now, not at the
                # time limit, and the slot with it; the waiting thread, abandoned, reaps it
                self._kill(started[0][0])
                raise
        if status == "ok":
            return value
        raise Failed(*value)

    def _start(self, function, args, kwargs, started: list) -> None:
        receive, send = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_child, args=(send, self.folder, function, args, kwargs), daemon=True)
        process.start()
        send.close()
        self._running.add(process)
        started.append((process, receive))
        if self.stopping:  # the server began to stop while this one was forked
            self._kill(process)

    def _wait(self, process, receive, limit: float):
        try:
            if not receive.poll(limit):
                raise TimeLimit(f"the work took longer than {limit:g} s and was stopped")
            try:
                return receive.recv()
            except EOFError:  # the process died without a word: killed for memory, a crash, or the server stopping
                if self.stopping:
                    raise Stopping("the server is stopping: the work was stopped") from None
                raise Failed("internal", f"the work ended without an answer (exit {process.exitcode})") from None
        finally:
            receive.close()
            # out of the set before it is reaped: `_kill` then never signals a process id reused since
            self._running.discard(process)
            if process.is_alive():
                process.kill()
            process.join()

    def _kill(self, process) -> None:
        """SIGKILL to a process at work, by its id alone, while its waiting thread has not begun to
        reap it: that thread alone reaps it (two threads reaping one process would race for its
        exit status), and a process id reaped may be reused."""
        if process not in self._running:
            return
        try:
            os.kill(process.pid, signal.SIGKILL)
        except (ProcessLookupError, TypeError):  # gone already
            pass
