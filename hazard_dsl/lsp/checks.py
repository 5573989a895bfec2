"""Checks as an editor types: in a worker thread, the newest version of each document only.

An editor sends a version a keystroke, and checking one takes from tens of milliseconds (craps)
to seconds (a game of some ten thousand states). Checked in order on the server's own thread,
40 queued keystrokes kept a hover waiting for seconds. Here:

- a change only records the newest version (`want`): nothing is read or checked on the
  server's thread, so requests behind it are answered at once;
- one worker thread checks, always the newest version of a document that waits; versions
  made while it worked are never checked (coalesced), and a check of a version that is gone
  is stopped where it stands (`Superseded` raised in the worker) or, failing that, its
  answer dropped;
- diagnostics are published on the server's thread, only for the version still held, and
  never for a version older than one already published (`published`); but an author who types
  on without a pause would see none at all (every check stopped by the next key), so once a
  document has waited STARVED seconds for its diagnostics, a quick check under way (its last
  took at most QUICK seconds) is let run, and what it finds is published as of its own version,
  each problem moved into the text held (`language.settled`; one on a line changed since is
  left out); the newest version is checked next;
- a request that needs a version's check (code actions, inlay hints, code lenses) is answered
  from the last version checked, its places moved into the text held now (`settled`,
  `language.settled`); only before any check has ended does it wait (`analysed`);
- what else takes time (the figures of hints and lenses, a game solved; semantic tokens, the
  text read again) is worked out in a second thread (`answer`) while the server's thread reads
  on; a request whose version is replaced before its answer is refused as ContentModified
  (`Superseded` below) rather than answered for a text the editor no longer holds; an editor
  may cancel any of them (`$/cancelRequest` cancels the awaiting task).

A thread, not a process: the check reads the documents the editor holds (a parent file open
and unsaved) and leaves its ruleset to hover and completion; a process would copy both each
time. The thread shares the interpreter, so `serve` shortens Python's switch interval: the
server's thread takes its turn within a millisecond while a long check runs.
"""

from __future__ import annotations

import asyncio
import ctypes
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

STARVED = 3.0  # seconds a document may wait for diagnostics before a quick check is let run
QUICK = 1.0  # seconds: a check this short may be let run (a longer one is stopped as before)


class ContentModified(Exception):
    """The document a request was asked of changed before it was answered (`Checks.settled`,
    `Checks.answer`): the transport refuses it with LSP's ContentModified, and the editor asks
    again of the new text."""


class Superseded(BaseException):
    """Raised inside the worker to stop the check of a version the editor has replaced. A
    BaseException: the checker's own `except Exception` must not take it for a problem."""


