"""Issue #10: every op is defined once, as a typed structure (banker/rules/ops.py), and decoded strictly.

A new command with a key its op does not have, a missing key or a value of the wrong type is
refused naming the key, in every language, and nothing changes; a command already in a session log
replays with unknown keys dropped. Effects and debt claims are typed and keep the JSON every log holds.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from banker.boards import new_game
from banker.i18n import Translator
from banker.ledger import Session
from banker.rules import Refused, Setup, ops
from banker.rules.effects import Claim, Debt, Pay, decode_effects, invert, to_json
from banker.rules.engine import HANDLERS
from banker.rules.ops import Salary, SellBuilding, Trade, TradeSide, decode, encode

from .rules_helpers import game

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"


def refusal(cmd, replay: bool = False) -> Refused:
    with pytest.raises(Refused) as e:
        decode(cmd, replay=replay)
    return e.value


# --------------------------------------------------------------------------- the issue's typo
def test_the_issues_typo_is_refused_naming_the_key_and_nothing_is_recorded(tmp_path) -> None:
    """Issue #10: `{"op":"salary","player":"Ann","landd":true}` paid a salary and stored the typo in the log."""
    typo = {"op": "salary", "player": "Ann", "landd": True}
    g = game()
    before = g.to_json()
    with pytest.raises(Refused) as e:
        g.push(typo)
    assert e.value.rule == "input"
    assert str(e.value) == 'salary: unknown key "landd"; the keys of salary are: player, landed'
    assert Translator("ru").refusal(e.value) == 'salary: неизвестный ключ "landd"; ключи salary: player, landed'
    assert Translator("uk").refusal(e.value) == 'salary: невідомий ключ "landd"; ключі salary: player, landed'
    assert g.to_json() == before and not g.history
    with Session.create(tmp_path / "g.json", Setup("classic-us", "classic", ("Ann", "Bob"))) as s:
        with pytest.raises(Refused, match='unknown key "landd"'):
            s.apply(typo)
        assert s.entries == [] and s.state.cash["Ann"] == 1500


@pytest.mark.parametrize("cmd, said", [
    ({"op": "salary"}, 'salary: missing "player"'),
    ({"op": "salary", "player": 7}, 'salary: "player" must be a player\'s name, not 7'),
    ({"op": "buy", "player": "Ann", "space": True}, 'buy: "space" must be a board position 0-39, not true'),
    ({"op": "transfer", "from": "Ann", "to": "Bob", "amount": "10"}, 'transfer: "amount" must be a whole number, not "10"'),
    ({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 2.5}, 'transfer: "amount" must be a whole number, not 2.5'),
    ({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 0}, 'transfer: "amount" must be at least 1, not 0'),
    ({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": 5}, 'transfer: "memo" must be text, not 5'),
    ({"op": "salary", "player": "Ann", "landed": "yes"}, 'salary: "landed" must be true or false, not "yes"'),
    ({"op": "trade", "from": "Ann", "to": "Bob", "give": 5},
     'trade: "give" must be an object with cash, spaces, jail_cards'),
    ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"cahs": 5}},
     "trade: \"give\" has unknown key cahs; use cash, spaces, jail_cards"),
    ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"cash": -5}}, 'trade: "give.cash" must be at least 0, not -5'),
    ({"op": "trade", "from": "Ann", "to": "Bob", "lift": 6}, "trade lift must be a list of board positions, not 6"),
    ({"op": "end_game", "now": True}, 'end_game: unknown key "now"; end_game takes no key but "op"'),
    ({"op": "nope"}, 'Unknown op "nope"; ops are: ' + ", ".join(ops.OPS)),
    ({"player": "Ann"}, 'A command names its op ("op": ...); ops are: ' + ", ".join(ops.OPS)),
    ({"op": None}, "Unknown op null; ops are: " + ", ".join(ops.OPS)),
    ([1, 2], 'A command is a JSON object such as {"op": "salary", "player": "Ann"}'),
])
def test_a_missing_key_or_a_wrong_value_is_named(cmd, said) -> None:
    e = refusal(cmd)
    assert e.rule == "input" and str(e) == said
    for lang in ("ru", "uk"):  # every refusal has its sentence in each language
        assert Translator(lang).refusal(e) != said


def test_a_command_already_in_a_log_replays_with_its_unknown_keys_dropped() -> None:
    assert decode({"op": "salary", "player": "Ann", "note": "old"}, replay=True) == Salary(player="Ann")
    g = game()
    move = g.push({"op": "salary", "player": "Ann", "landd": True}, replay=True)
    assert move.command == Salary(player="Ann") and g.cash["Ann"] == 1700
    # opening a log from its effects decodes the command the same way
    g.push_effects({"op": "salary", "player": "Bob", "x": 1}, [{"t": "pay", "from": "bank", "to": "Bob", "amount": 200,
                                                                 "for": "salary"}], [])
    assert g.history[-1].command == Salary(player="Bob") and g.cash["Bob"] == 1700
    # the types are still checked
    assert str(refusal({"op": "salary", "player": 7}, replay=True)) == 'salary: "player" must be a player\'s name, not 7'


