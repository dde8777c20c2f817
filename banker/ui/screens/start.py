"""Start: a new game (edition, variant, players in seating order, house rules, name) or
a recent session to resume."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from banker.boards import EDITIONS, load_edition, load_variant
from banker.i18n import visible
from banker.ledger.clock import parse_end, stored
from banker.rules import BoardError, HouseRules, Refused, Setup
from banker.rules.names import text_fault, typed_players

from ..widgets.footer import BankFooter
from .base import BankerScreen
from .dialogs import text_fault_said

if TYPE_CHECKING:  # pragma: no cover
    from banker.i18n import Translator
    from banker.ledger import SessionWriter

DEFAULT_PLAYERS = "Ann, Bob, Cid"


def edition_name(edition: object) -> str:
    """What the resume list calls a session's edition: its board's name ("Монополия — Москва (Hasbro 2004)"), or
    what the file says when no board of that id is here (a newer version's, or a hand edit: shown, never a crash)."""
    if isinstance(edition, str) and edition in EDITIONS:
        try:
            return load_edition(edition).name
        except BoardError:
            pass
    return visible(str(edition or ""))


def default_edition(lang: str) -> str:
    """The edition a new game offers first: the first whose board is in the banker's language (``language`` in
    the board file: ru -> the Russian board, uk -> Kyiv), else the first edition."""
    for edition in EDITIONS:
        try:
            if load_edition(edition).language == lang:
                return edition
        except BoardError:  # pragma: no cover - a shipped board always loads (tests/test_boards.py)
            continue
    return EDITIONS[0]


#: how many games of the same name on the same day the data folder takes (then: give a file)
MAX_SAME_NAME = 999


def slug(text: str) -> str:
    """The game's name as a file name: letters, digits and dashes, at most 60 characters."""
    return re.sub(r"[^\w]+", "-", text.casefold())[:60].strip("-") or "game"


class RuleBox(Checkbox):
    """A house rule's box whose long label wraps onto a second line instead of being cut (80 columns)."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self.render().wrap(width)))


class StartScreen(BankerScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+n", "start", "Start"), Binding("ctrl+r", "resume", "Resume"),
                                            Binding("ctrl+q", "app.quit", "Quit")]

    def __init__(self) -> None:
        super().__init__()
        self.recent: list[dict[str, Any]] = []  # the recent sessions listed, by the index of their option
        self.refused_form: tuple[tuple[str | None, object], ...] | None = None  # the form a refusal said is about

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        edition = default_edition(self.app.lang)
        yield Static(tr("start.title"), id="start-title")
        with Horizontal(id="start"):
            with VerticalScroll(id="new-game"):
                yield Label(tr("start.new"), classes="section")
                yield Label(tr("start.edition"))
                yield Select([(load_edition(e).name, e) for e in EDITIONS], value=edition, allow_blank=False,
                             id="edition", compact=True)
                yield Label(tr("start.variant"))
                variants = load_edition(edition).variants
                yield Select([(tr(f"variant.{v}"), v) for v in variants], value=variants[0], id="variant",
                             allow_blank=False, compact=True)
                yield Label(tr("timed.end_label"), id="end-time-label", classes="timed-only")
                yield Input(placeholder=tr("timed.end_placeholder"), id="end-time", compact=True, classes="timed-only")
                yield Label(tr("start.players"))
                yield Input(value=tr.get("start_form.players", DEFAULT_PLAYERS), id="player-names", compact=True)
                yield Label(tr("start.house_rules"))
                for rule in HouseRules.names():
                    yield RuleBox(tr(f"house_rule.{rule}"), id=f"hr-{rule}", compact=True)
                # follow the board (issue #11): ticked by default
                yield RuleBox(tr("turn.follow_box"), value=True, id="follow", compact=True)
                yield Label(tr("start.name"))
                yield Input(value=tr("start.default_name"), id="name", compact=True)
                yield Label(tr("start.path"))
                yield Input(placeholder=str(self.app.data_directory), id="path", compact=True)
                yield Static(id="start-error", classes="dialog-error", markup=False)
                yield Button(tr("start.go"), variant="primary", id="go", compact=True)
            with Vertical(id="resume"):
                yield Label(tr("start.resume"), classes="section")
                yield OptionList(id="recent", markup=False)
        yield BankFooter()

    def on_mount(self) -> None:
        self.show_end_time("classic")
        self.fill_recent()
        self.query_one("#player-names", Input).focus()

    def fill_variants(self, edition: str) -> None:
        variants = load_edition(edition).variants
        select = self.query_one("#variant", Select)
        select.set_options([(self.app.tr(f"variant.{v}"), v) for v in variants])
        select.value = variants[0]

    def fill_recent(self) -> None:
        from banker.ledger import recent_sessions

        tr = self.app.tr
        recent = self.query_one("#recent", OptionList)
        recent.clear_options()
        self.recent = []
        try:
            found = recent_sessions(self.app.data_directory)
        except OSError:
            found = []
        for info in found:
            self.recent.append(info)
            text = Text(visible(info.get("name") or Path(info["path"]).stem), "bold")
            # a line each: when it was last played and the edition, as its board names it; who plays; the last action.
            # Each is cut with "…" at the list's width (banker.tcss), never wrapped mid-phrase
            text.append(f"\n  {str(info.get('modified', ''))[:16]}  {edition_name(info.get('edition'))}", "dim")
            error = info.get("error")
            if error is not None:  # listed, not left out: opening it says why in full, or shows it read-only
                # a banker session cut short or damaged: what is wrong with it, not "not a banker session"
                why = error.params.get("why") if error.key == "not_session" else None
                said = visible(tr("start.unreadable", why=tr.session(why) if why is not None else tr.session(error)))
                text.append("\n  " + said, "italic red")
                recent.add_option(Option(text, id=str(len(self.recent) - 1)))
                continue
            text.append("\n  " + ", ".join(visible(p) for p in info.get("players", [])))
            last = self.app.tr.entry(info["last"]) if info.get("last") is not None else None  # in this language
            if last:
                text.append("\n  " + last, "italic dim")
            recent.add_option(Option(text, id=str(len(self.recent) - 1)))
        recent.set_class(bool(found), "-games")
        if not found:
            recent.add_option(Option(Text(tr("start.no_recent"), "dim"), disabled=True))

    def action_resume(self) -> None:
        recent = self.query_one("#recent", OptionList)
        recent.focus()
        if recent.highlighted is None and self.recent:
            recent.highlighted = 0

    @on(Select.Changed, "#edition")
    def _edition(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.fill_variants(event.value)

    @on(Select.Changed, "#variant")
    def _variant(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.show_end_time(event.value)

    def show_end_time(self, variant: str) -> None:
        """The agreed end is asked for only where the variant has a time limit (variants.toml ``timed``)."""
        try:
            timed = load_variant(variant).timed
        except BoardError:
            timed = False
        for widget in self.query(".timed-only"):
            widget.display = timed

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _edited(self) -> None:
        """A refusal is about the form as ctrl+n found it: once the banker edits a field (to fix it, or another) it is
        stale and goes, as the table's goes when the next action starts; it stayed until the next ctrl+n, still
        saying "names must differ" under names already fixed. The next ctrl+n says it again if it still holds. Only
        when the form is no longer as ctrl+n found it: a field's change still on its way when ctrl+n was pressed (the
        last letter typed, a value set) arrives after the refusal, and took it away at once."""
        if self.refused_form is not None and self.form() != self.refused_form:
            self.refused_form = None
            self.query_one("#start-error", Static).update("")

    def form(self) -> tuple[tuple[str | None, object], ...]:
        """What the form's fields hold, to tell whether the banker has edited it since a refusal."""
        fields = [*self.query(Input), *self.query(Select), *self.query(Checkbox)]
        return tuple((field.id, field.value) for field in fields)

    @on(OptionList.OptionSelected, "#recent")
    def _resume(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None  # a recent session's option has its index as id
        info = self.recent[int(event.option.id)]
        self.app.open_session(Path(info["path"]))

    @on(Button.Pressed, "#go")
    def action_start(self) -> None:
        error = self.query_one("#start-error", Static)
        error.update("")  # a fixed field's error goes with the next try
        self.start(error)
        self.refused_form = self.form() if error.content else None  # said until the form is edited (_edited)
        if error.content:  # said where it is seen, with the button under it: at 80x24 both were below the fold
            self.call_after_refresh(self.query_one("#go", Button).scroll_visible)

    def start(self, error: Static) -> None:
        tr = self.app.tr
        players = typed_players(self.query_one("#player-names", Input).value)
        if players is None:
            error.update(tr("start.empty_player"))
            return
        edition = self.query_one("#edition", Select).value
        variant = self.query_one("#variant", Select).value
        rules = HouseRules(**{r: self.query_one(f"#hr-{r}", Checkbox).value for r in HouseRules.names()})
        name = self.query_one("#name", Input).value.strip() or tr("start.default_name")
        end_input = self.query_one("#end-time", Input)
        said = end_input.value.strip() if end_input.display else ""
        try:  # the engine checks the setup (player count, names, variant, the agreed end) before any file is made
            from banker.boards import game_from_setup

            end = stored(parse_end(said, self.app.clock())) if said else None  # "22:30" or "90m", said now
            follow = self.query_one("#follow", Checkbox).value
            setup = Setup(str(edition), str(variant), players, rules, end, follow=follow)
            setup = setup.for_new_game()  # a new game's names: no control characters, not the bank's words...
            fault = text_fault(name)  # said with the field's own label (it said 'new: "name" holds ...')
            if fault is not None:
                error.update(f"{tr('start.name')}: {text_fault_said(tr, fault)}")
                return
            game_from_setup(setup).check_new()  # the agreed end exactly where the variant has a time limit
            load_variant(str(variant))
        except Refused as e:
            error.update(tr.refusal(e))
            return
        except BoardError as e:  # an edition or a variant its board file cannot give
            error.update(tr.board(e))
            return
        given = self.query_one("#path", Input).value.strip()
        if given:  # the banker's own file: created as given, or refused if anything is there
            try:
                path = Path(given).expanduser()
            except RuntimeError:  # "~nobody/x.json": no such user (it crashed the console)
                user = given[1:].split("/", 1)[0]
                error.update(tr("start.cannot_create", path=given, error=tr("start.no_user", user=user)))
                return
            if os.path.lexists(path):  # (a leftover journal is refused by Session.create, naming it)
                error.update(tr("start.exists", path=str(path)))
                return
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                error.update(tr("start.cannot_create", path=str(path), error=folder_error(tr, e)))
                return
            if not self.app.open_session(path, setup, name=name):
                error.update(self.app.open_error)
            return
        session = self.create_in_data_folder(setup, name, error)
        if session is not None:
            self.app.show_session(session)

    def create_in_data_folder(self, setup: Setup, name: str, error: Static) -> SessionWriter | None:
        """A new session in the data folder, named after the date and the game's name; the next free
        number when that name is taken, also when another console takes it at the same moment
        (``Session.create`` never replaces a file: it refuses, and the next number is tried)."""
        from banker.ledger import Session, SessionError

        folder = self.app.data_directory
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            error.update(self.app.tr("start.cannot_create", path=str(folder), error=folder_error(self.app.tr, e)))
            return None
        for path in self.new_paths(name):
            try:
                return Session.create(path, setup, name=name)
            except (SessionError, Refused) as e:
                if taken(path):  # taken since new_paths looked: the next one
                    continue
                message = self.app.tr.refusal(e) if isinstance(e, Refused) else self.app.tr.session(e)
                error.update(message)
                self.app.open_error = message
                return None
        error.update(self.app.tr("start.exists", path=str(folder / f"{date.today().isoformat()}-{slug(name)}.json")))
        return None

    def new_paths(self, name: str) -> Iterator[Path]:
        """Free names for a new session in the data folder: ``<date>-<name>.json``, then ``-2``, ``-3``...;
        a name is free when neither the file nor its journal or lock file is there (nor a link by that name)."""
        base = f"{date.today().isoformat()}-{slug(name)}"
        folder = self.app.data_directory
        for n in range(1, MAX_SAME_NAME + 1):
            path = folder / (f"{base}.json" if n == 1 else f"{base}-{n}.json")
            if not taken(path):
                yield path


def folder_error(tr: Translator, e: OSError) -> str:
    """Why a new session's folder could not be made, in the banker's language (the system's "File exists" was
    shown in English, and meant that a part of the path is a file, not a folder)."""
    from banker.ledger.format import why

    if isinstance(e, FileExistsError):  # mkdir(exist_ok=True) met a file where a folder of the path should be
        return tr("session.os_ENOTDIR")
    return tr.session(why(e))


def taken(path: Path) -> bool:
    """Whether anything is at ``path`` or at its journal or lock file's place (a dangling link counts)."""
    from banker.ledger import journal_path
    from banker.ledger.lock import lock_path

    return any(os.path.lexists(p) for p in (path, journal_path(path), lock_path(path)))
