"""The work of a request (check, analyse, compare, draw) done off the event loop, bounded in time.

Each piece of work runs in a process of its own, forked from a server process that has the
pipeline imported already (`multiprocessing`'s forkserver, so a fork costs milliseconds, not an
import): a pathological rule file that takes minutes is stopped at the time limit (the process
is killed, which a thread cannot be), and meanwhile the event loop answers other requests. At
most `jobs` pieces run at once (the cores); others wait their turn. The solver's own bounds
(states, rule tests, option tables) hold in the process exactly as on the command line, and the
cache of read rulesets and compiled machines on disk is shared with it.

`inline=True` runs the work in a thread of this process instead (no time limit): for a
platform without fork, and for debugging.
"""

from __future__ import annotations

import multiprocessing
import sys

import anyio
import anyio.to_thread

# imported once in the server that forks the work, so that no piece of work imports them again
PRELOAD = ["hazard_dsl.serve.jobs", "hazard_dsl.serve.language", "hazard_dsl.commands.analyse",
           "hazard_dsl.commands.compare", "hazard_dsl.commands.graph", "hazard_dsl.commands.rules",
           "hazard_dsl.render.report", "hazard_dsl.render.show", "hazard_dsl.render.rulesheet",
           "hazard_dsl.render.graph", "hazard_dsl.solve.analysis", "hazard_dsl.solve.session",
           "hazard_dsl.compile.compiler", "hazard_dsl.parse.reader", "hazard_dsl.parse.cache", "hazard_dsl.check",
           "hazard_dsl.check.game", "hazard_dsl.check.names"]


class TimeLimit(Exception):
    """The work took longer than the server's time limit and was stopped."""


class Failed(Exception):
    """The work raised an error a caller can correct (`kind`: "request", "ruleset", "graphviz")
    or a bug ("internal"): `payload` is what the response says."""

    def __init__(self, kind: str, payload):
        super().__init__(kind)
        self.kind, self.payload = kind, payload


def _child(connection, function, args, kwargs) -> None:
    try:
        result = ("ok", function(*args, **kwargs))
    except BaseException as exc:  # every failure goes back to the server, none is printed here
        result = ("failed", _failure(exc))
    try:
        connection.send(result)
    finally:
        connection.close()


def _failure(exc: BaseException) -> tuple[str, object]:
    from ..commands.errors import CommandError
    from ..diagnostics import RulesetError
    from ..render.graph import GraphvizMissing
    from ..solve.bets import BetError
    from .language import refusal_json

    if isinstance(exc, RulesetError):
        return "ruleset", [refusal_json(d) for d in exc.diagnostics]
    if isinstance(exc, GraphvizMissing):
        return "graphviz", str(exc)
    if isinstance(exc, (CommandError, BetError)):
        return "request", str(exc)
    if isinstance(exc, RecursionError):
        return "request", "the file is nested too deeply to work on"
    return "internal", f"{type(exc).__name__}: {exc}"


def run_inline(function, args, kwargs):
    try:
        return function(*args, **kwargs)
    except BaseException as exc:
        raise Failed(*_failure(exc)) from None


class Worker:
    """Runs `function(*args)` (a module-level function whose arguments and result pickle) for a
    request, in a process killed after `time_limit` seconds."""

    def __init__(self, time_limit: float = 60.0, jobs: int = 2, inline: bool = False):
        self.time_limit = time_limit
        self.inline = inline or sys.platform == "win32" or "forkserver" not in multiprocessing.get_all_start_methods()
        self.jobs = max(1, jobs)
        self._limiter = None  # made in the event loop, at the first request
        if not self.inline:
            self._context = multiprocessing.get_context("forkserver")
            self._context.set_forkserver_preload(PRELOAD)

    async def run(self, function, *args, **kwargs):
        # work waiting its turn waits here, holding no thread: the threads of the server's other
        # work (reading static files) stay free
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.jobs)
        return await anyio.to_thread.run_sync(self._run, function, args, kwargs, abandon_on_cancel=True,
                                              limiter=self._limiter)

    def _run(self, function, args, kwargs):
        if self.inline:
            return run_inline(function, args, kwargs)
        receive, send = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_child, args=(send, function, args, kwargs), daemon=True)
        process.start()
        send.close()
        try:
            if not receive.poll(self.time_limit):
                raise TimeLimit(f"the work took longer than {self.time_limit:g} s and was stopped")
            try:
                status, value = receive.recv()
            except EOFError:  # the process died without a word: killed for memory, or a crash
                raise Failed("internal", f"the work ended without an answer (exit {process.exitcode})") from None
        finally:
            receive.close()
            if process.is_alive():
                process.kill()
            process.join()
        if status == "ok":
            return value
        raise Failed(*value)
