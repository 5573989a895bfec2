"""`hazard-dsl serve`: the web app (hazard_dsl.serve) on uvicorn, until Ctrl-C.

Off loopback (phones at a table) the server is for the tables alone unless --allow-saves; HTTPS
with the certificate and key given (--certfile, --keyfile: uvicorn's own TLS), checked before it
starts; each table made is told at the terminal with its seats' links and their QR codes.
"""

from __future__ import annotations

import socket
import sys

from ..commands.errors import SettingError
from .parser import UsageError

NEEDS_EXTRA = "serve needs the web extra: pip install 'hazard-dsl[web]'"
IN_CLEAR = ("hazard-dsl: warning: plain HTTP: the seats' private links cross the network in clear; "
            "--certfile and --keyfile serve HTTPS (docs/phones.md makes a self-signed certificate)")


def command(args) -> int:
    try:
        import segno  # noqa: F401  (the QR codes of the seats' links: the web extra too)
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
    if args.allow_saves and args.tables_only:
        raise SettingError("allow_saves", "and --tables-only say opposite things: give one of them")
    tls = certificate(args.certfile, args.keyfile)
    network = not is_loopback(args.host)
    saves = not args.tables_only and (args.allow_saves or not network)
    listening = listen(args.host, args.port)
    host, port = listening.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    scheme = "https" if tls else "http"
    # the mode in force, said at the start
    if network and saves:
        say(f"hazard-dsl: warning: serving on {args.host}, not this machine alone: anyone who can reach it "
            f"can read and write the rule files of {folder.resolve()} (--allow-saves)")
    elif network:
        say(f"hazard-dsl: warning: serving on {args.host}, not this machine alone: for the tables alone "
            f"(the library, compare and the tables; the rule files of {folder.resolve()} are read, never "
            f"saved: --allow-saves lets the workbench save them)")
    elif not saves:
        say("hazard-dsl: for the tables alone (--tables-only): rule files are read, never saved")
    else:
        say(f"hazard-dsl: this machine alone: the workbench saves rule files into {folder.resolve()}")
    if network and not tls:
        say(IN_CLEAR)
    from ..commands.errors import CommandError

    try:
        db = args.db if args.db is not None else default_path()
    except ValueError as exc:  # no data folder (play.log.LogError)
        listening.close()
        raise CommandError(f"{exc}; --db FILE keeps the tables in a file of your choosing") from None
    try:
        app = create_app(folder, args.host, db=db, saves=saves,
                         why_no_saves="the server was started with --tables-only" if args.tables_only else None,
                         announce=announcer(sys.stdout))
    except (StoreLocked, StoreError) as exc:
        listening.close()
        raise CommandError(str(exc)) from None
    print(f"hazard-dsl: serving {folder.resolve()} at {scheme}://{shown}:{port}/ (Ctrl-C stops)", flush=True)
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
                                   ws_max_size=65_536, ws_per_message_deflate=False, timeout_graceful_shutdown=5,
                                   **tls))
    try:
        server.run(sockets=[listening])
    except KeyboardInterrupt:  # uvicorn stops on the first Ctrl-C and raises it again once stopped
        pass
    finally:
        listening.close()
    print("hazard-dsl: stopped", file=sys.stderr)
    return 0


def say(message: str) -> None:
    """A line of the start on standard error, broken between words at a terminal's width."""
    from ..render.terminal import fitted

    print(fitted(message, sys.stderr), file=sys.stderr)


def certificate(certfile: str | None, keyfile: str | None) -> dict:
    """uvicorn's TLS settings for `certfile` and `keyfile` ({} without them), checked here as
    uvicorn will load them: a file missing or unreadable, not PEM, a key that is not the
    certificate's or that asks for a passphrase is one line naming the flag, before the port opens."""
    import ssl

    if certfile is None:
        if keyfile is not None:
            raise SettingError("keyfile", "needs --certfile: the certificate the key belongs to")
        return {}
    for flag, path in (("certfile", certfile), ("keyfile", keyfile)):
        if path is None:
            continue
        try:
            with open(path, "rb") as f:
                text = f.read(1_000_000)
        except OSError as exc:
            raise SettingError(flag, f": cannot read {path}: {exc.strerror or exc}") from None
        if flag == "certfile" and b"-----BEGIN CERTIFICATE-----" not in text:
            raise SettingError(flag, f": {path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        if flag == "keyfile" and b"PRIVATE KEY-----" not in text:
            raise SettingError(flag, f": {path} holds no PEM private key (-----BEGIN PRIVATE KEY-----)")

    class Passphrase(Exception):
        pass

    def passphrase():  # never OpenSSL's own prompt, which would wait at the terminal
        raise Passphrase

    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile, password=passphrase)
    except Passphrase:
        raise SettingError("keyfile" if keyfile else "certfile",
                           ": the private key is protected by a passphrase: give one without "
                           "(openssl pkey -in KEY -out plain.pem)") from None
    except ssl.SSLError as exc:
        if exc.reason == "KEY_VALUES_MISMATCH":
            raise SettingError("keyfile", f": {keyfile} is not the private key of the certificate {certfile}") from None
        if keyfile is None:
            raise SettingError("certfile", f": {certfile} holds no private key of its own: give it with --keyfile") from None
        raise SettingError("certfile", f": {certfile} and {keyfile} cannot be loaded as a certificate and "
                                       f"its key ({exc.reason or exc})") from None
    return {"ssl_certfile": certfile, "ssl_keyfile": keyfile}


def announcer(out):
    """What the server's terminal is told of each table made: its links and their QR codes where
    `out` is a terminal; into a file or a pipe (a log), the table alone, for the links are private."""
    from ..render.terminal import is_terminal
    from ..serve.qr import announcement

    def say(base: str, made: dict) -> None:
        if is_terminal(out):
            out.write(announcement(base, made, codes=True))
        else:
            out.write(f"hazard-dsl: a table is open ({made.get('id', '?')}): its links are on the page that made it\n")
        out.flush()

    return say


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
