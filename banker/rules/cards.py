"""Chance and Community Chest: every card that moves money, and Get Out of Jail Free."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import parse
from .debts import bank_account, charge
from .errors import Refused
from .messages import Msg
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


def describe_effect(state: GameState, card: Card) -> Msg:
    """What the card does to money, in the banker's words."""
    e = card.effect
    fmt = state.edition.fmt
    t = card.kind
    if t in ("collect", "pay", "pay_each_player", "collect_from_each_player"):
        return Msg(f"effect.{t}", amount=fmt(e["amount"]))
    if t == "repairs":
        return Msg("effect.repairs", house=fmt(e["house"]), hotel=fmt(e["hotel"]))
    if t == "advance":
        name = state.edition.spaces[e["to"]].name
        return Msg("effect.advance-go" if e["to"] == 0 else "effect.advance", space=name)
    if t == "advance_nearest":
        return Msg("effect.advance_nearest", kind=Msg(f"kind.{e['kind']}"))
    if t == "back":
        return Msg("effect.back", n=e["spaces"])
    return Msg(f"effect.{t}")


def run_card(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    cid = parse.field(cmd, "card")
    card = state.edition.cards.get(cid) if isinstance(cid, str) else None
    if card is None:
        raise Refused("input", Msg("input.unknown-card", card=repr(cid), edition=state.edition.id))
    fmt = state.edition.fmt
    e = card.effect
    t = card.kind
    deck = state.edition.decks[card.deck]
    tx.info.update(card=card.id)
    tx.say("log.card", player=player, deck=deck, text=card.text)
    if t == "collect":
        tx.pay(BANK, player, e["amount"], "card")
    elif t in ("pay", "repairs"):
        amount = card_amount(state, card, player)
        if t == "repairs":
            houses, hotels = state.buildings_of(player)
            tx.say("log.card-repairs", houses=houses, hotels=hotels, n=hotels, amount=fmt(amount))
        if amount and not charge(tx, player, bank_account(state, "card"), amount, "card"):
            tx.say("log.debt-open", player=player, cash=fmt(state.cash[player]))
    elif t == "pay_each_player":
        for other in state.active_players:
            if other != player:
                charge(tx, player, other, e["amount"], "card")
        if state.debts.get(player):
            tx.say("log.debt-open", player=player, cash=fmt(state.cash[player]))
    elif t == "collect_from_each_player":
        for other in state.active_players:
            if other != player and not charge(tx, other, player, e["amount"], "card"):
                tx.say("log.debt-opens", player=other)
    elif t == "advance":
        if e["to"] == 0 or parse.flag(cmd, "passed_go"):
            bonus = state.house_rules.go_landing_bonus and e["to"] == 0
            salary = state.edition.salary * (2 if bonus else 1)
            tx.pay(BANK, player, salary, "salary")
            tx.say("log.card-salary", amount=fmt(salary))
    elif t == "jail_card":
        holder = state.jail_cards[card.id]
        if holder is not None:
            raise Refused("jail-card-held", Msg("card.held", holder=holder, deck=deck))
        tx.jail_card(card.id, player)
        tx.say("log.card-kept")


def run_jail_card(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    """Use a held Get Out of Jail Free card: it goes back to the bottom of its deck."""
    player = parse.player(state, cmd)
    if not parse.flag(cmd, "use", True):
        raise Refused("input", Msg("input.jail-card-use"))
    held = state.jail_cards_of(player)
    wanted = cmd.get("card")
    if wanted is not None:
        if wanted not in held:
            raise Refused("jail-card-none", Msg("jail-card.not-held", player=player, card=repr(wanted)))
        card_id = wanted
    elif held:
        card_id = held[0]
    else:
        raise Refused("jail-card-none", Msg("jail-card.none", player=player))
    tx.jail_card(card_id, None)
    tx.say("log.jail-card", player=player, deck=state.edition.decks[state.edition.cards[card_id].deck])
