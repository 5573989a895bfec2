"""Chunks on a Dask cluster (a simulation's `scheduler`, tcp://HOST:PORT).

Three steps, each bounded in time:

1. `scheduler_address` reads the address before Dask sees it: `tcp://HOST:PORT` (or `HOST:PORT`),
   a port from 1 to 65535. Other schemes are refused with the reason: `tls://` needs certificates
   this command cannot be given, `ucx://` needs UCX, `inproc://` is a scheduler inside this very
   process, `http://` is a web page (most often the dashboard, not the scheduler).
2. `greet` asks the address whether it is a Dask scheduler, in a thread with a deadline (so that a
   name lookup that hangs is bounded too). Both ends of Dask's handshake speak at once, each a
   short message in Dask's framing (an 8-byte length, then frames whose first is a msgpack map):
   we send ours, as Dask's client does (a web server answers it at once), and read the
   scheduler's, bounded in size and time. A web server, a port that sends anything else, and one
   that accepts and never answers are told apart here, before Dask reads a length of 3 EiB or
   waits without end in its own handshake, which its connect timeout does not cover.
3. `connect` makes the `Client` (`set_as_default=False`: nothing global changes), again in a thread
   with a deadline; `on_cluster` scatters the plan once, keeps a few chunks per worker thread in
   flight (as the local pool does: memory stays flat for any number of games) and merges results
   as they finish. Every future is waited on through this client, never a default one.

Dask's own log lines and the Client's destructor are kept quiet while connecting and closing: a
failure is one `ClusterError`, which the command prints as one `error:` line (exit 1).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import socket
import struct
import threading
import time
from contextlib import contextmanager
from itertools import islice

from ..errors import Arg
from .chunks import ChunkResult, ClusterError, Interrupted, play_chunk

CONNECT_SECONDS = 5.0  # to reach a scheduler: name lookup, connection, greeting; and again for the client
GREETING_BYTES = 1 << 16  # a scheduler's greeting is about 60 bytes; more is not one
DEFAULT_PORT = 8786  # Dask's, named in the messages

_LABEL = r"[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"  # "_": docker-compose's service names have them
_HOSTNAME = re.compile(rf"{_LABEL}(\.{_LABEL})*\.?")  # an IPv4 address is one too

_REFUSED_SCHEMES = {
    "tls": "tls:// needs certificates and keys, which simulate cannot be given; reach the scheduler "
           "over tcp:// (on a trusted network, or through an SSH tunnel)",
    "ucx": "ucx:// needs UCX and its Python bindings, which simulate does not use; give the scheduler's "
           "tcp:// address",
    "inproc": "inproc:// is a scheduler inside this same process, and simulate starts none; give the "
              "tcp:// address of a running scheduler (dask scheduler prints it)",
    "http": f"that is a web address (the dashboard's?); the scheduler's own address is tcp://HOST:PORT, "
            f"port {DEFAULT_PORT} unless it was started with another",
    "ws": "ws:// is not supported; give the scheduler's tcp:// address",
}
_REFUSED_SCHEMES["https"] = _REFUSED_SCHEMES["http"]
_REFUSED_SCHEMES["wss"] = _REFUSED_SCHEMES["ws"]


def scheduler_address(text: str) -> tuple[str, str, int]:
    """`tcp://HOST:PORT` or `HOST:PORT` as (the address for Dask, host, port); a `ClusterError`
    saying what is wrong with anything else. Looks nothing up and connects to nothing."""

    def wrong(why: str) -> ClusterError:
        # the address as given, before it is read; a control character escaped, so that the
        # error stays one line
        shown = text if text.isprintable() else text.encode("unicode_escape").decode("ascii")
        return _at(shown, why)

    example = f"such as tcp://10.0.0.5:{DEFAULT_PORT}"
    if not text:
        raise wrong(f"give the scheduler's address, {example}")
    if len(text) > 300 or not text.isascii() or not text.isprintable() or any(c.isspace() for c in text):
        raise wrong(f"an address is a short line of plain characters, {example}")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme in _REFUSED_SCHEMES:
        raise wrong(_REFUSED_SCHEMES[scheme])
    if scheme != "tcp":
        raise wrong(f"{scheme}:// is not a Dask scheme simulate can use; give tcp://HOST:PORT, {example}")
    if any(c in rest for c in "/?#@"):
        raise wrong(f"give only tcp://HOST:PORT (no path, user or query), {example}")
    if rest.startswith("["):  # an IPv6 address, in brackets as in a URL
        inside, bracket, port = rest[1:].partition("]")
        if not bracket or (port and not port.startswith(":")):
            raise wrong("an IPv6 address is written in brackets: tcp://[::1]:8786")
        try:
            ipaddress.IPv6Address(inside)
        except ValueError:
            raise wrong(f"{inside!r} is not an IPv6 address") from None
        host, port = inside, port[1:] if port else None
    else:
        if rest.count(":") > 1:
            raise wrong(f"an IPv6 address is written in brackets: tcp://[{rest.rpartition(':')[0]}]:"
                        f"{rest.rpartition(':')[2] or DEFAULT_PORT}")
        host, colon, port = rest.partition(":")
        port = port if colon else None
        if not host:
            raise wrong(f"the host is missing, {example}")
        if len(host) > 253 or not _HOSTNAME.fullmatch(host):
            raise wrong(f"{host!r} is not a host name or an IP address")
    if port is None:
        raise wrong(f"give the port too: tcp://{_bracketed(host)}:{DEFAULT_PORT} (Dask's default) or the one "
                    f"the scheduler prints")
    if not (port.isascii() and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65535):
        raise wrong(f"the port must be a number from 1 to 65535, not {port!r}")
    return f"tcp://{_bracketed(host)}:{int(port)}", host, int(port)


def _at(address: str, *problem) -> ClusterError:
    """An error of the scheduler given (`Arg('scheduler', address)`): what is wrong with it,
    after a colon whatever its first word ("…:8786: cannot reach it")."""
    return ClusterError(Arg("scheduler", value=address), ": ", *problem)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


# --------------------------------------------------------------------------- reaching it


def _within(seconds: float, work, what: str):
    """`work()` in a daemon thread, waited on for `seconds`: a name lookup or a handshake that
    hangs is left behind (the thread holds nothing the process needs), never waited on."""
    box = {}

    def run():
        try:
            box["value"] = work()
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=run, name=f"hazard-dsl {what}", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TimeoutError
    if "error" in box:
        raise box["error"]
    return box["value"]


def greet(address: str, host: str, port: int, seconds: float = CONNECT_SECONDS) -> None:
    """Returns if a Dask scheduler answers at host:port within `seconds`; a `ClusterError` saying
    what answered instead otherwise."""
    deadline = time.monotonic() + seconds

    def left() -> float:
        return max(0.01, deadline - time.monotonic())

    def receive(sock, n: int) -> bytes:
        data = bytearray()
        while len(data) < n:
            sock.settimeout(left())
            more = sock.recv(n - len(data))
            if not more:
                raise _at(address, "the connection was closed without a word from a "
                                   "Dask scheduler; is this the scheduler's port (not a worker's or the "
                                   "dashboard's)?")
            data += more
        return bytes(data)

    def exchange() -> None:
        with socket.create_connection((host, port), timeout=left()) as sock:
            sock.settimeout(left())
            sock.sendall(_greeting())  # as Dask's client does: a web server answers it at once
            head = receive(sock, 8)
            if head.startswith(b"HTTP/"):
                raise _at(address, f"a web server answered (the dashboard's port?); the "
                                   f"scheduler's own port is another, {DEFAULT_PORT} unless it was started with "
                                   f"another (`dask scheduler` prints it)")
            (size,) = struct.unpack("Q", head)  # Dask's framing, in the native byte order
            if not 16 <= size <= GREETING_BYTES:
                raise _not_dask(address)
            _check_greeting(receive(sock, size), address)

    try:
        _within(seconds + 0.5, exchange, "greeting")
    except ClusterError:
        raise
    except (TimeoutError, asyncio.TimeoutError, socket.timeout):
        raise _at(address, f"no answer as a Dask scheduler within {seconds:g} s (a scheduler "
                           f"answers at once); is it the scheduler's address, and is it up?") from None
    except socket.gaierror as exc:
        raise _at(address, f"cannot find the host {host!r} ({exc.strerror})") from None
    except ConnectionRefusedError:
        raise _at(address, "cannot reach it: the connection was refused (is a Dask "
                           "scheduler running there? `dask scheduler` prints its address)") from None
    except OSError as exc:
        raise _at(address, f"cannot reach it ({exc.strerror or exc})") from None


def _greeting() -> bytes:
    """Our side of Dask's comm handshake, framed as Dask frames it: the message's length, the
    number of frames (one), its length, then the msgpack map of comm options. A scheduler reads
    it, then sees the connection close (a line in its log, nothing more)."""
    import pickle
    import sys

    import msgpack

    options = msgpack.packb({"compression": None, "python": list(sys.version_info[:3]),
                             "pickle-protocol": pickle.HIGHEST_PROTOCOL})
    frames = struct.pack("QQ", 1, len(options)) + options
    return struct.pack("Q", len(frames)) + frames


def _not_dask(address: str) -> ClusterError:
    return _at(address, "something answered, but not a Dask scheduler (a web server, "
                        "or another program?); `dask scheduler` prints the address to give")


def _check_greeting(body: bytes, address: str) -> None:
    """The frames of the scheduler's first message: a count, the frames' lengths, then the frames,
    the first a msgpack map (the comm options: compression, Python version, pickle protocol).
    Decoded with plain msgpack: nothing in it is unpickled."""
    import msgpack

    count = struct.unpack("Q", body[:8])[0]
    if not 1 <= count <= 64 or len(body) < 8 + 8 * count:
        raise _not_dask(address)
    lengths = struct.unpack(f"{count}Q", body[8:8 + 8 * count])
    if 8 + 8 * count + sum(lengths) != len(body):
        raise _not_dask(address)
    first = body[8 + 8 * count:8 + 8 * count + lengths[0]]
    try:
        options = msgpack.unpackb(first, raw=False, use_list=False, strict_map_key=False)
    except Exception:  # msgpack's errors for bytes that are not msgpack have no common base
        raise _not_dask(address) from None
    if not isinstance(options, dict):
        raise _not_dask(address)


@contextmanager
def _quiet():
    """Dask's log lines off while our client connects, plays and closes: what went wrong is the
    one line we print. Every logger under "distributed", not only that one: Dask's configuration
    gives some their own level ("distributed.client": a lost scheduler's thirty lines of
    tracebacks, logged while the client gives up reconnecting)."""
    names = ["distributed"] + sorted(name for name in list(logging.Logger.manager.loggerDict)
                                     if name.startswith("distributed."))
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def connect(text: str, seconds: float = CONNECT_SECONDS):
    """A `Client` of the scheduler at `text`, after the address is read and the scheduler greeted;
    a `ClusterError` within about 2 × `seconds` otherwise."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ClusterError(Arg("scheduler"), "needs Dask: pip install 'hazard-dsl[cluster]'") from None
    address, host, port = scheduler_address(text)
    greet(address, host, port, seconds)
    lock, state = threading.Lock(), {}

    def make():
        client = Client(address, timeout=seconds, set_as_default=False)
        with lock:
            if state.get("abandoned"):  # too late: the caller has said so already
                client.close()
            else:
                state["client"] = client
        return client

    with _quiet():
        try:
            return _within(seconds + 1, make, "client")
        except (TimeoutError, asyncio.TimeoutError):
            with lock:
                if "client" in state:  # made just as the wait ended
                    return state["client"]
                state["abandoned"] = True
            raise _at(address, f"the scheduler greeted, then did not answer the client "
                               f"within {seconds:g} s") from None
        except Exception as exc:  # Dask's errors while connecting have no common base
            raise _at(address, f"cannot connect ({_said(exc)})") from None