def _interrupt(thread_id: int) -> None:
    """Raise `Superseded` in the worker thread at its next bytecode (the checker is Python)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(Superseded))


def _interrupt_cleared(thread_id: int) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), None)


# What a check imports on first use (PyYAML and the pipeline's modules imported lazily), imported
# in the worker before its first check can be interrupted: `Superseded` landing inside an import
# leaves a module half made, and the answers' thread, importing it at the same moment, got it so
# ("partially initialized module 'yaml' has no attribute 'error'": a lost check, in CI under load).
_CHECK_IMPORTS = (
    "yaml", "yaml.cyaml", "hazard_dsl.parse.reader", "hazard_dsl.parse.chain", "hazard_dsl.parse.store",
    "hazard_dsl.parse.templates", "hazard_dsl.check.reading", "hazard_dsl.check.game", "hazard_dsl.check.names",
    "hazard_dsl.check.printed", "hazard_dsl.compile.compiler", "hazard_dsl.compile.bets",
    "hazard_dsl.compile.fees", "hazard_dsl.compile.options", "hazard_dsl.compile.passing",
    "hazard_dsl.compile.recasts", "hazard_dsl.compile.rule_index", "hazard_dsl.compile.soundness",
    "hazard_dsl.solve.markov", "hazard_dsl.solve.solver", "hazard_dsl.solve.bets", "hazard_dsl.cache.disk",
)
_imported: list = []


def _imported_once() -> None:
    if not _imported:
        import importlib

        for name in _CHECK_IMPORTS:
            importlib.import_module(name)
        _imported.append(True)


class Checks:
    """The worker and what waits for it, for one language server. Every method but `_work`
    runs on the server's event loop thread."""

    def __init__(self, service, publish, log=None) -> None:
        self.service = service
        self._publish = publish  # publish(uri, problems): the diagnostics of the version held
        self._log = log or (lambda said: print(f"hazard-dsl lsp: {said}", file=sys.stderr))
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hazard-dsl check")
        # answers that take time, apart from checks: a solve for figures never delays a check
        self._answers = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hazard-dsl answer")
        self._wanted: dict[str, None] = {}  # documents whose newest version waits, oldest first
        self._running = None  # (uri, version) in the worker
        self._worker: int | None = None  # the worker's thread id while it checks
        self._interrupted = False  # whether the check under way has been sent its interrupt
        self._stopping = threading.Lock()  # the worker's check ends and an interrupt never cross
        self._waiting: dict[str, list] = {}  # uri -> futures of requests awaiting its check
        self.published: dict[str, int] = {}  # uri -> `seq` of the version last published
        self._since: dict[str, float] = {}  # uri -> when it began to wait for diagnostics
        self._took: dict[str, float] = {}  # uri -> seconds its last check to the end took
        self._let_run = None  # the version under way not stopped though replaced (STARVED)
        self.checked = 0  # versions checked to the end (tests and benchmarks read it)
        self.stopped = 0  # checks stopped because their version was gone
        self._loop = None
        self._soon = False  # a start of the worker is scheduled

    # --- on the server's thread
    def want(self, uri: str) -> None:
        """The document's newest version is to be checked (and published) once the worker is
        free; a check of an older version under way is stopped."""
        self._loop = self._loop or asyncio.get_event_loop()
        self._wanted.pop(uri, None)
        self._wanted[uri] = None
        now = time.monotonic()
        waited = now - self._since.setdefault(uri, now)
        running = self._running
        if running is not None and running[0] == uri and not self.service.is_held(uri, running[1]):
            if waited >= STARVED and self._took.get(uri, QUICK + 1) <= QUICK:
                self._let_run = running[1]  # published when it ends, as of its own version
            elif self._let_run is not running[1]:
                self._stop()
        if not self._soon:
            # started once the messages already read are handled: a burst of keystrokes is one check
            self._soon = True
            self._loop.call_soon(self._next)

    def forget(self, uri: str) -> None:
        """The document is closed: nothing of it is published again until it is opened."""
        self._wanted.pop(uri, None)
        self.published.pop(uri, None)
        self._since.pop(uri, None)
        self._took.pop(uri, None)
        running = self._running
        if running is not None and running[0] == uri:
            self._stop()
        for waiter in self._waiting.pop(uri, []):
            if not waiter.done():
                waiter.cancel()

    def publish_now(self, uri: str, problems: list) -> None:
        """Publish without a check (a file that is no rule file gets none), in order."""
        version = self.service.held(uri)
        seq = version.seq if version is not None else self.published.get(uri, -1) + 1
        self._wanted.pop(uri, None)
        if seq >= self.published.get(uri, -1):
            self.published[uri] = seq
            self._since.pop(uri, None)
            self._publish(uri, problems)

    async def analysed(self, uri: str) -> None:
        """Return once the version held now (or a newer one) has been checked."""
        while True:
            version = self.service.held(uri)
            if version is None or version._problems is not None:
                return
            waiter = asyncio.get_event_loop().create_future()
            self._waiting.setdefault(uri, []).append(waiter)
            if uri not in self._wanted and (self._running is None or self._running[1] is not version):
                self.want(uri)
            await waiter

    async def settled(self, uri: str, figures: bool = False) -> tuple:
        """`LanguageService.settled` of the document: (the last version checked, its lines in
        the version held now), without waiting for a check while one has ended; with `figures`,
        that version's figures worked out too (in the answers' thread). Raises ContentModified
        where the version held when asked is replaced before the answer."""
        asked = self.service.held(uri)
        while True:
            if not self.service.is_held(uri, asked):
                raise ContentModified(uri)
            settled = self.service.settled(uri)
            if settled[0] is None:
                await self.analysed(uri)  # the first check of the document: nothing to answer from
                if self.service.settled(uri)[0] is None and self.service.is_held(uri, asked):
                    return settled  # (its check failed: nothing is known)
                continue
            if figures and not self.service.figured(settled[0]):
                await self.answer(uri, asked, self.service.figures_of, settled[0])
                continue
            return settled

    async def answer(self, uri: str, asked, work, *arguments):
        """`work(*arguments)` in the answers' thread; ContentModified where `asked` (a version
        from `held`) is no longer held when it would start or when it has ended."""
        def run():
            if not self.service.is_held(uri, asked):
                return ContentModified  # replaced while it waited: never started
            return work(*arguments)
        found = await asyncio.get_running_loop().run_in_executor(self._answers, run)
        if found is ContentModified or not self.service.is_held(uri, asked):
            raise ContentModified(uri)
        return found

    def _stop(self) -> None:
        # at most one interrupt a check: the worker then knows none is left pending (`_work`)
        with self._stopping:
            if self._worker is not None and not self._interrupted:
                self._interrupted = True
                _interrupt(self._worker)

    def _next(self) -> None:
        self._soon = False
        if self._running is not None:
            return
        while self._wanted:
            uri = next(iter(self._wanted))
            del self._wanted[uri]
            version = self.service.held(uri)
            if version is None:
                continue
            self._running = (uri, version)
            loop = self._loop
            future = self._pool.submit(self._work, uri, version)
            future.add_done_callback(lambda f, u=uri, v=version, lp=loop: self._back(lp, u, v, f))
            return

    def _back(self, loop, uri: str, version, future) -> None:
        try:
            loop.call_soon_threadsafe(self._done, uri, version, future)
        except RuntimeError:
            pass  # the server stopped (its loop closed) while the check ran: nobody to tell

    def _done(self, uri: str, version, future) -> None:
        self._running = None
        let_run, self._let_run = self._let_run is version, None
        stopped = False
        try:
            problems = future.result()
        except Superseded:
            problems, stopped = None, True
            self.stopped += 1
        except Exception as exc:  # noqa: BLE001 - one line on standard error; the server goes on
            self._log(f"checking {uri}: {type(exc).__name__}: {exc}")
            problems = None
        if problems is not None:
            self.checked += 1
            held = self.service.is_held(uri, version)
            if (held or (let_run and self.service.held(uri) is not None)) and \
                    version.seq >= self.published.get(uri, -1):
                self.published[uri] = version.seq
                self._since.pop(uri, None)
                if held:
                    self._publish(uri, problems)
                else:  # let run for a document starved (`want`): its problems in the text held
                    placed = self.service.settled_problems(uri, self.service.settled_as(uri, version))
                    self._publish(uri, placed, version.version)
        if stopped and self.service.is_held(uri, version) and uri not in self._wanted:
            self._wanted[uri] = None  # stopped, yet still the newest (an interrupt that came late)
        held = self.service.held(uri)
        if held is None or held._problems is not None:  # else a newer version is still to come
            for waiter in self._waiting.pop(uri, []):
                if not waiter.done():
                    waiter.set_result(None)
        self._next()

    # --- in the worker
    def _work(self, uri: str, version):
        ident = threading.get_ident()
        _imported_once()
        try:
            with self._stopping:  # before the question below: a change after it can stop us
                self._worker, self._interrupted = ident, False
            try:
                if not self.service.is_held(uri, version):
                    return None  # replaced while it waited: never started
                started = time.monotonic()
                found = self.service.problems(version)
                self._took[uri] = time.monotonic() - started
                return found
            finally:
                with self._stopping:
                    self._worker = None
                    _interrupt_cleared(ident)  # one sent but not yet raised is dropped
        except Superseded:
            # raised in the check, or on the way out before it was dropped: either way the only
            # one this check could get (`_stop`), so nothing is left to land in the pool's code
            self._worker = None
            raise

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._answers.shutdown(wait=False, cancel_futures=True)
