"""The JSON API under `/api/`: everything the pages do, and nothing they do otherwise.

Every body is JSON of bounded size; every name is checked against the built-in rulesets and the
folder (`files.Folder`) before anything reads it, and what a file of the folder extends lies in
the folder too (`commands.loading.confined`, in `work`); the work itself (`jobs`) runs off the event
loop, bounded in time (`work.Worker`). Figures are the command line's JSON, fractions as strings.

    GET  /api/rulesets                    the built-in rulesets and the folder's rule files
    GET  /api/rulesets/NAME               `show --json` of one
    POST /api/analyse   {"ruleset"|"text","name", "options"}    `analyse --json`
    POST /api/charts    {"ruleset"|"text","name", "options", "settings"}  a session's net, a hand's tail
                        and the best stake by purse, as points to draw (serve.charts)
    POST /api/compare   {"variants": [{"ruleset", "options"}…]}  `compare --json`
    POST /api/check     {"text", "name"}  {"diagnostics": […]}
    POST /api/hover     {"text", "name", "line", "column"}  {"text"} or null
    POST /api/completion  {"text", "name", "line", "column"}  {"items": [{"label", "detail", "kind"}…]}
    POST /api/figures   {"text", "name"}  {"tokens", "hints", "lenses", "reason"} (serve.language.figures)
    POST /api/show      {"text", "name"}  `show --json` of a text
    GET  /api/rules/NAME?OPTION=VALUE…    `rules --format html` (a document of its own)
    GET  /api/graph/NAME.svg?OPTION=VALUE…  `graph --format svg` (.mermaid, .json likewise)
    POST /api/graph     {"ruleset"|"text","name", "options", "format"}  {"format", "drawing"}
    GET  /api/files/NAME                  {"name", "text", "hash"}
    PUT  /api/files/NAME  {"text", "base"}  {"name", "hash"}; 409 if the file is not `base`
    POST /api/tables    {"ruleset", "options", "players", "settings", "seed"|"dice"}  {"id", "seats", "watch"}
    GET  /api/tables/ID                   (Authorization: Bearer TOKEN) {"waiting", "events", "purses", "finished"}
    POST /api/tables/ID/actions  ACTION   (Bearer TOKEN) {"events", "waiting", "purses", "wagers", "finished"};
                                          the action's "version" and "key" (or Idempotency-Key): stale 409, a
                                          repeat given its first answer
    GET  /api/tables/ID/log               (Bearer TOKEN) the session's log, JSON Lines
    WS   /api/tables/ID/ws?token=T&after=N  each event after N, in order, then live (serve.tables)

A field a route does not take is refused (400, naming it and the nearest it takes: `FIELDS`),
never ignored. Errors are `{"error": message}` with 400 (a request to correct), 403 (no `X-Hazard-DSL` header on
a POST or PUT), 404, 409, 413 (too large), 422 (the rule file has errors: `diagnostics` too), 501
(Graphviz missing), 503 (the time limit, or the server stopping) or 500 (a bug: please report it;
JSON all the same, its traceback in the server's log).
The work of a request whose client hangs up is stopped (`Api.run`). The check, figures, hover
and completion of a text (no analysis waits in their way), and its analysis and drawing, are
answered by processes the server keeps for the workbench (`Worker.keep`), which keep what they
worked out for the text's next version (issue 39).
"""

from __future__ import annotations

import asyncio
import re

import anyio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute

from ..parse.files import MAX_BYTES
from . import jobs
from .files import Conflict, FileRefused, Folder
from .bodies import json_object
from .requests import unknown_field
from .table_routes import TableRoutes
from .tables import TableRefused
from .work import Failed, Stopping, TimeLimit, Worker

