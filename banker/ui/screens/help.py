"""Help: the keys, the quick-entry line, and the rules the app enforces."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.columns import Columns
from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Label, Static

from ..examples import Example, examples
from ..keys import ACTIONS, shown_key, with_layouts
from .dialogs import Dialog, dialog_title

if TYPE_CHECKING:  # pragma: no cover
    from banker.i18n import Translator
    from banker.rules import GameState
    from banker.rules.edition import Edition


def action_help(tr: Translator, op: str, edition: Edition | None) -> str:
    """What an action does, in a line (the help's and the palette's): the card line names the open edition's decks
    as printed on its cards (Kyiv's "Суспільний фонд"); without a game, the catalog's."""
    if edition is not None:
        chance, chest = edition.decks.get("chance", tr("help.deck_chance")), edition.decks.get("chest", tr("help.deck_chest"))
    else:
        chance, chest = tr("help.deck_chance"), tr("help.deck_chest")
    if op == "tax" and edition is not None and not edition.tax_choice:
        return tr("help.tax_flat")  # no income-tax choice on this board (UK, Moscow, Kyiv): the amount printed
    return tr(f"help.{op}", chance=chance, chest=chest)


def quick_help(prose: str, examples: list[str]) -> Group:
    """The command line's help as the terminal's width allows: the catalog writes its prose on lines cut for a wide
    screen; at 80 columns it broke after "in the", and an example's row spilled its last one onto a line of its own,
    read as prose. The prose is one paragraph, wrapped where the width says; the examples flow in columns, none ever
    cut."""
    columns = Columns([Text(e, no_wrap=True) for e in examples], padding=(0, 4))
    return Group(Text(" ".join(prose.split())), Padding(columns, (0, 0, 0, 2)))  # indented under the prose


def command_examples(shown: list[Example]) -> list[str]:
    """The command line's key row in the help: a rent, a build and a tax of the examples made on the game (the
    catalogs' "rent boardwalk bob, build park, tax income ann flat", "аренда арбат боря...", "оренда хрещатик
    богдан..." named one board and one table: typed at another, the line refused them); the first three where the
    game has none of these."""
    picked = [next(e.line for e in shown if e.command["op"] == op) for op in ("rent", "build", "tax")
              if any(e.command["op"] == op for e in shown)]
    return picked if len(picked) == 3 else [e.line for e in shown[:3]]


def example_game(tr: Translator) -> GameState:
    """The game the help's examples are made on when no game is open: a new game as the start screen offers it (the
    board in the banker's language, the players it suggests)."""
    from banker.boards import load_edition, new_game
    from banker.rules.names import typed_players

    from .start import DEFAULT_PLAYERS, default_edition

    edition = default_edition(tr.lang)
    players = typed_players(tr.get("start_form.players", DEFAULT_PLAYERS)) or typed_players(DEFAULT_PLAYERS)
    assert players is not None
    return new_game(edition, load_edition(edition).variants[0], players, None)


class HelpScreen(Dialog[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding(with_layouts("escape,q,question_mark,f1"), "close", "Close")]

    def __init__(self, state: GameState | None = None) -> None:
        super().__init__()
        #: the open game: the rules name its railroads and utilities in its own words (Kyiv's metro stations and
        #: airports), the command line's examples its spaces and players; without a game, the catalog's words and
        #: examples on a new game's board
        self.state = state
        self.edition = state.edition if state is not None else None

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style="bold cyan")
        keys.add_column()
        keys.add_column(style="dim")
        for op, key in ACTIONS:
            keys.add_row(shown_key(op, key), tr(f"action.{op}"), action_help(tr, op, self.edition))
            if op == "roll":  # what the roll proposes is settled by Enter on the table
                keys.add_row("Enter", tr("turn.settle"), tr("turn.settle_help"))
        keys.add_row("v", tr("action.review"), tr("help.review"))
        keys.add_row("q", tr("tableview.key"), tr("tableview.about"))
        # the line's examples, made on this game (a fixed "rent boardwalk bob" named one board and one table)
        shown = examples(self.state if self.state is not None else example_game(tr), tr)
        keys.add_row(": /", tr("table.command"), tr("help.command", examples=", ".join(command_examples(shown))))
        keys.add_row("ctrl+p", tr("help.palette"), "")
        keys.add_row("?", tr("help.title"), "")
        keys.add_row("ctrl+q", tr("help.quit"), "")
        rules = Text()
        edition = self.edition
        railroads, utilities = (tr.group(edition, kind) if edition is not None else tr(f"group.{kind}")
                                for kind in ("railroad", "utility"))
        choice = edition is None or edition.tax_choice
        for i in range(1, 13):
            if i == 5 and not choice:  # the income-tax choice: only where the board prints it
                continue
            rules.append("• " + tr(f"help.rule{i}", railroads=railroads, utilities=utilities) + "\n")
        with VerticalScroll(classes="dialog help"):
            yield dialog_title(tr("help.title"))
            yield Static(keys, id="help-keys")
            yield Label(tr("help.quick_title"), classes="section")
            yield Static(quick_help(tr("help.quick"), [e.line for e in shown]), id="help-quick")
            yield Label(tr("help.rules_title"), classes="section")
            yield Static(rules)

    def action_close(self) -> None:
        self.dismiss(None)
