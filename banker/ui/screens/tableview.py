"""The players' table view from the console: start the page server, show its QR code.

The server (``banker.tableview.server.TableServer``, started by ``BankerApp.start_table_server``)
runs in threads of the console's process but reads the session on its own, read-only: it never
writes the file and never waits on the console. It keeps running when this dialog closes, and
stops with the console (``BankerApp.on_unmount``), when another session is opened, or with ``s``
here. The address is the machine's LAN address on a free port; ``BANKER_TABLEVIEW_HOST`` /
``BANKER_TABLEVIEW_PORT`` choose others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ..keys import with_layouts
from .dialogs import Dialog, dialog_title

if TYPE_CHECKING:  # pragma: no cover
    from banker.i18n import Translator
    from banker.tableview.server import TableServer


#: lines and columns the dialog needs around the code: its border and padding, the title and its
#: margin, the address line; and the footer below it
CHROME_LINES = 2 + 2 + 1 + 1
CHROME_COLUMNS = 2 + 2
#: seconds between two looks at the page server's fault while the dialog is up
FAULT_POLL = 1.0


def start_error(tr: Translator, e: Exception) -> str:
    """Why the players' page could not start, in the banker's language: the server's reason (``[serve_said]``) in the
    console's words where they differ (``[tableview_serve]``: the environment, as the console has no ``--port``);
    anything else as the page says its faults (:func:`banker.tableview.server.fault_said`)."""
    from banker.tableview.server import ServeError, fault_said

    if isinstance(e, ServeError):
        return tr.get(f"tableview_serve.{e.key}", "", **e.params) or tr.get(f"serve_said.{e.key}", str(e), **e.params)
    return fault_said(e, tr)


class TableViewScreen(Dialog[None]):
    """The QR code of the players' page and its address."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding(with_layouts("escape,enter,q"), "close", "Close"),
                                            Binding(with_layouts("s"), "stop", "tableview.stop")]

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
        self.server: TableServer | None = None
        self.qr = ""
        self.qr_size = (0, 0)

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        with Vertical(classes="dialog tableview", id="tv-dialog"):
            yield dialog_title(tr("tableview.title"))
            yield Static("", id="tv-url")
            with Horizontal(id="tv-row"):
                yield Static("", id="tv-qr")
                with Vertical(id="tv-about"):
                    yield Static(tr("tableview.scan"), id="tv-scan", classes="dialog-note")
                    yield Static(tr("tableview.keeps"), classes="dialog-note")
            yield Static("", id="tv-error", classes="dialog-error", markup=False)

    def on_mount(self) -> None:
        from banker.tableview.qr import qr_text

        try:
            self.server = self.app.start_table_server()
        except Exception as e:  # an address in use, a network down...: said, never fatal
            self._show_error(self.app.tr("tableview.failed", error=start_error(self.app.tr, e)))
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
        self.app.stop_table_server()
        self.server = None
        self.qr = ""
        self._show_error(self.app.tr("tableview.stopped"))

    def action_close(self) -> None:
        self.dismiss(None)
