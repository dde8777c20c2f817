"""Action flows: ask for what a command still needs, show exactly what it will do, commit.

Every action, from a key, the command palette or the quick-entry line, goes through
:meth:`Flow.run`: fields already given are not asked again, choices offered are the legal
ones (with the engine's reason beside those that are not), amounts come from the engine,
and money-moving commands are previewed (applied and taken back on the engine) so the
banker sees who pays whom before confirming.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from banker.rules import BANK, Refused
from banker.rules.bankruptcy import preview as bankruptcy_preview
from banker.rules.building import check_build, check_sale, default_sale, legal_group_sales, no_shortage
from banker.rules.effects import Debt, Hotel, Houses, JailCardHolder, Owner, Pay
from banker.rules.legal import deal_plan
from banker.rules.mortgage import check_mortgage, lift_cost
from banker.rules.rent import dice_range

from .screens.dialogs import AskScreen, Choice, ChooseScreen, ConfirmScreen, InfoScreen

if TYPE_CHECKING:  # pragma: no cover
    from banker.rules import GameState

    from .app import BankerApp


class Cancelled(Exception):
    """The banker pressed Escape somewhere in the flow."""


class Flow:
    def __init__(self, app: BankerApp) -> None:
        self.app = app
        self.tr = app.tr

    @property
    def state(self) -> GameState:
        return self.app.session.state

    def fmt(self, amount: int) -> str:
        return self.state.edition.fmt(amount)

    # ------------------------------------------------------------------ asking
    async def choose(self, title: str, choices: list[Choice], empty: str = "") -> Any:
        value = await self.app.push_screen_wait(ChooseScreen(title, choices, empty))
        if value is None:
            raise Cancelled
        return value

    async def ask_player(self, title: str, exclude: tuple[str, ...] = (), bank: bool = False,
                         only: list[str] | None = None) -> str:
        players = only if only is not None else list(self.state.active_players)
        choices = [Choice(p, p, note=self.fmt(self.state.cash[p])) for p in players if p not in exclude]
        if bank and BANK not in exclude:
            choices.append(Choice(BANK, self.tr("bank.name")))
        return await self.choose(title, choices, self.tr("flow.no_players"))

    async def ask_number(self, title: str, prompt: str, minimum: int = 1, maximum: int | None = None) -> int:
        value = await self.app.push_screen_wait(AskScreen(title, prompt, True, minimum, maximum))
        if value is None:
            raise Cancelled
        return value

    async def ask_text(self, title: str, prompt: str) -> str:
        value = await self.app.push_screen_wait(AskScreen(title, prompt, number=False))
        if value is None:
            raise Cancelled
        return value

    def space_choice(self, pos: int, note: str = "", enabled: bool = True) -> Choice:
        return Choice(pos, self.state.edition.spaces[pos].name, enabled, note)

    def lot_choices(self, player: str, check, note) -> list[Choice]:
        """The player's lots: enabled where ``check`` passes, else the engine's reason."""
        out = []
        for pos in sorted(self.state.deeds_of(player)):
            space = self.state.edition.spaces[pos]
            try:
                check(space)
            except Refused as e:
                out.append(self.space_choice(pos, self.tr.refusal(e), enabled=False))
                continue
            except KeyError:
                continue
            out.append(self.space_choice(pos, note(pos)))
        return out

    # ------------------------------------------------------------------ preview and commit
    def preview_lines(self, cmd: dict[str, Any]) -> tuple[list[Text | str], Any]:
        """Apply on the engine and take back: the description and every money movement."""
        state = self.state
        move = state.preview(cmd)
        lines: list[Text | str] = [self.tr.parts(move.parts)]
        for e in move.effects:
            if isinstance(e, Pay):
                line = Text("  ")
                line.append(self.tr.account(e.src), "bold")
                line.append(" → ")
                line.append(self.tr.account(e.dst), "bold")
                line.append(f"  {self.fmt(e.amount)}", "bold green")
                lines.append(line)
            elif isinstance(e, Owner):
                lines.append(Text("  " + self.tr("flow.deed_moves", space=state.edition.spaces[e.space].name,
                                                  owner=self.tr.account(e.new or BANK)), "cyan"))
            elif isinstance(e, Debt) and e.new and len(e.new) > len(e.old):
                c = e.new[-1]
                lines.append(Text("  " + self.tr("flow.debt_opens", player=e.player, amount=self.fmt(c.amount),
                                                  creditor=self.tr.account(c.creditor)), "bold red"))
        return lines, move

    async def confirm_and_commit(self, cmd: dict[str, Any], title: str, danger: bool = False) -> dict | None:
        try:
            lines, _move = self.preview_lines(cmd)
        except Refused as e:
            self.app.refuse(e)
            return None
        if not await self.app.push_screen_wait(ConfirmScreen(title, lines, danger=danger)):
            raise Cancelled
        return self.app.commit(cmd)

    # ------------------------------------------------------------------ the flows
    async def run(self, op: str, given: dict[str, Any] | None = None) -> dict | None:
        cmd: dict[str, Any] = dict(given or {})
        cmd["op"] = op
        title = self.tr(f"action.{op}")
        if self.state.over and op != "undo":
            self.app.show_message(self.tr("flow.game_over"), error=True)
            return None
        try:
            handler = getattr(self, f"flow_{op}")
            return await handler(cmd, title)
        except Cancelled:
            self.app.show_message(self.tr("flow.cancelled"))
            return None

    async def flow_salary(self, cmd, title):
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(title)
        if self.state.house_rules.go_landing_bonus and "landed" not in cmd:
            cmd["landed"] = await self.choose(title, [Choice(False, self.tr("flow.passed_go")),
                                                      Choice(True, self.tr("flow.landed_go"))])
        return await self.confirm_and_commit(cmd, title)

    def unowned_choices(self, player: str | None, buying: bool) -> list[Choice]:
        out = []
        for pos, lot in sorted(self.state.lots.items()):
            if lot.owner is not None:
                continue
            space = self.state.edition.spaces[pos]
            if buying and pos in self.state.pending_auction:
                out.append(self.space_choice(pos, self.tr("flow.pending"), enabled=False))
                continue
            affordable = player is None or self.state.cash[player] >= space.price
            out.append(self.space_choice(pos, self.fmt(space.price), enabled=affordable or not buying))
        return out

    async def flow_buy(self, cmd, title):
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(title)
        if "space" not in cmd:
            cmd["space"] = await self.choose(title, self.unowned_choices(cmd["player"], True),
                                             self.tr("flow.nothing_to_buy"))
        return await self.confirm_and_commit(cmd, title)

    async def flow_deal(self, cmd, title):
        if not self.state.variant.deal_deeds:
            self.app.show_message(self.tr("flow.no_deal"), error=True)
            return None
        if "player" not in cmd and "space" not in cmd:
            # shuffle and deal to everyone, as the books say
            plan = deal_plan(self.state, seed=self.app.random_seed())
            if not plan:
                self.app.show_message(self.tr("flow.dealt_already"), error=True)
                return None
            lines = [self.tr("flow.deal_line", player=c["player"], space=self.state.edition.spaces[c["space"]].name,
                             amount=self.fmt(self.state.edition.spaces[c["space"]].price)) for c in plan]
            if not await self.app.push_screen_wait(ConfirmScreen(title, lines)):
                raise Cancelled
            for c in plan:
                self.app.commit(c)
            return None
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(title)
        if "space" not in cmd:
            cmd["space"] = await self.choose(title, self.unowned_choices(cmd["player"], True))
        return await self.confirm_and_commit(cmd, title)

    async def flow_auction(self, cmd, title):
        if "space" not in cmd:
            cmd["space"] = await self.choose(title, self.unowned_choices(None, False), self.tr("flow.nothing_to_buy"))
        if "winner" not in cmd:
            cmd["winner"] = await self.ask_player(self.tr("flow.who_won"))
        if "bid" not in cmd:
            low = self.state.edition.rules.property_auction_min_bid
            cmd["bid"] = await self.ask_number(title, self.tr("flow.winning_bid", player=cmd["winner"],
                                                              cash=self.fmt(self.state.cash[cmd["winner"]])),
                                               low, self.state.cash[cmd["winner"]])
        return await self.confirm_and_commit(cmd, title)

    async def flow_rent(self, cmd, title):
        state = self.state
        if "space" not in cmd:
            choices = []
            for pos, lot in sorted(state.lots.items()):
                if lot.owner is None:
                    continue
                note = lot.owner + (" · " + self.tr("deed.mortgaged") if lot.mortgaged else "")
                choices.append(self.space_choice(pos, note, enabled=not lot.mortgaged))
            cmd["space"] = await self.choose(title, choices, self.tr("flow.nothing_owned"))
        space = state.edition.spaces[cmd["space"]]
        owner = state.lots[cmd["space"]].owner
        if "payer" not in cmd:
            cmd["payer"] = await self.ask_player(self.tr("flow.who_landed", space=space.name), exclude=(owner,))
        if space.kind in ("railroad", "utility") and "card" not in cmd and not cmd.get("_quick"):
            by_card = await self.choose(title, [Choice(False, self.tr("flow.landed_by_dice")),
                                                Choice(True, self.tr(f"flow.card_{space.kind}"))])
            if by_card:
                cmd["card"] = f"nearest-{space.kind}"
        if space.kind == "utility" and "dice" not in cmd:
            low, high = dice_range(state)
            prompt = self.tr("flow.dice_fresh" if cmd.get("card") else "flow.dice_total", low=low, high=high)
            cmd["dice"] = await self.ask_number(title, prompt, low, high)
        cmd.pop("_quick", None)
        return await self.confirm_and_commit(cmd, title)

    async def flow_tax(self, cmd, title):
        state = self.state
        if "space" not in cmd:
            taxes = [s for s in state.edition.spaces if s.kind == "tax"]
            cmd["space"] = await self.choose(title, [self.space_choice(s.position, self.fmt(s.tax)) for s in taxes])
        space = state.edition.spaces[cmd["space"]]
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(self.tr("flow.who_landed", space=space.name))
        if not space.tax_percent:
            return await self.confirm_and_commit(cmd, title)
        if "choice" not in cmd:
            # The choice comes first; the worth is added up only after it (us-classic-rules.txt).
            cmd["choice"] = await self.choose(
                self.tr("flow.tax_choose", player=cmd["player"], space=space.name),
                [Choice("flat", self.tr("flow.tax_flat", amount=self.fmt(space.tax))),
                 Choice("percent", self.tr("flow.tax_percent", pct=space.tax_percent))])
        entry = self.app.commit(cmd)  # chosen: committed at once, then the figures are shown
        if entry:
            info = entry["info"]
            lines = [self.tr.parts(entry["parts"]),
                     self.tr("flow.tax_worth", worth=self.fmt(info["worth"])),
                     self.tr("flow.tax_paid", amount=self.fmt(info["amount"])),
                     self.tr("flow.tax_other", amount=self.fmt(info["other_amount"]))]
            await self.app.push_screen_wait(InfoScreen(title, lines))
        return entry

    async def flow_card(self, cmd, title):
        state = self.state
        only_deck = cmd.pop("_deck", None)  # the card drawn instead of paying (a card's choice)
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(title)
        if "card" not in cmd:
            from banker.rules.cards import describe_effect

            choices = []
            for card in state.edition.cards.values():
                if only_deck and card.deck != only_deck:
                    continue
                holder = state.jail_cards.get(card.id)
                deck = state.edition.decks[card.deck]
                note = self.tr.msg(describe_effect(state, card))
                if holder:
                    note = self.tr("flow.card_held", player=holder)
                choices.append(Choice(card.id, f"{deck}: {card.text}", enabled=holder is None, note=note))
            which = (self.tr("flow.which_card_of", deck=state.edition.decks[only_deck]) if only_deck
                     else self.tr("flow.which_card"))
            cmd["card"] = await self.choose(which, choices)
        card = state.edition.cards.get(cmd["card"])
        if card and card.kind == "advance" and card.effect["to"] != 0 and "passed_go" not in cmd:
            cmd["passed_go"] = await self.choose(title, [Choice(False, self.tr("flow.not_passed_go")),
                                                         Choice(True, self.tr("flow.passed_go"))])
        if card and card.choices and "choice" not in cmd:
            # the choice printed on the card ("Pay a £10 fine or take a Chance")
            deck = state.edition.decks[card.effect["deck"]]
            cmd["choice"] = await self.choose(self.tr("flow.card_choice", player=cmd["player"]), [
                Choice("pay", self.tr("flow.card_pay", amount=self.fmt(card.effect["amount"]))),
                Choice("draw", self.tr("flow.card_draw", deck=deck))])
        entry = await self.confirm_and_commit(cmd, title)
        if entry and card and card.choices and cmd.get("choice") == "draw":
            # then the card drawn from that deck, as one more action
            deck_id = card.effect["deck"]
            try:
                return await self.flow_card({"op": "card", "player": cmd["player"], "_deck": deck_id}, title)
            except Cancelled:
                self.app.show_message(self.tr("flow.draw_later", deck=state.edition.decks[deck_id]))
        return entry

    async def flow_jail_fine(self, cmd, title):
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(title)
        return await self.confirm_and_commit(cmd, title)

    async def flow_jail_card(self, cmd, title):
        state = self.state
        cmd.setdefault("use", True)
        if "player" not in cmd:
            holders = [p for p in state.active_players if state.jail_cards_of(p)]
            cmd["player"] = await self.ask_player(title, only=holders)
        held = state.jail_cards_of(cmd["player"]) if cmd["player"] in state.cash else []
        if "card" not in cmd and len(held) > 1:
            cmd["card"] = await self.choose(self.tr("flow.which_jail_card", player=cmd["player"]), [
                Choice(c, self.tr("flow.jail_card_of", deck=state.edition.decks[state.edition.cards[c].deck]))
                for c in held])
        return await self.confirm_and_commit(cmd, title)

    async def flow_transfer(self, cmd, title):
        if "from" not in cmd:
            cmd["from"] = await self.ask_player(self.tr("flow.who_pays"), bank=True)
        if "to" not in cmd:
            cmd["to"] = await self.ask_player(self.tr("flow.who_receives"), exclude=(cmd["from"],), bank=True)
        if "amount" not in cmd:
            high = None if cmd["from"] == BANK else self.state.cash[cmd["from"]]
            cmd["amount"] = await self.ask_number(title, self.tr("flow.amount"), 1, high)
        if "memo" not in cmd:
            cmd["memo"] = await self.ask_text(title, self.tr("flow.memo"))
        return await self.confirm_and_commit(cmd, title)

    def owners(self) -> list[str]:
        return [p for p in self.state.active_players if self.state.deeds_of(p)]

    async def flow_build(self, cmd, title):
        state = self.state
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(title, only=self.owners())
        p = cmd["player"]
        if "space" not in cmd:
            def note(pos):
                kind, price = check_build(state, p, state.edition.spaces[pos])
                return self.tr(f"flow.build_{kind}", amount=self.fmt(price))

            choices = [c for c in self.lot_choices(p, lambda s: check_build(state, p, s) if s.kind == "street"
                                                   else _not_street(s), note)]
            cmd["space"] = await self.choose(title, choices, self.tr("flow.nothing_to_build", player=p))
        return await self.confirm_and_commit(cmd, title)

    async def flow_building_auction(self, cmd, title):
        state = self.state
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(self.tr("flow.who_won"), only=self.owners())
        p = cmd["player"]
        if "space" not in cmd:
            cmd["space"] = await self.choose(title, self.lot_choices(
                p, lambda s: check_build(state, p, s) if s.kind == "street" else _not_street(s),
                lambda pos: self.fmt(state.edition.spaces[pos].house_cost)))
        try:
            kind = check_build(state, p, state.edition.spaces[cmd["space"]])[0]
        except Refused as e:
            self.app.refuse(e)
            return None
        refusal = no_shortage(state, kind, bidder=p)
        if refusal is not None:  # said before the bid is asked for
            self.app.refuse(refusal)
            return None
        if "bid" not in cmd:
            space = state.edition.spaces[cmd["space"]]
            low = space.house_cost if state.edition.rules.building_auction_start == "printed" else 1
            cmd["bid"] = await self.ask_number(title, self.tr("flow.winning_bid", player=p,
                                                              cash=self.fmt(state.cash[p])), low, state.cash[p])
        return await self.confirm_and_commit(cmd, title)

    async def flow_sell_building(self, cmd, title):
        state = self.state
        if "player" not in cmd:
            builders = [p for p in state.active_players if any(state.level(d) for d in state.deeds_of(p))]
            cmd["player"] = await self.ask_player(title, only=builders)
        p = cmd["player"]
        if "space" not in cmd:
            def check(space):
                if space.kind != "street" or not state.level(space.position):
                    raise KeyError  # not offered at all
                check_sale(state, p, space)
                default_sale(state, space)

            def note(pos):
                return "+" + self.fmt(default_sale(state, state.edition.spaces[pos])[1])

            choices = self.lot_choices(p, check, note)
            # every building of a group at once ("All houses on one color-group may be sold at once")
            for pos, amount in legal_group_sales(state, p):
                group = state.edition.groups[state.edition.spaces[pos].group].name
                choices.append(Choice(("all", pos), self.tr("flow.sell_all", group=group), note="+" + self.fmt(amount)))
            value = await self.choose(title, choices, self.tr("flow.nothing_to_sell"))
            if isinstance(value, tuple):
                cmd["all"] = True
                value = value[1]
            cmd["space"] = value
        if not cmd.get("all") and "houses" not in cmd and state.lots.get(cmd["space"]) and state.lots[cmd["space"]].hotel:
            options = self.hotel_sale_choices(cmd)
            if len(options) > 1:
                houses = await self.choose(self.tr("flow.hotel_sale", space=state.edition.spaces[cmd["space"]].name),
                                           options)
                if houses is not None and houses >= 0:
                    cmd["houses"] = houses
        return await self.confirm_and_commit(cmd, title)

    def hotel_sale_choices(self, cmd: dict[str, Any]) -> list[Choice]:
        """The legal ways to sell a hotel (how many houses stay; RU: whole, with the group's other hotels), each
        tried on the engine; the edition's default first, as the value -1."""
        state = self.state
        hbh = state.houses_before_hotel
        out: list[Choice] = []
        seen: set[int] = set()
        for houses in (None, *range(hbh, -1, -1)):
            trial = {k: v for k, v in cmd.items() if k != "houses"}
            if houses is not None:
                trial["houses"] = houses
            try:
                move = state.preview(trial)
            except Refused:
                continue
            left = next((e.new for e in move.effects if isinstance(e, Houses) and e.space == cmd["space"]), 0)
            if left in seen:
                continue
            seen.add(left)
            hotels = sum(1 for e in move.effects if isinstance(e, Hotel))
            if left:
                label = self.tr("flow.hotel_keep", n=left)
            elif hotels > 1:
                label = self.tr("flow.hotels_whole", n=hotels)
            else:
                label = self.tr("flow.hotel_whole")
            out.append(Choice(-1 if houses is None else houses, label, note="+" + self.fmt(move.info["proceeds"])))
        return out

    async def flow_mortgage(self, cmd, title):
        state = self.state
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(title, only=self.owners())
        p = cmd["player"]
        if "space" not in cmd:
            cmd["space"] = await self.choose(title, self.lot_choices(
                p, lambda s: check_mortgage(state, p, s), lambda pos: "+" + self.fmt(state.edition.spaces[pos].mortgage)),
                self.tr("flow.nothing_to_mortgage"))
        return await self.confirm_and_commit(cmd, title)

    async def flow_unmortgage(self, cmd, title):
        state = self.state
        if "player" not in cmd:
            holders = [p for p in state.active_players if any(state.lots[d].mortgaged for d in state.deeds_of(p))]
            cmd["player"] = await self.ask_player(title, only=holders)
        p = cmd["player"]
        if "space" not in cmd:
            def check(space):
                if not state.lots[space.position].mortgaged:
                    raise KeyError

            cmd["space"] = await self.choose(title, self.lot_choices(
                p, check, lambda pos: "-" + self.fmt(lift_cost(state, pos))), self.tr("flow.nothing_mortgaged"))
        return await self.confirm_and_commit(cmd, title)

    async def flow_trade(self, cmd, title):
        from .screens.trade import TradeScreen

        if "from" not in cmd:
            cmd["from"] = await self.ask_player(self.tr("trade.first"))
        if "to" not in cmd:
            cmd["to"] = await self.ask_player(self.tr("trade.second"), exclude=(cmd["from"],))
        trade = await self.app.push_screen_wait(TradeScreen(cmd["from"], cmd["to"]))
        if trade is None:
            raise Cancelled
        return await self.confirm_and_commit(trade, title)

    async def flow_debt(self, cmd, title):
        from .screens.debt import RaiseCashScreen

        debtors = [p for p in self.state.active_players if self.state.debts.get(p)]
        if "player" not in cmd:
            if not debtors:
                self.app.show_message(self.tr("debt.none"))
                return None
            cmd["player"] = debtors[0] if len(debtors) == 1 else await self.ask_player(title, only=debtors)
        await self.app.push_screen_wait(RaiseCashScreen(cmd["player"]))
        return None

    async def flow_bankrupt(self, cmd, title):
        state = self.state
        if "player" not in cmd:
            debtors = [p for p in state.active_players if state.debts.get(p)]
            cmd["player"] = await self.ask_player(title, only=debtors)
        view = bankruptcy_preview(state, cmd["player"])
        if view["refused"] is not None:
            self.app.refuse(view["refused"])
            return None
        lines = self.bankruptcy_lines(view)
        if not await self.app.push_screen_wait(ConfirmScreen(title, lines, self.tr("bankrupt.confirm"), danger=True)):
            raise Cancelled
        return self.app.commit(cmd)

    def bankruptcy_lines(self, view: dict[str, Any]) -> list[Text | str]:
        state = self.state
        p = view["player"]
        creditor = self.tr.account(view["creditor"])
        lines: list[Text | str] = [
            Text(self.tr("bankrupt.summary", player=p, creditor=creditor, debt=self.fmt(view["debt"]),
                         can=self.fmt(view["can_raise"])), "bold"),
            self.tr("bankrupt.cash", amount=self.fmt(view["cash"]), creditor=creditor),
        ]
        if view["buildings_value"]:
            lines.append(self.tr("bankrupt.buildings", amount=self.fmt(view["buildings_value"])))
        for e in view["effects"]:
            if isinstance(e, Owner):
                name = state.edition.spaces[e.space].name
                to = self.tr.account(e.new or BANK)
                mark = " " + self.tr("deed.mortgaged_mark") if e.space in view["mortgaged"] else ""
                lines.append(Text(f"  {name}{mark} → {to}", "cyan"))
            elif isinstance(e, JailCardHolder):
                deck = state.edition.decks[state.edition.cards[e.card].deck]
                lines.append(Text("  " + self.tr("bankrupt.jail_card", deck=deck, to=self.tr.account(e.new or BANK)),
                                  "cyan"))
        for e in view["effects"]:
            if isinstance(e, Pay):
                lines.append(Text(f"  {self.tr.account(e.src)} → {self.tr.account(e.dst)}  {self.fmt(e.amount)}"))
        lines.append(Text(self.tr.parts(view["parts"]), "italic"))
        return lines

    async def flow_undo(self, cmd, title):
        state = self.state
        if not state.history:
            self.app.show_message(self.tr("undo.nothing"), error=True)
            return None
        last = state.history[-1]
        if not cmd.get("reason"):
            cmd["reason"] = await self.ask_text(title, self.tr("undo.reason", action=self.tr.parts(last.parts)))
        lines = [self.tr("undo.will_undo"), Text(self.tr.parts(last.parts), "bold"),
                 self.tr("undo.reason_line", reason=cmd["reason"])]
        if not await self.app.push_screen_wait(ConfirmScreen(title, lines)):
            raise Cancelled
        return self.app.commit(cmd)

    async def flow_end_game(self, cmd, title):
        try:
            lines, move = self.preview_lines(cmd)
        except Refused as e:
            self.app.refuse(e)
            return None
        if not await self.app.push_screen_wait(ConfirmScreen(title, lines, danger=True)):
            raise Cancelled
        entry = self.app.commit(cmd)
        if entry and self.state.result:
            await self.app.push_screen_wait(InfoScreen(title, self.result_lines()))
        return entry

    def result_lines(self) -> list[Text | str]:
        result = self.state.result or {}
        lines: list[Text | str] = []
        winner = result.get("winner")
        if winner:
            lines.append(Text(self.tr("end.winner", player=winner), "bold green"))
        else:
            lines.append(Text(self.tr("end.tie", players=", ".join(result.get("tied", []))), "bold"))
        for p, v in sorted(result.get("valuation", {}).items(), key=lambda kv: -kv[1]):
            lines.append(f"  {p:<12} {self.fmt(v)}")
        return lines

    async def flow_free_parking(self, cmd, title):
        if "player" not in cmd:
            cmd["player"] = await self.ask_player(title)
        return await self.confirm_and_commit(cmd, title)


def _not_street(space) -> None:
    raise KeyError  # railroads and utilities take no buildings: not offered