# --------------------------------------------------------------------------- running chunks there


def on_cluster(plan, chunks, scheduler, finished, results):
    """Every chunk of `chunks` played on the cluster, `finished(result)` called as each finishes.
    `scheduler` is an address (a client is made and closed here, with Dask's log lines kept quiet:
    what goes wrong is the `ClusterError`) or a `Client` (used as it is, its logging untouched)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ClusterError(Arg("scheduler"), "needs Dask: pip install 'hazard-dsl[cluster]'") from None
    if isinstance(scheduler, Client):
        return _play_there(plan, chunks, scheduler, scheduler.scheduler.address, finished, results)
    client = connect(scheduler)
    with _quiet():
        try:
            return _play_there(plan, chunks, client, scheduler, finished, results)
        finally:
            client.close()


def _play_there(plan, chunks, client, name, finished, results):
    from dask.distributed import as_completed

    try:
        shared = client.scatter(plan, broadcast=True)
    except (TimeoutError, asyncio.TimeoutError):
        raise _at(name, f"the scheduler has no workers (waited {CONNECT_SECONDS:g} s); "
                        f"start some with `dask worker {name}`") from None
    except Exception as exc:
        raise _at(name, f"the plan could not be sent to the workers ({_said(exc)}); they "
                        f"need hazard-dsl installed, the same version as here") from None
    window = _Window(client)
    results.workers = window.workers  # those the plan reached; more are counted as they join
    flowing = as_completed(loop=client.loop, with_results=True)  # this client's, never a default one
    live = set()

    def submit() -> None:
        for index, count in islice(chunks, max(0, window.size() - len(live))):
            future = client.submit(play_chunk, shared, index, count, pure=False)
            live.add(future)
            flowing.add(future)

    try:
        submit()
        while live:
            try:
                future, result = next(flowing)
            except Exception as exc:  # a chunk failed there (Ctrl-C is no Exception: it goes on up): the workers' own error, named
                raise _at(name, f"a chunk failed on the cluster ({_said(exc)}); the "
                                f"workers need hazard-dsl installed, the same version as here") from None
            live.discard(future)
            del future  # its result is let go on the worker
            if not isinstance(result, ChunkResult):  # cancelled: most often the scheduler was lost
                if "scheduler-connection-lost" in str(result):  # Dask's reason, in the cancelled future's text
                    raise _at(name, f"the connection to the scheduler was lost after {results.chunks:,} of "
                                    f"{plan.chunk_count():,} chunks; was the scheduler stopped?")
                raise _at(name, f"a chunk was cancelled ({_said(result)}); was the "
                                f"scheduler stopped?")
            submit()  # before merging, so that no worker waits
            results.workers = max(results.workers, window.workers)
            finished(result)
    except KeyboardInterrupt:
        client.cancel(list(live))
        raise Interrupted(results) from None
    finally:
        live.clear()
    return results


def _said(exc) -> str:
    """An exception in one line: Dask's messages run over several."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


class _Window:
    """How many chunks may be in flight: two per worker thread (so that none waits between two),
    asked of the scheduler again every few seconds, as workers join or leave."""

    def __init__(self, client):
        self.client = client
        self.asked = -1e9
        self.value = 2
        self.workers = 0  # the most workers the scheduler has had at once, as asked
        self.size()

    def size(self) -> int:
        now = time.monotonic()
        if now - self.asked > 2:
            self.asked = now
            try:
                threads = self.client.nthreads()
            except Exception:  # the next chunk's result will say what went wrong
                return self.value
            self.value = 2 * max(1, sum(threads.values()))
            self.workers = max(self.workers, len(threads))
        return self.value