HEADER = "x-hazard-dsl"  # a header a cross-site form cannot send: a POST or PUT without it is refused
MAX_BODY = 2 * MAX_BYTES + 65_536  # a rule file at its bound, escaped as JSON, and the rest
MAX_VARIANTS = 8
# seconds a hover or a completion waits for the check before it in the kept process: a key's
# check of a built-in takes tens of milliseconds; past this (a large game's check takes seconds)
# it is answered beside the check by a process of its own, as issue 39 asks of the language server
BESIDE_AFTER = 0.25
MAX_OPTIONS = 64
# The fields of each POST and PUT route's body: any other is refused (400, naming it), as a
# chart's settings are, rather than ignored, so that a misspelt "optons" or a "policy" the
# route does not take is never answered as though it were not sent. (A table's body and its
# actions are checked by serve.tables.)
FIELDS = {
    "/api/show": ("text", "name"),
    "/api/analyse": ("ruleset", "text", "name", "options"),
    "/api/charts": ("ruleset", "text", "name", "options", "settings"),
    "/api/compare": ("variants",),
    "/api/check": ("text", "name"),
    "/api/hover": ("text", "name", "line", "column"),
    "/api/completion": ("text", "name", "line", "column"),
    "/api/figures": ("text", "name"),
    "/api/graph": ("ruleset", "text", "name", "options", "format"),
    "/api/files": ("text", "base"),
}
VARIANT_FIELDS = ("ruleset", "options")
OPTION = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}")
GRAPH_FORMATS = {"svg": "image/svg+xml", "mermaid": "text/plain; charset=utf-8", "json": "application/json"}
# A document the API serves to be shown in a frame (the rule sheet, the drawing): its own styles,
# no scripts, no requests.
DOCUMENT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
                "form-action 'none'; frame-ancestors 'self'; sandbox")


class Refused(Exception):
    def __init__(self, status: int, message: str, **more):
        super().__init__(message)
        self.status, self.body = status, dict(error=message, **more)


def error(status: int, message: str, **more) -> JSONResponse:
    return JSONResponse(dict(error=message, **more), status_code=status)


