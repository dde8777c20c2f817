"""The banker's console: a Textual app that is a thin client of the rules engine and the
session log. Every action is committed to the log before the screen shows it done.

The App owns the session. What the screens show flows down as reactive attributes they watch
(``version``, bumped at every change of the session; ``status``, the message line); what they
ask for flows up as messages (:mod:`banker.ui.messages`). The App never reaches into a screen.
"""

from __future__ import annotations

from . import loading  # isort: skip  (first: the collector paused while the console's modules load)

import gc
import os
import random
import sys
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker

from banker.i18n import Translator, detect_lang
from banker.ledger import Entry, Session, SessionDamaged, SessionError, SessionReader, SessionWriter, TableChanged
from banker.ledger.storage import FileRefused
from banker.rules import Move, Refused, Setup

from .keys import ACTIONS, shown_key
from .messages import ActionRequested, MessageShown, RefusalShown, Status, TimeUp
from .opening import Opening

if TYPE_CHECKING:  # pragma: no cover
    from banker.tableview.server import TableServer

    from .actions import Flow

#: seconds after an action when the idle garbage collection runs
IDLE_GC_DELAY = 0.5
#: how many middle-generation passes before a full one is due the idle collection runs
IDLE_GC_MARGIN = 3
#: while a session is shown, a full collection is due only after this many times the usual number of
#: middle-generation passes: the idle collection after an action runs it first, so it never falls in the middle
#: of the next action (the limit still bounds the memory of a banker who only opens and cancels dialogs)
HELD_FULL_GC = 10
#: seconds between two looks at the players' page server's fault
TABLE_FAULT_POLL = 1.0


