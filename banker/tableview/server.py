"""The players' table view: a small read-only HTTP server on the local network.

``TableServer(path).start()`` serves, under an unguessable token, one page of the live table
(balances, debts, deeds, the bank, the last actions) that phones at the table open from a QR
code. It reads the session on its own, read-only (``SessionReader.open(path)`` and
``refresh()``): it never writes a file and shares nothing with the writer, so neither a bug
here nor a stuck client can touch the session or hold the console up.

- One snapshot JSON is built per change (a background thread looks for new entries every
  ``interval`` seconds) and shared by every client; a request never replays anything.
- Every path is ``/<token>/...``; a wrong or missing token, an unknown path and any method but
  GET and HEAD get 404; a ``Host`` that names neither the address the client connected to nor
  this machine gets 421 (DNS rebinding). Each connection is its own daemon thread; a request's
  whole head must arrive within ``HEAD_DEADLINE`` seconds (a client trickling bytes is dropped);
  the connections are capped in all and per client address, so one device cannot crowd out the
  table's phones; and a new connection that finds every place taken is made room for by closing a
  waiting one of the address holding the most, so a few devices together cannot either.
- A fault while building the snapshot is logged, shown on the page (the last good table, marked)
  and kept in :attr:`TableServer.fault` for the console; it never stops the page.
- Nothing is loaded from elsewhere: the page, its script and its stylesheet are served from
  ``banker/tableview/static``, under a Content-Security-Policy of ``default-src 'self'``.

See docs/tableview.md.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import io
import ipaddress
import json
import logging
import secrets
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

from banker.i18n import Translator
from banker.ledger import SessionError, SessionReader
from banker.ledger.storage import FileRefused
from banker.rules import Refused

from .snapshot import PAGE_LABELS, build_snapshot, isolated

log = logging.getLogger("banker.tableview")
log.addHandler(logging.NullHandler())  # never Python's last-resort handler writing on the console's terminal

#: seconds between two looks at the session for new entries
REFRESH_INTERVAL = 0.15
#: seconds a connection may stay silent (a request being sent, or idle between requests)
SOCKET_TIMEOUT = 5.0
#: seconds for a whole request head (request line and headers) from the moment the server waits
#: for it, however the bytes trickle in: a client sending a byte every second is dropped too
HEAD_DEADLINE = 5.0
#: connections served at once (a client cannot exhaust the process). A new one beyond it is made room
#: for by closing a connection that waits (see :meth:`_HTTPServer._victim`); when none can be, it is closed
MAX_CONNECTIONS = 200
#: connections from one address at once (a phone polls on one or two; a browser opens at most six;
#: a guest network behind one NAT address holds a table's phones with room to spare); more are
#: closed at once, so one device can never take the connections the others need
MAX_PER_CLIENT = 64
#: connections closed to make room whose threads have not ended yet, beyond :data:`MAX_CONNECTIONS`: a
#: closed connection's thread ends at once (it was waiting to read), so this is never reached but by a
#: flood of new connections faster than threads end; then a new one is closed rather than a thread more
MAX_CLOSING = 50

SECURITY_HEADERS = (
    ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
                                "frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
)
STATIC = {"app.js": "application/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"}


def lan_address() -> str:
    """This machine's address on the local network: the source address the kernel would pick to
    reach a private address (a UDP "connect" sends no packet); 127.0.0.1 when there is no network."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        address = s.getsockname()[0]
    except OSError:
        address = "127.0.0.1"
    finally:
        s.close()
    return address if address and address != "0.0.0.0" else "127.0.0.1"


def _is_loopback(address: Any) -> bool:
    try:
        return ipaddress.ip_address(str(address).split("%")[0]).is_loopback
    except ValueError:
        return str(address).lower() == "localhost"


