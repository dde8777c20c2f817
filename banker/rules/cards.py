"""Chance and Community Chest: every card that moves money, and Get Out of Jail Free."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import parse
from .debts import bank_account, charge
from .errors import Refused
from .messages import Msg, shown
from .names import BANK
from .ops import Card as CardCommand
from .ops import JailCard

if TYPE_CHECKING:  # pragma: no cover
    from .edition import Card
    from .state import GameState, Tx


def card_amount(state: GameState, card: Card, player: str) -> int:
    """What the card costs or pays ``player`` (repairs counted from the buildings)."""
    e = card.effect
    if card.kind == "repairs":
        houses, hotels = state.buildings_of(player)
        return houses * int(e["house"]) + hotels * int(e["hotel"])
    return int(e.get("amount", 0))  # pay_or_draw: the payment, when that is the choice


def describe_effect(state: GameState, card: Card) -> Msg:
    """What the card does to money, in the banker's words."""
    e = card.effect
    fmt = state.edition.fmt
    t = card.kind
    if t in ("collect", "pay", "pay_each_player", "collect_from_each_player"):
        return Msg(f"effect.{t}", amount=fmt(e["amount"]))
    if t == "pay_or_draw":
        return Msg("effect.pay_or_draw", amount=fmt(e["amount"]), deck=state.edition.decks[e["deck"]])
    if t == "repairs":
        return Msg("effect.repairs", house=fmt(e["house"]), hotel=fmt(e["hotel"]))
    if t == "advance":
        name = state.edition.spaces[e["to"]].name
        if e["to"] == 0:
            return Msg("effect.advance-go", space=name)
        return Msg("effect.advance" if state.edition.may_pass_go_to(e["to"]) else "effect.advance-last", space=name)
    if t == "advance_nearest":
        return Msg("effect.advance_nearest", kind=parse.kind_word(state.edition, str(e["kind"])))
    if t == "back":
        return Msg("effect.back", n=e["spaces"])
    return Msg(f"effect.{t}")


def run_card(state: GameState, tx: Tx, cmd: CardCommand) -> None:
    player = parse.player(state, cmd.player, "card")
    card = state.edition.cards.get(cmd.card)
    if card is None:
        raise Refused("input", Msg("input.unknown-card", card=shown(cmd.card), edition=state.edition.id))
    fmt = state.edition.fmt
    e = card.effect
    t = card.kind
    deck = state.edition.decks[card.deck]
    choice = cmd.choice if isinstance(cmd.choice, str) else None
    if card.choices:
        # a card that predates its choice in the logs (no "choice") was recorded as the payment
        choice = card.choices[0] if choice is None else choice
        if choice not in card.choices:
            raise Refused("input", Msg("input.card-choice", card=card.id, choices=list(card.choices), value=shown(choice)))
        tx.info.update(choice=choice)
    elif choice is not None:
        raise Refused("input", Msg("input.card-no-choice", card=card.id))
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
    elif t == "pay_or_draw":
        if choice == "draw":
            tx.say("log.card-draws", player=player, deck=state.edition.decks[e["deck"]], amount=fmt(e["amount"]))
        elif not charge(tx, player, bank_account(state, "card"), e["amount"], "card"):
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
        # in follow mode the bank moves the token and pays the salary when it passes GO (banker.rules.turns)
        if cmd.passed_go is True and e["to"] != 0 and not state.edition.may_pass_go_to(e["to"]):
            raise Refused("card-go", Msg("card.no-go", space=state.edition.spaces[e["to"]].name))
        if not state.follow and (e["to"] == 0 or cmd.passed_go is True):
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


def jail_card_name(state: GameState, card_id: str) -> Msg:
    """A Get Out of Jail Free card as the banker says it: by its deck."""
    return Msg("jail-card.of-deck", deck=state.edition.decks[state.edition.cards[card_id].deck])


def held_jail_cards(state: GameState, player: str, wanted: int | list[str], op: str) -> list[str]:
    """The player's Get Out of Jail Free cards named by ``wanted``: a list of card ids or deck
    ids ("chance", "chest"), or a bare count, accepted when it leaves no doubt which cards are
    meant (the player holds cards of one deck only, or gives every card it holds)."""
    held = state.jail_cards_of(player)
    cards = state.edition.cards
    if isinstance(wanted, int):
        if wanted < 0:
            raise Refused("input", Msg("input.at-least", op=op, key="jail_cards", minimum=0, value=wanted))
        if wanted > len(held):
            raise Refused("trade-jail-cards", Msg("trade.jail-cards", player=player, held=len(held), n=wanted))
        decks = {cards[c].deck for c in held}
        if 0 < wanted < len(held) and len(decks) > 1:
            raise Refused("jail-card-which", Msg("jail-card.which", player=player,
                                                 cards=[jail_card_name(state, c) for c in held],
                                                 decks=sorted(decks)))
        return held[:wanted]
    out: list[str] = []
    for name in wanted:
        found = None
        key = name.strip().casefold()
        if key in cards and cards[key].kind == "jail_card":
            found = key if key in held else None
            if found is None:
                raise Refused("jail-card-none", Msg("jail-card.not-held", player=player, card=shown(name)))
        elif key in state.edition.decks:
            found = next((c for c in held if cards[c].deck == key and c not in out), None)
            if found is None:
                raise Refused("jail-card-none", Msg("jail-card.not-held-deck", player=player,
                                                    deck=state.edition.decks[key]))
        if found is None:
            raise Refused("input", Msg("input.jail-cards", op=op, value=shown(name)))
        if found in out:
            raise Refused("input", Msg("input.jail-card-twice", op=op, card=jail_card_name(state, found)))
        out.append(found)
    return out


def run_jail_card(state: GameState, tx: Tx, cmd: JailCard) -> None:
    """Use a held Get Out of Jail Free card: it goes back to the bottom of its own deck."""
    player = parse.player(state, cmd.player, "jail_card")
    if cmd.use is False:
        raise Refused("input", Msg("input.jail-card-use"))
    held = state.jail_cards_of(player)
    if isinstance(cmd.card, str):
        card_id = held_jail_cards(state, player, [cmd.card], "jail_card")[0]
    elif not held:
        raise Refused("jail-card-none", Msg("jail-card.none", player=player))
    elif len({state.edition.cards[c].deck for c in held}) > 1:
        raise Refused("jail-card-which", Msg("jail-card.which-use", player=player,
                                             cards=[jail_card_name(state, c) for c in held],
                                             decks=sorted({state.edition.cards[c].deck for c in held})))
    else:
        card_id = held[0]
    tx.jail_card(card_id, None)
    tx.info.update(card=card_id)
    tx.say("log.jail-card", player=player, deck=state.edition.decks[state.edition.cards[card_id].deck])