class Api:
    """The routes, over one folder and one worker."""

    def __init__(self, folder: Folder, worker: Worker):
        self.folder, self.worker = folder, worker
        self.tables = None  # serve.tables.Tables, once the app has opened its store

    def routes(self) -> list[Route]:
        def guarded(endpoint):
            async def handle(request: Request):
                try:
                    if request.method in ("POST", "PUT") and request.headers.get(HEADER) != "1":
                        raise Refused(403, "a request that changes or computes needs the header X-Hazard-DSL: 1")
                    return await endpoint(request)
                except Refused as exc:
                    return JSONResponse(exc.body, status_code=exc.status)
                except TableRefused as exc:
                    return error(exc.status, str(exc), **exc.more)
                except FileRefused as exc:
                    return error(exc.status, str(exc))
                except Conflict as exc:
                    return error(409, str(exc), current=exc.current, sent=exc.sent)
                except (TimeLimit, Stopping) as exc:
                    return error(503, str(exc))
                except Failed as exc:
                    return _failed(exc)
                except asyncio.CancelledError:
                    # the server stops, and its last requests are cancelled: an answer, not a traceback
                    if not self.worker.stopping:
                        raise
                    return error(503, "the server is stopping")
                except Exception as exc:  # a bug: said as JSON, with its traceback in the server's log
                    import logging

                    logging.getLogger("hazard_dsl.serve").exception("%s %s", request.method, request.url.path)
                    return error(500, f"internal error: {type(exc).__name__} (please report it)")
            return handle

        return [
            Route("/api/rulesets", guarded(self.rulesets), methods=["GET"]),
            Route("/api/rulesets/{name}", guarded(self.show), methods=["GET"]),
            Route("/api/show", guarded(self.show_text), methods=["POST"]),
            Route("/api/analyse", guarded(self.analyse), methods=["POST"]),
            Route("/api/charts", guarded(self.charts), methods=["POST"]),
            Route("/api/compare", guarded(self.compare), methods=["POST"]),
            Route("/api/check", guarded(self.check), methods=["POST"]),
            Route("/api/hover", guarded(self.hover), methods=["POST"]),
            Route("/api/completion", guarded(self.completion), methods=["POST"]),
            Route("/api/figures", guarded(self.figures), methods=["POST"]),
            Route("/api/rules/{name}", guarded(self.rules), methods=["GET"]),
            Route("/api/graph/{name}", guarded(self.graph_of), methods=["GET"]),
            Route("/api/graph", guarded(self.graph), methods=["POST"]),
            Route("/api/files/{name:path}", guarded(self.file), methods=["GET", "PUT"]),
            *self.table_routes(guarded),
        ]

    def table_routes(self, guarded) -> list:
        if self.tables is None:
            return []
        tables = TableRoutes(self.tables, body_of)
        return [Route("/api/tables", guarded(tables.create), methods=["POST"]),
                Route("/api/tables/{id}", guarded(tables.standing), methods=["GET"]),
                Route("/api/tables/{id}/actions", guarded(tables.action), methods=["POST"]),
                Route("/api/tables/{id}/log", guarded(tables.log), methods=["GET"]),
                WebSocketRoute("/api/tables/{id}/ws", tables.socket)]

    # -- the work, given up when its client is

    async def run(self, request: Request, function, *args, ask: bool = False, kept=None, slow: bool = False,
                  patience: float | None = None):
        """`function(*args)` done by the worker (`ask`: in the language service's lane), its
        process killed as soon as the client hangs up (a page that left, a request a newer one
        replaced): it holds no slot for nobody. `kept`: `function(state, *args)`, by the process
        that keeps `kept()`'s state (`Worker.keep`; `slow`: with an analysis' time limit), which a
        request given up lets finish; `patience`: `Worker.keep`'s)."""
        outcome = None
        async with anyio.create_task_group() as group:
            async def watch():
                while (await request.receive())["type"] != "http.disconnect":
                    pass
                group.cancel_scope.cancel()

            group.start_soon(watch)
            try:
                if kept is not None:
                    outcome = (True, await self.worker.keep(kept, function, *args, slow=slow, patience=patience))
                else:
                    outcome = (True, await (self.worker.ask if ask else self.worker.run)(function, *args))
            except Exception as exc:  # raised here, outside the group, not as a group of one
                outcome = (False, exc)
            group.cancel_scope.cancel()
        if outcome is None:
            raise Refused(499, "the client hung up")  # read by nobody
        if not outcome[0]:
            raise outcome[1]
        return outcome[1]

    # -- what a request names

    def target(self, name) -> tuple[str, str]:
        """(what the commands are given, what the response calls it) for a built-in ruleset's
        name or a rule file of the folder: nothing else is read."""
        from ..parse.files import builtin_file

        if not isinstance(name, str) or not name:
            raise Refused(400, "name a ruleset: a built-in one or a rule file of the folder")
        if name.endswith(".yaml"):
            path = self.folder.path(name)
            if not path.is_file():
                raise Refused(404, f"{name}: no such file in the folder")
            return str(path), name
        path = builtin_file(name) if "\x00" not in name else None
        if path is None or name.endswith((".", "/")):
            from ..diagnostics import did_you_mean
            from ..parse.files import builtin_names

            raise Refused(404, f"no built-in ruleset named {name[:60]!r}{did_you_mean(name, builtin_names())} "
                               f"(a rule file of the folder is named with .yaml)")
        return str(path), name

    @staticmethod
    def options(given) -> list[str]:
        """{"main": "called"} → ["main=called"], for a table's settings (commands.sessions)."""
        return [f"{key}={value}" for key, value in Api.option_values(given).items()]

    @staticmethod
    def option_values(given) -> dict[str, str]:
        """{"main": "called"}, names and values words, a number as its digits (the work types
        each by the ruleset's option: serve.requests)."""
        if given is None:
            return {}
        if not isinstance(given, dict):
            raise Refused(400, "options are an object of NAME: VALUE")
        if len(given) > MAX_OPTIONS:
            raise Refused(400, f"options: at most {MAX_OPTIONS} of them, not {len(given):,}")
        out = {}
        for key, value in given.items():
            value = str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value
            if not isinstance(value, str) or not OPTION.fullmatch(key) or not OPTION.fullmatch(value):
                raise Refused(400, f"option {str(key)[:40]!r}: a name and a value are words (letters, digits, _ . + -)")
            out[key] = value
        return out

    def text_of(self, body: dict) -> tuple[str, str]:
        text, name = body.get("text"), body.get("name")
        if name is None:  # (not `or`: a name of 0, "" or [] is refused, not taken as none sent)
            name = "untitled.yaml"
        if not isinstance(text, str):
            raise Refused(400, "give the rule file's text as a string")
        if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise Refused(413, f"a rule file is at most {MAX_BYTES:,} bytes")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_. -]{0,120}\.yaml", name):
            raise Refused(400, "a text's name is a plain file name ending in .yaml")
        return text, name

    def subject(self, body: dict) -> tuple[str, str | None]:
        """(name, text): a text with its name, or a ruleset by name (not both: one would be
        ignored)."""
        if "text" in body and "ruleset" in body:
            raise Refused(400, "ruleset or text: give one, a ruleset by its name or a rule file's text")
        if "name" in body and "text" not in body:
            raise Refused(400, "name: the name of a text; a ruleset is named by ruleset")
        if "text" in body:
            return self.text_of(body)[::-1]
        return self.target(body.get("ruleset"))[0], None

    # -- the routes

    async def rulesets(self, request: Request):
        from ..commands.listing import builtin_rulesets

        return JSONResponse({
            "builtins": [{"name": r["name"], "title": r["title"], "year": r["year"]} for r in builtin_rulesets()],
            "files": [{"name": name} for name in self.folder.names()],
        })

    async def show(self, request: Request):
        name, _ = self.target(request.path_params["name"])
        return JSONResponse(await self.run(request, jobs.show, name))

    async def show_text(self, request: Request):
        text, name = self.text_of(await fields_of(request))
        return JSONResponse(await self.run(request, jobs.show, name, text, ask=True))

    async def analyse(self, request: Request):
        body = await fields_of(request)
        name, text = self.subject(body)
        options = self.option_values(body.get("options"))
        if text is not None:  # the workbench's, as one types: by a kept process of its own (issue 39)
            return JSONResponse(await self.run(request, jobs.held_analyse, name, options, text, kept=jobs.analysed,
                                               slow=True))
        return JSONResponse(await self.run(request, jobs.analyse, name, options, text))

    async def charts(self, request: Request):
        """The points of the library's risk charts (serve.charts): a session's net, a hand's
        tail, the best stake by purse, for the form's settings."""
        from .charts import risk_charts

        body = await fields_of(request)
        name, text = self.subject(body)
        return JSONResponse(await self.run(request, risk_charts, name, self.option_values(body.get("options")),
                                           body.get("settings") or {}, text))

    async def compare(self, request: Request):
        body = await fields_of(request)
        variants = body.get("variants")
        if not isinstance(variants, list) or not 1 <= len(variants) <= MAX_VARIANTS:
            raise Refused(400, f"variants: a list of 1 to {MAX_VARIANTS} rulesets, each {{\"ruleset\", \"options\"}}")
        texts, asked, shown = [], [], []
        for variant in variants:
            if isinstance(variant, str):
                name, _, options = variant.partition(":")
                loose = next((o for o in options.split(",") if o and "=" not in o), None)
                if loose is not None:  # (it was left out, and the variant compared without it: fuzz42 A2)
                    raise Refused(400, f"variants: {variant[:80]!r}: an option is NAME=VALUE, not {loose[:40]!r}")
                variant = {"ruleset": name, "options": dict(o.split("=", 1) for o in options.split(",") if "=" in o)}
            if not isinstance(variant, dict):
                raise Refused(400, "each variant is {\"ruleset\": NAME, \"options\": {…}}")
            refused = unknown_field(variant, VARIANT_FIELDS)
            if refused is not None:
                raise Refused(400, f"variants: a variant has no field {refused}; it takes ruleset and options")
            path, name = self.target(variant.get("ruleset"))
            options = self.option_values(variant.get("options"))
            suffix = (":" + ",".join(f"{k}={v}" for k, v in options.items())) if options else ""
            texts.append(path + suffix)
            asked.append((path, options))
            shown.append(name + suffix)
        if len(set(texts)) != len(texts):
            raise Refused(400, "the same variant twice")
        return JSONResponse(await self.run(request, jobs.compare, asked, shown))

    async def check(self, request: Request):
        text, name = self.text_of(await fields_of(request))
        # by the kept process, whose language service holds the text's last version (issue 39)
        return JSONResponse({"diagnostics": await self.run(request, jobs.held_check, text, name, kept=jobs.held)})

    def place(self, body: dict) -> tuple[int, int]:
        line, column = body.get("line"), body.get("column")
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 < n < 10_000_000 for n in (line, column)):
            raise Refused(400, "line and column: whole numbers from 1")
        return line, column

    async def hover(self, request: Request):
        body = await fields_of(request)
        text, name = self.text_of(body)
        return JSONResponse(await self.run(request, jobs.held_hover, text, name, *self.place(body), kept=jobs.held,
                                            patience=BESIDE_AFTER))

    async def completion(self, request: Request):
        body = await fields_of(request)
        text, name = self.text_of(body)
        items = await self.run(request, jobs.held_completion, text, name, *self.place(body), kept=jobs.held,
                               patience=BESIDE_AFTER)
        return JSONResponse({"items": items})

    async def figures(self, request: Request):
        text, name = self.text_of(await fields_of(request))
        return JSONResponse(await self.run(request, jobs.held_figures, text, name, kept=jobs.held))

    async def rules(self, request: Request):
        name, _ = self.target(request.path_params["name"])
        html = await self.run(request, jobs.rules, name, self.option_values(dict(request.query_params)))
        return Response(html, media_type="text/html; charset=utf-8", headers={"Content-Security-Policy": DOCUMENT_CSP})

    async def graph_of(self, request: Request):
        stem, dot, fmt = request.path_params["name"].rpartition(".")
        if not dot or fmt not in GRAPH_FORMATS:
            raise Refused(404, "a drawing is NAME.svg, NAME.mermaid or NAME.json")
        name, _ = self.target(stem)
        drawing = await self.run(request, jobs.graph, name, self.option_values(dict(request.query_params)), fmt)
        return Response(drawing, media_type=GRAPH_FORMATS[fmt], headers={"Content-Security-Policy": DOCUMENT_CSP})

    async def graph(self, request: Request):
        body = await fields_of(request)
        fmt = body.get("format", "svg")
        if not isinstance(fmt, str) or fmt not in GRAPH_FORMATS:
            raise Refused(400, "format: svg, mermaid or json")
        name, text = self.subject(body)
        options = self.option_values(body.get("options"))
        if text is not None:  # the workbench's, as one types: by a kept process of its own (issue 39)
            drawing = await self.run(request, jobs.held_graph, name, options, fmt, text, kept=jobs.drawn, slow=True)
        else:
            drawing = await self.run(request, jobs.graph, name, options, fmt, text)
        return JSONResponse({"format": fmt, "drawing": drawing})

    async def file(self, request: Request):
        name = request.path_params["name"]
        if request.method == "GET":
            text, digest = self.folder.read(name)
            return JSONResponse({"name": name, "text": text, "hash": digest})
        body = await fields_of(request, "/api/files")
        text, _ = self.text_of({"text": body.get("text"), "name": "file.yaml"})
        base = body.get("base")
        if base is not None and not isinstance(base, str):
            raise Refused(400, "base: the hash the file had when it was read (null for a new file)")
        return JSONResponse({"name": name, "hash": self.folder.write(name, text, base)})


async def body_of(request: Request) -> dict:
    """The request's JSON object, refused (413) past MAX_BODY before it is all read."""
    return await json_object(request, MAX_BODY, Refused, "a request's body")


async def fields_of(request: Request, route: str | None = None) -> dict:
    """`body_of`, its fields checked against the route's (FIELDS): a field the route does not
    take is a 400 naming it, with the nearest it does take, never silently ignored."""
    body = await body_of(request)
    route = route or request.url.path
    known = FIELDS[route]
    refused = unknown_field(body, known)
    if refused is not None:
        raise Refused(400, f"{route} has no field {refused}; it takes {', '.join(known)}")
    return body


def _failed(exc: Failed) -> JSONResponse:
    if exc.kind == "ruleset":
        return error(422, "the rule file has errors", diagnostics=exc.payload)
    if exc.kind == "graphviz":
        return error(501, exc.payload, fallback="json")
    if exc.kind == "request":
        return error(400, exc.payload)
    return error(500, f"internal error: {exc.payload} (please report it)")
