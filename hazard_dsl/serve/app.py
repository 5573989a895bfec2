"""The web app: the pages (static files that are clients of the API) and the API, with the headers
that make the pages safe by default.

Every response carries a strict Content-Security-Policy (scripts and styles only from this
server, no inline ones; requests only to this server), `nosniff`, no referrer, and may be framed
only by this server's own pages. On loopback the app answers only to the loopback host names, so
a page elsewhere cannot reach it through DNS rebinding.

Off loopback (a server the network reaches: phones at a table) the app is for the tables alone
unless it is told otherwise: the library, compare, the workbench and the tables, but a save of a
rule file (PUT /api/files/NAME) is refused, 403, with the flag that allows it. Each table's links
are also shown as QR codes (serve.qr).
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse, JSONResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .api import Api
from .files import Folder
from .qr import Announcer, QrRoute
from .store import Store
from .tables import IDLE, MAX_TABLES, Tables
from .work import Worker

STATIC = Path(__file__).resolve().parent / "static"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; frame-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'self'")
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
           (b"cross-origin-opener-policy", b"same-origin"), (b"x-frame-options", b"SAMEORIGIN")]
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]
# The editor (CodeMirror 6) sets `style` attributes on its own elements (tab size, gutters' sizes):
# the workbench alone allows style attributes — no style sheets, and never a script, inline.
EDITOR_CSP = CSP.replace("style-src 'self';", "style-src 'self'; style-src-attr 'unsafe-inline';")
PAGES = {"/": ("library.html", CSP), "/compare": ("compare.html", CSP), "/workbench": ("workbench.html", EDITOR_CSP)}


class SecurityHeaders:
    """ASGI middleware: the CSP (unless the response set a stricter one of its own) and the
    other headers on every response."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers += [(n, v) for n, v in HEADERS if n not in names]
                if scope["path"].startswith("/api/"):
                    headers.append((b"cache-control", b"no-store"))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, sending)


def is_loopback(host: str) -> bool:
    import ipaddress

    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def create_app(folder: str | Path = ".", host: str = "127.0.0.1", time_limit: float = 60.0, jobs: int = 2,
               inline: bool = False, db: str | Path | None = None, max_tables: int = MAX_TABLES,
               idle: float = IDLE, saves: bool | None = None, why_no_saves: str | None = None,
               announce=None) -> Starlette:
    """The app serving the rule files of `folder` (its `*.yaml`) beside the built-in rulesets.
    `host` is the address it is served on: on loopback only loopback host names are answered.
    Each analysis runs for at most `time_limit` seconds, `jobs` at once (`work.Worker`). The
    shared tables live in the SQLite file `db` (store.Store: locked for this app, StoreLocked if
    another server holds it; None: a file of its own in a temporary folder, gone with the app),
    at most `max_tables` in play, closed after `idle` seconds without an action.
    `saves`: whether the workbench saves rule files (None: on loopback only), `why_no_saves` the
    reason a refused save is given (by default the flag that allows saves). `announce(base,
    made)`: told each table made (serve.qr.Announcer), as the server's terminal shows it."""
    served = Folder(folder)
    api = Api(served, Worker(time_limit, jobs, inline, folder=served.root))
    if db is None:
        import tempfile

        db = Path(tempfile.mkdtemp(prefix="hazard-tables-")) / "tables.db"
    api.tables = Tables(Store(str(db)), api, max_tables, idle)
    api.tables.load()

    def page(file: str, policy: str):
        async def endpoint(request):
            return FileResponse(STATIC / file, media_type="text/html; charset=utf-8",
                                headers={"Content-Security-Policy": policy})
        return endpoint

    async def library_of(request):  # /library → the library page
        return RedirectResponse("/", status_code=308)

    async def favicon(request):  # asked for by every browser on every page: a die showing five
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    if saves is None:
        saves = is_loopback(host)
    saves_refused = None if saves else (why_no_saves or saves_off(host))

    async def no_saves(request):  # before the API's own route for the file, which it shadows for PUT
        return JSONResponse({"error": f"rule files are not saved here: {saves_refused}"}, status_code=403)

    async def settings(request):  # what the pages need to know of this server before they offer a save
        return JSONResponse({"saves": saves_refused is None,
                             "why_no_saves": f"rule files are not saved here: {saves_refused}" if saves_refused
                             else None})

    routes = [Route(path, page(file, policy), methods=["GET", "HEAD"]) for path, (file, policy) in PAGES.items()]
    routes.append(Route("/api/server", settings, methods=["GET"]))
    if saves_refused:
        routes.append(Route("/api/files/{name:path}", no_saves, methods=["PUT"]))
    shown = f"[{host}]" if ":" in host else host  # the address a link carries where a request's Host will not do
    routes.append(Route("/api/tables/{id}/qr.svg", QrRoute(api.tables, shown).answer, methods=["GET"]))
    routes.append(Route("/tables/{id}", page("table.html", CSP), methods=["GET", "HEAD"]))
    routes += [Route("/library", library_of), Route("/favicon.ico", favicon, methods=["GET", "HEAD"]), *api.routes(),
               Mount("/static", StaticFiles(directory=STATIC), name="static")]
    middleware = [Middleware(SecurityHeaders)]
    if is_loopback(host):
        # the address asked for too (127.0.0.2: loopback, but not one of the names)
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=sorted({*LOOPBACK_NAMES, host, shown})))
    if announce is not None:
        middleware.append(Middleware(Announcer, say=announce, fallback=shown))
    app = Starlette(routes=routes, middleware=middleware)
    app.state.api = api
    app.state.tables = api.tables
    app.state.saves_refused = saves_refused
    return app


def saves_off(host: str) -> str:
    """Why a server on the network `host` saves no rule file, and which flag changes that."""
    return (f"this server is open to the network ({host}), for the tables alone; whoever runs it may "
            f"start it with --allow-saves to let the workbench save rule files")
