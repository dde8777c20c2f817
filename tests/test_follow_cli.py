"""Issue #11 from the outside: `banker new --follow`, `banker apply` with the new ops, `banker state --json`'s new
fields, the session file after each step, and the players' page (whose turn, each token's space)."""

from __future__ import annotations

import json
from pathlib import Path

from banker.cli import main
from banker.i18n import Translator
from banker.ledger import Session, read_session_doc
from banker.tableview.snapshot import build_snapshot


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def state_json(capsys, path: Path) -> dict:
    code, out, _ = run(capsys, "state", str(path), "--json")
    assert code == 0
    return json.loads(out)


def apply(capsys, tmp_path: Path, path: Path, *commands: dict) -> tuple[int, str, str]:
    script = tmp_path / "moves.jsonl"
    script.write_text("\n".join(json.dumps(c) for c in commands) + "\n", encoding="utf-8")
    return run(capsys, "apply", str(path), str(script))


def test_banker_new_follow_and_a_few_turns(capsys, tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    code, out, _ = run(capsys, "new", str(game), "--players", "Ann,Bob,Cid", "--follow")
    assert code == 0 and "follow mode: Ann rolls first" in out
    assert read_session_doc(game)[0]["follow"] is True  # the setting is recorded in the session
    data = state_json(capsys, game)
    assert data["follow"] is True and data["turn"] == "Ann" and data["doubles"] == 0 and data["pending"] is None
    assert {k: data["players"]["Bob"][k] for k in ("position", "in_jail", "jail_turns")} \
        == {"position": 0, "in_jail": False, "jail_turns": 0}

    code, out, _ = apply(capsys, tmp_path, game, {"op": "roll", "dice": [3, 5]})
    assert code == 0 and out.startswith("Ann rolls 3 + 5; Ann moves to Vermont Avenue")
    data = state_json(capsys, game)
    assert data["players"]["Ann"]["position"] == 8
    assert data["pending"] == {"kind": "buy", "player": "Ann", "space": 8, "amount": 100,
                               "command": {"op": "buy", "player": "Ann", "space": 8}, "needs": []}
    # a roll while the landing requires something: refused with the reason, nothing recorded
    code, _, err = apply(capsys, tmp_path, game, {"op": "roll", "dice": [1, 2]})
    assert code == 1 and "First settle what the last landing requires: Ann may buy Vermont Avenue" in err
    # applying pending.command settles it, and the turn passes by itself
    code, out, _ = apply(capsys, tmp_path, game, data["pending"]["command"], {"op": "roll", "dice": [2, 2]})
    assert code == 0, out
    data = state_json(capsys, game)
    assert data["turn"] == "Bob" and data["doubles"] == 1 and data["pending"]["kind"] == "tax"
    assert data["pending"]["needs"] == ["choice"] and data["pending"]["amount"] is None
    code, out, _ = apply(capsys, tmp_path, game, {**data["pending"]["command"], "choice": "flat"},
                         {"op": "roll", "dice": [1, 3]}, {"op": "rent", "payer": "Bob", "space": 8})
    assert code == 0 and out.splitlines()[-1].endswith("Cid rolls next")
    assert state_json(capsys, game)["turn"] == "Cid"
    code, out, _ = apply(capsys, tmp_path, game, {"op": "place", "player": "Cid", "jail": True})
    data = state_json(capsys, game)
    assert data["players"]["Cid"]["in_jail"] and data["players"]["Cid"]["position"] == 10 and data["turn"] == "Ann"
    code, out, _ = run(capsys, "audit", str(game))
    assert code == 0, out
    code, out, _ = run(capsys, "state", str(game))
    assert "follow mode: Ann rolls next" in out and "Cid in jail (0 failed)" in out


def test_a_session_without_follow_is_stored_as_before(capsys, tmp_path: Path) -> None:
    """`banker new` without --follow is not in follow mode: the setup holds no follow key, and a roll is refused."""
    game = tmp_path / "g.json"
    assert run(capsys, "new", str(game), "--players", "Ann,Bob")[0] == 0
    assert "follow" not in read_session_doc(game)[0]
    assert state_json(capsys, game)["follow"] is False
    code, _, err = apply(capsys, tmp_path, game, {"op": "roll", "dice": [3, 5]})
    assert code == 1 and "Follow mode is off" in err
    code, _, err = apply(capsys, tmp_path, game, {"op": "roll", "dice": [3, 7]})
    assert code == 1 and '"dice" must be the two white dice' in err
    code, _, err = apply(capsys, tmp_path, game, {"op": "roll", "dice": [3, 5], "speed": 7})
    assert code == 1 and "Speed Die's face" in err


def test_the_players_page_shows_whose_turn_and_each_token(capsys, tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    run(capsys, "new", str(game), "--players", "Ann,Bob", "--follow")
    apply(capsys, tmp_path, game, {"op": "roll", "dice": [3, 5]}, {"op": "buy", "player": "Ann", "space": 8},
          {"op": "place", "player": "Ann", "jail": True})
    with Session.open(game, readonly=True) as session:
        doc = build_snapshot(session, Translator("en"))
        ru = build_snapshot(session, Translator("ru"))
    ann, bob = doc["players"]
    assert bob["turn"] and bob["turn_text"] == "rolls next" and bob["token_text"] == "on GO"
    assert not ann["turn"] and ann["in_jail"] and ann["token_text"] == "in jail (0 failed attempts)"
    assert doc["state"]["turn"] == "Bob" and doc["state"]["players"]["Ann"]["position"] == 10
    assert ru["players"][1]["turn_text"] == "бросает следующим" and ru["players"][1]["token_text"] == "на поле GO"
