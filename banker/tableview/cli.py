"""``banker serve FILE [--host H] [--port P] [--lang L]``: the players' page from the shell.

Prints the page's full address and its QR code, then serves until Ctrl+C (or SIGTERM), and
exits 0. It only reads the session, so it may run beside the console or ``banker apply``
writing the same file.
"""

from __future__ import annotations

import signal
import sys
import time
from typing import TextIO

from banker.i18n import Translator, visible

from .qr import ansi_qr_text, qr_text
from .server import TableServer


def _terminate(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _damage_said(server: TableServer, tr: Translator) -> str | None:
    """The warning of a damaged session, as ``banker state`` prints it (None when the log reads whole): a session opened
    damaged, or damaged while it is served, which the page says too. Terminal-safe: the sentence names the file, and
    a file's name may hold a control character."""
    message = server.damage
    return visible("banker serve: " + tr("cli.warning", message=tr.session(message))) if message else None


def serve(path: str, host: str | None = None, port: int = 0, lang: str = "en", out: TextIO | None = None) -> int:
    """Serve the page of the session at ``path`` until interrupted. Raises ``SessionError`` for
    the file and ``ServeError`` for the address, before anything is printed."""
    out = out or sys.stdout
    tr = Translator(lang)
    server = TableServer(path, host=host, port=port, lang=lang)
    server.start()
    previous = None
    try:
        try:
            previous = signal.signal(signal.SIGTERM, _terminate)
        except ValueError:  # not the main thread
            previous = None
        name = server.source.session.name if server.source else path
        damage = _damage_said(server, tr)
        if damage:  # the page shows what can be read, as `banker state` does; the banker is told
            print(damage, file=out, flush=True)
        tty = out.isatty()
        code = ansi_qr_text(server.url) if tty else qr_text(server.url)
        print("banker serve: " + tr("serve_said.head", name=name, path=path), file=out)
        print(f"  {server.url}", file=out)
        print(tr("serve_said.scan"), file=out)
        print(code, file=out)
        if server.host in ("0.0.0.0", "::"):
            print(tr("serve_said.listening_all", port=server.port), file=out, flush=True)
        else:
            print(tr("serve_said.listening_host", host=server.host, port=server.port), file=out, flush=True)
        said = unreadable = None
        while True:
            time.sleep(1.0)
            fault = server.fault
            if fault and fault != said:  # a fault in banker: the page shows the last good table, and says so
                print("banker serve: " + tr("serve_said.fault", fault=fault), file=out, flush=True)
            said = fault
            error = server.read_error
            if error != unreadable:  # the file moved away or cut short, and back: the banker is told each change
                print("banker serve: " + (tr("serve_said.unreadable", error=error) if error
                                          else tr("serve_said.readable_again")), file=out, flush=True)
            unreadable = error
            now = _damage_said(server, tr)
            if now and now != damage:  # damaged while served (a journal line changed): the page says it, and so does this
                print(now, file=out, flush=True)
            damage = now
    except KeyboardInterrupt:
        print("banker serve: " + tr("serve_said.stopped"), file=out, flush=True)
        return 0
    finally:
        server.stop()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
