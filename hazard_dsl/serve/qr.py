"""A table's private links as QR codes, so that a phone joins by scanning rather than typing.

    GET /api/tables/ID/qr.svg   (Authorization: Bearer TOKEN) the QR code of that token's link

The code is drawn for the link of the token that asks for it, and only for a token of that
table (a seat's or the onlookers'): a QR code is the link itself, so it is guarded exactly as
the link is, and never made for someone who does not hold it. The token goes in the header, not
in the address, for the reason the log's does (serve.table_routes.TableRoutes.log).

The link carries the scheme in force (https under --certfile) and the address the request came
to (its Host header): the page that shows the codes was opened at an address the host's machine
reaches, which is the one the phones are to use when the server listens on the network. A Host
header that is not a plain host name or address is not put in a link (a terminal is written to).
"""

from __future__ import annotations

import io
import re

HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
# M: a code still read with 15% of it hidden or smudged (a phone's screen glare, a crease)
ERROR_LEVEL = "m"


def base_of(scope, fallback: str) -> str:
    """`https://192.168.1.20:8000` for a request (an ASGI scope): its scheme and its Host header,
    or `fallback` (the address the server listens on) where the header is missing or odd."""
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), "")
    return f"{scheme}://{host if HOST.fullmatch(host) else fallback}"


def link(base: str, table_id: str, token: str) -> str:
    """A seat's link, as the table's page reads it (the token in the fragment: never sent to a
    server, never in a Referer)."""
    return f"{base}/tables/{table_id}#token={token}"


def code(text: str):
    import segno

    return segno.make(text, error=ERROR_LEVEL, micro=False)


def svg(text: str) -> str:
    """The QR code of `text` as SVG: dark modules on a white ground with its quiet zone, so it
    is read on a page of any colour; no script, no style sheet (the pages' Content-Security-Policy)."""
    out = io.BytesIO()
    code(text).save(out, kind="svg", scale=4, dark="#000", light="#fff", xmldecl=False, svgclass="qr",
                    lineclass=None)
    return out.getvalue().decode("ascii")


def terminal(text: str) -> str:
    """The QR code of `text` for a terminal, two modules a line in half blocks (about 45 columns
    for a seat's link): the light modules are drawn, so it reads on a dark terminal, as
    `qrencode -t UTF8` draws them."""
    out = io.StringIO()
    code(text).terminal(out, compact=True)
    return out.getvalue()


def printable(text: str) -> str:
    """`text` without control characters: a player's name written to the server's terminal."""
    return "".join(c if c.isprintable() else "?" for c in text)


class QrRoute:
    """GET /api/tables/ID/qr.svg for `tables` (serve.tables.Tables): the code of the asking
    token's link, or the table's refusal (403 for a token not of this table, 404 for no table)."""

    def __init__(self, tables, fallback: str):
        self.tables, self.fallback = tables, fallback

    async def answer(self, request):
        from starlette.responses import JSONResponse, Response

        from .table_routes import bearer
        from .tables import TableRefused

        table_id = request.path_params["id"]
        try:
            if "token" in request.query_params:
                raise TableRefused(403, "a table's token goes in the header Authorization: Bearer TOKEN, "
                                        "not in the address")
            token = bearer(request)
            self.tables.authorised(table_id, token)
        except TableRefused as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        drawn = svg(link(base_of(request.scope, self.fallback), table_id, token))
        # an image, not a document: nothing in it may run or fetch
        return Response(drawn, media_type="image/svg+xml",
                        headers={"Content-Security-Policy": "default-src 'none'; frame-ancestors 'self'; sandbox"})


class Announcer:
    """ASGI middleware: each table made (POST /api/tables answered 201) is told to `say(base,
    made)`, `made` the answer's JSON (its seats' and onlookers' links, relative), `base` the
    scheme and address the request came to (base_of)."""

    def __init__(self, app, say, fallback: str):
        self.app, self.say, self.fallback = app, say, fallback

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != "/api/tables":
            return await self.app(scope, receive, send)
        status, body = [0], []

        async def sending(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            elif message["type"] == "http.response.body" and status[0] == 201:
                body.append(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, sending)
        if status[0] == 201:
            import json

            try:
                made = json.loads(b"".join(body))
            except ValueError:
                return
            self.say(base_of(scope, self.fallback), made)


def announcement(base: str, made: dict, codes: bool) -> str:
    """What the server's terminal shows of a new table: each seat's link (with its QR code where
    `codes`) and the onlookers' one, the names made printable."""
    lines = [f"hazard-dsl: a table is open ({made.get('id', '?')}): give each player their own link"]
    for name, seat in (made.get("seats") or {}).items():
        url = base + seat["url"]
        lines += [f"{printable(name)}'s seat:", url]  # a link on a line of its own: one to copy whole
        if codes:
            lines.append(terminal(url).rstrip("\n"))
    lines += ["Onlookers:", base + made["watch"]["url"]] if made.get("watch") else []
    return "\n".join(line for line in lines if line) + "\n"
