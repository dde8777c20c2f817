"""The players' table view from the console: start the page server, show its QR code.

The server (``banker.tableview.server.TableServer``) runs in threads of the console's process but
reads the session on its own, read-only: it never writes the file and never waits on the console.
It keeps running when this dialog closes, and stops with the console (``BankerApp.on_unmount``),
when another session is opened, or with ``s`` here. The address is the machine's LAN address on
a free port; ``BANKER_TABLEVIEW_HOST`` / ``BANKER_TABLEVIEW_PORT`` choose others.
"""

from __future__ import annotations

import gc
import os
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Static

from .dialogs import Dialog

if TYPE_CHECKING:  # pragma: no cover
    from banker.tableview.server import TableServer

#: lines and columns the dialog needs around the code: its border and padding, the title and its
#: margin, the address line; and the footer below it
CHROME_LINES = 2 + 2 + 1 + 1
CHROME_COLUMNS = 2 + 2


def table_server_options(environ: dict[str, str] | None = None) -> dict[str, Any]:
    """Where the console's page server listens: the LAN address on a free port unless the
    environment says otherwise."""
    env = os.environ if environ is None else environ
    options: dict[str, Any] = {}
    if env.get("BANKER_TABLEVIEW_HOST"):
        options["host"] = env["BANKER_TABLEVIEW_HOST"]
    if env.get("BANKER_TABLEVIEW_PORT", "").isdigit():
        options["port"] = int(env["BANKER_TABLEVIEW_PORT"])
    return options


def start_table_server(app: Any) -> TableServer:
    """The running page server of the app's session, started if need be (raises on failure)."""
    server = getattr(app, "table_server", None)
    if server is not None and server.running and server.path == app.session.path:
        return server
    stop_table_server(app)
    from banker.tableview.server import TableServer

    server = TableServer(app.session.path, lang=app.lang, **table_server_options())
    server.start()
    app.table_server = server
    watch_fault(app, server)
    # the page's own copy of the game lives as long as the server: out of the collector's way, as
    # the console's is (a full collection never walks it in the middle of an action)
    gc.freeze()
    return server


#: seconds between two looks at the page server's fault
FAULT_POLL = 1.0


def watch_fault(app: Any, server: TableServer) -> None:
    """Say in the console when the page server cannot show the table (a fault in banker), once per
    fault, for as long as this server is the app's; the page says it to the players too."""
    said: list[str | None] = [None]

    def check() -> None:
        if getattr(app, "table_server", None) is not server or not server.running:
            timer.stop()
            return
        fault = server.fault
        if fault and fault != said[0]:
            app.notify(app.tr("tableview.console_fault", error=fault), severity="error", timeout=30)
        said[0] = fault

    timer = app.set_interval(FAULT_POLL, check, name="tableview-fault")


def stop_table_server(app: Any) -> None:
    server = getattr(app, "table_server", None)
    app.table_server = None
    if server is not None:
        server.stop()


class TableViewScreen(Dialog):
    """The QR code of the players' page and its address."""

    BINDINGS = [Binding("escape,enter,q", "close", "Close")]

    DEFAULT_CSS = """
    TableViewScreen .dialog.tableview {
        width: 76;
    }
    TableViewScreen #tv-url {
        height: auto;
        color: $text;
        text-style: bold;
    }
    TableViewScreen #tv-row {
        height: auto;
    }
    TableViewScreen #tv-qr {
        width: auto;
        height: auto;
        color: #000000;
        background: #ffffff;
    }
    TableViewScreen #tv-about {
        width: 1fr;
        height: auto;
        padding: 0 0 0 2;
    }
    TableViewScreen #tv-about Static {
        margin-bottom: 1;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        tr = self.app.tr
        self._bindings = self._bindings.copy()
        self._bindings.bind("s", "stop", tr("tableview.stop"), show=True)
        self.server: TableServer | None = None
        self.qr = ""
        self.qr_size = (0, 0)

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        with Vertical(classes="dialog tableview", id="tv-dialog"):
            yield Label(tr("tableview.title"), classes="dialog-title")
            yield Static("", id="tv-url")
            with Horizontal(id="tv-row"):
                yield Static("", id="tv-qr")
                with Vertical(id="tv-about"):
                    yield Static(tr("tableview.scan"), id="tv-scan", classes="dialog-note")
                    yield Static(tr("tableview.keeps"), classes="dialog-note")
            yield Static("", id="tv-error", classes="dialog-error")

    def on_mount(self) -> None:
        from banker.tableview.qr import qr_text

        try:
            self.server = start_table_server(self.app)
        except Exception as e:  # an address in use, a network down...: said, never fatal
            self._show_error(self.app.tr("tableview.failed", error=str(e)))
            return
        self.qr = qr_text(self.server.url)
        lines = self.qr.split("\n")
        self.qr_size = (len(lines[0]), len(lines))
        self.query_one("#tv-url", Static).update(Text(self.server.url, no_wrap=True, overflow="fold"))
        self._fit()
        self.set_interval(FAULT_POLL, self._fit)  # a fault of the page shows here while it lasts

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """The code when it fits whole (a cut code cannot be read), else why not and the address."""
        if self.server is None or not self.qr:
            return
        width, height = self.qr_size
        screen = self.app.size
        need = (width + CHROME_COLUMNS, height + CHROME_LINES)
        qr = self.query_one("#tv-qr", Static)
        fault = self.server.fault
        if screen.width >= need[0] and screen.height >= need[1]:
            qr.update(Text(self.qr, no_wrap=True))
            qr.display = True
            self.query_one("#tv-error", Static).update(self.app.tr("tableview.console_fault", error=fault) if fault else "")
        else:
            qr.update("")
            qr.display = False
            self.query_one("#tv-error", Static).update(
                self.app.tr("tableview.too_small", width=need[0], height=need[1]))

    def _show_error(self, text: str) -> None:
        self.query_one("#tv-qr", Static).display = False
        self.query_one("#tv-row").display = False
        self.query_one("#tv-url", Static).update("")
        self.query_one("#tv-error", Static).update(text)

    def action_stop(self) -> None:
        stop_table_server(self.app)
        self.server = None
        self.qr = ""
        self._show_error(self.app.tr("tableview.stopped"))

    def action_close(self) -> None:
        self.dismiss(None)