def _same_address(name: str, local: str) -> bool:
    """Whether ``name`` (from a Host header) is the IP address ``local`` (IPv4-mapped forms alike)."""
    try:
        a, b = ipaddress.ip_address(name.split("%")[0]), ipaddress.ip_address(local.split("%")[0])
    except ValueError:
        return False
    a = getattr(a, "ipv4_mapped", None) or a
    b = getattr(b, "ipv4_mapped", None) or b
    return a == b


class ServeError(Exception):
    """The page server cannot start (address in use, not an address of this machine...): one line; ``key`` (of
    the catalogs' ``[serve_said]`` table) and ``params`` say it again in the banker's language."""

    def __init__(self, message: str, key: str, **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


# --------------------------------------------------------------------------- the snapshot
class TableSource:
    """The session, read-only, and its current snapshot (body, ETag, version), rebuilt on change."""

    def __init__(self, path: Path, lang: str) -> None:
        self.path = path
        self.tr = Translator(lang)
        self.session = SessionReader.open(path)
        self.error: str | None = None
        #: a fault (a bug) while reading or building, as one line; None when the last build went well
        self.fault: str | None = None
        self._lock = threading.Lock()
        #: (body, etag, version), replaced as a whole: a handler reads one consistent triple
        self.current: tuple[bytes, str, int] = (b"", '""', -1)
        self._good: dict[str, Any] | None = None  # the last document built without a fault
        self.builds = 0
        self._build()

    def _build(self) -> None:
        try:
            doc = build_snapshot(self.session, self.tr, self.error)
            body = self._encode(doc)
        except Exception as e:  # a bug (or a number no JSON can hold): said on the page and to the console
            log.exception("building the table view failed")
            self.fault = fault_said(e, self.tr)
            doc = self._fault_document()
            body = self._encode(doc)
        else:
            self.fault = None
            self._good = doc
        etag = '"' + hashlib.sha256(body).hexdigest()[:24] + '"'
        self.current = (body, etag, doc["version"])
        self.builds += 1

    @staticmethod
    def _encode(doc: dict[str, Any]) -> bytes:
        # "<" escaped even inside strings: the document can never be read as markup
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
        return text.encode("utf-8")

    def _fault_document(self) -> dict[str, Any]:
        """The last good table marked with the fault, or an empty table saying it (nothing built yet)."""
        tr = self.tr
        if self._good is not None:
            doc = dict(self._good)
        else:
            name = self.session.name
            doc = {"version": -1, "lang": tr.lang, "name": name, "header": "",
                   "title": tr("tableview.page_title", name=isolated(name)),
                   "labels": {key: tr(f"tableview.{key}") for key in PAGE_LABELS}, "players": [],
                   "bank": {"lines": [], "notes": []}, "actions": []}
        doc["error"] = self.fault
        doc["error_text"] = tr("tableview.fault", error=self.fault)
        return doc

    def update(self) -> bool:
        """Look for new entries; rebuild the snapshot if there are. True when it changed."""
        with self._lock:
            error = None
            try:
                changed = bool(self.session.refresh())
            except SessionError as e:  # the file was replaced or damaged: start again from it
                changed = False
                try:
                    session = SessionReader.open(self.path)
                except SessionError as e2:
                    error = self.tr.session(e2)
                else:
                    self.session.close()
                    self.session, changed = session, True
                    log.info("reopened %s: %s", self.path, e)
            if changed or error != self.error:
                self.error = error
                self._build()
                return True
            return False

    def report(self, e: BaseException) -> None:
        """A fault outside the build (reading the session): shown as a build fault is."""
        with self._lock:
            fault = fault_said(e, self.tr)
            if fault != self.fault:
                self.fault = fault
                body = self._encode(self._fault_document())
                etag = '"' + hashlib.sha256(body).hexdigest()[:24] + '"'
                self.current = (body, etag, self.current[2])

    def close(self) -> None:
        with self._lock:
            self.session.close()


def fault_said(e: BaseException, tr: Translator) -> str:
    """A fault as one line in the page's language: what the session log or the rules say, in their words;
    an amount too large to write out (an old log), said; an OS error by the system's own text (``strerror``, as
    the system words it); a bug by its class and its own text (for the report: a bug has no words of ours)."""
    if isinstance(e, Refused):
        return _one_line(tr.refusal(e))
    if isinstance(e, SessionError | FileRefused):
        return _one_line(tr.session(e))
    if isinstance(e, ValueError) and "integer string conversion" in str(e):
        return tr("tableview_fault.huge_amount")
    if isinstance(e, OSError) and e.strerror:
        return _one_line(tr("session.cannot_read", path=e.filename or "", reason=e.strerror))
    text = _one_line(str(e))
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text[:199] + "…" if len(text) > 200 else text


# --------------------------------------------------------------------------- HTTP
class _HeadReader(io.RawIOBase):
    """A connection's input, read under a deadline for a whole request head rather than per
    ``recv`` (while ``deadline`` is set): a trickle of bytes does not keep a connection alive."""

    def __init__(self, sock: socket.socket, idle: float | None, conn: _Connection | None = None) -> None:
        self.sock = sock
        self.idle = idle
        self.deadline: float | None = None
        self.conn = conn

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request head took too long")
            self.sock.settimeout(min(left, self.idle) if self.idle else left)
        n = self.sock.recv_into(buffer)
        if n and self.deadline is not None and self.conn is not None:
            self.conn.reading = True  # a head has begun: closed to make room only after every waiting one
        return n


class _Connection:
    """One open connection as the caps count it: the address it comes from, and whether it may be closed to make
    room for a new one. It may while nothing is being answered on it: it waits for a request (kept alive between
    two, or new), or for the rest of a head (``reading``); ``since`` is when it began to wait. ``evicted``: closed to
    make room, its place already the new connection's (its thread only has to end)."""

    __slots__ = ("sock", "client", "since", "reading", "answering", "evicted")

    def __init__(self, sock: socket.socket, client: str) -> None:
        self.sock = sock
        self.client = client
        self.since = time.monotonic()
        self.reading = False
        self.answering = False
        self.evicted = False


class _Handler(BaseHTTPRequestHandler):
    server_version = "banker-tableview"
    sys_version = ""
    protocol_version = "HTTP/1.1"  # keep-alive: a phone polling twice a second reuses its connection
    timeout = SOCKET_TIMEOUT
    server: _HTTPServer

    def setup(self) -> None:
        super().setup()
        self._conn = self.server.connection_of(self.request)
        self._reader = _HeadReader(self.connection, self.timeout, self._conn)
        self.rfile.close()  # the file StreamRequestHandler made; the socket stays open
        self.rfile = io.BufferedReader(self._reader)

    def handle_one_request(self) -> None:
        # the deadline runs from now (the accept, or the end of the last answer) to the end of the head
        self._reader.deadline = time.monotonic() + HEAD_DEADLINE
        if self._conn is not None:  # waiting again: it may be closed to make room, until an answer begins
            self._conn.since, self._conn.reading, self._conn.answering = time.monotonic(), False, False
        super().handle_one_request()

    def parse_request(self) -> bool:
        ok = super().parse_request()  # reads the headers, under the deadline
        self._reader.deadline = None
        self.connection.settimeout(self.timeout)
        return ok

    # ---- everything but GET and HEAD is refused as if nothing were there
    def __getattr__(self, name: str) -> Any:
        if name.startswith("do_"):
            return self._refuse
        raise AttributeError(name)

    def _refuse(self) -> None:
        self.close_connection = True  # a body may follow that we will not read
        self._send(404, b"not found\n", "text/plain; charset=utf-8")

    def do_GET(self) -> None:
        self._route(head=False)

    def do_HEAD(self) -> None:
        self._route(head=True)

    def _route(self, head: bool) -> None:
        owner = self.server.owner
        host = self.headers.get("Host")
        if host is None:
            self.close_connection = True
            self._send(400, b"a Host header is required\n", "text/plain; charset=utf-8", head)
            return
        if not owner.host_allowed(host, self.connection):
            # a name this server was not started for: a page of another site reaching it through a
            # rebound DNS name is refused before the token is even looked at
            self.close_connection = True
            self._send(421, b"misdirected request\n", "text/plain; charset=utf-8", head)
            return
        path = self.path.split("?", 1)[0].split("#", 1)[0] if self.path.startswith("/") else ""
        token, sep, rest = path[1:].partition("/")
        if not path or not hmac.compare_digest(token.encode("utf-8"), owner.token.encode("utf-8")):
            self._send(404, b"not found\n", "text/plain; charset=utf-8", head)
            return
        if not sep:
            self._send(301, b"", "text/plain; charset=utf-8", head, [("Location", f"/{owner.token}/")])
            return
        if rest in ("", "index.html"):
            self._send(200, owner.page, "text/html; charset=utf-8", head)
        elif rest == "state.json":
            assert owner.source is not None  # set before the server answers anything
            body, etag, _version = owner.source.current
            extra = [("ETag", etag)]
            if self.headers.get("If-None-Match") == etag:
                self._send(304, b"", None, head, extra)
            else:
                self._send(200, body, "application/json; charset=utf-8", head, extra)
        elif rest in STATIC:
            self._send(200, owner.static[rest], STATIC[rest], head)
        else:
            self._send(404, b"not found\n", "text/plain; charset=utf-8", head)

    def _send(self, code: int, body: bytes, ctype: str | None, head: bool = False,
              headers: list[tuple[str, str]] | None = None) -> None:
        if not self.server.answering(self._conn):  # closed a moment ago to make room: nothing more is said on it
            self.close_connection = True
            return
        self.send_response(code)
        if ctype:
            self.send_header("Content-Type", ctype)
        if code != 304:
            self.send_header("Content-Length", str(len(body)))
        for name, value in headers or ():
            self.send_header(name, value)
        if self.server.owner.stopping:
            self.close_connection = True
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if body and not head and code != 304:
            self.wfile.write(body)
        self.server.owner.answered += 1

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """What the standard library's parsing refuses (a request line it cannot read, a version it does not know, a
        line or a head too long) answered as everything else is: a bare text with the security headers, never its
        HTML page. Its ``message`` is not used: "Bad request syntax ('GET /<token>/ x HTTP/1.1')" echoed the request
        line, token and all, in the reason phrase; the status's standard phrase says enough. A request line it cannot
        read set no version (HTTP/0.9, which has no status line or headers); it is answered as HTTP/1.1, since an
        HTTP/0.9 request (``GET path`` alone) is read and answered by the route, never here."""
        log.debug("answered %d to a request that could not be read", code)
        self.close_connection = True
        if self.request_version == "HTTP/0.9":
            self.request_version = self.protocol_version
        phrase = self.responses.get(code, ("error",))[0]
        self._send(code, f"{phrase.lower()}\n".encode(), "text/plain; charset=utf-8", self.command == "HEAD")

    def version_string(self) -> str:
        """``banker-tableview``: the standard library's adds the Python version after a space (``sys_version``,
        empty here, left "banker-tableview " with a trailing space)."""
        return self.server_version

    def end_headers(self) -> None:
        for name, value in SECURITY_HEADERS:
            self.send_header(name, value)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # never on the terminal: the console owns it

    def log_error(self, format: str, *args: Any) -> None:
        log.debug(format, *args)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], owner: TableServer, family: int) -> None:
        self.address_family = family
        self.owner = owner
        #: every open connection, those closed to make room included until their threads end
        self._open: dict[socket.socket, _Connection] = {}
        self._open_lock = threading.Lock()
        #: the connections each address holds, and all of them (those closed to make room no longer count)
        self._per_client: dict[str, int] = {}
        self._held = 0
        self.refused = 0  # connections closed at once (over a cap)
        self.evicted = 0  # waiting connections closed to make room for a new one
        super().__init__(address, _Handler)

    def connection_of(self, request: socket.socket) -> _Connection | None:
        with self._open_lock:
            return self._open.get(request)

    def answering(self, conn: _Connection | None) -> bool:
        """Whether an answer may begin on ``conn``: not once it was closed to make room. From then on it is never
        closed to make room, so an answer is never cut short by the cap."""
        if conn is None:
            return True
        with self._open_lock:
            if conn.evicted:
                return False
            conn.answering = True
            return True

    def _take(self, request: socket.socket, client: str) -> _Connection | None:
        """A place for a new connection from ``client``, or None (it is closed at once): none while the address
        holds its share; at the cap in all, the place of a waiting connection that is closed for it."""
        victim = None
        with self._open_lock:
            held = self._per_client.get(client, 0)
            if held >= MAX_PER_CLIENT:
                return None
            if self._held >= MAX_CONNECTIONS:
                if len(self._open) - self._held >= MAX_CLOSING:
                    return None
                victim = self._victim(held)
                if victim is None:
                    return None
                victim.evicted = True  # its place is the new connection's from now
                self._count_out(victim.client)
            conn = _Connection(request, client)
            self._open[request] = conn
            self._per_client[client] = held + 1
            self._held += 1
        if victim is not None:
            self.evicted += 1
            try:  # its thread, waiting to read, reads the end and ends
                victim.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return conn

    def _victim(self, held: int) -> _Connection | None:
        """The connection closed to make room for a new one from an address that holds ``held``: a connection where
        nothing is being answered, of the address holding the most (and more than the new one's: room is never made
        by moving a place between two addresses that hold as many), a waiting one before one in the middle of a head,
        and of these the one waiting the longest. So the phones' connections, one or two an address and asking twice
        a second, are the last ever closed; and a few addresses holding every place with idle keep-alive connections
        (or slow heads) give one up to each new device, rather than locking the table out. Closing a connection
        between two requests is what HTTP allows a server at any time (a client asks again on a new one, as a
        browser does by itself); one where an answer has begun is never closed. None when no connection fits."""
        best: _Connection | None = None
        best_key: tuple[int, bool, float] | None = None
        for conn in self._open.values():
            if conn.evicted or conn.answering:
                continue
            n = self._per_client.get(conn.client, 0)
            if n <= held:
                continue
            key = (-n, conn.reading, conn.since)
            if best_key is None or key < best_key:
                best, best_key = conn, key
        return best

    def _count_out(self, client: str) -> None:
        held = self._per_client.get(client, 0) - 1
        if held > 0:
            self._per_client[client] = held
        else:
            self._per_client.pop(client, None)
        self._held -= 1

    def _give_back(self, request: socket.socket) -> None:
        with self._open_lock:
            conn = self._open.pop(request, None)
            if conn is not None and not conn.evicted:  # an evicted one's place was given to the new one already
                self._count_out(conn.client)

    def process_request(self, request: Any, client_address: Any) -> None:
        client = str(client_address[0])
        if self._take(request, client) is None:
            self.refused += 1
            self.shutdown_request(request)  # full, in all or for this address: this one is dropped, the others go on
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._give_back(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._give_back(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.debug("request from %s failed", client_address, exc_info=True)  # never on the terminal

    def close_connections(self) -> None:
        with self._open_lock:
            sockets = list(self._open)
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


# --------------------------------------------------------------------------- the server
def _static(name: str) -> bytes:
    return (resources.files(__package__) / "static" / name).read_bytes()


#: the resolver's answers for a --host that names nothing ("Name or service not known", "No address associated with
#: hostname"; EAI_NODATA where the platform has it; EAI_AGAIN, no name server answering: none found either)
_UNKNOWN_NAME = frozenset(getattr(socket, n) for n in ("EAI_NONAME", "EAI_NODATA", "EAI_AGAIN") if hasattr(socket, n))


class TableServer:
    """The players' page of one session. ``start()`` binds and serves in daemon threads;
    ``stop()`` (or leaving the ``with`` block) stops serving and frees the port.

    ``host`` is where it listens and what the URL names (default: the LAN address, never every
    interface unless asked with ``0.0.0.0``); ``port`` 0 takes a free port.
    """

    def __init__(self, path: str | Path, host: str | None = None, port: int = 0, lang: str = "en",
                 token: str | None = None, interval: float = REFRESH_INTERVAL) -> None:
        self.path = Path(path)
        self.host = host or lan_address()
        self.port = int(port)
        self.lang = lang
        self.token = token or secrets.token_urlsafe(16)
        self.interval = interval
        self.source: TableSource | None = None
        self.page = b""
        self.static: dict[str, bytes] = {}
        self.answered = 0
        self.stopping = False
        self._names: set[str] = set()
        self._httpd: _HTTPServer | None = None
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()

    # ---- address
    @property
    def url(self) -> str:
        """The page's full address, token included (what the QR code holds)."""
        host = self.host
        if host in ("0.0.0.0", ""):
            host = lan_address()
        elif host == "::":
            host = "::1" if lan_address() == "127.0.0.1" else lan_address()
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/{self.token}/"

    @property
    def running(self) -> bool:
        return self._httpd is not None and not self.stopping

    @property
    def fault(self) -> str | None:
        """A fault (a bug) that keeps the page from showing the table as it stands, as one line; None
        when all is well. The page shows it too; the console polls this to say it."""
        return self.source.fault if self.source is not None else None

    @property
    def read_error(self) -> str | None:
        """Why the session file cannot be read right now (moved away, cut short...), as one line; None when it can. The
        page says it shows the last table seen; the command line polls this to say it."""
        return self.source.error if self.source is not None else None

    @property
    def damage(self) -> Any:
        """What is damaged in the session served (a ``Said``: a journal line changed on disk, before or while it serves),
        read as far as it can be; None when the log reads whole. The page says it; ``banker serve`` polls this to print
        it when it comes while serving, as it does when it starts on a damaged file."""
        session = self.source.session if self.source is not None else None
        return session.damage_message if session is not None and session.damage else None

    def host_allowed(self, host: str, connection: socket.socket | None = None) -> bool:
        """Whether a request's ``Host`` header names this server: the address the client connected
        to, the address or name it was started with, or (on loopback or every interface) localhost
        and this machine's name; with this server's port (or none, on port 80)."""
        host = host.strip().lower()
        if host.startswith("["):
            name, _, rest = host[1:].partition("]")
            port = rest[1:] if rest.startswith(":") else ("" if not rest else None)
        elif host.count(":") == 1:
            name, _, port = host.partition(":")
        else:
            name, port = host, ""
        if port is None or (port != str(self.port) and not (port == "" and self.port == 80)):
            return False
        name = name.rstrip(".")
        if not name:
            return False
        if name in self._names:
            return True
        if connection is not None:
            try:
                local = connection.getsockname()[0]
            except OSError:
                return False
            return _same_address(name, local)
        return False

    def _known_names(self) -> set[str]:
        names = {self.host.lower().rstrip(".")}
        bound = self._httpd.server_address[0] if self._httpd is not None else self.host
        names.add(str(bound).lower())
        loopback = _is_loopback(bound)
        if bound in ("0.0.0.0", "::") or loopback:
            names |= {"localhost", "127.0.0.1", "::1"}
        if bound in ("0.0.0.0", "::") or not loopback:
            machine = socket.gethostname().lower().rstrip(".")
            if machine:
                names |= {machine, machine.split(".")[0] + ".local"}
        if bound in ("0.0.0.0", "::"):
            names.add(lan_address())
        return names

    # ---- life
    def start(self) -> TableServer:
        """Open the session read-only, bind, and serve in the background. Raises
        :class:`banker.ledger.SessionError` for the file, :class:`ServeError` for the address."""
        if self._httpd is not None:
            return self
        source = TableSource(self.path, self.lang)  # a missing or damaged file is refused here
        tr = source.tr
        page = _static("index.html").decode("utf-8")
        for mark, text in (("__LANG__", tr.lang), ("__TITLE__", tr("tableview.title")),
                           ("__LOADING__", tr("tableview.loading")), ("__LOST__", tr("tableview.connection_lost")),
                           ("__GONE__", tr("tableview.gone"))):
            page = page.replace(mark, html.escape(text))
        try:
            httpd = self._bind()
        except BaseException:
            source.close()
            raise
        self.source = source
        self.page = page.encode("utf-8")
        self.static = {name: _static(name) for name in STATIC}
        self._httpd = httpd
        self.port = httpd.server_address[1]
        self._names = self._known_names()
        self._stop.clear()
        serve = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.2},
                                 name="tableview-http", daemon=True)
        watch = threading.Thread(target=self._watch, name="tableview-refresh", daemon=True)
        self._threads = [serve, watch]
        serve.start()
        watch.start()
        return self

    def _bind(self) -> _HTTPServer:
        host = self.host
        try:
            infos = socket.getaddrinfo(host, self.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        except socket.gaierror as e:
            if e.errno in _UNKNOWN_NAME:  # said in the banker's language (it was the resolver's English)
                raise ServeError(f"cannot listen on {host}: no address found for that name; give this machine's address, "
                                 "or leave --host out", "unknown_host", host=host) from None
            raise ServeError(f"cannot listen on {host}: {e.strerror or e}", "cannot_listen", host=host,
                             reason=e.strerror or e) from None
        family, _t, _p, _c, address = infos[0]
        try:
            return _HTTPServer((str(address[0]), self.port), self, family)
        except OSError as e:
            import errno

            if e.errno == errno.EADDRINUSE:
                raise ServeError(f"port {self.port} on {host} is already in use; choose another with --port "
                                 "(0 takes any free port)", "port_in_use", port=self.port, host=host) from None
            if e.errno == errno.EADDRNOTAVAIL:
                raise ServeError(f"cannot listen on {host}: not an address of this machine", "not_here", host=host) from None
            if e.errno == errno.EACCES:
                raise ServeError(f"port {self.port} needs privileges; choose one above 1023 with --port", "privileged",
                                 port=self.port) from None
            raise ServeError(f"cannot listen on {host} port {self.port}: {e.strerror or e}", "cannot_listen_port", host=host,
                             port=self.port, reason=e.strerror or e) from None

    def _watch(self) -> None:
        """Look for new entries every ``interval`` seconds; a failure is logged, never raised."""
        source = self.source
        assert source is not None  # set before this thread starts
        while not self._stop.wait(self.interval):
            try:
                source.update()
            except Exception as e:  # a bug here must not end the page: it is shown there and to the console
                log.exception("refreshing the table view failed")
                source.report(e)
                self._stop.wait(1.0)

    def stop(self) -> None:
        """Stop serving: the port is free and open connections are closed when this returns."""
        httpd = self._httpd
        if httpd is None or self.stopping:
            return
        self.stopping = True
        self._stop.set()
        try:
            httpd.shutdown()
        finally:
            httpd.server_close()
            httpd.close_connections()
            for t in self._threads:
                t.join(timeout=2.0)
            if self.source is not None:
                self.source.close()

    def refresh(self) -> bool:
        """Look for new entries now (tests; the background thread does it every ``interval``)."""
        return self.source.update() if self.source is not None else False

    def __enter__(self) -> TableServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "serving" if self.running else "stopped"
        return f"<TableServer {self.path.name} {state} at {self.url if self._httpd else self.host}>"
