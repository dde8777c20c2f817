"""Undo of an earlier entry, not only the last (issue #12): allowed when no later entry depends on it; the
engine decides (it replays the later entries without it) and names the entries that do when it refuses."""

from __future__ import annotations

import pytest

from banker.i18n import Translator
from banker.ledger import Session
from banker.ledger.check import replay_check
from banker.rules import Refused, Setup

SETUP = Setup("classic-us", "classic", ("Ann", "Bob", "Cid"))


def test_an_earlier_entry_no_later_one_depends_on_is_undone(session_path):
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "salary", "player": "Bob"})                      # 1: the mistake
        s.apply({"op": "buy", "player": "Ann", "space": 39})             # 2
        s.apply({"op": "rent", "payer": "Cid", "space": 39})             # 3
        expected = s.state.to_json()
        expected["players"]["Bob"]["cash"] -= 200
        expected["players"]["Bob"]["net_worth"] -= 200
        expected["bank"]["paid_out"] -= 200
        expected["actions"] -= 1
        entry = s.apply({"op": "undo", "reason": "Bob had not passed GO", "seq": 1})
        assert entry.undoes == 1 and entry.command == {"op": "undo", "reason": "Bob had not passed GO", "seq": 1}
        assert entry.effects == [{"t": "pay", "from": "Bob", "to": "bank", "amount": 200, "for": "salary"}]
        assert s.standing == (2, 3)
        assert s.state.to_json() == expected
        # the last still undoes with a plain undo
        assert s.apply({"op": "undo", "reason": "no rent"}).undoes == 3
    with Session.open(session_path, readonly=True) as r:  # the log reopens to the same state, and checks clean
        assert r.standing == (2,)
        assert r.replay_check() == []
    with Session.open(session_path) as s:
        assert s.standing == (2,)


@pytest.mark.parametrize("lang,word", [("en", "depend"), ("ru", "зависят"), ("uk", "залежать")])
def test_an_entry_later_ones_depend_on_is_refused_naming_them(session_path, lang, word):
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 37})             # 1
        s.apply({"op": "buy", "player": "Ann", "space": 39})             # 2
        s.apply({"op": "salary", "player": "Cid"})                       # 3: independent
        s.apply({"op": "build", "player": "Ann", "space": 39})           # 4: needs the full group
        s.apply({"op": "rent", "payer": "Bob", "space": 37})             # 5: rent on Ann's deed
        before = s.state.to_json()
        entries = len(s.entries)
        with pytest.raises(Refused) as e:
            s.apply({"op": "undo", "reason": "wrong deed", "seq": 1})
        assert e.value.rule == "undo-depends"
        assert "entries 4, 5" in str(e.value)
        assert word in Translator(lang).refusal(e.value)
        assert s.state.to_json() == before and len(s.entries) == entries and s.standing == (1, 2, 3, 4, 5)
        s.apply({"op": "undo", "reason": "Cid was in jail", "seq": 3})  # nothing depends on the salary
        assert s.standing == (1, 2, 4, 5)


@pytest.mark.parametrize("seq", [0, 2, 9])
def test_an_entry_that_does_not_stand_is_refused(session_path, seq):
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "salary", "player": "Ann"})
        s.apply({"op": "undo", "reason": "x"})  # 1 undone by 2
        s.apply({"op": "salary", "player": "Bob"})
        with pytest.raises(Refused) as e:
            s.apply({"op": "undo", "reason": "y", "seq": seq})
        assert e.value.rule == ("input" if seq == 0 else "undo-not-standing")


def test_a_cash_dependency_is_found_by_the_replay(session_path):
    """Bob pays rent he could afford only with the salary: undoing the salary alone would change the rent
    (a debt instead of a payment), so the rent depends on it."""
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        s.apply({"op": "transfer", "from": "Bob", "to": "bank", "amount": 1490, "memo": "drain"})  # Bob: 10
        s.apply({"op": "salary", "player": "Bob"})                           # 3: Bob 210
        s.apply({"op": "rent", "payer": "Bob", "space": 39})                 # 4: 50
        before = s.state.to_json()
        with pytest.raises(Refused) as e:
            s.apply({"op": "undo", "reason": "x", "seq": 3})
        assert "entry 4 depends" in str(e.value)
        # the bank as it was: trying the rent's recorded payment without the salary had paid Ann the $50 and left
        # Bob the $40 short (a payment half made when it could not be made), the refusal then leaving that behind
        assert s.state.to_json() == before


def test_a_later_payment_made_with_the_cash_an_earlier_entry_gave_is_a_dependency_not_a_crash(session_path):
    """Found by the console's undo of an earlier entry: Ann paid Cid $1,500 with the $100 the bank had paid her just
    before; undoing that $100 alone failed with "AssertionError: Ann's cash went below zero" (`banker apply` stopped
    the session; the console said "something went wrong") instead of refusing, naming the payment."""
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 1})                                        # Ann 1,440
        s.apply({"op": "transfer", "from": "bank", "to": "Ann", "amount": 100, "memo": "x"})       # 2: 1,540
        s.apply({"op": "transfer", "from": "Ann", "to": "Cid", "amount": 1500, "memo": "y"})      # 3: 40
        before = s.state.to_json()
        with pytest.raises(Refused) as e:
            s.apply({"op": "undo", "reason": "wrong", "seq": 2})
        assert e.value.rule == "undo-depends" and "entry 3 depends" in str(e.value)
        assert s.state.to_json() == before and s.standing == (1, 2, 3) and s.can_record
        assert s.apply({"op": "undo", "reason": "paid Bob", "seq": 3}).undoes == 3


