"""`hazard-dsl serve`: the web app (hazard_dsl.serve) on uvicorn, until Ctrl-C."""

from __future__ import annotations

import socket
import sys

from ..commands.errors import SettingError
from .parser import UsageError

NEEDS_EXTRA = "serve needs the web extra: pip install 'hazard-dsl[web]'"


def command(args) -> int:
    try:
        import uvicorn

        from ..serve.app import create_app, is_loopback
        from ..serve.store import StoreError, StoreLocked, default_path
    except ImportError:
        raise UsageError(NEEDS_EXTRA) from None
    from pathlib import Path

    folder = Path(args.folder)
    if not folder.is_dir():
        raise SettingError("folder", f": {args.folder} is not a folder")
    if not 0 <= args.port <= 65535:
        raise SettingError("port", "must be between 0 and 65535")
    listening = listen(args.host, args.port)
    host, port = listening.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if not is_loopback(args.host):
        print(f"hazard-dsl: warning: serving on {args.host}, not this machine alone: anyone who can reach it "
              f"can read and write the rule files of {folder.resolve()}", file=sys.stderr)
    from ..commands.errors import CommandError

    try:
        db = args.db if args.db is not None else default_path()
    except ValueError as exc:  # no data folder (play.log.LogError)
        listening.close()
        raise CommandError(f"{exc}; --db FILE keeps the tables in a file of your choosing") from None
    try:
        app = create_app(folder, args.host, db=db)
    except (StoreLocked, StoreError) as exc:
        listening.close()
        raise CommandError(str(exc)) from None
    print(f"hazard-dsl: serving {folder.resolve()} at http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
    print(f"hazard-dsl: the tables are kept in {db}", file=sys.stderr, flush=True)
    # a browser's WebSocket message is small (serve.tables.MAX_MESSAGE): larger frames are refused by uvicorn
    # itself; and the table's messages are small, so compressing each one costs more than it saves
    worker = app.state.api.worker

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # Ctrl-C: the work running is killed now, so that the requests waiting for it are
            # answered and the server stops in a moment, not when the slowest analysis ends
            worker.stop()
            super().handle_exit(sig, frame)

    # timeout_graceful_shutdown: a page that holds its connection open does not hold the stop for ever
    server = Server(uvicorn.Config(app, log_level="warning", lifespan="off", server_header=False,
                                   ws_max_size=65_536, ws_per_message_deflate=False, timeout_graceful_shutdown=5))
    try:
        server.run(sockets=[listening])
    except KeyboardInterrupt:  # uvicorn stops on the first Ctrl-C and raises it again once stopped
        pass
    finally:
        listening.close()
    print("hazard-dsl: stopped", file=sys.stderr)
    return 0


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port) and listening: a port in use is an error before uvicorn starts."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except (OSError, UnicodeError) as exc:
        raise SettingError("host", f": cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}") from None
    sock.set_inheritable(True)
    return sock
