"""The shared tables' routes: the HTTP requests that open a table, tell where it stands, take
an action and give its log, and the WebSocket that carries a seat's or an onlooker's live
connection (`TableRoutes`), apart from the tables themselves (serve.tables: the registry of
live tables, their store, their bounds). serve.api routes them; their errors are TableRefused.

The bounds a connection is held to are read from serve.tables when used (`limits.BURST`…), so
that one place sets them (and a test may lower them there).
"""

from __future__ import annotations

import asyncio
import json
import time

from . import tables as limits
from .tables import Closing, Connection, LiveTable, TableRefused, Tables, checked_key, new_table_body, reason


def bearer(request) -> str | None:
    """The token of `Authorization: Bearer TOKEN`, or None."""
    given = request.headers.get("authorization", "")
    kind, _, token = given.partition(" ")
    return token.strip() if kind.lower() == "bearer" and token.strip() else None


class TableRoutes:
    """The tables' part of the API (serve.api routes them; errors are TableRefused)."""

    def __init__(self, tables: Tables, body_of):
        self.tables = tables
        self.body_of = body_of  # the request's JSON object, bounded (serve.api.body_of)

    async def create(self, request):
        from starlette.responses import JSONResponse

        body = await new_table_body(request)
        live, tokens, watch = await self.tables.create(body, request.client.host if request.client else None)
        base = f"/tables/{live.id}"
        return JSONResponse({"id": live.id,
                             "seats": {name: {"token": t, "url": f"{base}#token={t}"} for name, t in tokens.items()},
                             "watch": {"token": watch, "url": f"{base}#token={watch}"}}, status_code=201)

    async def standing(self, request):
        from starlette.responses import JSONResponse

        live, seat = self.tables.authorised(request.path_params["id"], bearer(request))
        after = request.query_params.get("after", "0")
        if not after.isdigit() or len(after) > 9:
            raise TableRefused(400, "after: the number of the last event seen (0: all)")
        async with live.lock:  # never an action applied and not yet committed
            return JSONResponse(live.standing(seat, int(after)))

    async def action(self, request):
        from starlette.responses import JSONResponse

        live, seat = self.tables.authorised(request.path_params["id"], bearer(request))
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limits.MAX_MESSAGE):
            raise TableRefused(413, f"an action is at most {limits.MAX_MESSAGE:,} bytes")
        body = await self.body_of(request)
        if len(json.dumps(body)) > limits.MAX_MESSAGE:
            raise TableRefused(413, f"an action is at most {limits.MAX_MESSAGE:,} bytes")
        key = request.headers.get("idempotency-key")
        return JSONResponse(await self.tables.act(live, seat, body, key))

    async def log(self, request):
        from starlette.responses import Response

        if "token" in request.query_params:
            # an address is kept in the history, in logs and in a Referer: a token is not put there
            raise TableRefused(403, "a table's token goes in the header Authorization: Bearer TOKEN, "
                                    "not in the address")
        lines = self.tables.log_lines(request.path_params["id"], bearer(request))
        return Response("".join(line + "\n" for line in lines), media_type="application/x-ndjson",
                        headers={"Content-Disposition": f"attachment; filename=\"table-{request.path_params['id']}.jsonl\""})

    async def socket(self, websocket):
        """The table live: every event after `after`, in order, then each new one as it comes, with
        what this link may do now; actions may be sent on it too ({"id", "action"}). A refusal is
        accepted first, then closed with 4000 + its HTTP status and the reason, which a page can
        read (closed before the handshake, a browser sees only 1006, a lost connection)."""
        from starlette.websockets import WebSocketDisconnect

        await websocket.accept()
        origin = websocket.headers.get("origin")
        after = websocket.query_params.get("after", "0")
        try:
            if origin is not None and origin.split("://", 1)[-1] != websocket.headers.get("host"):
                raise TableRefused(403, "a table's page is on this server")
            live, seat = self.tables.authorised(websocket.path_params["id"], websocket.query_params.get("token"))
            if not after.isdigit() or len(after) > 9:
                raise TableRefused(400, "after: the number of the last event seen")
        except TableRefused as exc:
            await websocket.close(code=4000 + exc.status, reason=reason(str(exc)))
            return
        connection = Connection(seat)
        # what it missed, then live: added under the table's lock, so no event falls between; the
        # pages of its link counted there too, so that two arriving together cannot both pass
        async with live.lock:
            refused = self.too_many(live, seat)
            if refused is None:
                for told in live.told[int(after):]:
                    connection.put(json.dumps(dict(type="event", **told)))
                connection.put(json.dumps(live.state_message(seat)))
                live.connections.add(connection)
        if refused is not None:
            await websocket.close(code=4429, reason=reason(refused))
            return
        self.tables.keep_sweeping()

        async def sending():
            while True:
                text = await connection.queue.get()
                if isinstance(text, Closing):
                    await websocket.close(code=text.code, reason=text.reason)
                    return
                await websocket.send_text(text)

        sender = asyncio.ensure_future(sending())
        allowance, since = float(limits.BURST), time.monotonic()
        try:
            while True:
                receiving = asyncio.ensure_future(websocket.receive())
                done, _ = await asyncio.wait({receiving, sender}, return_when=asyncio.FIRST_COMPLETED)
                if sender in done:
                    receiving.cancel()
                    break
                message = receiving.result()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None and message.get("bytes") is not None:
                    data = message["bytes"].decode("utf-8", "replace")
                now = time.monotonic()
                allowance = min(float(limits.BURST), allowance + (now - since) * limits.RATE)
                since = now
                if allowance < 1:
                    await websocket.close(code=1008, reason=f"too many messages: at most {limits.RATE:g} a second")
                    break
                allowance -= 1
                if data is None or len(data.encode("utf-8", "surrogatepass")) > limits.MAX_MESSAGE:
                    await websocket.close(code=1009, reason=f"a message is at most {limits.MAX_MESSAGE} bytes")
                    break
                connection.put(json.dumps(await self.answer(live, seat, data)))
        except WebSocketDisconnect:
            pass
        finally:
            live.connections.discard(connection)
            sender.cancel()

    @staticmethod
    def too_many(live: LiveTable, seat: str | None) -> str | None:
        """Why one more page of this link is refused, or None: each seat's link has room for
        limits.PAGES_PER_SEAT pages, the onlookers' (one link for them all) for limits.PAGES_OF_ONLOOKERS, so
        that the onlookers, however many, never take a seat's room."""
        most = limits.PAGES_PER_SEAT if seat is not None else limits.PAGES_OF_ONLOOKERS
        if sum(c.seat == seat for c in live.connections) < most:
            return None
        whose = f"{seat}'s link" if seat is not None else "the onlookers' link"
        return f"{whose} has {most} pages open at this table, its most: close one, then load this page again"

    async def answer(self, live: LiveTable, seat: str | None, data: str) -> dict:
        """A message from a page: {"id": any, "action": {...}} → {"type": "reply", "id", "status",
        "events" (their numbers) or "error"}."""
        try:
            message = json.loads(data)
        except (ValueError, RecursionError):
            return {"type": "reply", "id": None, "status": 400, "error": "a message is JSON: {\"id\", \"action\"}"}
        if not isinstance(message, dict) or "action" not in message:
            return {"type": "reply", "id": None, "status": 400, "error": "a message is {\"id\", \"action\"}"}
        ident = message.get("id")
        try:  # the id is the action's key: one that cannot be kept is refused, not silently dropped
            checked_key(ident)
        except TableRefused as exc:
            return {"type": "reply", "id": None, "status": exc.status, "error": str(exc)}
        action = message["action"]
        if isinstance(action, dict) and "version" in message and "version" not in action:
            action = dict(action, version=message["version"])
        try:
            # the message's id is the action's key: sent twice, it is answered twice, applied once
            answer = await self.tables.act(live, seat, action, ident)
        except TableRefused as exc:
            return {"type": "reply", "id": ident, "status": exc.status, "error": str(exc), **exc.more}
        reply = {"type": "reply", "id": ident, "status": 200, "events": [t["n"] for t in answer["events"]],
                 "version": answer["version"]}
        return dict(reply, repeated=True) if answer.get("repeated") else reply
