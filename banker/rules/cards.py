"""Chance and Community Chest: every card that moves money, and Get Out of Jail Free."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import parse
from .debts import bank_account, charge
from .errors import Refused
from .state import BANK

if TYPE_CHECKING:  # pragma: no cover
    from .edition import Card
    from .state import GameState, Tx


def card_amount(state: GameState, card: Card, player: str) -> int:
    """What the card costs or pays ``player`` (repairs counted from the buildings)."""
    e = card.effect
    if card.kind == "repairs":
        houses, hotels = state.buildings_of(player)
        return houses * e["house"] + hotels * e["hotel"]
    return int(e.get("amount", 0))


def describe_effect(state: GameState, card: Card) -> str:
    e = card.effect
    fmt = state.edition.fmt
    t = card.kind
    if t == "collect":
        return f"collect {fmt(e['amount'])} from the bank"
    if t == "pay":
        return f"pay {fmt(e['amount'])} to the bank"
    if t == "pay_each_player":
        return f"pay {fmt(e['amount'])} to each player"
    if t == "collect_from_each_player":
        return f"collect {fmt(e['amount'])} from each player"
    if t == "repairs":
        return f"pay {fmt(e['house'])} per house, {fmt(e['hotel'])} per hotel"
    if t == "advance":
        to = state.edition.spaces[e["to"]].name
        if e["to"] == 0:
            return f"advance to {to}: collect the salary"
        return f"advance to {to}: salary if passing GO"
    if t == "advance_nearest":
        return f"advance to the nearest {e['kind']}: rent as the card says (rent with card=nearest-{e['kind']})"
    if t == "back":
        return f"go back {e['spaces']} spaces"
    if t == "go_to_jail":
        return "go to jail (no money moves)"
    return "keep until used or sold"


def run_card(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    cid = parse.field(cmd, "card")
    card = state.edition.cards.get(cid) if isinstance(cid, str) else None
    if card is None:
        raise Refused("input", f"Unknown card {cid!r} for {state.edition.id}; list them with "
                      f"`banker cards --edition {state.edition.id}`")
    fmt = state.edition.fmt
    e = card.effect
    t = card.kind
    deck = state.edition.decks[card.deck]
    text = f"{player} draws {deck}: \"{card.text}\""
    tx.info.update(card=card.id)
    if t == "collect":
        tx.pay(BANK, player, e["amount"], "card")
    elif t in ("pay", "repairs"):
        amount = card_amount(state, card, player)
        if t == "repairs":
            houses, hotels = state.buildings_of(player)
            text += f" ({houses} houses, {hotels} hotels: {fmt(amount)})"
        if amount and not charge(tx, player, bank_account(state, "card"), amount, "card"):
            text += "; a debt is open"
    elif t == "pay_each_player":
        for other in state.active_players:
            if other != player:
                charge(tx, player, other, e["amount"], "card")
        if state.debts.get(player):
            text += "; a debt is open"
    elif t == "collect_from_each_player":
        for other in state.active_players:
            if other != player and not charge(tx, other, player, e["amount"], "card"):
                text += f"; {other} opens a debt"
    elif t == "advance":
        passed = parse.flag(cmd, "passed_go")
        if e["to"] == 0 or passed:
            bonus = state.house_rules.go_landing_bonus and e["to"] == 0
            salary = state.edition.salary * (2 if bonus else 1)
            tx.pay(BANK, player, salary, "salary")
            text += f"; salary {fmt(salary)}"
    elif t == "jail_card":
        holder = state.jail_cards[card.id]
        if holder is not None:
            raise Refused("jail-card-held", f"{holder} holds that Get Out of Jail Free card: it is not in the {deck} deck")
        tx.jail_card(card.id, player)
        text += "; kept until used or sold"
    tx.text = text


def run_jail_card(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    """Use a held Get Out of Jail Free card: it goes back to the bottom of its deck."""
    player = parse.player(state, cmd)
    if not parse.flag(cmd, "use", True):
        raise Refused("input", "jail_card: only \"use\": true is an action (keeping a card is the default)")
    held = state.jail_cards_of(player)
    wanted = cmd.get("card")
    if wanted is not None:
        if wanted not in held:
            raise Refused("jail-card-none", f"{player} does not hold the card {wanted!r}")
        card_id = wanted
    elif held:
        card_id = held[0]
    else:
        raise Refused("jail-card-none", f"{player} has no Get Out of Jail Free card "
                      f"(pay the fine, or buy a card from another player)")
    tx.jail_card(card_id, None)
    deck = state.edition.decks[state.edition.cards[card_id].deck]
    tx.text = f"{player} uses a Get Out of Jail Free card; it goes back under the {deck} deck"