def table_server_options(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Where the console's page server listens: the LAN address on a free port unless the
    environment says otherwise (``BANKER_TABLEVIEW_HOST``, ``BANKER_TABLEVIEW_PORT``)."""
    env = os.environ if environ is None else environ
    options: dict[str, Any] = {}
    if env.get("BANKER_TABLEVIEW_HOST"):
        options["host"] = env["BANKER_TABLEVIEW_HOST"]
    if env.get("BANKER_TABLEVIEW_PORT", "").isdigit():
        options["port"] = int(env["BANKER_TABLEVIEW_PORT"])
    return options


def local_now() -> datetime:
    """The table's clock: now, in the machine's time zone."""
    return datetime.now().astimezone()


#: the console's one stylesheet (see :func:`compact_css`)
STYLESHEET = Path(__file__).with_name("banker.tcss")


def compact_css(text: str) -> str:
    """A Textual stylesheet without its comments and the whitespace its parser only skips: the same rules in half
    the tokens. Textual's tokenizer makes a token of every run of whitespace, and parsing banker.tcss (some 1,400
    tokens, half of them whitespace) was the largest part of the stylesheets parsed before the console's first
    frame (issue #14: 9.4 ms to 6.9 ms, same rules, measured with ``Stylesheet``). Whitespace between words stays
    one space (``padding: 0 1``, ``A B``), so what the rules mean is unchanged; tests/test_quick_open.py compares the
    rules parsed from both. String methods, not ``re``: compiling the patterns cost about as much as they saved.
    (No CSS minifier from PyPI: they know neither Textual's nesting nor its variables.)"""
    while (start := text.find("/*")) >= 0:
        end = text.find("*/", start + 2)
        text = text[:start] + " " + (text[end + 2:] if end >= 0 else "")
    text = " ".join(text.split())
    for mark in "{};":
        text = text.replace(" " + mark, mark).replace(mark + " ", mark)
    return text.replace(": ", ":")


#: the line of banker.tcss where the table's part ends and the rest begins (:func:`stylesheet_parts`)
REST_MARK = "/* ================================================================ the rest"
#: the rest's name among the console's stylesheet's sources (:meth:`BankerApp.load_whole_stylesheet`)
REST_SOURCE = (str(STYLESHEET), "the rest")


def stylesheet_parts(text: str) -> tuple[str, str]:
    """banker.tcss in its two parts, each compacted (:func:`compact_css`): the table's, parsed before the console's
    first frame, and the rest (the dialogs, the start, the review, counting the table), parsed once the table has
    been drawn (:meth:`BankerApp.load_whole_stylesheet`). Parsing the rest was some 5% of what the console did over
    an empty Textual app before its first frame (issue #14: 16 M instructions, callgrind); the table, which the
    banker reads, comes first. One stylesheet still, in one file: the mark is a comment line in it."""
    table, mark, rest = text.partition(REST_MARK)
    if not mark:
        raise ValueError(f"banker.tcss has no line starting {REST_MARK!r}: where the table's part of it ends")
    return compact_css(table), compact_css(mark + rest)


#: banker.tcss read as the console's module loads: the table's part and the rest, compacted
TABLE_CSS, REST_CSS = stylesheet_parts(STYLESHEET.read_text(encoding="utf-8"))


class BankerApp(App[None]):
    # the table's part of the stylesheet, parsed as the console starts (the rest: load_whole_stylesheet); an error in
    # it names the rule (the stylesheet test parses banker.tcss as written, with line numbers)
    CSS = TABLE_CSS
    TITLE = "banker"
    # descriptions in the interface's language where the screens show them (screens/base.py)
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    #: bumped after every change of the open session (an action recorded, another session shown):
    #: the screens that show the session watch it and refresh
    version: var[int] = var(0)
    #: the table's message line: what was just done, or why not
    status: var[Status] = var(Status())

    def __init__(self, path: str | Path | None = None, lang: str | None = None, data_dir: str | Path | None = None,
                 seed: int | None = None, review: bool = False, clock: Callable[[], datetime] | None = None,
                 opening: Opening | None = None) -> None:
        super().__init__()
        #: the table's clock (an aware time): the agreed end of a timed game is set and counted down by it;
        #: tests give a frozen one
        self.clock: Callable[[], datetime] = clock or local_now
        self.review_only = review  # `banker review`: the session read-only, on the review screen
        self.lang = lang or detect_lang()
        self.tr = Translator(self.lang)
        self.path = Path(path) if path else None
        self.data_dir = Path(data_dir) if data_dir else None
        self._random = random.Random(seed)
        self.session: SessionReader | SessionWriter | None = None
        self.open_error = ""  # why the last session could not be opened or created
        self._flow: Flow | None = None
        self._idle_gc: Timer | None = None
        self._gc_threshold: tuple[int, int, int] | None = None  # the collector's thresholds before the console's
        self.table_server: TableServer | None = None  # the players' page (banker.tableview), started by its key
        #: the session of the command line, opening in a thread: the command's (banker.cli), or run's own
        self._opening: Opening | None = opening

    @property
    def current_session(self) -> SessionReader | SessionWriter:
        """The open session, for the screens that show it (they exist only while one is open)."""
        if self.session is None:
            raise RuntimeError("no session is open")
        return self.session

    @property
    def flow(self) -> Flow:
        """The action flows (imported on first use: the first frame does not wait for them)."""
        if self._flow is None:
            from .actions import Flow

            self._flow = Flow(self)
        return self._flow

    def run(self, **kwargs: Any) -> None:
        """Run the console (Textual's ``App.run``), with no cyclic garbage collection until its first frame is
        drawn: what is made at the start (the widgets, the styles, the game) lives as long as the console, and
        a collection would walk all of it for nothing (a full one took 40 ms before a long game's review showed).
        Once the first frame is drawn, what there is is moved out of the collector's way (``gc.freeze``, as
        :meth:`show_session` does) and the collector is back on; so it is too if the run ends before that.

        The session named on the command line is opening in a thread (:class:`Opening`) while Textual starts:
        the command started it before loading the console (``banker open``), or it starts here at once."""
        self._gc_paused = gc.isenabled()
        if self._gc_paused:
            gc.disable()
        if self.path is not None and self._opening is None:
            self._opening = Opening(self.path, readonly=self.review_only)
        try:
            return super().run(**kwargs)
        finally:
            self._resume_gc()
            self._drop_opening()

    def _resume_gc(self) -> None:
        if getattr(self, "_gc_paused", False):
            self._gc_paused = False
            gc.freeze()
            gc.enable()

    # ----------------------------------------------------------------- sessions
    def get_default_screen(self) -> Screen[Any]:
        """The first screen (Textual asks as it starts): the table of the session named on the command line, or
        its review, made at once; no blank screen is made, styled and switched away from first. Without a
        session (or when it cannot be opened: :meth:`on_mount` then ends the run) Textual's own."""
        if self.path is not None:
            if self.review_only:
                from .screens.review import ReviewScreen  # loaded while the session opens in its thread

                if self._opened_for_review(self.path):
                    if self.session is not None and self.session.damage:  # said, as the table says it
                        self.call_after_refresh(self._show_review_damage, self.session)
                    self.load_whole_stylesheet()
                    return ReviewScreen(standalone=True)
            else:
                # the table's code loaded first: the interpreter busy with that while the session opening in its
                # thread still waits on the disk and on zlib
                from .screens.table import TableScreen

                session = self._opened(self.path)
                if session is not None:
                    self._take(session)
                    return TableScreen(session)
        return super().get_default_screen()

    @property
    def whole_stylesheet(self) -> bool:
        """Whether the rest of banker.tcss is in the console's stylesheet (:meth:`load_whole_stylesheet`)."""
        return self.stylesheet.has_source(*REST_SOURCE)

    def load_whole_stylesheet(self) -> None:
        """The rest of banker.tcss (:data:`REST_CSS`) added to the console's stylesheet, once: after the table's first
        frame, or before the first screen that is not the table (the start, the review; a dialog, as it is mounted,
        when one is opened before the table was drawn). Added as Textual adds a screen's own ``CSS`` when it is first
        shown (``App._load_screen_css``), through the ``Stylesheet``'s public methods: the source added, the nodes
        there are styled again (the table's match none of its rules: a test checks it). Not the dialogs' own
        ``Screen.CSS``: Textual adds that once for each class of screen shown, and a game shows some twenty."""
        if self.whole_stylesheet:
            return
        self.stylesheet.add_source(REST_CSS, read_from=REST_SOURCE)
        self.stylesheet.update(self)

    def on_mount(self) -> None:
        self.title = "banker"
        self.call_after_refresh(self._resume_gc)  # the first frame drawn: the collector back on
        self.call_after_refresh(self.load_whole_stylesheet)  # and the stylesheet's rest (on the table, not yet read)
        if self.path is None:
            from .screens.start import StartScreen

            self.load_whole_stylesheet()
            self.push_screen(StartScreen())
        elif self.session is None:  # the session named could not be opened (get_default_screen): said why
            self.exit(return_code=1, message=self.open_error)

    def _open(self, path: Path, readonly: bool = False) -> SessionReader | SessionWriter:
        """``Session.open(path, readonly)``: the one :meth:`run` started opening, if it is that one."""
        opening, self._opening = self._opening, None
        if opening is not None:
            if opening.path == path and opening.readonly == readonly:
                return opening.result()
            opening.discard()
        # a writer's checkpoint entries are left on the disk: checked once the table is drawn (check_replay)
        return Session.open(path, readonly=readonly, defer_table=not readonly)

    def _drop_opening(self) -> None:
        """The session opened for the run but never taken (the run ended first): closed, its lock let go."""
        opening, self._opening = self._opening, None
        if opening is not None:
            opening.discard()

    def open_session(self, path: Path, setup: Setup | None = None, name: str | None = None) -> bool:
        """Create (with ``setup``; never over an existing file) or open a session and show the table.
        False on a clear error (in :attr:`open_error`, and notified)."""
        session = self._opened(path, setup, name)
        if session is None:
            return False
        self.show_session(session)
        return True

    def _opened(self, path: Path, setup: Setup | None = None, name: str | None = None) -> SessionReader | SessionWriter | None:
        """The session created (with ``setup``) or opened, read-only when it is damaged; None on a clear error
        (in :attr:`open_error`, and notified)."""
        try:
            # a session opens from its logged effects; the engine checks them just after (check_replay)
            return Session.create(path, setup, name=name) if setup else self._open(path)
        except SessionDamaged:
            # damage is shown, never dropped: the table opens read-only until the banker runs `banker repair`
            try:
                return Session.open(path, readonly=True)
            except SessionError as e:
                self.notify(self.tr.session(e), severity="error", timeout=10)
                self.open_error = self.tr.session(e)
                return None
        except (SessionError, Refused) as e:
            said = self.tr.session(e) if isinstance(e, SessionError) else self.tr.refusal(e)
            self.notify(said, severity="error", timeout=10)
            self.open_error = said
            return None

    def show_session(self, session: SessionReader | SessionWriter) -> None:
        """Make ``session`` (open for writing) the console's, closing the previous one, and show the table."""
        from .screens.table import TableScreen

        self._take(session)
        if _is_start_screen(self.screen):
            self.switch_screen(TableScreen(session))
        else:
            self.push_screen(TableScreen(session))

    def _take(self, session: SessionReader | SessionWriter) -> None:
        """Make ``session`` the console's (the previous one closed), for the table about to show it."""
        # the game's objects live as long as the session: keep the cyclic collector off them,
        # so a collection never pauses an action late in a long game
        gc.freeze()
        if self._gc_threshold is None:  # full collections when idle (_idle_collect), not in an action
            self._gc_threshold = gc.get_threshold()
            young, middle, full = self._gc_threshold
            gc.set_threshold(young, middle, full * HELD_FULL_GC)
        self.stop_table_server()  # the players' page showed the previous session
        if self.session is not None:
            self.session.close()
        self.session = session
        self.status = Status()  # the new table's message line starts empty
        self.version += 1
        # once the table is on screen: neither the check nor loading the flows delays the first frame
        self.call_after_refresh(self.check_replay, session, len(session.entries))
        if session.damage:
            self.call_after_refresh(self._show_damage, session)
        if isinstance(session, SessionWriter) and session.lock_unnamed is not None:
            self.call_after_refresh(self._show_lock_unnamed, session)

    def _show_lock_unnamed(self, session: SessionWriter) -> None:
        """The lock was taken but this banker's name could not be written in FILE.lock (a full disk): said once, as
        the table opens, with the reason and what it means; the game goes on (another opener was told only that "another
        process has not written its name", and this banker nothing)."""
        if session is not self.session or session.lock_unnamed is None:
            return
        text = self.tr.session(session.lock_unnamed)
        self.show_message(text, error=False)
        self.notify(text, severity="warning", timeout=30)

    def _show_damage(self, session: SessionReader | SessionWriter) -> None:
        """A session opened read-only because it is damaged: say what is damaged and what to do."""
        if session is not self.session:
            return
        text = self.tr("table.damaged", detail=self.tr.session(session.damage_message))
        self.show_message(text, error=False)
        self.notify(text, severity="error", timeout=30)

    def _show_review_damage(self, session: SessionReader | SessionWriter) -> None:
        """`banker review` of a damaged session: its figures are what the file reads now, perhaps not what the game
        recorded; said as the table says it, with what is damaged and what to do."""
        if session is self.session:
            self.notify(self.tr("review.damaged", detail=self.tr.session(session.damage_message)), severity="error",
                        timeout=30)

    def _opened_for_review(self, path: Path) -> bool:
        """`banker review`: the session read-only (no lock: a game may be going on) made the console's; False
        when it cannot be opened (why in :attr:`open_error`)."""
        try:
            self.session = self._open(path, readonly=True)
        except SessionError as e:
            self.open_error = self.tr.session(e)
            return False
        return True

    def action_review(self) -> None:
        from .screens.review import ReviewScreen

        if self.session is not None:
            self.load_whole_stylesheet()  # its rules are in the rest (a review asked for before the table was drawn)
            self.push_screen(ReviewScreen())

    @work(thread=True, exclusive=True, group="replay-check")
    def check_replay(self, session: SessionReader | SessionWriter, upto: int) -> None:
        """Check the opened log with the rules engine, in the background; load the action flows.
        The table keeps showing what was recorded: an entry the rules give differently today is reported."""
        if isinstance(session, SessionWriter):  # its checkpoint's entries, left on the disk on open, checked first
            try:
                session.check_table()
            except TableChanged:
                self.call_from_thread(self._table_changed, session)
                return
            except SessionError:  # closed meanwhile (the console quit, another session opened), or unreadable:
                return  # the first action checks it again, and says why it cannot be recorded
        import banker.ui.actions  # noqa: F401  (so the first action does not wait for the import)
        import banker.ui.quick  # noqa: F401  (nor the command line's first word)

        if not upto:
            return
        findings = session.replay_check(upto)
        if findings:
            self.call_from_thread(self._report_findings, session)
        self.call_from_thread(gc.freeze)  # what the screen has built since the open, likewise

    def _table_changed(self, session: SessionWriter) -> None:
        """The checkpoint's entries, left on the disk when the session opened, are not what it sealed (changed by
        hand since): nothing is recorded in it any more; it is opened again read-only, which says what changed,
        as a session found damaged on open is."""
        if session is not self.session:
            return
        try:
            reader = Session.open(session.path, readonly=True)
        except SessionError as e:
            self.notify(self.tr.session(e), severity="error", timeout=30)
            return
        from .screens.table import TableScreen

        while not isinstance(self.screen, TableScreen) and len(self.screen_stack) > 1:
            self.pop_screen()  # an action begun meanwhile: it could not be recorded
        self.show_session(reader)  # the writer closed (no checkpoint over the changed entries), its lock let go

    def _report_findings(self, session: SessionReader | SessionWriter) -> None:
        if session is not self.session or session.closed:
            return
        for finding in session.snapshot_findings:  # the state opened from the checkpoint is not what the log gives
            self.notify(self.tr("checkpoint.snapshot_wrong", seq=finding.seq), severity="error", timeout=60)
        divergent = session.divergent
        if divergent:
            seqs = ", ".join(map(str, divergent[:10])) + ("…" if len(divergent) > 10 else "")
            self.notify(self.tr("table.divergent", seqs=seqs, n=len(divergent)), severity="warning", timeout=30)

    def on_unmount(self) -> None:
        if self._gc_threshold is not None:  # the collector as it was
            gc.set_threshold(*self._gc_threshold)
            self._gc_threshold = None
        self.stop_table_server()  # the players' page stops with the console
        if self.session is not None:
            self.session.close()

    @property
    def data_directory(self) -> Path:
        if self.data_dir is not None:
            return self.data_dir
        from banker.ledger import default_session_dir

        return Path(default_session_dir())

    def random_seed(self) -> int:
        return self._random.randrange(2**31)

    # ----------------------------------------------------------------- actions
    def record(self, cmd: dict[str, Any]) -> Entry:
        """Apply through the session log (durable before this returns), then show it; raising what kept ``cmd`` from
        being recorded, once it is said: :class:`Refused`, or a :class:`SessionError` (read-only, or the disk refused:
        :meth:`write_refused` tells whether the same action may be recorded again)."""
        session = self.current_session
        if not isinstance(session, SessionWriter):  # a damaged session, opened read-only
            error = SessionError(self.tr("table.readonly_refused", file=str(session.path)), key="readonly",
                                 file=session.path)
            self.refuse(error)
            raise error
        try:
            entry = session.apply(cmd)
        except (Refused, SessionError) as e:  # refused; or read-only, or the disk refused: nothing recorded
            # a write the disk refused, asked again with why on it (Flow.commit, the raise-cash view): no pop-up,
            # which covered the confirmation asked again (found by a probe)
            self.refuse(e, pop_up=not self.write_refused(e))
            raise
        self.show_message(self.tr.entry(entry))
        self.version += 1
        self._collect_when_idle()
        return entry

    def write_refused(self, error: Exception) -> bool:
        """Whether ``error`` is the disk refusing to record an action (a full disk, a file-size limit, an I/O error:
        the ledger's ``record_failed``, nothing recorded and nothing left behind) in a session that can still record:
        the same action may be recorded again, as it was answered, once the disk takes it. Never a refusal of the
        rules, a read-only (damaged) session, nor one that stopped recording (a write that may have left a
        partial line, the checkpoint's entries changed on the disk)."""
        session = self.session
        return (isinstance(error, SessionError) and error.key == "record_failed" and isinstance(session, SessionWriter)
                and session.can_record)

    def preview(self, cmd: dict[str, Any]) -> tuple[list[Text | str], Move]:
        """What ``cmd`` would do, as its confirmation says it (the state is left as it was);
        raises :class:`~banker.rules.Refused` if the rules refuse it."""
        return self.flow.preview_lines(cmd)

    def _collect_when_idle(self) -> None:
        """The full garbage collection, when one is near, a moment after an action while the banker
        reads the screen: the dialogs' leftovers are swept then, not in the middle of the next action."""
        if self._idle_gc is not None:
            self._idle_gc.stop()
        self._idle_gc = self.set_timer(IDLE_GC_DELAY, self._idle_collect, name="idle-gc")

    def _idle_collect(self) -> None:
        # only when a full collection is near anyway (each one costs the next action its memory again)
        due = (self._gc_threshold or gc.get_threshold())[2]
        if gc.get_count()[2] >= due - IDLE_GC_MARGIN:
            gc.collect()

    def refuse(self, error: Exception, pop_up: bool = True) -> None:
        """Say why an action was refused, with the bell (``pop_up``: also as a notification)."""
        text = (self.tr.console_refusal(error) if isinstance(error, Refused)
                else self.tr.session(error) if isinstance(error, SessionError | FileRefused) else str(error))
        self.show_message(text, error=True, pop_up=pop_up)
        self.bell()

    def show_message(self, text: str, error: bool = False, pop_up: bool = True) -> None:
        """Say ``text`` on the table's message line (an error also as a notification, unless not ``pop_up``)."""
        self.status = Status(text, error)
        if error and pop_up:
            self.notify(text, severity="error", timeout=6)

    # ----------------------------------------------------------------- what the screens ask
    @on(ActionRequested)
    def _action_requested(self, message: ActionRequested) -> None:
        self.start_action(message.op, message.given)

    @on(MessageShown)
    def _message_shown(self, message: MessageShown) -> None:
        self.show_message(message.text, message.error)

    @on(RefusalShown)
    def _refusal_shown(self, message: RefusalShown) -> None:
        self.refuse(message.error)

    @on(TimeUp)
    def _time_up(self, message: TimeUp) -> None:
        """The agreed end of a timed game: a visible alert and the terminal's bell, then the end of the
        game offered with every player's valuation (the banker may play on: the header keeps saying it)."""
        text = self.tr("timed.up_notify", end=message.end)
        self.bell()
        self.notify(text, title=self.tr("timed.up_title"), severity="warning", timeout=60)
        self.show_message(text)
        self.start_action("end_game", {"_time_up": message.end})

    @property
    def busy(self) -> bool:
        """Whether an action's flow is under way (its dialogs open, or about to be)."""
        return any(w.is_running and w.group == "action" for w in self.workers)

    def start_action(self, op: str, given: dict[str, Any] | None = None) -> Worker[None] | None:
        """Run the action flow ``op`` in a worker (returned), unless nothing can be recorded."""
        if self.session is None:
            return None
        if self.session.readonly:  # a damaged session: nothing can be recorded, so no dialog is opened
            from .screens.turn import release_typed

            release_typed(given)  # a die typed on the table: its keys are the table's again
            self.refuse(SessionError(self.tr("table.readonly_refused", file=str(self.session.path)), key="readonly",
                                     file=self.session.path))
            return None
        return self._run_action(op, given)

    @work(exclusive=True, group="action")
    async def _run_action(self, op: str, given: dict[str, Any] | None = None) -> None:
        if self.status.error:  # a refusal said of the last action is not this one's (found playing: it stayed under
            self.status = Status()  # the next dialog, as if that one were refused)
        try:
            await self.flow.run(op, given)
        except Exception as e:  # a bug must not close the bank mid-game; everything committed is safe
            self.log.error(f"action {op} failed", e)
            self.show_message(self.tr("flow.internal_error", error=f"{type(e).__name__}: {e}"), error=True)

    def action_command_palette(self) -> None:
        """The command palette (ctrl+p), its search line in the interface's language."""
        from textual.command import CommandPalette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(CommandPalette(id="--command-palette", placeholder=self.tr("system.search")))

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Textual's notification, its message never read as markup: it carries names, memos and what was typed
        ("[/x]" in a refusal ended the console)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def search_themes(self) -> None:
        """The colour themes to choose from (the palette's "Colours"), the search line in the interface's language:
        Textual's own says "Search for themes…" whatever the language."""
        from textual.command import CommandPalette
        from textual.theme import ThemeProvider

        self.push_screen(CommandPalette(providers=[ThemeProvider], placeholder=self.tr("system.theme_search")))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's commands, in the interface's language: Textual's own that a banker uses (quit, the colour
        theme; not its key panel, whose words are Textual's English: the help (?) lists the keys), then every action."""
        tr = self.tr
        yield SystemCommand(f"{tr('system.quit')}  (ctrl+q)", tr("system.quit_about"), self.action_quit)  # its key too
        yield SystemCommand(tr("system.theme"), tr("system.theme_about"), self.action_change_theme)
        if _is_review_screen(screen):  # the review's own keys: it records nothing (it offered every action, and one
            yield from self.review_commands(screen)  # started from the review over the table was recorded)
            return
        if self.session is None:
            return
        from .screens.help import action_help

        edition = self.session.state.edition
        for op, key in ACTIONS:
            # "(s)", not "[s]": the palette reads its titles as markup, where "[s]" is a style and vanishes
            yield SystemCommand(f"{self.tr(f'action.{op}')}  ({shown_key(op, key)})", action_help(self.tr, op, edition),
                                partial(self.start_action, op))
        yield SystemCommand(f"{self.tr('action.review')}  (v)", self.tr("help.review"), self.action_review)
        yield SystemCommand(f"{self.tr('tableview.key')}  (q)", self.tr("tableview.about"), self.action_table_view)
        yield SystemCommand(f"{self.tr('help.title')}  (?)", self.tr("help.about"), self.action_help)

    def review_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The review's keys shown in its footer (its tabs, the search, close), as the palette's commands: each action
        once (a key bound again for the other keyboard layout, "/" and its Cyrillic twin, is one command)."""
        said: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            if binding.show and active.node is screen and binding.action not in said:
                said.add(binding.action)
                key = binding.key_display or self.get_key_display(binding)
                yield SystemCommand(f"{binding.description}  ({key})", self.tr("review.palette_help"),
                                    partial(self.run_action, binding.action, screen))

    # ----------------------------------------------------------------- the players' page
    def start_table_server(self) -> TableServer:
        """The running page server of the open session, started if need be (raises on failure).

        The server (:class:`banker.tableview.server.TableServer`) runs in threads of this process
        but reads the session on its own, read-only; it stops with the console, when another
        session is shown, or when the banker stops it (docs/tableview.md)."""
        path = self.current_session.path
        server = self.table_server
        if server is not None and server.running and server.path == path:
            return server
        self.stop_table_server()
        from banker.tableview.server import TableServer

        server = TableServer(path, lang=self.lang, **table_server_options())
        server.start()
        self.table_server = server
        self._watch_table_fault(server)
        # the page's own copy of the game lives as long as the server: out of the collector's way, as
        # the console's is (a full collection never walks it in the middle of an action)
        gc.freeze()
        return server

    def stop_table_server(self) -> None:
        server = self.table_server
        self.table_server = None
        if server is not None:
            server.stop()

    def _watch_table_fault(self, server: TableServer) -> None:
        """Say in the console when the page server cannot show the table (a fault in banker), once per
        fault, for as long as this server is the console's; the page says it to the players too."""
        said: list[str | None] = [None]

        def check() -> None:
            if self.table_server is not server or not server.running:
                timer.stop()
                return
            fault = server.fault
            if fault and fault != said[0]:
                self.notify(self.tr("tableview.console_fault", error=fault), severity="error", timeout=30)
            said[0] = fault

        timer = self.set_interval(TABLE_FAULT_POLL, check, name="tableview-fault")

    def action_table_view(self) -> None:
        """The players' read-only page: start its server, show the QR code (docs/tableview.md)."""
        from .screens.tableview import TableViewScreen

        if self.session is not None:
            self.push_screen(TableViewScreen())

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen(self.session.state if self.session is not None else None))


def _is_review_screen(screen: Screen[Any]) -> bool:
    """Whether ``screen`` is the review (never one when its module was not even loaded)."""
    review = sys.modules.get("banker.ui.screens.review")
    return review is not None and isinstance(screen, review.ReviewScreen)


def _is_start_screen(screen: Screen[Any]) -> bool:
    """Whether ``screen`` is the start screen (never one when its module was not even loaded: a session opened
    from the command line does not import it for this question)."""
    start = sys.modules.get("banker.ui.screens.start")
    return start is not None and isinstance(screen, start.StartScreen)


def run_app(path: str | None = None, lang: str | None = None, review: bool = False, opening: Opening | None = None) -> int:
    """The console, on the session at ``path`` (its review, with ``review``), or on the start screen; ``opening``
    is that session already opening in a thread (:class:`Opening`), as ``banker open`` starts it."""
    app = BankerApp(path, lang, review=review, opening=opening)
    app.run()
    return app.return_code or 0


loading.done()  # the console's modules are loaded: the collector back on (banker.ui.loading)