def test_a_command_encodes_to_exactly_the_keys_it_was_given() -> None:
    """An optional key left out stays out, one given stays (even at its usual value): the log holds what was said."""
    for cmd in ({"op": "salary", "player": "Ann"}, {"op": "salary", "player": "Ann", "landed": False},
                {"op": "transfer", "from": "bank", "to": "Ann", "amount": 5, "memo": ""},
                {"op": "auction", "space": 3, "winner": None},
                {"op": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [1]}, "get": {}, "lift": [1]}):
        assert encode(decode(cmd)) == cmd
    assert encode(SellBuilding(player="Ann", space=6, all=True)) == {"op": "sell_building", "player": "Ann", "space": 6,
                                                                      "all": True}
    assert decode({"op": "trade", "from": "A", "to": "B", "give": {"cash": 5}}) == Trade(src="A", dst="B",
                                                                                          give=TradeSide(cash=5))


def sample_entries():
    for path in sorted(SAMPLES.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        yield from doc["entries"].values()


def test_every_recorded_command_and_effect_decodes_to_the_same_json() -> None:
    """The sample sessions' commands and effects (every op and effect kind a game makes) decode, strictly, and
    encode back to exactly what the log holds."""
    seen_ops, seen_effects = set(), set()
    for entry in sample_entries():
        assert encode(decode(entry["command"])) == entry["command"]
        assert to_json(decode_effects(entry["effects"])) == entry["effects"]
        seen_ops.add(entry["command"]["op"])
        seen_effects.update(e["t"] for e in entry["effects"])
    assert len(seen_ops) >= 15 and {"pay", "debt", "owner", "result", "bankrupt", "stock"} <= seen_effects


def test_a_claim_is_typed_and_stored_as_the_triple_it_always_was() -> None:
    g = game()
    g.push({"op": "buy", "player": "Ann", "space": 39})
    g.push({"op": "transfer", "from": "Bob", "to": "bank", "amount": 1490})
    move = g.push({"op": "rent", "payer": "Bob", "space": 39})
    assert g.debts["Bob"] == [Claim("Ann", 50, "rent")] and g.debts["Bob"][0].amount == 50
    creditor, amount, why = g.debts["Bob"][0]
    assert (creditor, amount, why) == ("Ann", 50, "rent")
    debt = next(e for e in move.effects if isinstance(e, Debt))
    assert to_json([debt]) == [{"t": "debt", "player": "Bob", "old": [], "new": [["Ann", 50, "rent"]]}]
    assert msgspec.to_builtins(move.effects) == to_json(move.effects)  # what a log stores, as plain JSON
    assert invert(invert(debt)) == debt and invert(Pay(src="a", dst="b", amount=1, why="x")).src == "b"


# --------------------------------------------------------------------------- one place for every op
def test_every_op_has_a_handler_or_is_the_session_logs() -> None:
    handled = {cls.__struct_config__.tag for cls in HANDLERS}
    assert handled | ops.LOG_OPS == set(ops.OPS) and not handled & ops.LOG_OPS


def test_every_field_says_what_it_is() -> None:
    """The console, the quick line and the docs read each field's kind and description from the op."""
    kinds = {"player", "account", "space", "amount", "dice", "text", "flag", "choice", "card", "card-case", "jail-card",
             "trade-side", "positions", "roll", "speed", "counts", "entry"}
    for op, spec in ops.SPECS.items():
        assert spec.doc, op
        for f in spec.fields:
            assert f.kind in kinds and f.doc, (op, f.key)
            assert f.kind != "space" or f.spaces in ("property", "street", "tax", "board"), (op, f.key)
            assert f.when is None or f.when in ops.CONDITIONS, (op, f.key)
            assert f.ask is None or f.ask in ops.CONDITIONS, (op, f.key)


def test_the_engine_refuses_the_session_logs_undo_and_the_game_over_keeps_its_message() -> None:
    g = new_game("classic-us", "classic", ["Ann", "Bob"])
    with pytest.raises(Refused, match='"undo" is an operation of the session log'):
        g.push({"op": "undo", "reason": "typo"})
    g.push({"op": "end_game"})
    with pytest.raises(Refused) as e:
        g.push({"op": "salary", "player": "Ann"})
    assert e.value.rule == "game-over"