def test_only_the_entries_that_depend_on_it_are_named(session_path):
    """Found by the rules probe (UK, in the console): undoing "the bank gives Cid £1,000" was refused naming entries
    17, 18, 19, 20, and told to undo them first, when only 17 (Cid's build, paid with that money) depends on it: the
    rest were named because 17's recorded payment could no longer be made without the £1,000. Each later entry is
    judged on its own; the ones that depend on neither are not named."""
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "transfer", "from": "bank", "to": "Cid", "amount": 1000, "memo": "x"})      # 1: the mistake
        s.apply({"op": "transfer", "from": "Cid", "to": "bank", "amount": 2000, "memo": "y"})      # 2: needs 1
        s.apply({"op": "buy", "player": "Ann", "space": 39})                                        # 3
        s.apply({"op": "salary", "player": "Bob"})                                                  # 4
        with pytest.raises(Refused) as e:
            s.apply({"op": "undo", "reason": "wrong", "seq": 1})
        assert e.value.rule == "undo-depends"
        assert str(e.value) == "Entry 1 cannot be undone on its own: entry 2 depends on it (undo that first)"
        assert s.apply({"op": "undo", "reason": "wrong", "seq": 2}).undoes == 2  # then the mistake itself
        assert s.apply({"op": "undo", "reason": "wrong", "seq": 1}).undoes == 1


def test_the_replay_check_flags_a_hand_made_undo_of_an_entry_others_depend_on(session_path):
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 37})
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        s.apply({"op": "build", "player": "Ann", "space": 39})
        entries = list(s.entries)
    # an undo of entry 2 as a hand-edited log would have it: its effects are entry 2's taken back
    from banker.ledger.check import inverses
    from banker.ledger.format import Entry
    undo = Entry(seq=4, ts="", command={"op": "undo", "reason": "x", "seq": 2},
                 effects=inverses(entries[1].effects), text="", parts=[], info={}, undoes=2)
    findings, _state = replay_check(session_path, SETUP, [*entries, undo])
    assert [(f.seq, f.kind) for f in findings] == [(4, "undoes")]


def test_a_later_entry_recorded_otherwise_without_it_depends_on_it(session_path):
    """Taking back a house the table counted afterwards would leave the count recorded as agreeing with the
    bank (31 houses counted, the bank then holding 32): the count depends on the build, though neither moves
    money nor changes hands; so does a flat income tax on the salary, whose entry says what 10% of the worth
    would have been."""
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 1})                   # 1
        s.apply({"op": "buy", "player": "Ann", "space": 3})                   # 2
        s.apply({"op": "build", "player": "Ann", "space": 1})                 # 3: the mistake
        s.apply({"op": "count", "houses": 31})                                # 4: agrees, with the house
        s.apply({"op": "salary", "player": "Ann"})                            # 5
        s.apply({"op": "tax", "player": "Ann", "space": 4, "choice": "flat"})  # 6: "10% would be $170"
        s.apply({"op": "salary", "player": "Bob"})                            # 7
        s.apply({"op": "buy", "player": "Cid", "space": 39})                  # 8
        before = s.state.to_json()
        for seq, depending in ((3, "entry 4 depends"), (5, "entry 6 depends"), (2, "entry 3 depends")):
            with pytest.raises(Refused) as e:
                s.apply({"op": "undo", "reason": "a mistake", "seq": seq})
            assert e.value.rule == "undo-depends" and depending in str(e.value)
        assert s.state.to_json() == before and s.standing == (1, 2, 3, 4, 5, 6, 7, 8)
        s.apply({"op": "undo", "reason": "Bob had not passed GO", "seq": 7})   # nothing is recorded otherwise
        assert s.standing == (1, 2, 3, 4, 5, 6, 8)
    with Session.open(session_path, readonly=True) as r:
        assert r.replay_check() == []


def test_the_consoles_check_before_its_confirmation_is_guarded_as_the_undo(session_path, monkeypatch):
    """The console asks SessionWriter.undo_index (which entry, or the engine's refusal) before its confirmation; the
    rules' check takes the later entries off the state in memory and puts them back. A refusal leaves the session as
    it was; anything else stopping it half-way stops the session, as it does within the undo itself."""
    from banker.rules import GameState

    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "salary", "player": "Ann"})
        s.apply({"op": "salary", "player": "Bob"})
        assert (s.undo_index(), s.undo_index(1), s.undo_index(2)) == (1, 0, 1)
        with pytest.raises(Refused):
            s.undo_index(3)
        assert s.can_record

        def broken(self, index):
            raise RuntimeError("a bug")

        monkeypatch.setattr(GameState, "dependents", broken)
        with pytest.raises(RuntimeError):
            s.undo_index(1)
        assert not s.can_record
