"""The "raise cash" view: a debtor's legal sales and mortgages with what each brings."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from banker.ledger import SessionError
from banker.rules import Refused
from banker.rules.bankruptcy import preview as bankruptcy_preview
from banker.rules.legal import raise_cash_options
from banker.rules.raising import most_after

from ..keys import with_layouts
from ..messages import ActionRequested, RefusalShown
from ..widgets.prose import Prose
from .dialogs import ConfirmScreen, Dialog, dialog_title


class RaiseCashScreen(Dialog[None]):
    """What the debtor can sell or mortgage, and the most that could be raised in all.

    A sale or mortgage picked here is previewed and confirmed, then recorded by the App (refused by the disk, its
    confirmation asked again: :meth:`confirm`); the view follows the session (it watches the App's ``version``).
    Once the debt it was opened for is paid, it closes: the table's message line says the entry that paid it, and
    the next key is the table's (found by the rules probe: the view stayed, saying "debt is paid", and swallowed the
    next action's key). ``k`` asks the engine first: a bankruptcy still avoidable is refused in the view, which
    stays open (:meth:`action_bankrupt`)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close"), Binding(with_layouts("t"), "trade", "Trade"),
                                            Binding(with_layouts("k"), "bankrupt", "Bankruptcy")]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player
        self.options: list[dict[str, Any]] = []
        self.owed = False  # the debt was open when the view was last drawn: it closes once that debt is paid

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        with Vertical(classes="dialog debt"):
            yield dialog_title(tr("debt.title", player=self.player))
            yield Static(id="debt-summary")
            yield OptionList(id="debt-options", markup=False)
            yield Static(id="debt-refused", classes="dialog-error", markup=False)
            yield Static(id="debt-hint", classes="dialog-hint")

    def on_mount(self) -> None:
        self.refresh_view()
        self.query_one("#debt-options", OptionList).focus()
        self.watch(self.app, "version", self.refresh_view, init=False)

    def refresh_view(self) -> None:
        tr = self.app.tr
        state = self.app.current_session.state
        fmt = state.edition.fmt
        view = raise_cash_options(state, self.player)
        summary = Text()
        claims = state.debts.get(self.player, [])
        if self.owed and not claims:  # paid here: the view's work is done (the App said the entry that paid it)
            self.dismiss(None)
            return
        self.owed = bool(claims)
        self.say_refused(None)  # a refusal said before no longer holds
        if not claims:  # opened for a player who owes nothing (`debt cid` on the command line)
            summary.append(tr("debt.owes_nothing", player=self.player) + "\n", "bold green")
        for creditor, amount, _ in claims:
            summary.append(tr("player.owes", amount=fmt(amount), creditor=tr.account(creditor)) + "\n", "bold red")
        summary.append(tr("debt.cash", amount=fmt(view["cash"])) + "\n")
        summary.append(tr("debt.max", amount=fmt(view["max_raisable"])), "bold")
        if view["bankruptcy_unavoidable"]:
            summary.append("\n" + tr("debt.unavoidable"), "bold red")
        self.query_one("#debt-summary", Static).update(Prose(summary))
        options = self.query_one("#debt-options", OptionList)
        options.clear_options()
        self.options = view["sales"] + view["group_sales"] + view["mortgages"]
        for i, opt in enumerate(self.options):
            space = state.edition.spaces[opt["space"]]
            if opt.get("all"):
                label = tr("debt.sell_all", group=tr.group(state.edition, space.group or ""))
            elif opt["op"] == "sell_building":
                label = tr("debt.sell", space=space.name)
            else:
                label = tr("debt.mortgage", space=space.name)
            prompt = Text(label)
            prompt.append(f"  +{fmt(opt['proceeds'])}", "green")
            after = self.most_after(opt)
            if after is not None and after < view["max_raisable"]:
                # an order that matters (a UK/Kyiv hotel needs houses from the bank): say what this one costs
                prompt.append("  " + tr("debt.lowers", amount=fmt(after)), "yellow")
            options.add_option(Option(prompt, id=str(i)))
        for opt in view["blocked"]:  # what stands and cannot be sold now, with why (never "nothing left" beside it)
            prompt = Text(tr("debt.sell", space=state.edition.spaces[opt["space"]].name), "dim")
            prompt.append("  " + tr.refusal(opt["refused"]), "dim italic")
            options.add_option(Option(prompt, disabled=True))
        if self.options:
            options.highlighted = 0
        elif not view["blocked"]:
            options.add_option(Option(Text(tr("debt.no_options"), "dim"), disabled=True))
        # no debt (found playing: the footer and the hint still offered bankruptcy): no bankruptcy key
        self.query_one("#debt-hint", Static).update(tr("debt.hint" if claims else "debt.hint_paid"))
        self.refresh_bindings()

    def say_refused(self, text: str | None) -> None:
        """Why the last key was refused, in red above the hint (None: nothing, the line hidden)."""
        line = self.query_one("#debt-refused", Static)
        line.update(text or "")
        line.display = bool(text)

    def most_after(self, opt: dict[str, Any]) -> int | None:
        """The most the debtor could still have in cash after this sale or mortgage (the engine tries it)."""
        cmd = {k: v for k, v in opt.items() if k != "proceeds"}
        return most_after(self.app.current_session.state, self.player, cmd)

    @on(OptionList.OptionSelected, "#debt-options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None  # every option that can be chosen has its index as id
        opt = self.options[int(event.option.id)]
        cmd = {"op": opt["op"], "player": self.player, "space": opt["space"], **({"all": True} if opt.get("all") else {})}
        try:
            lines, _ = self.app.preview(cmd)
        except Refused as e:  # said; the view stays
            self.post_message(RefusalShown(e))
            return
        self.confirm(cmd, self.app.tr(f"action.{opt['op']}"), lines)

    def confirm(self, cmd: dict[str, Any], title: str, lines: list[Text | str], failed: str | None = None) -> None:
        """Confirm ``cmd``, then record it (the App says it; this view follows, as it watches the App's version).
        When the disk refuses it (a full disk, an I/O error: ``BankerApp.write_refused``), nothing was recorded and
        nothing picked is lost, as in every flow (``Flow.commit``): the same confirmation comes back with why on it
        (``failed``), and Enter tries again; Escape and ``n`` leave it, back to the view as it was."""

        def done(ok: bool | None) -> None:
            if not ok:
                return
            try:
                self.app.record(cmd)
            except (Refused, SessionError) as e:  # said on the message line by the App
                if self.app.write_refused(e):
                    self.confirm(cmd, title, lines, failed=self.app.tr.session(e))

        screen = ConfirmScreen(title, lines)
        screen.failed = failed
        self.app.push_screen(screen, done)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "bankrupt":  # only while the debt is open (the engine says when it is still avoidable)
            return bool(self.app.current_session.state.debts.get(self.player))
        return True

    def action_trade(self) -> None:
        self.dismiss(None)
        self.app.post_message(ActionRequested("trade", {"from": self.player}))

    def action_bankrupt(self) -> None:
        """The bankruptcy, when the engine would take it (its preview); refused (the debt can still be raised, found
        by the rules probe: the view closed before the refusal was shown), the refusal is said here and the view
        stays open, its sales and mortgages still offered."""
        refused = bankruptcy_preview(self.app.current_session.state, self.player)["refused"]
        if refused is not None:
            self.say_refused(self.app.tr.console_refusal(refused))
            self.app.bell()
            return
        self.dismiss(None)
        self.app.post_message(ActionRequested("bankrupt", {"player": self.player}))

    def action_close(self) -> None:
        self.dismiss(None)
