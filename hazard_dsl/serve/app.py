"""The web app: the pages (static files that are clients of the API) and the API, with the headers
that make the pages safe by default.

Every response carries a strict Content-Security-Policy (scripts and styles only from this
server, no inline ones; requests only to this server), `nosniff`, no referrer, and may be framed
only by this server's own pages. On loopback the app answers only to the loopback host names, so
a page elsewhere cannot reach it through DNS rebinding.
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .api import Api
from .files import Folder
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
               idle: float = IDLE) -> Starlette:
    """The app serving the rule files of `folder` (its `*.yaml`) beside the built-in rulesets.
    `host` is the address it is served on: on loopback only loopback host names are answered.
    Each analysis runs for at most `time_limit` seconds, `jobs` at once (`work.Worker`). The
    shared tables live in the SQLite file `db` (store.Store: locked for this app, StoreLocked if
    another server holds it; None: a file of its own in a temporary folder, gone with the app),
    at most `max_tables` in play, closed after `idle` seconds without an action."""
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

    routes = [Route(path, page(file, policy), methods=["GET", "HEAD"]) for path, (file, policy) in PAGES.items()]
    routes.append(Route("/tables/{id}", page("table.html", CSP), methods=["GET", "HEAD"]))
    routes += [Route("/library", library_of), Route("/favicon.ico", favicon, methods=["GET", "HEAD"]), *api.routes(),
               Mount("/static", StaticFiles(directory=STATIC), name="static")]
    middleware = [Middleware(SecurityHeaders)]
    if is_loopback(host):
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=LOOPBACK_NAMES))
    app = Starlette(routes=routes, middleware=middleware)
    app.state.api = api
    app.state.tables = api.tables
    return app
