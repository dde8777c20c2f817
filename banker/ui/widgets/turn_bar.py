"""Follow mode's bar above the cards (:class:`TurnBar`): in a module of its own, loaded when the mode is on (a table
without it does not make its Textual class before its first frame, some 2 M instructions: issue #14)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from banker.i18n import visible
from banker.rules.turns import describe, doubles_to_roll_on

if TYPE_CHECKING:  # pragma: no cover
    from banker.i18n import Translator
    from banker.rules import GameState


class TurnBar(Static):
    """Follow mode: whose turn it is, the doubles thrown this turn, and what the landing requires (the proposal,
    settled by Enter) or what the player may do before rolling (in jail: the fine or a card). Hidden without
    follow mode."""

    _shown: Text | None = None

    def show(self, state: GameState, tr: Translator) -> None:
        self.display = state.follow and not state.over and state.current is not None
        if not self.display:
            return
        p = state.current or ""
        text = Text()
        text.append(f" ▶ {visible(p)} ", "bold reverse")
        text.append(" ")
        due = state.pending
        doubles = doubles_to_roll_on(state)  # none once the turn's last roll is made (three of a kind: its landing)
        if due is not None:
            # the keys first: a long name or deed cuts the end of the line off, and the keys must stay in sight
            text.append(tr("turn.bar_settle"), "yellow")
            if due.kind in ("buy", "advance") and due.command.get("op") == "buy":
                text.append(tr("turn.bar_auction"), "yellow")
            if doubles:
                text.append("  " + tr("turn.bar_doubles", n=doubles), "cyan")
            text.append("  " + tr.msg(describe(state, due)), "bold")
        elif state.debtors:
            # nobody rolls while a debt is open (found playing: the bar said "Bob rolls next" and the roll was refused)
            debtor = state.debtors[0]
            text.append(tr("turn.bar_debt", player=visible(debtor), amount=state.edition.fmt(state.debt_total(debtor))),
                        "bold red")
        elif state.in_jail[p]:
            text.append(tr("turn.bar_jail", n=state.jail_turns[p], m=state.edition.rules.jail_attempts),
                        "bold magenta")
            hints = [tr("turn.bar_dice_jail")]
            if state.jail_turns[p] < state.edition.rules.jail_fine_turns:
                hints.append(tr("turn.bar_fine", amount=state.edition.fmt(state.edition.jail_fine)))
            if state.jail_cards_of(p):
                hints.append(tr("turn.bar_card"))
            text.append("  " + " · ".join(hints), "yellow")
        else:
            text.append(tr("turn.bar_roll"), "bold")
            text.append("  " + tr("turn.bar_dice"), "yellow")
        if doubles and due is None:
            text.append("  " + tr("turn.bar_doubles", n=doubles), "cyan")
        if text != self._shown:
            self._shown = text
            self.update(text)
